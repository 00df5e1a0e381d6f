"""Template helpers for the researchers' pages."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from estimation import contract
from estimation.runs.group_comparisons import GroupComparison
from estimation.words import format_epsilon, percent
from surveys.results.charts import Interval, interval_chart
from surveys.results.group_charts import breakdown_chart, withheld_text
from surveys.results.notice_texts import (
    caution_in_language,
    fit_caution_in_language,
    label_in_language,
    notice_in_language,
)
from surveys.team.roles import WHO_MAY, Need, allows
from surveys.team.selectors import role_of
from surveys.words import active_translator, number_text

register = template.Library()
NOT_PRIVATE = '<span aria-hidden="true">—</span> <span class="not-private">{}</span>'


@register.filter
def may(survey: Any, need: str) -> bool:
    """Whether the reader's role on ``survey`` allows ``need`` ("view",
    "analyse", "edit", "own"): which buttons a page shows. The views enforce
    it; this only keeps a page from offering what would be refused."""
    return allows(role_of(survey), Need[need.upper()])


@register.filter
def who_may(need: str) -> str:
    """Who may do what ``need`` allows, for a page that tells a reader
    without that role who can: "An analyst, an editor or the owner"."""
    return str(WHO_MAY[Need[need.upper()]])


@register.filter
def role_label(survey: Any) -> str:
    """The reader's role in words; staff overseeing a survey have none."""
    role = role_of(survey)
    return str(role.label) if role is not None else gettext("Staff (oversight)")


@register.simple_tag
def epsilon(value: float) -> SafeString:
    """An epsilon for a page: "1.1", or a dash that says "not private"."""
    if math.isfinite(value):
        return format_html("{}", format_epsilon(value, active_translator()))
    return format_html(NOT_PRIVATE, gettext("not private"))


@register.filter
def pct(value: float | None) -> str:
    """A share as a percentage: ``0.184 -> '18.4%'`` (estimation/contract.py)."""
    return "" if value is None else percent(float(value), active_translator())


@register.filter
def points(value: float | None) -> str:
    """A share as percentage points with one decimal: ``0.0213 -> '2.1'``."""
    return number_text(contract.points_text(value))


@register.filter
def signed_points(value: float | None) -> str:
    """A difference of shares in percentage points, signed: ``-0.0213 -> '−2.1'``."""
    return number_text(contract.signed_points_text(value))


@register.filter
def share_std_error(value: float | None) -> str:
    """A share's standard error in points, capped at 50 (half of 0-100%) and
    saying so: no share's estimator has a larger one (estimation/contract.py)."""
    if value is None:
        return contract.DASH
    if value > contract.SHARE.max_std_error:
        capped = number_text(contract.points_text(contract.SHARE.max_std_error))
        return gettext("%(points)s (capped)") % {"points": capped}
    return number_text(contract.points_text(value))


@register.filter
def count(value: float | None) -> str:
    """A mean count, or a difference of mean counts, with two decimals."""
    return number_text(contract.count_text(value))


@register.filter
def p_value(value: float | None) -> str:
    """A p-value as researchers report it: ``0.0004 -> '< 0.001'``, else 3 decimals."""
    return number_text(contract.p_value_text(value))


@register.filter
def numbers(text: str) -> str:
    """A text of numbers the contract wrote in English (an interval, an odds
    ratio), in the active language's way of writing them."""
    return number_text(str(text))


@register.filter
def notice_text(notice: Any) -> str:
    """A notice the estimation wrote in English, in the active language
    (surveys/results/notice_texts.py)."""
    return notice_in_language(notice)


@register.filter
def translated(text: str) -> str:
    """A fixed English text of the estimation or a kind (a method's name, a
    table's heading), marked for translation where it is written, in the
    active language."""
    return gettext(str(text)) if text else ""


@register.filter
def fixed_text(text: str) -> str:
    """A label that is either the researcher's (an option) or one of the
    estimation's fixed English labels ("Mean count"): only the latter is
    translated (surveys/results/notice_texts.py)."""
    return label_in_language(str(text))


@register.filter
def fit_caution_text(caution: str) -> str:
    """A model fit's caution, written in English, in the active language."""
    return fit_caution_in_language(str(caution))


@register.filter
def caution_text(caution: contract.Caution) -> str:
    """A caution the estimation wrote in English, in the active language."""
    return caution_in_language(caution)


_RANGE_TEXTS = {
    "pct": contract.percent_text,
    "points": contract.signed_points_text,
    "count": contract.count_text,
}


@register.simple_tag
def span(
    low: float | None, high: float | None, unit: str = "pct", sep: str = " – "
) -> str:
    """An interval's two ends in ``unit`` ("pct", "points", "count"); ends
    written alike are one number, and no ends a dash (estimation/contract.py)."""
    return number_text(
        contract.range_text(low, high, _RANGE_TEXTS[unit], separator=sep)
    )


@register.filter
def at(value: Any, key: Any) -> Any:
    """``value[key]``, or None when there is no such item (or no value)."""
    try:
        return value[key]
    except (KeyError, IndexError, TypeError):
        return None


@dataclass(frozen=True)
class _Point:
    label: str
    estimate: float
    ci_lower: float
    ci_upper: float


@register.simple_tag(takes_context=True)
def interval_svg(
    context: template.Context, items: Sequence[Interval], level: float, title: str
) -> SafeString:
    """An inline SVG of estimates and intervals, labelled for screen readers."""
    points = tuple(_Point(i.label, i.estimate, i.ci_lower, i.ci_upper) for i in items)
    key = (points, level, title, translation.get_language())
    fragments = context.get("fragments")
    if fragments is None:
        return _interval_svg(*key)
    # Drawn by another process already: read with the page's other fragments.
    return fragments.draw(("interval", *key), lambda: _interval_svg(*key))  # type: ignore[no-any-return]


@lru_cache(maxsize=512)
def _interval_svg(
    points: tuple[_Point, ...], level: float, title: str, language: str | None
) -> SafeString:
    # Drawn once per process for each estimate: the chart reads nothing else.
    # A SafeString already: the template escaped what it drew.
    return render_to_string(
        "surveys/_interval_chart.html",
        {"chart": interval_chart(points, level=level), "title": title},
    )


class _Target:
    """What the comparison's form reads of the request: the target it keeps."""

    def __init__(self, target: str | None) -> None:
        self.GET = {} if target is None else {"target": target}


@lru_cache(maxsize=512)
def _comparison_html(
    comparison: GroupComparison, target: str | None, language: str | None
) -> SafeString:
    # Everything the fragment reads is in the key: the comparison (frozen, so
    # compared by value), the target its form keeps and the language its
    # numbers are formatted in.
    # A SafeString already: the template escaped what it drew.
    return render_to_string(
        "surveys/_group_comparison.html",
        {"comparison": comparison, "request": _Target(target)},
    )


@register.simple_tag(takes_context=True)
def group_comparison(context: template.Context, comparison: GroupComparison) -> str:
    """A breakdown's comparison (surveys/_group_comparison.html), drawn once per
    process for each comparison, target and language: a run's comparisons
    stay the same between views, and drawing them was most of the page."""
    request = context.get("request")
    target = request.GET.get("target") if request is not None else None
    language = translation.get_language()
    fragments = context.get("fragments")
    if fragments is None:
        return _comparison_html(comparison, target, language)
    # Drawn by another process already: read with the page's other fragments.
    return fragments.draw(  # type: ignore[no-any-return]
        ("comparison", comparison, target, language),
        lambda: _comparison_html(comparison, target, language),
    )


@register.simple_tag(takes_context=True)
def breakdown_svg(
    context: template.Context,
    group: Any,
    overall: Any,
    level: float,
    title: str,
    *id_parts: Any,
) -> SafeString:
    """A breakdown (one-way or crossed) as an inline SVG: each group's point
    and interval on a labelled axis, withheld cells said as such, with a
    title and a description for screen readers; the table beside it stays
    the full account."""
    chart_id = "-".join(["chart", *(str(p) for p in id_parts)])
    if getattr(group, "comparison", None) is not None and dataclasses.is_dataclass(
        group
    ):
        # Not drawn by the chart: kept out of its key, which is written out
        # to name the chart (surveys/results/fragments.py).
        group = dataclasses.replace(group, comparison=None)  # type: ignore[type-var]
    key = (group, overall, level, title, chart_id, translation.get_language())
    try:
        hash(key)
    except TypeError:  # a crossed table's rows: drawn each time (cached upstream)
        return _breakdown_svg.__wrapped__(*key)
    fragments = context.get("fragments")
    if fragments is None:
        return _breakdown_svg(*key)
    # Drawn by another process already: read with the page's other fragments.
    return fragments.draw(("breakdown", *key), lambda: _breakdown_svg(*key))  # type: ignore[no-any-return]


@lru_cache(maxsize=1024)
def _breakdown_svg(
    group: Any,
    overall: Any,
    level: float,
    title: str,
    chart_id: str,
    language: str | None,
) -> SafeString:
    # A run's breakdowns are frozen and never change: each is drawn once per
    # process, as the comparisons are, and for each language.
    chart, description = breakdown_chart(group, overall, level)
    if chart is None:
        return SafeString("")
    heading = _("%(question)s: estimates by group with %(level)s intervals") % {
        "question": title,
        "level": percent(level, active_translator()),
    }
    # A SafeString already: the template escaped what it drew.
    return render_to_string(
        "surveys/_group_chart.html",
        {
            "chart": chart,
            "title": heading,
            "description": description,
            "chart_id": chart_id,
        },
    )


@register.simple_tag
def withheld(why: str, min_size: int) -> str:
    """Why a crossed cell is withheld, in words."""
    return withheld_text(why, min_size)
