"""Free text asked plainly (a comment in the respondent's own words), on the
platform side.

The respondent types in a box, up to the question's limit of characters; the
text is sent and stored exactly as typed (``Answer.text``; its report is 0,
answered), and the page, the transparency page and the receipt say plainly
that it is not protected: the research team reads it as written. It has no
options, so it is no category: it never makes a stratum, a subgroup, a
covariate, a breakdown, a display condition's source or a comprehension check
(``KindEntry.stratifies``). The results page counts its answers only; the
texts are in the analysts' downloads (docs/methodology.md, "Free text")."""
