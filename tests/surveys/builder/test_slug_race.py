"""Two researchers choosing the same custom link at the same instant: one gets
it, the other is told to choose another (a form error, or 409 naming ``slug``
in the API), never a 500 from the database's unique constraint."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from surveys.builder import services
from surveys.models import AuditEvent, Survey
from tests.api.conftest import token_client
from tests.conftest import skip_or_fail
from tests.surveys.builder.pages import form_errors, url

SURVEYS = "/api/v1/surveys/"


def _taken_before_save(monkeypatch, *, slug: str, by) -> None:
    """Another survey takes ``slug`` after the service's checks passed and just
    before its save: the moment a concurrent request can win."""
    check = services.access_settings_check

    def then_taken(survey) -> None:
        check(survey)
        Survey.objects.create(owner=by, title="Theirs", slug=slug)

    monkeypatch.setattr(services, "access_settings_check", then_taken)


@pytest.mark.django_db
def test_it_refuses_a_link_taken_between_the_check_and_the_save_on_the_page(
    monkeypatch, as_owner, stranger
):
    _taken_before_save(monkeypatch, slug="spring-wave", by=stranger)
    response = as_owner.post(
        url("create"),
        {"title": "Mine", "slug": "spring-wave", "planned_responses": "500"},
    )

    assert response.status_code == 200
    [message] = form_errors(response, "slug")
    assert "taken a moment ago" in message
    assert "choose another link" in message
    # "Theirs" went with the refused transaction here; in a real race it is
    # the other researcher's, committed (the threaded test below).
    assert not Survey.objects.filter(title="Mine").exists()
    assert not AuditEvent.objects.filter(action="survey.create").exists()


@pytest.mark.django_db
def test_it_refuses_a_link_taken_while_editing_on_the_page(
    monkeypatch, as_owner, draft_survey, stranger
):
    _taken_before_save(monkeypatch, slug="autumn-wave", by=stranger)
    response = as_owner.post(
        url("edit", draft_survey.pk),
        {
            "title": draft_survey.title,
            "slug": "autumn-wave",
            "planned_responses": "500",
        },
    )

    assert response.status_code == 200
    assert "taken a moment ago" in form_errors(response, "slug")[0]
    draft_survey.refresh_from_db()
    assert draft_survey.slug != "autumn-wave"


@pytest.mark.django_db
def test_it_answers_409_naming_the_slug_when_the_api_loses_the_link(
    monkeypatch, owner, stranger
):
    _taken_before_save(monkeypatch, slug="spring-wave", by=stranger)
    response = token_client(owner).post(
        SURVEYS, {"title": "Mine", "slug": "spring-wave"}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["field"] == "slug"
    assert "taken a moment ago" in response.json()["error"]


@pytest.mark.django_db
def test_other_integrity_errors_are_not_reported_as_a_taken_link(monkeypatch, owner):
    from django.db import IntegrityError

    def broken_save(self, *args, **kwargs):
        raise IntegrityError("some other constraint")

    monkeypatch.setattr(Survey, "save", broken_save)
    with pytest.raises(IntegrityError):
        services.survey_create(owner=owner, title="Mine", slug="spring-wave")


@pytest.mark.django_db(transaction=True)
def test_two_researchers_racing_for_one_link_get_one_201_and_one_409(
    monkeypatch, owner, stranger
):
    """Real threads on their own PostgreSQL connections: both pass every check
    before either saves, so the unique index decides."""
    if connection.vendor != "postgresql":
        skip_or_fail("two connections racing need PostgreSQL")
    barrier = threading.Barrier(2, timeout=10)
    check = services.access_settings_check

    def both_checked(survey) -> None:
        check(survey)
        barrier.wait()

    monkeypatch.setattr(services, "access_settings_check", both_checked)
    statuses: dict[str, tuple[int, dict]] = {}

    def create(user) -> None:
        try:
            response = token_client(user).post(
                SURVEYS, {"title": user.username, "slug": "spring-wave"}, format="json"
            )
            statuses[user.username] = (response.status_code, response.json())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create, args=(u,)) for u in (owner, stranger)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(code for code, _ in statuses.values()) == [201, 409]
    [(_, refused)] = [body for body in statuses.values() if body[0] == 409]
    assert refused["field"] == "slug"
    [survey] = Survey.objects.filter(slug="spring-wave")
    [(winner, _)] = [(n, s) for n, s in statuses.items() if s[0] == 201]
    assert survey.title == winner
