"""The practice round on the respondent page: a harmless yes/no question the
page randomizes exactly as a real one, with the randomizer the real questions
use, and never sends (docs/methodology.md, "The practice round").

Its answer and report live only in the page's memory: they are in no form, in
no storage and in no request. Nothing here is a question row, so the practice
round can reach no estimate, export, stratum or count.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from surveys.kinds import KINDS, kind_module
from surveys.languages import practice_question_in
from surveys.models import Survey
from surveys.words import active_translator


def default_practice_question() -> str:
    """The wording used while the researcher has written none, in the active
    language."""
    return gettext("Is your birthday in the first half of the year (January to June)?")


def teaching_design() -> Any:
    """The design respondents practise on, offered by the kind whose ``practice``
    role has one (the yes/no kind's weighted coin)."""
    for kind in KINDS:
        try:
            role = kind_module(kind, "practice")
        except ValueError:
            continue
        return role.teaching_design()
    raise LookupError("no question kind offers a practice design")


def practice_wording(survey: Survey, language: str) -> str:
    """The question in ``language``: the researcher's wording, or its
    translation (surveys/languages.py), else the default one, translated (a
    page in another language never mixes in the survey's)."""
    return practice_question_in(survey, language) or default_practice_question()


def practice_round(survey: Survey, language: str) -> dict[str, Any] | None:
    """What the page shows and its script needs for the practice round, in the
    active language; None when the survey has none."""
    if not survey.practice:
        return None
    design = teaching_design()
    options = [gettext("No"), gettext("Yes")]
    designs = [q.get_design() for q in survey.questions.all()]
    randomized = [d for d in designs if d.randomized]
    # A procedure: the respondent, not the device, produces the report.
    drawn = all("procedure" not in d.client_spec() for d in randomized)
    return {
        "question": practice_wording(survey, language),
        "options": options,
        "mechanism": design.mechanism(options, active_translator()),
        # What the script needs: no text it shows comes from anywhere else.
        "script": {
            "spec": design.client_spec(),
            "options": options,
            "messages": practice_messages(protected=bool(randomized), drawn=drawn),
        },
    }


def practice_messages(*, protected: bool, drawn: bool) -> dict[str, str]:
    """The sentences shown after a try. Each is true of the weighted coin:
    whether the report kept or flipped the answer is what was drawn. The
    last says the real questions work the same way only when every protected
    one is randomized by the device (``drawn``); a survey with a question
    whose report the respondent produces says that each question explains
    its own way, and one with no protected question says nothing of them."""
    messages = {
        "choose": gettext("Choose Yes or No first, then press “Try it”."),
        "kept": gettext(
            "Your device flipped its weighted coin, and this time it kept your "
            "answer: it would have sent “{report}”, the answer you chose."
        ),
        "flipped": gettext(
            "Your device flipped its weighted coin, and this time it turned your "
            "answer round: it would have sent “{report}”, although you chose "
            "“{truth}”."
        ),
        "nothingSent": gettext(
            "This was practice: nothing was sent and nothing was kept. Your true "
            "answer stayed on this device. Whoever reads a report cannot be sure "
            "whether it is the answer a person chose or the coin's opposite."
        ),
    }
    if protected and drawn:
        messages["real"] = gettext(
            "The real questions work the same way: your device randomizes each "
            "protected answer before anything is sent, with the chances shown "
            "beside each question."
        )
    elif protected:
        messages["real"] = gettext(
            "Each protected question below says how your answer is protected "
            "before anything is sent."
        )
    return messages
