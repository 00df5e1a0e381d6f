"""What a published survey may still change, and why the rest may not.

survey_update (services.py) and the translation service ask here; the edit
page shows these reasons beside the fields they freeze (docs/methodology.md,
"Editing after publishing").
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.languages import (
    SECTION_TEXT_FIELDS,
    SURVEY_TEXT_FIELDS,
    extra_language_choices,
    survey_translation,
    text_name,
)
from surveys.models import Section, Survey

# The texts around the questions and the date answers stop: fixing a typo in
# the introduction, rewording the consent statement, giving the survey a
# neutral public title or a new internal name, or extending the field period
# changes neither what a question asked nor how its answers were randomized,
# so the answers before and after the change still pool into one estimate.
# What happens around the answers without changing who could give them may
# change too: the response limit (raised to reopen a full survey; never below
# the responses stored) and the panel's completion and screen-out addresses,
# which a panel may change mid-study.
EDITABLE_AFTER_PUBLISHING = frozenset(
    {
        "title",
        "public_title",
        "introduction",
        "consent",
        "closes_at",
        "response_limit",
        "completion_url",
        "completion_code",
        "screen_out_url",
    }
)

# Why each other detail stays as it was published, in the words the edit page
# shows beside it.
FROZEN_REASONS = {
    "language": _(
        "Frozen: the answers were given in this language, and its "
        "translations were checked against it."
    ),
    "slug": _("Frozen: respondents and invitations may already have this link."),
    "opens_at": _(
        "Frozen: the survey has opened, so when it opened is part of the "
        "record of how the answers were collected."
    ),
    "planned_responses": _(
        "Frozen: it guides the choice of designs, which publishing froze."
    ),
    "access_mode": _(
        "Frozen: who may answer is part of how the answers were "
        "collected; changing it would mix answers gathered under different rules."
    ),
    "panel_id_parameter": _(
        "Frozen: the participant ids already counted were read from this parameter."
    ),
    "practice": _(
        "Frozen: whether respondents practised first is part of how the "
        "answers were collected."
    ),
    "practice_question": _("Frozen: respondents practised on this wording."),
    "comprehension_check": _(
        "Frozen: the check and its passing answer were fixed "
        "before the answers came in, so the reading among those who passed is not "
        "chosen after seeing them."
    ),
    "comprehension_pass": _(
        "Frozen: the check and its passing answer were fixed "
        "before the answers came in, so the reading among those who passed is not "
        "chosen after seeing them."
    ),
}
QUESTIONS_FROZEN = _(
    "Questions, their texts, options and designs are frozen since publishing: "
    "a changed question would pool the answers to two different questions in "
    "one estimate. To ask something different, duplicate the survey."
)
CONSENT_STEP_FROZEN = {
    True: _(
        "It can be reworded, but once answers exist it cannot be added or "
        "removed: every answer was collected after a consent statement, and the "
        "rest must be collected the same way."
    ),
    False: _(
        "It can be reworded, but once answers exist it cannot be added or "
        "removed: every answer was collected without one, and the rest must be "
        "collected the same way."
    ),
}
CLOSES_AT_HELP = _(
    "Moving it later keeps the survey open longer, and opens again a survey "
    "that closed on its date; a survey closed with Close stays closed until "
    "you reopen it. Empty: open until you close it."
)


def consent_step_frozen(survey: Survey) -> str:
    """Why the consent step may not appear or go, or "" while it may."""
    if survey.is_draft or not survey.responses.exists():
        return ""
    return str(CONSENT_STEP_FROZEN[bool(survey.consent.strip())])


def published_change_problems(
    survey: Survey, changes: Mapping[str, Any], *, now: datetime.datetime
) -> dict[str, str]:
    """What is wrong with ``changes`` (the fields whose value is new) to a
    published survey, by field; empty when they may be saved."""
    problems = {}
    closes = changes.get("closes_at", survey.closes_at)
    if "closes_at" in changes and closes is not None and closes <= now:
        problems["closes_at"] = gettext(
            "The close date cannot be in the past: the survey would end at a "
            "time already gone. To stop answers now, close the survey."
        )
    if "consent" in changes:
        had, has = bool(survey.consent.strip()), bool(str(changes["consent"]).strip())
        why = consent_step_frozen(survey)
        if had != has and why:
            problems["consent"] = why
    missing = _untranslated(survey, changes)
    for name, languages in missing.items():
        known = dict(extra_language_choices(survey))
        names = ", ".join(str(known.get(code, code)) for code in languages)
        problems.setdefault(
            name,
            gettext(
                "Respondents may read this survey in %(languages)s, which has no "
                "translation of the %(text)s: they would lose their language. Add "
                "that translation on the Translations page first, then save this."
            )
            % {"languages": names, "text": text_name(name)},
        )
    return problems


def _untranslated(survey: Survey, changes: Mapping[str, Any]) -> dict[str, list[str]]:
    """The texts ``changes`` would write where an offered language has none, so
    that language would stop being complete (and offered) mid-study."""
    missing: dict[str, list[str]] = {}
    for name in SURVEY_TEXT_FIELDS:
        if name not in changes or not str(changes[name] or "").strip():
            continue
        for code in survey.offered_languages:
            if not survey_translation(survey, code)[name].strip():
                missing.setdefault(name, []).append(code)
    return missing


def published_translation_problems(
    survey: Survey,
    texts: Mapping[str, str],
    sections: Mapping[Section, Mapping[str, str]] | None = None,
) -> dict[str, str]:
    """A published survey's translation keeps every text its own texts have
    (its sections' and its practice question's too): respondents are offered
    only complete languages."""
    problems = {
        name: gettext(
            "Cannot be empty: the survey's own %(text)s is not, and respondents "
            "read this language."
        )
        % {"text": text_name(name)}
        for name in SURVEY_TEXT_FIELDS
        if str(getattr(survey, name)).strip() and not texts[name].strip()
    }
    if (
        survey.practice
        and survey.practice_question.strip()
        and not texts.get("practice_question", "").strip()
    ):
        problems["practice_question"] = gettext(
            "Cannot be empty: the survey's own practice question is not, and "
            "respondents read this language."
        )
    for section, given in (sections or {}).items():
        for name in SECTION_TEXT_FIELDS:
            if str(getattr(section, name)).strip() and not given[name].strip():
                problems.setdefault(
                    "sections",
                    gettext(
                        "Cannot be empty: section %(section)s's own %(text)s is "
                        "not, and respondents read this language."
                    )
                    % {"section": section.pk, "text": gettext(name)},
                )
    return problems
