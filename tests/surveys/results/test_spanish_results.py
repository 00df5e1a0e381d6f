"""A researcher who chose Spanish reads the results page in Spanish: every
card (one question of each kind), the crossed breakdown, the comparisons,
the model, the charts' accessible names and the notices on the cards, with
no English sentence left (checked as the builder's pages are,
tests/surveys/spanish.py) and numbers written the Spanish way. The English
page keeps its words: the notices' English text is what the exports say."""

from __future__ import annotations

import re

import numpy as np
import pytest
from django.urls import reverse
from django.utils import translation

from estimation import contract
from estimation.inference import regression_cautions as fit
from estimation.runs.model_fits import model_fit_execute
from estimation.runs.models import EstimateRun, ModelFit
from estimation.runs.selectors import METHOD_NAMES, METHOD_NOTES
from estimation.runs.services import estimate_run_execute
from surveys.builder.demo import demo_content, demo_seed
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey
from surveys.results.forms import METHOD_WORDS
from surveys.results.notice_texts import CAUTION_WORDS, fit_caution_in_language
from surveys.sealing.services import team_key_set
from tests.surveys.respond.responses import submit
from tests.surveys.sealed.data import PUBLIC_JWK
from tests.surveys.spanish import MORE_KINDS, assert_spanish

pytestmark = pytest.mark.django_db

# The results page's own English, besides the builder's (ENGLISH_WORDS).
RESULTS_WORDS = re.compile(
    r"\b(estimates?|interval|intervals|group|groups|caution|computed|count|"
    r"counts|mean|model|share|reports?|points|not estimable|hardly informed|"
    r"beyond|difference|ratio|never|reached|about|more|less|than|by)\b",
    re.IGNORECASE,
)

# A second direct question, to cross with the age groups.
WHERE = {
    "text": "¿Dónde estudia?",
    "kind": "direct",
    "options": ["Norte", "Sur"],
    "design": {"name": "direct", "k": 2},
}


def spanish_survey(owner) -> Survey:
    """A published survey in Spanish with a question of every kind, 160
    responses, their estimates and a fitted model (the caller allows designs
    without a finite epsilon: ``ALLOW_UNBOUNDED_DESIGNS``)."""
    title, introduction, questions = demo_content("es")
    created = survey_create(
        owner=owner, title=title, introduction=introduction, language="es"
    )
    for question in [*questions, *MORE_KINDS, WHERE]:
        question_create(survey=created, **question)
    team_key_set(survey=created, public_jwk=PUBLIC_JWK)  # its sealed question's
    published = survey_publish(survey=created, confirm_unbounded=True)
    submit(published, np.random.default_rng(3131), 160)
    estimate_run_execute(run_id=EstimateRun.objects.filter(survey=published).first().pk)
    outcome = published.questions.get(kind="yes_no", position=0)
    ages = published.questions.filter(kind="direct").first()
    # Made by hand, as no job may be sent from here; run at once.
    fit = ModelFit.objects.create(
        survey=published,
        outcome=outcome,
        covariates=[{"question": ages.pk, "reference": 0}],
        level=0.95,
    )
    model_fit_execute(fit_id=fit.pk)
    return published


@pytest.fixture
def survey(owner, settings):
    # A device instruction's design has no finite epsilon: allowed here.
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    return spanish_survey(owner)


@pytest.fixture
def spanish(client, owner):
    """The owner, who chose Spanish (kept on the account)."""
    client.force_login(owner)
    reply = client.post("/accounts/language/", {"language": "es", "next": "/"})
    assert reply.status_code == 302
    return client


def own_texts(survey) -> tuple[str, ...]:
    """The researcher's texts (Spanish) and the usernames."""
    texts = ["owner", survey.title, survey.slug, "años"]
    for question in survey.questions.all():
        texts += [question.text, *(o for o in question.options if not o.isdigit())]
    return tuple(sorted(texts, key=len, reverse=True))


def results_page(client, survey) -> str:
    direct = list(survey.questions.filter(kind="direct"))
    url = reverse("surveys:results", args=[survey.pk])
    reply = client.get(url, {"cross_rows": direct[0].pk, "cross_columns": direct[1].pk})
    assert reply.status_code == 200
    return reply.content.decode()


def test_the_results_page_with_every_kind_is_spanish(spanish, survey):
    page = results_page(spanish, survey)
    # What the test must see for its verdict to mean anything.
    for part in (
        'id="crossed-',  # the crossed breakdown
        'class="comparison"',  # the comparisons of a breakdown
        'class="compliance-test"',  # the instructed question's card
        'class="number-summary"',  # a number asked plainly
        'class="scale-summary"',  # a rating scale
        'class="text-summary"',  # free text
        'class="data model-coefficients"',  # a fitted model
        "group-chart",  # a breakdown's chart
        'class="comparison validation-arm"',  # a validation arm
    ):
        assert part in page, part
    assert_spanish(page, own_texts=own_texts(survey), words=RESULTS_WORDS)


def test_the_numbers_are_written_the_spanish_way(spanish, survey):
    page = results_page(spanish, survey)
    estimates = page.split('id="results-estimates"', 1)[1]
    assert re.search(r"\d+,\d\xa0%", estimates)
    assert not re.search(r"\d+\.\d%", estimates)


def test_the_english_page_keeps_its_words(client, owner, survey):
    client.force_login(owner)
    page = results_page(client, survey)
    assert '<html lang="en">' in page
    for english in ("Estimates", "Recompute", "Model: who answers Yes?", "Caution:"):
        assert english in page, english
    assert not re.search(r"\d+,\d\xa0%", page)


def test_the_cautions_words_are_the_estimations():
    # The page says the estimation's cautions in English as the exports do.
    assert CAUTION_WORDS == contract.CAUTION_WORDS
    names = {*METHOD_NAMES.values(), *METHOD_NOTES.values()}
    assert set(METHOD_WORDS) == names == set(METHOD_WORDS.values())


def test_a_model_fit_s_cautions_are_said_in_spanish():
    english = fit.HARDLY.format(count="3 covariate patterns")
    assert fit_caution_in_language(english) == english
    with translation.override("es"):
        said = fit_caution_in_language(english)
        assert said.startswith("La prevalencia predicha de 3 patrones de covariables")
        assert fit_caution_in_language("Another warning.") == "Another warning."
        separated = fit.SEPARATION.format(terms="Edad: 30-44")
        assert fit_caution_in_language(separated).startswith("No estimables: Edad")


def test_a_refused_recomputation_is_told_in_spanish(spanish, survey):
    url = reverse("surveys:recompute", args=[survey.pk])
    reply = spanish.post(url, {"ci_method": "guess", "level": "0.95"}, follow=True)
    assert "No se recalculó." in reply.content.decode()


def test_the_simulated_demo_s_results_are_spanish(client):
    survey, password = demo_seed(password="demo-pass-1", respondents=200, language="es")
    client.force_login(survey.owner)
    client.post("/accounts/language/", {"language": "es", "next": "/"})
    page = client.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    assert "Estas respuestas son simuladas" in page
    assert re.search(r"\d+,\d\xa0%", page.split('class="truths"', 1)[1])
    texts = (*own_texts(survey), "demo", survey.introduction)
    assert_spanish(page, own_texts=texts, words=RESULTS_WORDS)
