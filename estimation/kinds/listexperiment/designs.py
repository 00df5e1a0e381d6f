"""The list experiment (item count technique) as a design.

Each respondent is put at random, in the browser, in the control group (a list
of ``items`` harmless statements, J) or the treatment group (the same list plus
the sensitive statement), and reports only *how many* statements apply. The one
number sent folds the group in:

- control, count ``c`` in ``0..J``: code ``c``;
- treatment, count ``c`` in ``0..J+1``: code ``(J + 1) + c``;

so there are ``2J + 3`` codes and saved counts are a vector of that length
(:func:`split_counts` takes it apart).

There is no matrix P(report | truth) here: what a report says about the
sensitive answer depends on the unknown control items, so the design is not a
randomized-response design in the sense of :mod:`estimation.designs` and gives
*no* local differential privacy guarantee. A treatment respondent who reports 0
(the floor) has said No to the sensitive item, and one who reports J + 1 (the
ceiling) has said Yes: ``epsilon`` is infinite and :attr:`ListExperiment.ldp`
is False. The protection is only that, between the floor and the ceiling, a
count does not single out which statements apply.

References
----------
Glynn, A. N. (2013). What can we learn with statistical truth serum? Design and
analysis of the list experiment. Public Opinion Quarterly 77, 159-172.
Imai, K. (2011). Multivariate regression analysis for the item count technique.
JASA 106(494), 407-416.
Blair, G., Imai, K. (2012). Statistical analysis of list experiments. Political
Analysis 20(1), 47-77.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from estimation.designs import _probability, named_parameters
from estimation.words import ENGLISH, Translator, percent

MIN_ITEMS = 2
# Longer lists bury the sensitive item deeper but cost attention and variance.
MAX_ITEMS = 10
NAME = "list_experiment"


def _items(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        if not (isinstance(value, float) and value.is_integer()):
            raise ValueError(f"items must be a whole number, got {value!r}")
    count = int(value)
    if not MIN_ITEMS <= count <= MAX_ITEMS:
        raise ValueError(
            f"items must be between {MIN_ITEMS} and {MAX_ITEMS}, got {count}"
        )
    return count


@dataclass(frozen=True, repr=False)
class ListExperiment:
    """``items`` (J) control statements; ``treatment_share`` is the chance that
    the browser shows a respondent the list with the sensitive statement."""

    name: ClassVar[str] = NAME
    items: int
    treatment_share: float = 0.5

    # No local differential privacy: the floor and the ceiling reveal the answer.
    epsilon: ClassVar[float] = math.inf
    ldp: ClassVar[bool] = False
    randomized: ClassVar[bool] = True
    protects_every_report: ClassVar[bool] = False
    # The sensitive answer is Yes or No.
    k: ClassVar[int] = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", _items(self.items))
        share = _probability(
            "treatment_share", self.treatment_share, open_low=True, open_high=True
        )
        object.__setattr__(self, "treatment_share", share)

    @property
    def private(self) -> bool:
        """Never differentially private (see the module's docstring)."""
        return False

    @property
    def limit_epsilon(self) -> float:
        """What a site's epsilon limits would compare: infinite."""
        return math.inf

    def code_count(self, direct_percent: int = 0) -> int:
        """``2J + 3``: counts 0..J in control, 0..J+1 in treatment."""
        return 2 * self.items + 3

    def code(self, treated: bool, count: int) -> int:
        """The one number a respondent sends for their group and count."""
        top = self.items + 1 if treated else self.items
        if isinstance(count, bool) or not isinstance(count, int | np.integer):
            raise ValueError(f"count must be a whole number, got {count!r}")
        if not 0 <= count <= top:
            raise ValueError(f"count must be between 0 and {top}, got {count}")
        return int(count) + (self.items + 1 if treated else 0)

    def decode(self, code: int) -> tuple[bool, int]:
        """``(treated, count)`` from a code."""
        if isinstance(code, bool) or not 0 <= int(code) < self.code_count():
            raise ValueError(
                f"code must be between 0 and {self.code_count() - 1}, got {code!r}"
            )
        code = int(code)
        if code <= self.items:
            return False, code
        return True, code - self.items - 1

    # -- data ---------------------------------------------------------------------

    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.params()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def client_spec(self) -> dict[str, Any]:
        """What the browser needs to assign a group and code the count."""
        return {
            "name": self.name,
            "items": self.items,
            "treatment_share": self.treatment_share,
        }

    def describe(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        """The procedure and what a count reveals, true at every setting."""
        tr = translator
        return tr.gettext(
            "Your device secretly shows you one of two lists: %(items)s statements, "
            "or (%(share)s of the time) the same statements plus one more. You say "
            "only how many statements apply to you, never which. Nobody can tell "
            "from a count between the lowest and the highest which statements "
            "apply; but if you see the longer list, saying that none apply or "
            "that all apply gives your answer to every statement away."
        ) % {"items": self.items, "share": percent(self.treatment_share, tr)}


def list_experiment_from_dict(data: Mapping[str, Any]) -> ListExperiment:
    """Build ``{"name": "list_experiment", "items": J[, "treatment_share": s]}``."""
    name, params = named_parameters(data, LIST_DESIGNS)
    unknown = set(params) - {"items", "treatment_share"}
    if unknown or "items" not in params:
        raise ValueError(
            f"{name} takes parameters items and optionally treatment_share; "
            f"got {', '.join(sorted(params)) or 'none'}"
        )
    return LIST_DESIGNS[name](**params)


LIST_DESIGNS: dict[str, type[ListExperiment]] = {NAME: ListExperiment}


def split_counts(
    counts: Sequence[Any], items: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(control, treatment)``: how many reported each count, of lengths J + 1
    and J + 2, from the ``2J + 3`` saved counts; a ValueError names bad input."""
    size = 2 * items + 3
    if isinstance(counts, str | bytes) or not isinstance(counts, Sequence | np.ndarray):
        raise ValueError(f"counts must be a list of {size} whole numbers")
    if len(counts) != size:
        raise ValueError(
            f"counts must have {size} entries (2 * items + 3), got {len(counts)}"
        )
    values = []
    for value in counts:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            if not (isinstance(value, float) and value.is_integer()):
                raise ValueError(f"counts must be whole numbers, got {value!r}")
        if value < 0:
            raise ValueError(f"counts must not be negative, got {value!r}")
        values.append(int(value))
    array = np.array(values, dtype=np.int64)
    return array[: items + 1], array[items + 1 :]
