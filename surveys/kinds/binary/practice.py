"""The practice round's design (surveys/respond/practice.py): a yes/no kind
offers the design respondents practise on, so the page that asks for it names
no kind.

A fixed weighted coin rather than a copy of the survey's first yes/no design:
the sentence that explains the practice afterwards must be true whatever the
survey asks, and a survey may hold no yes/no question, or one whose report the
respondent produces (crosswise) or whose device gives an instruction. Three
in four keeps the respondent's answer, one in four sends the opposite: the
report differs from the answer often enough to be seen in a try or two.
"""

from __future__ import annotations

from estimation.kinds.binary.designs import Warner

# Kept, opposite: 3/4 and 1/4, exact on the browser's grid of 2**-32.
KEEP = 0.75


def teaching_design() -> Warner:
    """The design the practice question is randomized with."""
    return Warner(p=KEEP)
