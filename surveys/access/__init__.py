"""Who may answer a survey: invitations, panels and quotas, counted once each
and never linked to a response. Views and urls here are interfaces; services
and selectors are imported by the respondent's side and the builder."""
