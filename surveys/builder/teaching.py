"""The survey's teaching settings: the practice round and the comprehension
check (docs/methodology.md, "The practice round" and "The comprehension
check"). The builder's form and the API both save through survey_update, which
asks :func:`teaching_problems` before saving.
"""

from __future__ import annotations

from typing import Any

from surveys.models import Question, Survey


def check_candidates(survey: Survey) -> list[Question]:
    """The questions that may be the comprehension check: those asked plainly
    with options to choose from (a passing answer is one of them)."""
    return [q for q in survey.questions.all() if q.in_strata and q.options]


def teaching_problems(survey: Survey) -> dict[str, str]:
    """What is wrong with the survey's comprehension check, by field; empty
    when it is sound or there is none."""
    check: Any = survey.comprehension_check
    passing = survey.comprehension_pass
    if check is None:
        if passing is not None:
            return {
                "comprehension_check": "Choose the direct question that is the "
                "comprehension check, or leave out the passing answer."
            }
        return {}
    if check.survey_id != survey.pk:
        return {"comprehension_check": "The check must be a question of this survey."}
    if not check.in_strata or not check.options:
        return {
            "comprehension_check": "The check must be a direct question with "
            "options (asked plainly): a randomized report says little about "
            "whether one person understood."
        }
    if passing is None or not 0 <= passing < len(check.options):
        return {
            "comprehension_pass": f"Give the passing answer as an option code from "
            f"0 to {len(check.options) - 1} of the check question."
        }
    return {}


def check_question_problems(question: Question) -> dict[str, str]:
    """What is wrong with ``question`` (changed, not yet saved) as its survey's
    comprehension check: made randomized, left without options, or without the
    passing option. Empty when it is not the check or still fits, so that a
    change which would make the results quietly drop the check is refused."""
    survey = question.survey
    if not is_check(survey, question):
        return {}
    passing = survey.comprehension_pass
    if not question.in_strata or not question.options:
        why = (
            "a randomized question says little about whether one person understood"
            if question.is_sensitive
            else "the check needs options to choose from"
        )
    elif passing is None or not 0 <= passing < len(question.options):
        why = (
            f"its passing answer is option code {passing}, which this change "
            f"removes (the question would have {len(question.options)} options)"
        )
    else:
        return {}
    return {
        "comprehension_check": "This question is the survey's comprehension "
        f"check and must stay a direct question with its passing answer: {why}. "
        "Choose another check (or none) in the survey's details first."
    }


def is_check(survey: Survey, question: Question) -> bool:
    """Whether ``question`` is the survey's comprehension check."""
    return survey.comprehension_check_id == question.pk


def passing_label(survey: Survey) -> str:
    """The option that counts as passing, as the researcher wrote it; "" when
    the survey has no sound check."""
    check: Any = survey.comprehension_check
    if check is None or teaching_problems(survey):
        return ""
    return str(check.options[survey.comprehension_pass])
