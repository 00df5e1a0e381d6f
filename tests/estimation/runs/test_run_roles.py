"""Every question kind has a run role, so an estimate run never meets a kind
it cannot save."""

from __future__ import annotations

import pytest

from estimation.kinds import design_role
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.runs.estimate_views import OPTIONS_TABLE, EstimateTable
from estimation.runs.group_comparisons import OPTIONS, Comparer, comparer_for
from surveys.kinds import KINDS, kind_module


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_says_which_rows_a_run_saves(kind):
    run = kind_module(kind, "run")
    assert callable(run.question_rows)
    assert callable(run.save_row)


def test_the_yes_no_kind_and_the_list_experiment_are_a_models_outcomes():
    """A yes/no question through the logistic fit; a list experiment through
    its own model role (Imai's regression)."""
    roles = {
        kind: getattr(kind_module(kind, "run"), "MODEL_ROLE", None) for kind in KINDS
    }
    outcomes = {k for k, r in roles.items() if r == "outcome"}
    assert outcomes == {"yes_no", "list_experiment"}
    fits = design_role(ListExperiment(items=3), "model")
    assert fits is not None
    assert callable(fits.fit_model)
    # A count, and a number typed as it is (its own covariate and value).
    assert {k for k, r in roles.items() if r == "numeric"} == {"count", "numeric"}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_says_how_its_groups_are_compared_and_its_table_is_headed(kind):
    run = kind_module(kind, "run")
    assert isinstance(comparer_for(kind), Comparer)
    assert isinstance(getattr(run, "TABLE", OPTIONS_TABLE), EstimateTable)


def test_only_check_all_that_apply_compares_items_and_shows_a_band():
    banded = {k for k in KINDS if getattr(kind_module(k, "run"), "TABLE", None)}
    assert {k for k in banded if kind_module(k, "run").TABLE.band} == {"multi_select"}
    assert comparer_for("yes_no") is OPTIONS
