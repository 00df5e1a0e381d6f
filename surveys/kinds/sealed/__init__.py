"""An open answer sealed in the respondent's browser (``sealed_text``), on
the platform side.

The respondent types their own words as for free text (surveys/kinds/freetext/),
but the page encrypts them for the survey team's public key
(:class:`surveys.models.TeamKey`) before anything leaves the browser: an
ephemeral ECDH P-256 key, HKDF-SHA256 and AES-256-GCM, with the survey and
question bound in as additional data. The server checks only the envelope's
form and size and stores it as it came (``Answer.text``); only someone with
the team's private key, which the server never holds unwrapped, can read it.
The researcher's browser decrypts on the sealed answers page. Like free text
it is asked plainly and is no category: never a stratum, subgroup, covariate,
breakdown, display condition's source or comprehension check
(``KindEntry.stratifies``). docs/security.md says the threat model."""
