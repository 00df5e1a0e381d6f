"""A list experiment's notices and its model's warnings, written by the core
in English, are said in Spanish on a Spanish page, with the values they
carry, through its text role's NOTICE_TEXTS (surveys/results/notice_texts.py);
an English page keeps the core's words."""

from __future__ import annotations

import re
import string

import pytest
from django.utils import translation
from django.utils.translation import gettext

from estimation.contract import p_value_text
from estimation.kinds.listexperiment import model
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import NOTICE_TEMPLATES, estimate
from estimation.runs.services import estimate_run_now
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.kinds.listexperiment.text import NOTICE_TEXTS, ONE_LIST_EMPTY
from surveys.respond.submissions import response_record
from surveys.results.notice_texts import fit_caution_in_language, notice_in_language

# Few on each list, most of the longer list at 0 or 4, and the longer list's
# mean below the shorter's: four of the core's notices at once.
COUNTS = [1, 2, 3, 5, 8, 1, 1, 1, 3]


def placeholders(text: str, *, braces: bool) -> set[str]:
    if braces:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return set(re.findall(r"%\((\w+)\)s", text))


def test_every_notice_and_warning_of_the_core_has_words_to_translate():
    english = {e for e, _ in NOTICE_TEXTS}
    assert set(NOTICE_TEMPLATES.values()) <= english
    assert {model.ASSUMPTIONS, model.NOT_CONVERGED, model.AT_BOUNDARY} <= english
    assert ONE_LIST_EMPTY in english
    for template, said in NOTICE_TEXTS:
        # The same values, and otherwise the same English words.
        assert placeholders(template, braces=True) == placeholders(said, braces=False)
        as_braces = re.sub(r"%\((\w+)\)s", r"{\1}", said).replace("%%", "%")
        assert as_braces.replace("–", "-") == template.replace("–", "-")
        with translation.override("es"):
            assert gettext(said) != said, said


def test_the_core_s_notices_are_said_in_spanish_with_their_values():
    result = estimate(COUNTS, ListExperiment(3))
    codes = {n.code for n in result.notices}
    assert codes == {"few_in_arm", "floor_ceiling", "beyond_design", "design_effect"}
    said = {}
    for notice in result.notices:
        assert notice_in_language(notice) == notice.message  # English as written
        with translation.override("es"):
            said[notice.code] = notice_in_language(notice)
    assert said["few_in_arm"].startswith(
        "Solo 11 personas vieron la lista corta y 14 la larga. Con menos de 30"
    )
    assert said["floor_ceiling"].startswith("El 78,6\xa0% de quienes vieron")
    assert "es de -80,5 puntos porcentuales" in said["beyond_design"]
    p_value = p_value_text(result.design_effect.p_value).replace(".", ",")
    assert f"(valor p {p_value})" in said["design_effect"]
    assert said["design_effect"].startswith("Las respuestas sugieren un efecto")
    assert not any("respondents" in s for s in said.values())


def test_the_model_s_warnings_are_said_in_spanish():
    boundary = model.AT_BOUNDARY.format(count="2 covariate patterns")
    with translation.override("es"):
        assert fit_caution_in_language(model.ASSUMPTIONS).startswith(
            "El modelo se basa en los dos supuestos"
        )
        assert "en 2 patrones de covariables (MV en la frontera)" in (
            fit_caution_in_language(boundary)
        )
    assert fit_caution_in_language(boundary) == boundary


@pytest.mark.django_db
def test_the_spanish_card_says_the_notices_in_spanish(owner, client, settings):
    settings.ALLOW_UNBOUNDED_DESIGNS = True
    survey = survey_create(owner=owner, title="Hábitos", language="es")
    question_create(
        survey=survey,
        text="¿Cuántas de estas cosas ha hecho este año?",
        kind="list_experiment",
        options=["Ir a un concierto", "Comprar un móvil", "Votar", "Pagar un soborno"],
        design={"name": "list_experiment", "items": 3, "treatment_share": 0.5},
    )
    survey = survey_publish(survey=survey, confirm_unbounded=True)
    question = survey.questions.get()
    index = 0
    for report, count in enumerate(COUNTS):
        for _ in range(count):
            index += 1
            response_record(
                survey=survey,
                payload={
                    "respondent_key": f"{index:032x}",
                    "answers": [
                        {
                            "question": question.pk,
                            "report": report,
                            "spec_version": question.spec_version,
                        }
                    ],
                },
            )
    estimate_run_now(survey=survey)
    client.force_login(owner)
    client.post("/accounts/language/", {"language": "es", "next": "/"})
    page = client.get(f"/surveys/{survey.pk}/results/").content.decode()
    card = page[page.index(f'id="result-{question.pk}"') :]
    cautions = card[card.index('<ul class="cautions">') : card.index("</article>")]
    assert "Solo 11 personas vieron la lista corta" in cautions
    assert "de quienes vieron la lista larga" in cautions
    assert "Las respuestas sugieren un efecto de diseño" in cautions
    assert "La diferencia entre los recuentos medios de las dos listas" in cautions
    saved = survey.estimate_runs.filter(status="finished").latest("pk")
    messages = saved.question_estimates.get().warnings
    assert len(messages) == cautions.count("<li ") >= 3
    for english in messages:
        assert english["message"][:40] not in cautions
