"""Survey lifecycle: drafting, publishing, freezing, closing."""

import math
import random

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.demo import DEMO_SLUG, demo_seed
from surveys.builder.questions import (
    question_create,
    question_delete,
    question_move,
    question_update,
)
from surveys.builder.selectors import epsilon_of
from surveys.builder.services import (
    SurveyStateError,
    random_slug,
    slug_title_words,
    spec_digest,
    survey_close,
    survey_create,
    survey_publish,
    survey_reopen,
    survey_update,
)
from surveys.models import Question, Survey
from surveys.respond.selectors import respondent_questions

pytestmark = pytest.mark.django_db

WARNER = {"name": "warner", "p": 0.75}


def test_a_new_survey_is_a_draft_with_a_unique_topic_free_slug(owner):
    first = survey_create(owner=owner, title="Habits")
    second = survey_create(owner=owner, title="Habits")
    assert first.status == Survey.Status.DRAFT
    assert "habit" not in first.slug
    assert first.slug != second.slug


def test_a_random_slug_never_contains_a_word_of_the_title(owner):
    # Titles made of the alphabet's own letters: a slug could spell them by chance.
    rng = random.Random(20261127)
    for title in ("abc", "xyz pqr", "Drug use 2026"):
        for _ in range(200):
            slug = random_slug(title, choice=rng.choice)
            assert not any(word in slug for word in slug_title_words(title))


def scripted(*slugs: str):
    """A ``choice`` that spells ``slugs`` one after the other."""
    letters = iter("".join(slugs))
    return lambda alphabet: next(letters)


def test_a_slug_skips_title_words_of_three_letters_or_more_only(owner):
    assert slug_title_words("Conduct at work, 2026") == {"conduct", "work", "2026"}
    # "at" tells nothing of the topic: a slug may contain it.
    assert random_slug("Conduct at work", choice=scripted("fctu6dat6z")) == (
        "fctu6dat6z"
    )
    # "abc" would: that slug is drawn again.
    assert random_slug(
        "abc def", choice=scripted("xxabcxxxxx", "xxdefxxxxx", "x" * 10)
    ) == ("x" * 10)


def test_a_random_slug_already_in_use_is_drawn_again(owner):
    taken = survey_create(owner=owner, title="First", slug="k" * 10)
    assert random_slug("Second", choice=scripted(taken.slug, "m" * 10)) == "m" * 10


def test_the_link_and_public_title_can_change_only_while_a_draft(owner):
    survey = survey_create(owner=owner, title="Sensitive topic")
    survey_update(survey=survey, slug="wave-one", public_title="A questionnaire")
    survey.refresh_from_db()
    assert (survey.slug, survey.public_title) == ("wave-one", "A questionnaire")
    assert survey.respondent_title == "A questionnaire"
    survey_update(survey=survey, slug="")  # empty keeps the link
    assert Survey.objects.get(pk=survey.pk).slug == "wave-one"
    question_create(survey=survey, text="Q?", kind="yes_no", design=WARNER)
    survey = survey_publish(survey=survey)
    with pytest.raises(SurveyStateError, match="cannot change after publishing"):
        survey_update(survey=survey, slug="wave-two")
    survey_update(survey=survey, public_title="Another name")  # still allowed


def test_close_date_must_follow_open_date(owner):
    survey = survey_create(owner=owner, title="Dates")
    from django.utils import timezone

    now = timezone.now()
    with pytest.raises(ValidationError, match="after the open date"):
        survey_update(survey=survey, opens_at=now, closes_at=now)
    with pytest.raises(ValidationError, match="after the open date"):
        survey_create(owner=owner, title="Backwards", opens_at=now, closes_at=now)


def test_questions_are_added_in_order_with_validated_designs(draft_survey):
    questions = list(draft_survey.questions.all())
    assert [q.position for q in questions] == [0, 1, 2, 3]
    assert questions[0].options == ["No", "Yes"]
    assert questions[2].design == {"name": "krr", "k": 4, "epsilon": 1.0}


@pytest.mark.parametrize(
    ("kind", "options", "design", "field"),
    [
        ("yes_no", None, {"name": "krr", "k": 2, "epsilon": 1}, "design"),
        ("yes_no", None, {"name": "warner", "p": 0.5}, "design"),
        ("multiple_choice", ["a"], {"name": "krr", "k": 1, "epsilon": 1}, "options"),
        (
            "multiple_choice",
            ["a", "b", "c"],
            {"name": "krr", "k": 4, "epsilon": 1},
            "options",
        ),
        (
            "multiple_choice",
            ["a", "a"],
            {"name": "krr", "k": 2, "epsilon": 1},
            "options",
        ),
        (
            "multiple_choice",
            [str(i) for i in range(21)],
            {"name": "krr", "k": 21, "epsilon": 1},
            "options",
        ),
        ("direct", ["x", "y"], {"name": "warner", "p": 0.7}, "design"),
        ("sideways", None, WARNER, "kind"),
    ],
)
def test_a_bad_question_is_refused_naming_the_field(
    draft_survey, kind, options, design, field
):
    with pytest.raises(ValidationError) as error:
        question_create(
            survey=draft_survey, text="Q", kind=kind, options=options, design=design
        )
    assert field in error.value.message_dict


def test_publishing_freezes_every_design_into_a_versioned_spec(draft_survey):
    survey = survey_publish(survey=draft_survey)
    assert survey.status == Survey.Status.OPEN
    assert survey.published_at is not None
    for question in survey.questions.all():
        assert question.spec == question.get_design().client_spec()
        assert question.spec_version == spec_digest(question.spec)
        assert len(question.spec_version) == 16


def test_a_published_survey_refuses_every_change_to_its_questions(open_survey):
    question = open_survey.questions.first()
    for change in (
        lambda: question_create(
            survey=open_survey, text="More", kind="yes_no", design=WARNER
        ),
        lambda: question_update(
            question=question, text="Other", kind="yes_no", design=WARNER
        ),
        lambda: question_delete(question=question),
        lambda: question_move(question=question, offset=1),
        lambda: survey_publish(survey=open_survey),
    ):
        with pytest.raises(SurveyStateError, match="frozen"):
            change()
    question.refresh_from_db()
    assert question.text.startswith("In the past 12 months")


def test_an_empty_survey_cannot_be_published(owner):
    survey = survey_create(owner=owner, title="Empty")
    with pytest.raises(SurveyStateError, match="at least one question"):
        survey_publish(survey=survey)


def test_close_and_reopen(open_survey):
    assert survey_close(survey=open_survey).status == Survey.Status.CLOSED
    with pytest.raises(SurveyStateError):
        survey_close(survey=open_survey)
    assert survey_reopen(survey=open_survey).status == Survey.Status.OPEN
    with pytest.raises(SurveyStateError):
        survey_reopen(survey=open_survey)


def test_questions_move_up_and_down_while_draft(draft_survey):
    last = draft_survey.questions.last()
    question_move(question=last, offset=-1)
    question_move(question=last, offset=-1)
    texts = list(draft_survey.questions.values_list("kind", flat=True))
    assert texts == ["yes_no", "direct", "yes_no", "multiple_choice"]
    question_move(question=Question.objects.get(pk=last.pk), offset=-5)
    assert draft_survey.questions.first().pk == last.pk


def test_survey_epsilon_adds_the_randomized_questions(draft_survey):
    assert epsilon_of(draft_survey) == pytest.approx(2 * math.log(3) + 1.0, abs=1e-8)


def test_respondent_questions_explain_each_design_in_plain_words(open_survey):
    questions = respondent_questions(open_survey)
    assert "75%" in questions[0]["protection"]
    assert "at most 75% sure" in questions[0]["observer"]
    assert questions[3]["sensitive"] is False
    assert questions[0]["spec"]["thresholds"][1][-1] == 2**32


def test_seed_demo_is_idempotent(monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "demo-pass-123")
    survey, password = demo_seed()
    again, second_password = demo_seed()
    assert survey.pk == again.pk
    assert survey.slug == DEMO_SLUG
    assert password == "demo-pass-123"
    assert second_password == "demo-pass-123"
    assert survey.status == Survey.Status.OPEN
    names = [q.design["name"] for q in survey.questions.all()]
    assert names == ["warner", "forced_response", "krr", "direct"]
    assert Survey.objects.count() == 1
