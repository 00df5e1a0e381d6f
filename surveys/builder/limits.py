"""The site's privacy limits (settings ``MAX_QUESTION_EPSILON``,
``MAX_SURVEY_EPSILON`` and ``ALLOW_UNBOUNDED_DESIGNS``): which questions of a
survey break them, in words a researcher can act on.

Every design says what the limits apply to (``limit_epsilon``) and whether
that bounds every report (``protects_every_report``), so this module names no
kind. A design with a device instruction (cheating detection, the lie
detector) has no finite epsilon: a compliant No is only given by someone whose
answer is No. Such a design is over any limit, so by default it is refused
like epsilon 12 would be. A site that allows unbounded designs may publish it
when what it does bound, what a Yes reveals (its ``limit_epsilon``), is within
the per-question limit, and the survey limit applies to the other questions'
epsilons plus every such question's Yes epsilon: the bound on a whole response
whose answers to those questions are all Yes. The researcher must then also
confirm that respondents will be told (``unbounded_questions`` says which
questions that covers). The survey's total epsilon itself is stated as
unbounded everywhere."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

from django.conf import settings
from django.utils.translation import gettext, ngettext

from estimation.designs import survey_epsilon
from estimation.words import format_epsilon
from surveys.words import active_translator


class AnyDesign(Protocol):
    """What a design of any kind answers (a core ``Design`` or a kind's own
    family: unary encodings, instructed designs) that the limits need."""

    @property
    def randomized(self) -> bool: ...

    @property
    def epsilon(self) -> float: ...

    @property
    def limit_epsilon(self) -> float: ...

    @property
    def protects_every_report(self) -> bool: ...


def _quoted(text: str, limit: int = 60) -> str:
    short = text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
    return f"“{short}”"


def no_guarantee(design: AnyDesign) -> bool:
    """A design that gives no local differential privacy guarantee at all
    (``ldp`` False: a list experiment, whose count of none or all of its items
    gives the answers away): no epsilon of it bounds anything, so the limits
    leave it out of every sum and the site's permission for unbounded designs
    alone decides whether it may be published."""
    return getattr(design, "ldp", True) is False


def yes_total_epsilon(designs: Iterable[AnyDesign]) -> float:
    """What a whole response reveals when its answers to every question with a
    device instruction are Yes: the randomized questions' limit epsilons
    (sequential composition); with no such question, the survey's epsilon.
    Designs with no guarantee at all are stated apart (``no_guarantee``)."""
    return math.fsum(
        d.limit_epsilon for d in designs if d.randomized and not no_guarantee(d)
    )


def unbounded_questions(
    questions: Sequence[tuple[str, AnyDesign]],
) -> list[int]:
    """The numbers (from 1) of the randomized questions whose design leaves some
    answer unprotected: the ones a researcher confirms respondents will be told
    about before publishing."""
    return [
        number
        for number, (_text, design) in enumerate(questions, start=1)
        if design.randomized and not design.protects_every_report
    ]


def _numbered(numbers: Sequence[int]) -> str:
    named = ", ".join(str(n) for n in numbers)
    return ngettext("question %(numbers)s", "questions %(numbers)s", len(numbers)) % {
        "numbers": named
    }


def _g(value: float) -> str:
    """A site limit as settings write it (``3``, ``1.5``), in the language's
    decimal separator."""
    return f"{value:g}".replace(".", active_translator().decimal)


def _eps(value: float) -> str:
    return format_epsilon(value, active_translator())


def unconfirmed_message(numbers: Sequence[int]) -> str:
    """Why publishing waits for the researcher's confirmation."""
    return ngettext(
        "Question %(numbers)s has no finite epsilon: a No is not protected by "
        "such a design. Confirm that respondents will be told this before "
        "publishing.",
        "Questions %(numbers)s have no finite epsilon: a No is not protected by "
        "such a design. Confirm that respondents will be told this before "
        "publishing.",
        len(numbers),
    ) % {"numbers": ", ".join(str(n) for n in numbers)}


def confirmation_label(
    numbers: Sequence[int], without_guarantee: Sequence[int] = ()
) -> str:
    """What the researcher confirms on the publish page; ``without_guarantee``
    are the numbers among ``numbers`` whose design gives no guarantee at all."""
    instructed = [n for n in numbers if n not in without_guarantee]
    said = []
    if instructed:
        said.append(
            gettext(
                "I confirm that respondents will be told that a No to %(questions)s "
                "is not protected and that their answers together have no finite "
                "epsilon, as the survey page states."
            )
            % {"questions": _numbered(instructed)}
        )
    if without_guarantee:
        said.append(
            gettext(
                "I confirm that respondents will be told that %(questions)s gives "
                "no local differential privacy guarantee (a count of none or all "
                "of the items gives the answers away), as the survey page states."
            )
            % {"questions": _numbered(without_guarantee)}
        )
    return " ".join(said)


def no_guarantee_questions(questions: Sequence[tuple[str, AnyDesign]]) -> list[int]:
    """The numbers (from 1) of the questions whose design gives no guarantee."""
    return [
        number
        for number, (_text, design) in enumerate(questions, start=1)
        if no_guarantee(design)
    ]


def _no_guarantee_refused(number: int, text: str) -> str:
    return gettext(
        "Question %(number)s (%(text)s) gives no local differential privacy "
        "guarantee: a count of none or all of its items gives the answers away, "
        "so it has no epsilon, and this site does not allow designs without a "
        "finite epsilon."
    ) % {"number": number, "text": _quoted(text)}


def _unbounded_refused(number: int, text: str) -> str:
    return gettext(
        "Question %(number)s (%(text)s) has no finite epsilon: a No is not "
        "protected by its design (only someone whose answer is No gives a No as "
        "instructed), so its epsilon is unbounded, and this site does not allow "
        "designs without a finite epsilon. Choose a design that protects every "
        "answer."
    ) % {"number": number, "text": _quoted(text)}


def _yes_only_problem(
    number: int, text: str, design: AnyDesign, limit: float
) -> str | None:
    if not settings.ALLOW_UNBOUNDED_DESIGNS:
        return _unbounded_refused(number, text)
    if design.limit_epsilon <= limit:
        return None
    return gettext(
        "Question %(number)s (%(text)s) protects a Yes only at epsilon "
        "%(epsilon)s, above this site's limit of %(limit)s per question (a No is "
        "not protected by this design). Make the smaller chance that the device "
        "says “answer Yes” larger."
    ) % {
        "number": number,
        "text": _quoted(text),
        "epsilon": _eps(design.limit_epsilon),
        "limit": _g(limit),
    }


def limit_problems(
    questions: Sequence[tuple[str, AnyDesign]],
) -> list[str]:
    """Why these ``(text, design)`` questions may not be published; empty if
    they may (those in ``unbounded_questions`` then still need the researcher's
    confirmation). A design exactly at a limit is within it."""
    per_question = settings.MAX_QUESTION_EPSILON
    per_survey = settings.MAX_SURVEY_EPSILON
    problems = []
    for number, (text, design) in enumerate(questions, start=1):
        if no_guarantee(design):
            if not settings.ALLOW_UNBOUNDED_DESIGNS:
                problems.append(_no_guarantee_refused(number, text))
            continue
        if not design.protects_every_report:
            problem = _yes_only_problem(number, text, design, per_question)
            problems.extend([problem] if problem else [])
            continue
        if not design.randomized or design.epsilon <= per_question:
            continue
        if math.isinf(design.epsilon):
            problems.append(
                gettext(
                    "Question %(number)s (%(text)s) sends some answers only when "
                    "they are true, so its epsilon is unbounded; this site allows "
                    "at most %(limit)s per question. Give every answer a chance of "
                    "being a set answer, or choose another design."
                )
                % {"number": number, "text": _quoted(text), "limit": _g(per_question)}
            )
        else:
            problems.append(
                gettext(
                    "Question %(number)s (%(text)s) has epsilon %(epsilon)s, above "
                    "this site's limit of %(limit)s per question. Lower its epsilon "
                    "before publishing."
                )
                % {
                    "number": number,
                    "text": _quoted(text),
                    "epsilon": _eps(design.epsilon),
                    "limit": _g(per_question),
                }
            )
    designs = [design for _, design in questions]
    total = yes_total_epsilon(designs)
    if not all(d.protects_every_report for d in designs):
        if math.isfinite(total) and total > per_survey:
            problems.append(
                gettext(
                    "With every answer to the questions with a device instruction "
                    "Yes, a response's total epsilon is %(epsilon)s, above this "
                    "site's limit of %(limit)s per survey (a No to such a question "
                    "is not protected, so the total is otherwise unbounded). Lower "
                    "some questions' epsilons or remove a question."
                )
                % {"epsilon": _eps(total), "limit": _g(per_survey)}
            )
        return problems
    if math.isfinite(total) and total > per_survey:
        problems.append(
            gettext(
                "The survey's total epsilon is %(epsilon)s, above this site's limit "
                "of %(limit)s per survey (all of one person's answers together). "
                "Lower some questions' epsilons or remove a question."
            )
            % {"epsilon": _eps(total), "limit": _g(per_survey)}
        )
    return problems


def total_epsilon_text(designs: Sequence[AnyDesign]) -> str:
    """The publish page's "All answers together": the survey's epsilon, or,
    when a design does not protect every report, that it is unbounded and what
    a response whose answers to those questions are all Yes reveals, as the
    results page and the respondent's page say it."""
    if any(no_guarantee(d) for d in designs):
        return gettext(
            "unbounded: a list experiment gives no local differential privacy "
            "guarantee (a count of none or all of its items gives the answers away)"
        )
    if all(d.protects_every_report for d in designs):
        return _eps(survey_epsilon(designs))
    return gettext(
        "unbounded (a No given as instructed is not protected); with every "
        "answer to the questions with a device instruction Yes, %(epsilon)s"
    ) % {"epsilon": _eps(yes_total_epsilon(designs))}
