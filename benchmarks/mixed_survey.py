"""A published 20-question survey that mixes every kind of question, for the
respondent page's weight (``benchmarks/page_weight.py``).

Yes/no questions under each yes/no design (Warner, forced response, the
unrelated question, crosswise), multiple choice under k-RR and forced response,
check all that apply under both unary encodings, counts randomized and asked
plainly, cheating detection and the lie detector (questions with a device
instruction, which load their kind's module, js/kinds/instructed/page.js), validation arms, optional questions,
free text, an open answer sealed for the team's key (here a key for
measuring only), a list experiment and plain demographics: what a real study of sensitive behaviour might put on
one page. Its epsilons, with a Yes's for the two instructed questions, sum to
less than the site's default limit of 10 per survey. The two instructed
questions have no finite epsilon (a No given as instructed is not protected),
and neither has the list experiment (a count of 0 or all items from the longer
list reveals the answer), so it publishes as a site that allows such designs publishes it
(``ALLOW_UNBOUNDED_DESIGNS``), with the researcher's confirmation that
respondents are told.

The same twenty questions also come in sections (``create_in_sections``, at
``/s/mixed20-sections/``), as a study of that length is usually laid out:
four pages with a title and a short text, the questions of one of them and
the options of one plain question in an order drawn on the device. That page
carries the sections' own script and words as well, so the page-weight
targets are checked on it too (issue 33: sections counted in).

Create both inside a migrated site with::

    python manage.py shell -c "from benchmarks.mixed_survey import both; both()"
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings

from surveys.builder.questions import question_create
from surveys.builder.sections import question_shuffle_set, section_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey
from surveys.sealing.services import team_key_set

MIXED_SLUG = "mixed20"
SECTIONS_SLUG = "mixed20-sections"
MEASURING_KEY = {
    "kty": "EC",
    "crv": "P-256",
    "x": "axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpY",
    "y": "T-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU",
}
OWNER = "page-weight"

QUESTIONS: list[dict[str, Any]] = [
    {
        "text": "In the past 12 months, have you used cannabis?",
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.6},
    },
    {
        "text": "In the past 12 months, have you driven after drinking more than the legal limit?",
        "kind": "yes_no",
        "design": {"name": "forced_response", "p_truth": 0.3, "p_forced": [0.35, 0.35]},
    },
    {
        "text": "Have you ever taken something from a shop without paying?",
        "kind": "yes_no",
        "design": {"name": "unrelated_question", "p": 0.3, "q": 0.5},
    },
    {
        "text": "Have you ever evaded taxes? Statement B: your mother was born in January, February or March.",
        "kind": "yes_no",
        "design": {"name": "crosswise", "p": 0.35},
    },
    {
        "text": "Have you ever paid a bribe to a police officer?",
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.6},
        "direct_percent": 10,
    },
    {
        "text": "If something happened at work that you want us to know, what was it?",
        "kind": "sealed_text",
        "design": {"name": "direct"},
        "answer_format": {"max_length": 500},
        "optional": True,
    },
    {
        "text": "How many of these have you done in the past 12 months?",
        "kind": "list_experiment",
        "options": [
            "Voted in a local election",
            "Given money to a charity",
            "Been to a concert",
            "Owned a pet",
            "Paid a bribe to an official",
        ],
        "design": {"name": "list_experiment", "items": 4, "treatment_share": 0.5},
    },
    {
        "text": "How many alcoholic drinks do you have on a typical day when you drink?",
        "kind": "multiple_choice",
        "options": ["1 or 2", "3 or 4", "5 or 6", "7 or more"],
        "design": {
            "name": "forced_response",
            "p_truth": 0.4,
            "p_forced": [0.15, 0.15, 0.15, 0.15],
        },
    },
    {
        "text": "How often have you used a mobile phone while driving?",
        "kind": "multiple_choice",
        "options": ["Never", "Rarely", "Sometimes", "Often"],
        "design": {"name": "krr", "k": 4, "epsilon": 0.5},
        "direct_percent": 10,
    },
    {
        "text": "Which of these have you used in the past 12 months?",
        "kind": "multi_select",
        "options": ["Cannabis", "Cocaine", "Ecstasy", "Amphetamines", "LSD"],
        "design": {"name": "sue", "m": 5, "epsilon_one_hot": 0.4},
    },
    {
        "text": "Which of these have you done at work in the past year?",
        "kind": "multi_select",
        "options": [
            "Taken office supplies home",
            "Claimed hours not worked",
            "Padded an expense claim",
            "Used a colleague's password",
            "Shared confidential documents",
            "Accepted a gift from a supplier",
        ],
        "design": {"name": "oue", "m": 6, "epsilon_one_hot": 0.2},
    },
    {
        "text": "In the past 30 days, on how many days did you smoke?",
        "kind": "count",
        "options": [str(n) for n in range(11)],
        "design": {"name": "geometric", "m": 10, "epsilon": 0.5},
    },
    {
        "text": "In the past 12 months, how many times did you call in sick when you were not?",
        "kind": "count",
        "options": [str(n) for n in range(21)],
        "design": {"name": "geometric", "m": 20, "epsilon": 0.5},
    },
    {
        "text": "How many people live in your household?",
        "kind": "count",
        "options": [str(n) for n in range(11)],
        "design": {"name": "direct", "k": 11},
    },
    {
        "text": "How old are you?",
        "kind": "numeric",
        "design": {"name": "direct", "k": 4},
        "answer_format": {
            "minimum": 18,
            "maximum": 99,
            "decimals": 0,
            "unit": "years",
            "cuts": [30, 45, 65],
        },
    },
    {
        "text": "What is your gender?",
        "kind": "direct",
        "options": ["Woman", "Man", "Another gender"],
        "design": {"name": "direct", "k": 3},
        "optional": True,
    },
    {
        "text": "How satisfied are you with your work?",
        "kind": "rating_scale",
        "options": [
            "Very dissatisfied",
            "Dissatisfied",
            "Neither",
            "Satisfied",
            "Very satisfied",
        ],
        "design": {"name": "direct", "k": 5},
    },
    {
        "text": "Is there anything you would like to add about your work?",
        "kind": "free_text",
        "design": {"name": "direct"},
        "answer_format": {"max_length": 500},
        "optional": True,
    },
    {
        "text": "Have you ever lied to your employer about a qualification?",
        "kind": "instructed",
        "design": {"name": "cheating_detection", "p1": 0.45, "p2": 0.9},
    },
    {
        "text": "Have you ever hit another person in anger?",
        "kind": "instructed",
        "design": {"name": "lie_detector", "p1": 0.1, "p2": 0.55},
        "optional": True,
    },
]


# The sections of ``create_in_sections``: each opens before the question at
# its index in QUESTIONS; the second shows its questions in an order drawn
# on the device.
SECTIONS: list[dict[str, Any]] = [
    {
        "before": 0,
        "title": "The law",
        "text": "Things people do that the law forbids.",
    },
    {
        "before": 5,
        "title": "What you have done",
        "text": "Answer for the past 12 months unless a question says otherwise.",
        "shuffle_questions": True,
    },
    {
        "before": 11,
        "title": "How often, and about you",
        "text": "Counts, and a few facts for comparing groups of people.",
    },
    {
        "before": 17,
        "title": "Your work",
        "text": "Last, some questions about your job.",
    },
]
# A plain question whose options a sectioned survey shows in a drawn order.
SHUFFLED_OPTIONS = "What is your gender?"


def _published(slug: str, sections: list[dict[str, Any]] | None = None) -> Survey:
    survey = Survey.objects.filter(slug=slug).first()
    if survey is not None:
        return survey
    owner, _ = get_user_model().objects.get_or_create(username=OWNER)
    survey = survey_create(
        owner=owner,
        title="Work, health and the law",
        introduction="Twenty questions of every kind, for measuring the page.",
        planned_responses=2000,
    )
    survey.slug = slug
    survey.save(update_fields=["slug"])
    opening = {section["before"]: section for section in sections or []}
    for index, question in enumerate(QUESTIONS):
        if index in opening:
            section = {k: v for k, v in opening[index].items() if k != "before"}
            section_create(survey=survey, **section)
        created = question_create(survey=survey, **question)
        if sections and question["text"] == SHUFFLED_OPTIONS:
            question_shuffle_set(question=created, shuffle_options=True)
    # The sealed question's team key, for measuring the page only: P-256's
    # generator, whose private key is 1, so nothing sealed for it is secret.
    team_key_set(survey=survey, public_jwk=MEASURING_KEY)
    with override_settings(ALLOW_UNBOUNDED_DESIGNS=True):
        return survey_publish(survey=survey, confirm_unbounded=True)


@transaction.atomic
def create() -> Survey:
    """The published survey at ``/s/mixed20/``; an existing one is kept."""
    return _published(MIXED_SLUG)


@transaction.atomic
def create_in_sections() -> Survey:
    """The same survey in four sections, at ``/s/mixed20-sections/``; an
    existing one is kept."""
    return _published(SECTIONS_SLUG, SECTIONS)


def both() -> tuple[Survey, Survey]:
    """The survey on one page and in sections, as the benchmarks weigh them."""
    return create(), create_in_sections()
