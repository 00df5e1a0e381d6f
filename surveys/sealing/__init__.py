"""The survey team's key for sealed open answers (the ``sealed_text`` kind,
surveys/kinds/sealed/): the public half the respondent's browser encrypts
for, its fingerprint, and optionally the private half as the researcher's
browser wrapped it under a passphrase the server never sees
(docs/security.md, "Sealed open answers")."""
