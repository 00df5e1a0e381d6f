"""A number asked plainly (an age in years), on the platform side.

The respondent types a number within the question's bounds, with at most its
decimals; it is sent and stored as typed (``Answer.number``), and its report
is the bin it falls in. The bins are ranges between cut points the researcher
chooses in the builder; they are the question's options, frozen at
publication with its format, so a number enters the response's stratum (and
so every breakdown) through its bin, as any direct answer does through its
option (surveys/respond/strata.py), and its estimates are the shares in each
bin. The exports carry the number itself."""
