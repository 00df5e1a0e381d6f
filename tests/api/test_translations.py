"""The translations endpoint: a round trip, validation that names the field,
publishing refused while a language is incomplete, and afterwards only the
survey's own texts may change."""

import pytest

from surveys.builder.services import survey_publish
from tests.surveys.translated import SPANISH_TITLE, offer_spanish, spanish_wording

pytestmark = pytest.mark.django_db


def path(survey, what="translations"):
    return f"/api/v1/surveys/{survey.pk}/{what}/"


def document(survey, **texts):
    wording = spanish_wording(survey)
    return {
        "offered_languages": ["es"],
        "translations": {
            "es": {
                "title": SPANISH_TITLE,
                "introduction": "Hola",
                **texts,
                "questions": [{"id": pk, **given} for pk, given in wording.items()],
            }
        },
    }


def test_a_translation_round_trips(as_owner, draft_survey):
    reply = as_owner.put(path(draft_survey), document(draft_survey), format="json")
    assert reply.status_code == 200, reply.json()
    read = as_owner.get(path(draft_survey)).json()
    assert read == reply.json()
    assert read["language"] == "en"
    assert read["offered_languages"] == ["es"]
    spanish = read["translations"]["es"]
    assert spanish["title"] == SPANISH_TITLE
    assert spanish["complete"] is True
    assert spanish["missing"] == []
    assert spanish["questions"][2]["options"] == [
        "Nunca",
        "Una vez",
        "Algunas veces",
        "A menudo",
    ]


def test_a_partial_translation_is_kept_and_says_what_is_missing(as_owner, draft_survey):
    body = document(draft_survey, introduction="")
    reply = as_owner.put(path(draft_survey), body, format="json")
    assert reply.status_code == 200
    assert reply.json()["translations"]["es"]["missing"] == ["introduction"]
    publish = as_owner.post(path(draft_survey, "publish"))
    assert publish.status_code == 409
    assert publish.json() == {
        "error": "The Español translation is incomplete: introduction missing. "
        "Complete it or stop offering it.",
        "field": "offered_languages",
    }


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"offered_languages": ["en"]}, "offered_languages"),
        ({"offered_languages": ["fr"]}, "offered_languages"),
        ({"translations": {"fr": {"title": "Bonjour"}}}, "translations.fr.language"),
        (
            {"translations": {"es": {"questions": [{"id": 0, "text": "x"}]}}},
            "translations.es.questions",
        ),
    ],
)
def test_a_refusal_names_the_field(as_owner, draft_survey, change, field):
    reply = as_owner.put(path(draft_survey), change, format="json")
    assert reply.status_code == 400
    assert reply.json()["field"] == field


def test_texts_left_out_keep_their_translation(as_owner, draft_survey):
    as_owner.put(path(draft_survey), document(draft_survey), format="json")
    first = draft_survey.questions.first()
    change = {"translations": {"es": {"questions": [{"id": first.pk, "text": "¿?"}]}}}
    reply = as_owner.put(path(draft_survey), change, format="json")
    spanish = reply.json()["translations"]["es"]
    assert spanish["title"] == SPANISH_TITLE
    assert spanish["questions"][0]["text"] == "¿?"
    assert spanish["missing"] == ["question 1 options (2 needed)"]


def test_too_many_options_are_refused_naming_the_question(as_owner, draft_survey):
    first = draft_survey.questions.first()
    as_owner.put(path(draft_survey), {"offered_languages": ["es"]}, format="json")
    change = {
        "translations": {
            "es": {"questions": [{"id": first.pk, "options": ["No", "Sí", "Quizá"]}]}
        }
    }
    reply = as_owner.put(path(draft_survey), change, format="json")
    assert reply.status_code == 400
    assert reply.json()["field"] == "translations.es.questions"
    assert f"Question {first.pk} has 2 options; 3" in reply.json()["error"]


def test_after_publishing_only_the_survey_texts_change(as_owner, draft_survey):
    offer_spanish(draft_survey)
    assert as_owner.post(path(draft_survey, "publish")).status_code == 200
    same = as_owner.put(path(draft_survey), document(draft_survey), format="json")
    assert same.status_code == 200, same.json()  # sent back as read: no change
    reworded = document(draft_survey, introduction="Hola de nuevo")
    reworded["translations"]["es"]["questions"][0]["text"] = "¿Otra pregunta?"
    reply = as_owner.put(path(draft_survey), reworded, format="json")
    assert reply.status_code == 409
    assert reply.json()["field"] == "questions"
    assert "after publishing" in reply.json()["error"]
    languages = as_owner.put(
        path(draft_survey), {"offered_languages": []}, format="json"
    )
    assert languages.status_code == 409
    assert "published" in languages.json()["error"]
    emptied = as_owner.put(
        path(draft_survey), {"translations": {"es": {"title": ""}}}, format="json"
    )
    assert emptied.status_code == 400
    assert emptied.json()["field"] == "translations.es.title"
    texts = document(draft_survey, introduction="Hola de nuevo")
    saved = as_owner.put(path(draft_survey), texts, format="json")
    assert saved.status_code == 200, saved.json()
    spanish = as_owner.get(path(draft_survey)).json()["translations"]["es"]
    assert spanish["introduction"] == "Hola de nuevo"
    assert spanish["complete"]


def test_others_cannot_change_translations(as_colleague, draft_survey):
    reply = as_colleague.put(
        path(draft_survey), {"offered_languages": []}, format="json"
    )
    assert reply.status_code in {403, 404}


def test_the_public_definition_comes_in_each_offered_language(client, draft_survey):
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    english = client.get(f"/api/v1/public/surveys/{survey.slug}/").json()
    assert english["languages"] == [
        {"code": "en", "page_url": f"/s/{survey.slug}/en/"},
        {"code": "es", "page_url": f"/s/{survey.slug}/es/"},
    ]
    spanish = client.get(f"/api/v1/public/surveys/{survey.slug}/es/").json()
    assert spanish["language"] == "es"
    assert spanish["title"] == SPANISH_TITLE
    assert spanish["transparency_url"] == f"/s/{survey.slug}/es/transparency/"
    assert spanish["questions"][2]["options"][0] == "Nunca"
    assert spanish["questions"][0]["protection"].startswith("Su dispositivo")
    assert [q["spec"] for q in spanish["questions"]] == [
        q["spec"] for q in english["questions"]
    ]
    assert client.get(f"/api/v1/public/surveys/{survey.slug}/fr/").status_code == 404


def test_the_codebook_gives_each_question_in_each_language(
    as_owner, client, owner, draft_survey
):
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    book = as_owner.get(path(survey, "codebook")).json()
    assert book["survey"]["language"] == "en"
    assert book["survey"]["offered_languages"] == ["es"]
    bribe = book["questions"][2]
    assert bribe["translations"]["es"]["text"].startswith("¿Con qué frecuencia")
    assert bribe["translations"]["es"]["options"] == [
        {"code": 0, "label": "Nunca"},
        {"code": 1, "label": "Una vez"},
        {"code": 2, "label": "Algunas veces"},
        {"code": 3, "label": "A menudo"},
    ]
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/export/codebook/").content.decode()
    assert '3: <span lang="es">A menudo</span>' in page


def test_a_survey_in_one_language_has_no_translations_in_its_codebook(
    as_owner, open_survey
):
    book = as_owner.get(path(open_survey, "codebook")).json()
    assert book["survey"]["offered_languages"] == []
    assert all(q["translations"] == {} for q in book["questions"])


def test_the_survey_says_which_languages_it_offers(as_owner, draft_survey):
    offer_spanish(draft_survey)
    survey = as_owner.get(f"/api/v1/surveys/{draft_survey.pk}/").json()
    assert survey["offered_languages"] == ["es"]
    ignored = as_owner.patch(
        f"/api/v1/surveys/{draft_survey.pk}/", {"offered_languages": []}, format="json"
    )
    assert ignored.json()["offered_languages"] == ["es"]
