"""Research teams: who may do what with a survey (roles), its collaborators,
and the append-only audit log of what they did (docs/teams.md)."""
