"""The permission matrix: every route of the URL configuration, every method,
every part a person can play (surveys/team/roles.py, docs/teams.md).

The routes are read from the URL configuration, and each must have a row in
``ROWS`` saying what it is and what each method needs: a route added without
one fails :func:`test_every_route_has_a_row`, so none escapes the matrix.

Expected, for a survey's routes:

- anonymous: the login page (web) or 401 (API);
- a researcher with no role on the survey: 404, whatever the method;
- staff without a role: allowed what a viewer may, 403 for the rest;
- a member: allowed if the role reaches the method's need, else 403;
- a method the route does not take: 405 (web; the API checks access first).

"Allowed" means not refused: any status but 401, 403, 404, 405, 5xx (an
empty form may well be a 400, a state change a 409).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from estimation.runs.scheduling import estimate_run_request, model_fit_request
from surveys.builder.services import survey_publish
from surveys.builder.translations import survey_languages_set
from surveys.models import Membership, Role
from surveys.team.roles import Need, allows

pytestmark = pytest.mark.django_db

VIEW, ANALYSE, EDIT, OWN = Need.VIEW, Need.ANALYSE, Need.EDIT, Need.OWN
PUBLIC, RESEARCHER, SURVEY, EXCLUDED = "public", "researcher", "survey", "excluded"
READS = ("GET", "HEAD", "OPTIONS")
WRITES = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Row:
    kind: str
    needs: dict[str, Need] = field(default_factory=dict)
    methods: tuple[str, ...] = ()  # for public and researcher routes
    always: int | None = None  # the status whoever asks

    @property
    def allowed(self) -> tuple[str, ...]:
        return tuple(self.needs) if self.kind == SURVEY else self.methods


def survey(**needs: Need) -> Row:
    return Row(SURVEY, needs)


def api(**needs: Need) -> Row:
    """An API route also answers HEAD and OPTIONS where it answers GET."""
    if "GET" in needs:
        needs = {**needs, "HEAD": needs["GET"], "OPTIONS": needs["GET"]}
    return Row(SURVEY, needs)


ROWS: dict[str, Row] = {
    # Public: respondents, logging in, the API's description.
    "home": Row(PUBLIC, methods=("GET", "PUT", "PATCH")),  # redirects any method
    "login": Row(PUBLIC, methods=("GET", "POST", "PUT")),  # a form view: PUT posts
    "logout": Row(PUBLIC, methods=("POST",)),
    # The code after the password; without a password first, back to the login.
    "login-code": Row(PUBLIC, methods=("GET", "POST")),
    # The language chooser at the foot of researcher pages (tests/accounts).
    "set_language": Row(PUBLIC, methods=("POST",)),
    "respond:page": Row(PUBLIC, methods=("GET",)),
    "respond:transparency": Row(PUBLIC, methods=("GET",)),
    "respond:page_in": Row(PUBLIC, methods=("GET",)),
    "respond:transparency_in": Row(PUBLIC, methods=("GET",)),
    "api:public": Row(PUBLIC, methods=("GET",)),
    "api:public_in": Row(PUBLIC, methods=("GET",)),
    "api:submit": Row(PUBLIC, methods=("POST",)),
    "api:access_check": Row(PUBLIC, methods=("POST",)),
    "api-schema": Row(PUBLIC, methods=("GET",)),
    "api-docs": Row(PUBLIC, methods=("GET",)),
    # Accounts: Django's form views take PUT as they take POST.
    "admin/login/": Row(PUBLIC, methods=("GET", "PUT", "PATCH")),  # a redirect
    "password_reset": Row(PUBLIC, methods=("GET", "POST", "PUT")),
    "password_reset_done": Row(PUBLIC, methods=("GET",)),
    # Checks the link before the method: an invalid one is a page for any method.
    "password_reset_confirm": Row(PUBLIC, methods=("GET", "POST", "PUT", "PATCH")),
    "password_reset_complete": Row(PUBLIC, methods=("GET",)),
    # Sign-up is off unless SIGNUP_ENABLED (tests/accounts/test_signup.py).
    "signup": Row(PUBLIC, methods=("GET", "POST"), always=404),
    "signup_sent": Row(PUBLIC, methods=("GET", "PUT", "PATCH"), always=404),
    "signup_verify": Row(PUBLIC, methods=("GET", "POST"), always=404),
    # Anything else under /api/v1/: a JSON 404 naming the endpoints' list.
    "api/v1/": Row(PUBLIC, methods=("GET",), always=404),
    # Any researcher: their own account and surveys.
    "api-token": Row(RESEARCHER, methods=("GET", "POST")),
    "password_change": Row(RESEARCHER, methods=("GET", "POST", "PUT")),
    "password_change_done": Row(RESEARCHER, methods=("GET",)),
    "two-factor": Row(RESEARCHER, methods=("GET", "POST")),
    "two-factor-enrol": Row(RESEARCHER, methods=("GET", "POST")),
    "surveys:list": Row(RESEARCHER, methods=("GET",)),
    "surveys:create": Row(RESEARCHER, methods=("GET", "POST")),
    "surveys:design_preview": Row(RESEARCHER, methods=("GET",)),
    "api:surveys": Row(RESEARCHER, methods=("GET", "POST")),
    # A survey's pages.
    "surveys:detail": survey(GET=VIEW),
    "surveys:preview": survey(GET=VIEW),
    "surveys:preview_in": survey(GET=VIEW),
    "surveys:results": survey(GET=VIEW),
    # The team key's fingerprint is any member's; making it an editor's. The
    # sealed envelopes are answer rows (an analyst's).
    "surveys:team_key": survey(GET=VIEW, POST=EDIT),
    "surveys:sealed_answers": survey(GET=ANALYSE),
    "surveys:run_progress": survey(GET=VIEW),
    "surveys:results_status": survey(GET=VIEW),
    "surveys:export_estimates_csv": survey(GET=VIEW),
    "surveys:export_estimates_json": survey(GET=VIEW),
    "surveys:recompute": survey(POST=ANALYSE),
    "surveys:model_fit": survey(POST=ANALYSE),
    "surveys:model_progress": survey(GET=VIEW),
    "surveys:export_answers_csv": survey(GET=ANALYSE),
    "surveys:export_answers_jsonl": survey(GET=ANALYSE),
    "surveys:export_answers_sav": survey(GET=ANALYSE),
    "surveys:export_answers_dta": survey(GET=ANALYSE),
    "surveys:export_analysis_bundle": survey(GET=ANALYSE),
    "surveys:export_codebook_json": survey(GET=ANALYSE),
    "surveys:codebook": survey(GET=ANALYSE),
    "surveys:edit": survey(GET=EDIT, POST=EDIT),
    "surveys:duplicate": survey(POST=EDIT),
    "surveys:translations": survey(GET=EDIT, POST=EDIT),
    "surveys:translation_edit": survey(GET=EDIT, POST=EDIT),
    "surveys:publish": survey(GET=EDIT, POST=EDIT),
    "surveys:close": survey(POST=EDIT),
    "surveys:reopen": survey(POST=EDIT),
    "surveys:question_create": survey(GET=EDIT, POST=EDIT),
    "surveys:question_edit": survey(GET=EDIT, POST=EDIT),
    "surveys:question_delete": survey(GET=EDIT, POST=EDIT),
    "surveys:question_move": survey(POST=EDIT),
    "surveys:sections": survey(GET=VIEW, POST=EDIT),
    "surveys:section_questions": survey(POST=EDIT),
    "surveys:section_edit": survey(POST=EDIT),
    "surveys:section_move": survey(POST=EDIT),
    "surveys:section_delete": survey(POST=EDIT),
    "surveys:invitations": survey(GET=EDIT),
    "surveys:invitations_create": survey(POST=EDIT),
    "surveys:invitations_import": survey(POST=EDIT),
    "surveys:invitations_csv": survey(GET=EDIT),
    "surveys:invitations_mail": survey(GET=EDIT),
    "surveys:invitations_mail_addresses": survey(POST=EDIT),
    "surveys:invitations_mail_forget": survey(POST=EDIT),
    "surveys:invitations_mail_message": survey(POST=EDIT),
    "surveys:invitations_mail_send": survey(POST=EDIT),
    "surveys:invitations_mail_progress": survey(GET=EDIT),
    "surveys:delete": survey(GET=OWN, POST=OWN),
    # A survey's team and history (a member may also leave: tests/surveys/team).
    "surveys:team": survey(GET=VIEW),
    "surveys:team_add": survey(POST=OWN),
    "surveys:team_role": survey(POST=OWN),
    "surveys:team_remove": survey(POST=OWN),
    "surveys:team_transfer": survey(GET=OWN, POST=OWN),
    "surveys:audit": survey(GET=OWN),
    "surveys:audit_csv": survey(GET=OWN),
    # A survey through the API.
    "api:survey": api(GET=VIEW, PUT=EDIT, PATCH=EDIT, DELETE=OWN),
    "api:survey-publish": api(POST=EDIT),
    "api:survey-close": api(POST=EDIT),
    "api:survey-reopen": api(POST=EDIT),
    "api:survey-duplicate": api(POST=EDIT),
    "api:translations": api(GET=VIEW, PUT=EDIT),
    "api:questions": api(GET=VIEW, POST=EDIT),
    "api:question-order": api(POST=EDIT),
    "api:question": api(GET=VIEW, PUT=EDIT, PATCH=EDIT, DELETE=EDIT),
    "api:sections": api(GET=VIEW, POST=EDIT),
    "api:section-order": api(POST=EDIT),
    "api:section": api(GET=VIEW, PUT=EDIT, PATCH=EDIT, DELETE=EDIT),
    "api:runs": api(GET=VIEW, POST=ANALYSE),
    "api:run": api(GET=VIEW),
    "api:models": api(GET=VIEW, POST=ANALYSE),
    "api:model": api(GET=VIEW),
    "api:estimates": api(GET=VIEW),
    "api:estimates-csv": api(GET=VIEW),
    "api:codebook": api(GET=ANALYSE),
    "api:answers-csv": api(GET=ANALYSE),
    "api:answers-jsonl": api(GET=ANALYSE),
    "api:answers-sav": api(GET=ANALYSE),
    "api:answers-dta": api(GET=ANALYSE),
    "api:analysis-bundle": api(GET=ANALYSE),
    "api:members": api(GET=VIEW, POST=OWN),
    "api:member": api(GET=VIEW, PATCH=OWN, DELETE=OWN),
    "api:transfer": api(POST=OWN),
    "api:audit": api(GET=OWN),
    "api:audit-csv": api(GET=OWN),
}
# Namespaces with their own tests: the Django admin (staff only, tests/accounts).
EXCLUDED_NAMESPACES = {"admin"}


def url_routes(
    resolver: URLResolver | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str]]:
    """(key, route) of every URL pattern: the key is ``namespace:name``, or the
    route itself for an unnamed one."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if entry.namespace in EXCLUDED_NAMESPACES:
                continue
            yield from url_routes(entry, route, entry.namespace or namespace)
        elif isinstance(entry, URLPattern):
            if route.startswith("^static") or route.startswith("static"):
                continue
            name = f"{namespace}:{entry.name}" if namespace else entry.name
            yield (name if entry.name else route), route


def test_every_route_has_a_row():
    routes = dict(url_routes())
    missing = sorted(set(routes) - set(ROWS))
    assert not missing, f"Add these routes to ROWS in {__file__}: {missing}"
    gone = sorted(set(ROWS) - set(routes))
    assert not gone, f"ROWS names routes that no longer exist: {gone}"


# -- the scene ---------------------------------------------------------------------

ROLES = ("owner", "editor", "analyst", "viewer", "non-member", "staff", "anonymous")
MEMBER_ROLES = {"editor": Role.EDITOR, "analyst": Role.ANALYST, "viewer": Role.VIEWER}


@dataclass
class Scene:
    survey: object
    published: object
    run: object
    fit: object
    users: dict[str, object]
    spare: object  # deleted through the API, while the web deletes ``survey``
    # Members outside the cast, for the routes that change or remove one:
    # {"web": membership, "api": membership}.
    extras: dict[str, object]

    def values(self, method: str, route: str) -> dict[str, str]:
        questions = list(self.survey.questions.order_by("position"))
        # Each deleting route removes a question of its own, so the others
        # still find theirs.
        deleting = method == "DELETE" or route.endswith("/delete/")
        if deleting and route.startswith("api/"):
            question = questions[1]
        elif deleting:
            question = questions[2]
        else:
            question = questions[0]
        # Sections likewise: the first for every other route.
        sections = list(self.survey.sections.order_by("position"))
        if deleting and route.startswith("api/"):
            section = sections[1]
        elif deleting:
            section = sections[2]
        else:
            section = sections[0]
        public_routes = route.startswith(("s/", "api/v1/public/"))
        api_route = route.startswith("api/")
        api_deletes = method == "DELETE" and route == "api/v1/surveys/<int:pk>/"
        return {
            "pk": str((self.spare if api_deletes else self.survey).pk),
            "qid": str(question.pk),
            "sid": str(section.pk),
            "run_id": str(self.run.pk),
            "fit_id": str(self.fit.pk),
            "slug": self.published.slug if public_routes else self.survey.slug,
            "lang": "es",
            "member_id": str(self.extras["api" if api_route else "web"].pk),
            "uidb64": "MQ",
            "token": "set-password",
        }


@pytest.fixture
def scene(owner, django_user_model, django_capture_on_commit_callbacks):
    from surveys.builder.demo import DEMO_QUESTIONS
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create

    survey = survey_create(owner=owner, title="Team work")
    for question in DEMO_QUESTIONS:
        question_create(survey=survey, **question)
    assert survey.questions.count() >= 3
    from surveys.builder.sections import section_create

    for title in ("First", "Second", "Third"):
        section_create(survey=survey, title=title)
    survey_languages_set(survey=survey, languages=["es"])
    # Written in Spanish, so /s/<slug>/es/ is its own language.
    published = survey_create(owner=owner, title="Answered", language="es")
    question_create(survey=published, **DEMO_QUESTIONS[0])
    survey_publish(survey=published)
    outcome, age = survey.questions.get(position=0), survey.questions.last()
    with django_capture_on_commit_callbacks(execute=False):
        run = estimate_run_request(survey=survey)
        fit = model_fit_request(
            survey=survey, outcome=outcome.pk, covariates=[{"question": age.pk}]
        )
    spare = survey_create(owner=owner, title="Spare")
    users = {"owner": owner}
    for name, role in MEMBER_ROLES.items():
        users[name] = django_user_model.objects.create_user(name)
        for team_survey in (survey, spare):
            Membership.objects.create(survey=team_survey, user=users[name], role=role)
    extras = {
        where: Membership.objects.create(
            survey=survey,
            user=django_user_model.objects.create_user(f"extra-{where}"),
            role=Role.VIEWER,
        )
        for where in ("web", "api")
    }
    users["non-member"] = django_user_model.objects.create_user("outsider")
    users["staff"] = django_user_model.objects.create_user("overseer", is_staff=True)
    return Scene(survey, published, run, fit, users, spare, extras)


def clients(scene: Scene, role: str) -> tuple[Client, APIClient]:
    web, api_client = Client(), APIClient()
    if role != "anonymous":
        user = scene.users[role]
        web.force_login(user)
        token, _ = Token.objects.get_or_create(user=user)
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return web, api_client


def fill(route: str, values: dict[str, str]) -> str:
    path = route
    for name, value in values.items():
        for converter in ("int", "slug", "lang", "str", ""):
            tag = f"<{converter}:{name}>" if converter else f"<{name}>"
            path = path.replace(tag, value)
    assert "<" not in path, f"no value for a parameter of {route}"
    return "/" + path


def requests_of(scene: Scene) -> list[tuple[str, str, str, Row]]:
    """(key, method, path, row) of every route and method, plus one method
    each web route does not take; reads first, deletions of the survey and
    logging out last, so that earlier calls leave later ones something to act
    on and someone to act as."""
    found = []
    for key, route in url_routes():
        row = ROWS[key]
        methods = list(row.allowed)
        if not route.startswith("api/"):
            methods.append("PUT" if "PUT" not in methods else "PATCH")
        for method in methods:
            found.append((key, method, fill(route, scene.values(method, route)), row))
    survey_deletions = {"surveys:delete", "api:survey"}
    return sorted(
        found,
        key=lambda r: (
            r[1] not in READS,
            r[0] == "logout",
            r[0] in survey_deletions and r[1] in ("POST", "DELETE"),
            r[1] == "DELETE" or r[2].endswith(("/delete/", "/remove/")),
        ),
    )


def call(client: Client, method: str, path: str):
    if isinstance(client, APIClient):
        return getattr(client, method.lower())(path, data={}, format="json")
    if method == "POST":
        return client.post(path, {})
    return client.generic(method, path)


def expected(role: str, row: Row, method: str, is_api: bool) -> str:
    """What the request must get: "allowed", "login" or a status."""
    if row.always is not None:
        return str(row.always) if method in row.allowed else "405"
    if row.kind == PUBLIC:
        return "allowed" if method in row.allowed else "405"
    if role == "anonymous":
        return "401" if is_api else "login"
    if method not in row.allowed:
        return "405"
    if row.kind == RESEARCHER:
        return "allowed"
    need = row.needs[method]
    member_role = (
        None
        if role in ("non-member", "staff")
        else Role("owner" if role == "owner" else MEMBER_ROLES[role])
    )
    if member_role is None and role == "non-member":
        return "404"
    return "allowed" if allows(member_role, need, staff=role == "staff") else "403"


@pytest.mark.parametrize("role", ROLES)
def test_every_route_method_and_role(role, scene):
    web, api_client = clients(scene, role)
    checked = 0
    for key, method, path, row in requests_of(scene):
        is_api = path.startswith("/api/")
        response = call(api_client if is_api else web, method, path)
        status = response.status_code
        want = expected(role, row, method, is_api)
        where = f"{role} {method} {path} ({key}): got {status}, want {want}"
        if want == "allowed":
            assert status not in (401, 403, 404, 405), where
            assert status < 500, where
        elif want == "login":
            assert status == 302, where
            assert response["Location"].startswith("/accounts/login/"), where
        else:
            assert status == int(want), where
            if want == "403" and is_api and method != "HEAD":
                assert "role" in response.json()["error"], where
        checked += 1
    assert checked >= len(ROWS)


def test_an_aggregates_only_viewer_reads_estimates_but_no_rows(scene):
    web, api_client = clients(scene, "viewer")
    pk = scene.survey.pk
    for path in (
        f"/api/v1/surveys/{pk}/estimates/",
        f"/api/v1/surveys/{pk}/estimates.csv",
        f"/api/v1/surveys/{pk}/runs/",
    ):
        assert api_client.get(path).status_code == 200, path
    for path in (
        f"/surveys/{pk}/results/",
        f"/surveys/{pk}/export/estimates.csv",
        f"/surveys/{pk}/export/estimates.json",
    ):
        assert web.get(path).status_code == 200, path
    for path in (
        f"/api/v1/surveys/{pk}/answers.csv",
        f"/api/v1/surveys/{pk}/answers.jsonl",
        f"/api/v1/surveys/{pk}/answers.sav",
        f"/api/v1/surveys/{pk}/answers.dta",
        f"/api/v1/surveys/{pk}/analysis-bundle.zip",
        f"/api/v1/surveys/{pk}/codebook/",
    ):
        response = api_client.get(path)
        assert response.status_code == 403, path
        assert "viewer" in response.json()["error"]
    for path in (
        f"/surveys/{pk}/export/answers.csv",
        f"/surveys/{pk}/export/answers.jsonl",
        f"/surveys/{pk}/export/answers.sav",
        f"/surveys/{pk}/export/answers.dta",
        f"/surveys/{pk}/export/analysis-bundle.zip",
        f"/surveys/{pk}/export/codebook.json",
        f"/surveys/{pk}/export/codebook/",
    ):
        assert web.get(path).status_code == 403, path
    results = web.get(f"/surveys/{pk}/results/").content.decode()
    assert "/export/answers.csv" not in results
    assert "/export/answers.sav" not in results
    assert "/export/answers.dta" not in results
    assert "/export/analysis-bundle.zip" not in results
    assert "aggregates only" in results


def test_the_survey_list_shows_each_role(scene):
    for role in ("owner", "editor", "analyst", "viewer"):
        _web, api_client = clients(scene, role)
        listed = {
            s["id"]: s for s in api_client.get("/api/v1/surveys/").json()["results"]
        }
        assert listed[scene.survey.pk]["role"] == role
        assert listed[scene.survey.pk]["may"]["read_answers"] == (role != "viewer")
        assert listed[scene.survey.pk]["may"]["manage"] == (role == "owner")
        assert (scene.published.pk in listed) == (role == "owner")
    _web, outsider = clients(scene, "non-member")
    assert outsider.get("/api/v1/surveys/").json()["results"] == []
    _web, staff = clients(scene, "staff")
    listed = {s["id"]: s for s in staff.get("/api/v1/surveys/").json()["results"]}
    assert listed[scene.survey.pk]["role"] is None
    assert listed[scene.survey.pk]["may"] == {
        "view_estimates": True,
        "read_answers": False,
        "edit": False,
        "manage": False,
    }
