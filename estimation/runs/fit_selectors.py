"""Reads for the dashboard's Model panel: saved fits only, never a fit.

The saved result is the core's ``LogisticFit.to_dict()`` (with small patterns'
predictions withheld); this turns it into rows a page can show, naming each
covariate by its question and level instead of the export's column names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404

from estimation.contract import DASH, HARDLY_INFORMED_FLAG, NOT_ESTIMABLE, range_text
from estimation.contract import p_value_text as _p_value_text
from estimation.inference.regression_cautions import fit_cautions
from estimation.inference.regression_results import prediction_reading
from estimation.runs.model_fits import (
    column_names,
    covariate_choices,
    outcome_choices,
)
from estimation.runs.models import ModelFit
from surveys.kinds import kind_module
from surveys.models import Question, Survey
from surveys.team.selectors import surveys_visible_to

IN_PROGRESS = (ModelFit.Status.QUEUED, ModelFit.Status.RUNNING)
# Above this many predicted patterns the chart would be a wall: the table stays.
MAX_CHART_ROWS = 24
INTERCEPT = "(Intercept)"


@dataclass(frozen=True)
class CoefficientRow:
    label: str
    intercept: bool
    estimable: bool
    odds_ratio: float | None
    wald: tuple[float | None, float | None] | None
    profile: tuple[float | None, float | None] | None
    p_value: float | None
    note: str | None

    @property
    def odds_ratio_text(self) -> str:
        return number_text(self.odds_ratio)

    @property
    def wald_text(self) -> str:
        return interval_text(self.wald)

    @property
    def profile_text(self) -> str:
        return interval_text(self.profile)

    @property
    def p_text(self) -> str:
        return p_value_text(self.p_value)


@dataclass(frozen=True)
class TestRow:
    label: str
    chi2: float | None
    df: int
    p_value: float | None

    @property
    def chi2_text(self) -> str:
        return "—" if self.chi2 is None else f"{self.chi2:.2f}"

    @property
    def p_text(self) -> str:
        return p_value_text(self.p_value)


@dataclass(frozen=True)
class PredictedRow:
    """A covariate pattern's fitted prevalence (an ``Interval`` for the chart)."""

    label: str  # the levels only, short enough for the chart
    detail: str  # each level after its question
    n: int
    estimate: float
    ci_lower: float
    ci_upper: float
    has_interval: bool
    at_boundary: bool
    # The results contract's flags (estimation/contract.py).
    flags: tuple[str, ...] = ()

    @property
    def not_estimable(self) -> bool:
        return NOT_ESTIMABLE in self.flags

    @property
    def hardly_informed(self) -> bool:
        return HARDLY_INFORMED_FLAG in self.flags


@dataclass(frozen=True)
class FitView:
    fit: ModelFit
    outcome: str
    covariates: tuple[tuple[str, str], ...]  # (question text, reference label)
    formula: str
    coefficients: tuple[CoefficientRow, ...]
    # A list experiment's control items, beside its sensitive item's
    # ``coefficients`` (estimation/kinds/listexperiment/model.py); else none.
    control: tuple[CoefficientRow, ...]
    tests: tuple[TestRow, ...]
    model_test: TestRow | None
    predicted: tuple[PredictedRow, ...]
    warnings: tuple[str, ...]
    separation: bool
    boundary: bool
    converged: bool
    min_size: int
    # What the outcome's kind says its model is, where it is not the panel's
    # logistic regression (its ``text`` role's MODEL_DESCRIPTION).
    description: str | None = None

    @property
    def cautions(self) -> tuple[str, ...]:
        """Everything the panel must say about the fit, one caution per cause."""
        return fit_cautions(self.warnings, self.coefficients, self.predicted)

    @property
    def has_profile(self) -> bool:
        """Whether the fit has profile-likelihood intervals (a logistic fit
        does; a list experiment's model has Wald intervals only)."""
        return any(row.profile is not None for row in self.coefficients)

    @property
    def chart(self) -> tuple[PredictedRow, ...]:
        """The patterns drawn: those with an interval, if not too many."""
        rows = tuple(p for p in self.predicted if p.has_interval)
        return rows if 0 < len(rows) <= MAX_CHART_ROWS else ()


@dataclass(frozen=True)
class ModelPanel:
    latest: ModelFit | None
    shown: FitView | None
    outcomes: tuple[Question, ...]
    covariates: tuple[Question, ...]

    @property
    def in_progress(self) -> bool:
        return self.latest is not None and self.latest.status in IN_PROGRESS

    @property
    def last_failed(self) -> bool:
        return self.latest is not None and self.latest.status == ModelFit.Status.FAILED

    @property
    def possible(self) -> bool:
        return bool(self.outcomes and self.covariates)


# -- pure pieces ---------------------------------------------------------------


def number_text(value: float | None) -> str:
    """An odds ratio with three significant digits; a dash where none exists."""
    if value is None:
        return DASH
    return f"{value:.3g}" if 1e-3 <= abs(value) < 1e4 else f"{value:.2e}"


def interval_text(pair: tuple[float | None, float | None] | None) -> str:
    """An odds ratio's interval under the results contract: ``0.52 to 1.84``,
    ends written alike once, an open upper end "from 0.52, no upper bound"
    (an odds ratio lies in [0, inf)) and an open lower end 0."""
    if pair is None:
        return DASH
    low, high = pair
    if high is None:
        return f"from {'0' if low is None else number_text(low)}, no upper bound"
    return range_text(0.0 if low is None else low, high, _odds_text, separator=" to ")


def _odds_text(value: float | None) -> str:
    return "0" if value == 0 else number_text(value)


def p_value_text(value: float | None) -> str:
    """The results contract's p-value (estimation/contract.py)."""
    return _p_value_text(value)


def _pair(value: Any) -> tuple[float | None, float | None] | None:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    return (value[0], value[1])


def _level_of(name: str, term: str | None) -> str:
    prefix = f"{term}="
    return name[len(prefix) :] if term and name.startswith(prefix) else name


def coefficient_rows(
    result: dict[str, Any], texts: dict[str, str], key: str = "coefficients"
) -> tuple[CoefficientRow, ...]:
    """Odds ratios by question and level; ``texts`` maps column names to texts;
    ``key`` the result's list of coefficients."""
    rows = []
    for c in result.get(key, []):
        term = c.get("term")
        intercept = term is None
        label = (
            "Intercept (odds at every reference level)"
            if intercept
            else f"{texts.get(term, term)}: {_level_of(c.get('name', ''), term)}"
        )
        rows.append(
            CoefficientRow(
                label=label,
                intercept=intercept,
                estimable=bool(c.get("estimable", c.get("estimate") is not None)),
                odds_ratio=c.get("odds_ratio"),
                wald=_pair(c.get("odds_ratio_wald_ci")),
                profile=_pair(c.get("odds_ratio_profile_ci")),
                p_value=c.get("p_value"),
                note=c.get("note"),
            )
        )
    return tuple(rows)


def _test_row(test: dict[str, Any], label: str) -> TestRow:
    return TestRow(
        label=label,
        chi2=test.get("chi2"),
        df=int(test.get("df", 0)),
        p_value=test.get("p_value"),
    )


def predicted_rows(
    result: dict[str, Any], texts: dict[str, str]
) -> tuple[PredictedRow, ...]:
    rows = []
    for p in result.get("predicted", []):
        pattern = p.get("pattern", {})
        label = " · ".join(str(level) for level in pattern.values())
        detail = "; ".join(
            f"{texts.get(name, name)}: {level}" for name, level in pattern.items()
        )
        prevalence = float(p.get("prevalence") or 0.0)
        at_boundary = bool(p.get("at_boundary", False))
        # The same reading as the fit's JSON flags (a saved fit from before
        # they were written is read alike).
        reading = prediction_reading(prevalence, _pair(p.get("ci")), at_boundary)
        has = reading.has_interval
        flags = reading.flags
        rows.append(
            PredictedRow(
                label=label or "Everyone",
                detail=detail or "Everyone",
                n=int(p.get("n", 0)),
                estimate=prevalence,
                ci_lower=reading.ci_lower
                if reading.ci_lower is not None
                else prevalence,
                ci_upper=reading.ci_upper
                if reading.ci_upper is not None
                else prevalence,
                has_interval=has,
                at_boundary=at_boundary,
                flags=flags,
            )
        )
    return tuple(rows)


def fit_view(
    fit: ModelFit, questions: Sequence[Question], names: dict[int, str]
) -> FitView | None:
    """A finished fit as the page shows it; None without a saved result."""
    result = fit.result
    if not isinstance(result, dict):
        return None
    by_pk = {q.pk: q for q in questions}
    texts = {names[pk]: q.text for pk, q in by_pk.items() if pk in names}
    covariates = tuple(
        (
            by_pk[c["question"]].text,
            "none: a number, per unit"
            if by_pk[c["question"]].is_number
            else by_pk[c["question"]].options[c["reference"]],
        )
        for c in fit.covariates
        if c["question"] in by_pk
    )
    outcome = by_pk[fit.outcome_id].text if fit.outcome_id in by_pk else "?"
    model_test = result.get("model_test")
    small = result.get("small_cells", {})
    return FitView(
        fit=fit,
        outcome=outcome,
        covariates=covariates,
        formula=" ~ ".join(
            [
                names.get(fit.outcome_id, "?"),
                " + ".join(names.get(c["question"], "?") for c in fit.covariates),
            ]
        ),
        coefficients=coefficient_rows(result, texts),
        control=coefficient_rows(result, texts, "control_coefficients"),
        tests=tuple(
            _test_row(t, texts.get(t.get("term", ""), t.get("term", "")))
            for t in result.get("lr_tests", [])
        ),
        model_test=(
            _test_row(model_test, "The whole model (against no covariates)")
            if isinstance(model_test, dict)
            else None
        ),
        predicted=predicted_rows(result, texts),
        warnings=tuple(str(w) for w in result.get("warnings", [])),
        separation=bool(result.get("separation")),
        boundary=bool(result.get("boundary")),
        converged=bool(result.get("converged", True)),
        min_size=int(small.get("min_group_size", 0)),
        description=_description(by_pk.get(fit.outcome_id)),
    )


def _description(outcome: Question | None) -> str | None:
    if outcome is None:
        return None
    try:
        words = getattr(kind_module(outcome.kind, "text"), "MODEL_DESCRIPTION", None)
    except ValueError:
        return None
    return None if words is None else str(words)


def fit_progress(fit: ModelFit) -> dict[str, object]:
    return {
        "id": fit.pk,
        "status": fit.status,
        "steps_done": fit.steps_done,
        "steps_total": fit.steps_total,
        "error": fit.error,
    }


# -- queries -------------------------------------------------------------------


def latest_saved_fit(survey: Survey) -> ModelFit | None:
    """The newest finished fit that still holds its numbers."""
    return (
        ModelFit.objects.filter(
            survey=survey, status=ModelFit.Status.FINISHED, result__isnull=False
        )
        .order_by("-finished_at", "-id")
        .first()
    )


def fit_export(survey: Survey) -> dict[str, Any] | None:
    """The newest saved fit as plain data for the analysis bundle: its id, the
    outcome's export column, the answers it saw and the core's result."""
    fit = latest_saved_fit(survey)
    if fit is None:
        return None
    return {
        "id": fit.pk,
        "outcome": column_names(survey)[fit.outcome_id],
        "n": fit.n,
        "result": fit.result,
    }


def model_panel(survey: Survey) -> ModelPanel:
    """The newest fit of any status and the newest with a saved result.

    ``survey`` has its questions prefetched (surveys.builder.selectors).
    """
    questions = list(survey.questions.all())
    latest = ModelFit.objects.filter(survey=survey).first()
    shown_fit = latest
    if latest is not None and latest.result is None:
        shown_fit = latest_saved_fit(survey)
    return ModelPanel(
        latest=latest,
        shown=(
            fit_view(shown_fit, questions, column_names(survey))
            if shown_fit is not None
            else None
        ),
        outcomes=tuple(outcome_choices(questions)),
        covariates=tuple(covariate_choices(questions)),
    )


def fit_for_reader(user: Any, survey_pk: int, fit_id: int) -> ModelFit:
    """A fit of a survey the user may see (any role, or staff); or 404."""
    try:
        return ModelFit.objects.get(
            pk=fit_id,
            survey_id=survey_pk,
            survey__in=surveys_visible_to(user).values("pk"),
        )
    except ModelFit.DoesNotExist:
        raise Http404("No such model fit.") from None
