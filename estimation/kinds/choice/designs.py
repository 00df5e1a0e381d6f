"""Multiple choice: k-ary randomized response.

References
----------
Wang, T., Blocki, J., Li, N., Jha, S. (2017). Locally differentially private
protocols for frequency estimation. USENIX Security.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from estimation.designs import (
    Design,
    _option_count,
    _positive_epsilon,
    _sentence,
)
from estimation.words import ENGLISH, Translator, percent


@dataclass(frozen=True, repr=False)
class KaryRR(Design):
    """k-ary randomized response (Wang et al. 2017): report the truth with
    probability ``e^eps / (e^eps + k - 1)``, each other option with
    ``1 / (e^eps + k - 1)``."""

    name: ClassVar[str] = "krr"
    # The parameter is an epsilon: rounding the other answers' probability up
    # keeps the stated epsilon at or below it.
    round_base_up: ClassVar[bool] = True
    k_options: int = field(metadata={"param": "k"})
    epsilon_target: float = field(metadata={"param": "epsilon"})

    def __init__(self, k: int, epsilon: float) -> None:
        object.__setattr__(self, "k_options", _option_count(k))
        object.__setattr__(self, "epsilon_target", _positive_epsilon(epsilon))
        Design.__post_init__(self)

    @classmethod
    def from_epsilon(cls, epsilon: float, k: int) -> KaryRR:
        return cls(k=k, epsilon=epsilon)

    @property
    def k(self) -> int:
        return self.k_options

    def exact_base(self) -> tuple[float, ...]:
        other = 1.0 / (math.exp(self.epsilon_target) + self.k_options - 1)
        return (other,) * self.k_options

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        keep = float(self.matrix[0, 0])
        other = (
            tr.gettext("the other answer instead")
            if self.k == 2
            else tr.ngettext(
                "one of the other %(count)s answer instead, each %(share)s of the time",
                "one of the other %(count)s answers instead, each %(share)s of the time",
                self.k - 1,
            )
            % {"count": self.k - 1, "share": percent(float(self.base[0]), tr)}
        )
        return (
            tr.gettext("Your device secretly draws a number.")
            + " "
            + _sentence(
                tr.gettext(
                    "%(kept)s of the time it sends the answer you chose; "
                    "%(other_share)s of the time it sends %(other)s."
                )
                % {
                    "kept": percent(keep, tr),
                    "other_share": percent(1 - keep, tr),
                    "other": other,
                }
            )
        )


def krr_from_epsilon(epsilon: float, k: int | None = None) -> KaryRR:
    """k-RR from a target epsilon (two options unless ``k``)."""
    return KaryRR(k=2 if k is None else k, epsilon=epsilon)
