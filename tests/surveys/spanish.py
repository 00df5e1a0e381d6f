"""Reading a researcher page as a Spanish reader does: no English sentence
left, checked as the respondent page is (tests/surveys/respond/test_languages.py),
with ``<html lang="es">``. Shared by the Spanish page tests of each concern
(builder, results, team, invitations).

The check reads the page as a person does: without scripts, tags, the
researcher's own texts (written in the survey's language, here Spanish) and
what is marked as another language (the language chooser names each
language in itself; a message written for English readers), and names written
the same in every language: a message's placeholders such as ``{link}`` and
file names such as ``answers.csv``. The brand "RR Surveys" is a name, not a sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings

from surveys.builder.demo import demo_content
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create
from surveys.builder.translations import (
    survey_languages_set,
    survey_translation_update,
)
from surveys.models import Survey
from surveys.sealing.services import team_key_set
from tests.surveys.sealed.data import PUBLIC_JWK

# Words and phrases of the pages' English that have no place in Spanish.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|your|you|is|are|to|with|this|that|for|on|in|at|it|"
    r"question|questions|survey|surveys|answer|answers|respondents?|edit|"
    r"delete|save|add|cancel|design|published|draft|none|optional|link|"
    r"log|sign|password|email|role|owner|team|language|options?|preview|"
    r"results|responses|protection|what|when|who|how|which|new|copy|show|"
    r"move|up|down|section|sections)\b",
    re.IGNORECASE,
)
ENGLISH_PHRASES = [
    "Your surveys",
    "Signed in as",
    "Log out",
    "Change password",
    "Skip to content",
    "Randomized-response surveys",
    "not private",
    "Please correct",
]


def visible_text(page: str) -> str:
    """What a reader sees of the page, less the parts that are rightly not
    Spanish (see the module's docstring)."""
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    page = re.sub(r"<style.*?</style>", "", page, flags=re.S)
    page = re.sub(r'<a class="brand"[^>]*>.*?</a>', "", page, flags=re.S)
    page = re.sub(r"<code[^>]*>.*?</code>", "", page, flags=re.S)
    # Elements marked as another language, and their whole content.
    for tag in (
        "option",
        "span",
        "h3",
        "p",
        "th",
        "dd",
        "blockquote",
        "strong",
        "textarea",
    ):
        page = re.sub(
            rf'<{tag}\b[^>]*\blang="(?!es)[^"]*"[^>]*>.*?</{tag}>',
            "",
            page,
            flags=re.S,
        )
    # Attributes people read: labels of table cells, accessible names.
    attributes = " ".join(
        re.findall(r'(?:data-label|aria-label|title)="([^"]*)"', page)
    )
    text = re.sub(r"<[^>]+>", " ", page)
    # A message's placeholders ({link}) and file names (answers.csv) are
    # names, written as they are in every language, not words.
    text = re.sub(r"\{\w+\}", " ", text)
    text = re.sub(r"[\w/-]+\.(?:csv|jsonl|json|py|md|zip|sav|dta)\b", " ", text)
    return f"{text} {attributes}"


def english_left(
    page: str,
    *,
    own_texts: tuple[str, ...] = (),
    words: re.Pattern[str] | None = None,
) -> list[str]:
    """The English phrases and words a Spanish reader would still meet; ``words``
    adds a page's own English vocabulary to ENGLISH_WORDS."""
    text = visible_text(page)
    for own in own_texts:
        text = text.replace(own, " ")
    left = [phrase for phrase in ENGLISH_PHRASES if phrase in text]
    for pattern in (ENGLISH_WORDS, words):
        if pattern is not None:
            left += sorted({m.group(0) for m in pattern.finditer(text)})
    return left


def assert_spanish(
    page: str,
    *,
    own_texts: tuple[str, ...] = (),
    words: re.Pattern[str] | None = None,
) -> None:
    assert '<html lang="es">' in page
    left = english_left(page, own_texts=own_texts, words=words)
    assert not left, f"English left: {left}"


def own_texts(survey) -> tuple[str, ...]:
    """The survey's own texts, which the check leaves out, longest first."""
    # The usernames too: the fixtures' are English words.
    texts = ["owner", "colleague", survey.title, survey.slug]
    texts += survey.introduction.splitlines()
    for question in survey.questions.all():
        texts += [question.text, *(o for o in question.options if not o.isdigit())]
    return tuple(sorted(texts, key=len, reverse=True))


def get(client, url: str, status: int = 200) -> str:
    reply = client.get(url)
    assert reply.status_code == status, url
    return reply.content.decode()


@pytest.fixture
def spanish(client, owner):
    """The owner's client, reading the site in Spanish."""
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    return client


# One question of each kind beyond the demo's, written in Spanish.
MORE_KINDS: list[dict[str, Any]] = [
    {
        "text": "¿Cuántas veces ha faltado al trabajo sin motivo?",
        "kind": "count",
        "options": [str(count) for count in range(6)],
        "design": {"name": "geometric", "m": 5, "epsilon": 1.0},
    },
    {
        "text": "¿Cuáles de estas cosas ha hecho?",
        "kind": "multi_select",
        "options": ["Copiar", "Mentir", "Robar"],
        "design": {"name": "sue", "epsilon_one_hot": 1.0, "m": 3},
    },
    {
        "text": "¿Ha consumido alguna droga?",
        "kind": "instructed",
        "design": {
            "name": "cheating_detection",
            "p1": 0.3,
            "p2": 0.7,
            "group_share": 0.5,
        },
    },
    {
        "text": "¿Cuántos años tiene?",
        "kind": "numeric",
        "design": {"name": "direct", "k": 4},
        "answer_format": {
            "minimum": 16,
            "maximum": 99,
            "decimals": 0,
            "unit": "años",
            "cuts": [30, 45, 65],
        },
    },
    {
        "text": "Los exámenes son justos.",
        "kind": "rating_scale",
        "options": ["Nada", "Poco", "Bastante", "Mucho"],
        "design": {"name": "direct", "k": 4},
    },
    {
        "text": "¿Algo más que quiera decirnos?",
        "kind": "free_text",
        "design": {"name": "direct"},
        "optional": True,
    },
    {
        "text": "¿Qué ocurrió, en sus propias palabras?",
        "kind": "sealed_text",
        "design": {"name": "direct"},
        "optional": True,
    },
    {
        "text": "¿Ha mentido alguna vez a un cliente?",
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.75},
        "direct_percent": 20,
        "optional": True,
    },
]


def every_kind_in_spanish(owner) -> Survey:
    """A draft written in Spanish: the demo's questions, one of every other
    kind, one shown only to some (display logic), a validation arm, the
    practice round and the comprehension check, offered in English too."""
    title, introduction, questions = demo_content("es")
    survey = survey_create(
        owner=owner, title=title, introduction=introduction, language="es"
    )
    for question in questions + MORE_KINDS:
        question_create(survey=survey, **question)
    age = survey.questions.get(kind="direct")
    question_create(
        survey=survey,
        text="¿Ha trabajado alguna vez de noche?",
        kind="direct",
        options=["No", "Sí"],
        design={"name": "direct", "k": 2},
        optional=True,
        condition={
            "match": "all",
            "clauses": [{"question": age.pk, "op": "equals", "value": 0}],
        },
    )
    survey.comprehension_check, survey.comprehension_pass = age, 2
    survey.practice = True
    survey.practice_question = "¿Nació usted en un día par?"
    survey.save()
    survey_languages_set(survey=survey, languages=["en"])
    assert english_translation(survey) == []
    # Its sealed question's answers are encrypted for this key.
    team_key_set(survey=survey, public_jwk=PUBLIC_JWK)
    return survey


def english_translation(survey: Survey) -> list[str]:
    """Offer English, each text marked as its translation: what a Spanish
    page shows of it is marked ``lang="en"``."""
    questions = {}
    for question in survey.questions.all():
        questions[question.pk] = {
            "text": f"EN {question.text}",
            "options": [f"EN {option}" for option in question.options],
        }
        if question.kind == "numeric":
            questions[question.pk]["format"] = {"unit": "years"}
    return survey_translation_update(
        survey=survey,
        language="en",
        texts={
            "title": f"EN {survey.title}",
            "introduction": "EN",
            "practice_question": "EN practice",
        },
        questions=questions,
    )
