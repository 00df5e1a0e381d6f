"""The audit log records each researcher action exactly once, every download
of answer rows, and nothing about respondents; the application never updates
or deletes an event (docs/teams.md, "Audit log")."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from surveys.models import AppendOnlyError, AuditEvent, Membership, Role
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db


def events(survey=None) -> list[tuple[str, str]]:
    found = AuditEvent.objects.order_by("at", "id")
    if survey is not None:
        found = found.filter(survey_id=survey.pk)
    return [(e.actor_name, e.action) for e in found]


@pytest.fixture
def analyst(django_user_model, draft_survey):
    user = django_user_model.objects.create_user("ana")
    Membership.objects.create(survey=draft_survey, user=user, role=Role.ANALYST)
    return user


def test_each_action_through_the_pages_is_recorded_once(client, owner, draft_survey):
    client.force_login(owner)
    pk = draft_survey.pk
    question = draft_survey.questions.first()
    steps = [
        (f"/surveys/{pk}/questions/{question.pk}/move/", {"direction": "down"}),
        (f"/surveys/{pk}/publish/", {}),
        (f"/surveys/{pk}/close/", {}),
        (f"/surveys/{pk}/reopen/", {}),
        (f"/surveys/{pk}/results/recompute/", {"ci_method": "mid_p", "level": "0.95"}),
        (f"/surveys/{pk}/duplicate/", {}),
    ]
    for path, data in steps:
        response = client.post(path, data)
        assert response.status_code == 302, (path, response.content[:300])
    got = [action for _actor, action in events(draft_survey)]
    created = ["survey.create"] + ["question.create"] * draft_survey.questions.count()
    assert got == created + [
        "question.move",
        "survey.publish",
        "survey.close",
        "survey.reopen",
        "estimates.run",
    ]
    actors = {actor for actor, _action in events(draft_survey)[len(created) :]}
    assert actors == {"owner"}
    assert AuditEvent.objects.filter(action="survey.duplicate").count() == 1


def test_translations_are_recorded(owner, draft_survey):
    api = token_client(owner)
    body = {"offered_languages": ["es"], "translations": {"es": {"title": "Hábitos"}}}
    response = api.put(
        f"/api/v1/surveys/{draft_survey.pk}/translations/", body, format="json"
    )
    assert response.status_code == 200, response.content
    last = AuditEvent.objects.filter(survey=draft_survey).order_by("-at", "-id")[:2]
    assert [(e.action, e.detail) for e in reversed(last)] == [
        (
            "survey.update",
            {"fields": ["offered_languages"], "offered_languages": ["es"]},
        ),
        ("translation.update", {"language": "es"}),
    ]


def test_the_whole_life_of_a_survey_through_the_api(owner, django_user_model):
    api = token_client(owner)
    created = api.post("/api/v1/surveys/", {"title": "Audited"}, format="json")
    assert created.status_code == 201
    pk = created.json()["id"]
    question = {
        "text": "Did you?",
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.75},
    }
    first = api.post(f"/api/v1/surveys/{pk}/questions/", question, format="json")
    second = api.post(f"/api/v1/surveys/{pk}/questions/", question, format="json")
    assert first.status_code == second.status_code == 201, first.content
    ids = [first.json()["id"], second.json()["id"]]
    calls = [
        ("patch", f"/api/v1/surveys/{pk}/", {"title": "Audited, renamed"}),
        ("patch", f"/api/v1/surveys/{pk}/questions/{ids[0]}/", {"text": "Ever?"}),
        ("post", f"/api/v1/surveys/{pk}/questions/order/", {"order": ids[::-1]}),
        ("delete", f"/api/v1/surveys/{pk}/questions/{ids[1]}/", None),
        ("post", f"/api/v1/surveys/{pk}/publish/", None),
        ("post", f"/api/v1/surveys/{pk}/close/", None),
        ("post", f"/api/v1/surveys/{pk}/reopen/", None),
        ("post", f"/api/v1/surveys/{pk}/runs/", {}),
        ("get", f"/api/v1/surveys/{pk}/answers.csv", None),
        ("get", f"/api/v1/surveys/{pk}/answers.jsonl", None),
        ("get", f"/api/v1/surveys/{pk}/codebook/", None),
        ("head", f"/api/v1/surveys/{pk}/answers.csv", None),  # downloads nothing
        ("post", f"/api/v1/surveys/{pk}/duplicate/", None),
    ]
    for method, path, body in calls:
        response = getattr(api, method)(path, body, format="json")
        assert response.status_code < 300, (path, response.content[:300])
    copy_pk = response.json()["id"]
    assert [action for _actor, action in events_of(pk)] == [
        "survey.create",
        "question.create",
        "question.create",
        "survey.update",
        "question.update",
        "questions.reorder",
        "question.delete",
        "survey.publish",
        "survey.close",
        "survey.reopen",
        "estimates.run",
        "answers.download",
        "answers.download",
        "codebook.download",
    ]
    assert {actor for actor, _action in events_of(pk)} == {"owner"}
    copied = AuditEvent.objects.get(survey_id=copy_pk)
    assert copied.action == "survey.duplicate"
    assert copied.detail["copied_from"] == pk
    # A draft with no answers can be deleted; its history stays, with the deletion.
    assert api.delete(f"/api/v1/surveys/{copy_pk}/").status_code == 204
    assert [a for _actor, a in events_of(copy_pk)] == [
        "survey.duplicate",
        "survey.delete",
    ]
    assert AuditEvent.objects.filter(survey_id=copy_pk).last().survey_title


def events_of(pk: int) -> list[tuple[str, str]]:
    return [
        (e.actor_name, e.action)
        for e in AuditEvent.objects.filter(survey_id=pk).order_by("at", "id")
    ]


def test_a_refused_action_leaves_no_event(owner, open_survey):
    api = token_client(owner)
    before = AuditEvent.objects.count()
    assert api.post(f"/api/v1/surveys/{open_survey.pk}/publish/").status_code == 409
    question = open_survey.questions.first()
    response = api.delete(f"/api/v1/surveys/{open_survey.pk}/questions/{question.pk}/")
    assert response.status_code == 409
    assert AuditEvent.objects.count() == before


def test_an_analysts_download_of_answers_is_recorded(client, analyst, open_survey):
    client.force_login(analyst)
    response = client.get(f"/surveys/{open_survey.pk}/export/answers.csv")
    assert response.status_code == 200
    b"".join(response.streaming_content)
    event = AuditEvent.objects.get(action="answers.download")
    assert (event.actor_name, event.actor_id, event.survey_id) == (
        "ana",
        analyst.pk,
        open_survey.pk,
    )
    assert event.detail == {"format": "csv", "via": "web"}


@pytest.mark.parametrize(
    ("path", "file_format"),
    [("export/codebook.json", "json"), ("export/codebook/", "html")],
)
def test_an_analysts_reading_of_the_codebook_is_recorded(
    client, analyst, open_survey, path, file_format
):
    """The page shows what the file holds: both are recorded, the page too."""
    client.force_login(analyst)
    response = client.get(f"/surveys/{open_survey.pk}/{path}")
    assert response.status_code == 200
    event = AuditEvent.objects.get(action="codebook.download")
    assert (event.actor_id, event.survey_id) == (analyst.pk, open_survey.pk)
    assert event.detail == {"format": file_format, "via": "web"}


def test_a_codebook_page_refused_to_a_viewer_is_not_recorded(
    client, django_user_model, open_survey
):
    viewer = django_user_model.objects.create_user("vi")
    Membership.objects.create(survey=open_survey, user=viewer, role=Role.VIEWER)
    client.force_login(viewer)
    assert client.get(f"/surveys/{open_survey.pk}/export/codebook/").status_code == 403
    assert not AuditEvent.objects.filter(action="codebook.download").exists()


def test_respondents_leave_no_trace_in_the_log(client, open_survey):
    from tests.surveys.access.conftest import body, post

    before = AuditEvent.objects.count()
    assert post(client, open_survey, body(open_survey)).status_code == 201
    assert AuditEvent.objects.count() == before


def test_the_table_has_no_place_for_an_address_or_a_respondent():
    columns = {f.name for f in AuditEvent._meta.get_fields()}
    assert columns == {
        "id",
        "at",
        "actor",
        "actor_name",
        "survey",
        "survey_title",
        "action",
        "detail",
    }


# -- append-only ---------------------------------------------------------------


@pytest.fixture
def event(owner, draft_survey):
    return AuditEvent.objects.filter(survey=draft_survey).order_by("at", "id").first()


def test_the_orm_refuses_to_change_or_remove_an_event(event):
    event.action = "survey.publish"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.filter(pk=event.pk).update(action="x")
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.all().delete()
    assert AuditEvent.objects.get(pk=event.pk).action == "survey.create"


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE surveys_auditevent SET action = 'x'",
        "DELETE FROM surveys_auditevent",
    ],
)
def test_the_database_refuses_too(event, statement):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_deleting_a_survey_or_an_account_keeps_their_history(
    owner, draft_survey, event
):
    from surveys.builder.services import survey_delete

    survey_delete(survey=draft_survey, actor=owner)
    owner.delete()
    kept = AuditEvent.objects.filter(survey_id=event.survey_id).order_by("at", "id")
    assert [(e.actor_name, e.action) for e in kept][0] == ("owner", "survey.create")
    assert kept.last().action == "survey.delete"
    assert all(e.survey_title == "Sensitive habits" for e in kept)
