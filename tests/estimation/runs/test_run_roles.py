"""Every question kind has a run role, so an estimate run never meets a kind
it cannot save."""

from __future__ import annotations

import pytest

from surveys.kinds import KINDS, kind_module


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_says_which_rows_a_run_saves(kind):
    run = kind_module(kind, "run")
    assert callable(run.question_rows)
    assert callable(run.save_row)


def test_only_the_yes_no_kind_is_a_models_outcome():
    roles = {
        kind: getattr(kind_module(kind, "run"), "MODEL_ROLE", None) for kind in KINDS
    }
    assert {k for k, r in roles.items() if r == "outcome"} == {"yes_no"}
    assert {k for k, r in roles.items() if r == "numeric"} == {"count"}
