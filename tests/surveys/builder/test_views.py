"""The researchers' pages: access, building a survey, its life cycle, the preview."""

import math

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from surveys.builder.services import question_create, survey_close, survey_create
from surveys.models import Question, Response, Survey

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"surveys:{name}", args=args)


def question_data(**overrides):
    """A question form as a browser posts it: every field, most left as given."""
    data = {
        "text": "Have you ever driven after drinking?",
        "kind": "yes_no",
        "options": "",
        "design_name": "warner",
        "mode": "probabilities",
        "epsilon": "1",
        "p": "0.75",
        "q": "0.5",
        "p_truth": "0.5",
        "p_forced": "",
    }
    data.update(overrides)
    return data


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def form_errors(response, field):
    return response.context["form"].errors.get(field, [])


@pytest.fixture
def as_owner(client, owner):
    client.force_login(owner)
    return client


def first_question(survey):
    return survey.questions.first()


# -- logging in -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("list", ()),
        ("create", ()),
        ("detail", (1,)),
        ("edit", (1,)),
        ("preview", (1,)),
        ("publish", (1,)),
        ("question_create", (1,)),
        ("question_edit", (1, 1)),
        ("question_delete", (1, 1)),
        ("design_preview", ()),
    ],
)
def test_every_researcher_page_requires_logging_in(client, name, args):
    response = client.get(url(name, *args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_an_anonymous_post_changes_nothing(client, open_survey):
    response = client.post(url("close", open_survey.pk))
    assert response.status_code == 302
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


def test_the_login_page_has_labelled_fields(client):
    page = client.get(reverse("login")).content.decode()
    assert '<label for="id_username">' in page
    assert '<label for="id_password">' in page
    assert "Log in</button>" in page


def test_a_wrong_password_is_explained(client, owner):
    response = client.post(
        reverse("login"), {"username": "owner", "password": "not-the-password"}
    )
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "correct username and password" in response.content.decode()


def test_logging_in_leads_to_the_survey_list(client, owner):
    response = client.post(
        reverse("login"), {"username": "owner", "password": "owner-pass-1"}
    )
    assert response["Location"] == url("list")


def test_the_header_names_the_researcher_and_logs_out_with_a_post(as_owner):
    page = as_owner.get(url("list")).content.decode()
    assert "Signed in as <strong>owner</strong>" in page
    assert f'<form method="post" action="{reverse("logout")}">' in page
    assert "Log out</button>" in page


# -- only one's own surveys -------------------------------------------------


@pytest.fixture(params=["colleague", "stranger"])
def other(request, client):
    user = request.getfixturevalue(request.param)
    client.force_login(user)
    return client


def test_the_list_shows_only_ones_own_surveys(client, draft_survey, colleague):
    survey_create(owner=colleague, title="The colleague's own")
    client.force_login(colleague)
    page = client.get(url("list")).content.decode()
    assert "The colleague&#x27;s own" in page
    assert draft_survey.title not in page


@pytest.mark.parametrize(
    "name", ["detail", "edit", "preview", "publish", "question_create"]
)
def test_it_hides_another_researchers_survey(other, draft_survey, name):
    assert other.get(url(name, draft_survey.pk)).status_code == 404


@pytest.mark.parametrize("name", ["question_edit", "question_delete"])
def test_it_hides_another_researchers_questions(other, draft_survey, name):
    question = first_question(draft_survey)
    assert other.get(url(name, draft_survey.pk, question.pk)).status_code == 404


def test_a_question_is_not_reachable_through_ones_own_survey(
    client, draft_survey, colleague
):
    own = survey_create(owner=colleague, title="Mine")
    client.force_login(colleague)
    question = first_question(draft_survey)
    assert client.get(url("question_edit", own.pk, question.pk)).status_code == 404


def test_another_researchers_draft_cannot_be_changed(other, draft_survey):
    question = first_question(draft_survey)
    before = list(draft_survey.questions.values_list("id", "text", "position"))
    attempts = [
        (url("edit", draft_survey.pk), {"title": "Taken", "planned_responses": 5}),
        (url("publish", draft_survey.pk), {}),
        (url("question_create", draft_survey.pk), question_data()),
        (
            url("question_edit", draft_survey.pk, question.pk),
            question_data(text="Changed"),
        ),
        (url("question_move", draft_survey.pk, question.pk), {"direction": "down"}),
        (url("question_delete", draft_survey.pk, question.pk), {}),
    ]
    for address, data in attempts:
        assert other.post(address, data).status_code == 404, address
    draft_survey.refresh_from_db()
    assert draft_survey.title == "Sensitive habits"
    assert draft_survey.status == Survey.Status.DRAFT
    after = list(draft_survey.questions.values_list("id", "text", "position"))
    assert after == before


def test_another_researchers_open_survey_cannot_be_closed(other, open_survey):
    assert other.post(url("close", open_survey.pk)).status_code == 404
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


def test_another_researchers_closed_survey_cannot_be_reopened(other, open_survey):
    survey_close(survey=open_survey)
    assert other.post(url("reopen", open_survey.pk)).status_code == 404
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.CLOSED


# -- the survey list ----------------------------------------------------------


def test_the_list_shows_status_response_count_and_epsilon(as_owner, open_survey):
    for index in range(3):
        Response.objects.create(
            survey=open_survey, respondent_key=f"{index:032x}", received_on="2025-01-01"
        )
    response = as_owner.get(url("list"))
    page = response.content.decode()
    assert response.status_code == 200
    assert f'href="{url("detail", open_survey.pk)}"' in page
    assert '<span class="badge badge-open">Open</span>' in page
    assert '<td data-label="Responses" class="num">3</td>' in page
    # warner ln 3 + forced response ln 3 + krr 1 + direct (not counted)
    assert math.log(3) * 2 + 1 == pytest.approx(3.197, abs=1e-3)
    assert '<td data-label="Survey epsilon" class="num">3.2</td>' in page
    assert "New survey</a>" in page


def test_the_list_takes_the_same_few_queries_for_many_surveys(
    as_owner, owner, draft_survey, django_assert_max_num_queries
):
    for index in range(5):
        survey = survey_create(owner=owner, title=f"Survey {index}")
        question_create(
            survey=survey, text="Q", kind="yes_no", design={"name": "warner", "p": 0.7}
        )
    with django_assert_max_num_queries(6):
        assert as_owner.get(url("list")).status_code == 200


def test_a_survey_that_is_not_private_shows_a_dash(as_owner, owner):
    survey = survey_create(owner=owner, title="Leaky")
    question_create(
        survey=survey,
        text="Q",
        kind="yes_no",
        design={"name": "forced_response", "p_truth": 0.8, "p_forced": [0, 0.2]},
    )
    page = as_owner.get(url("list")).content.decode()
    assert '<span class="not-private">not private</span>' in page


# -- creating and editing a survey -------------------------------------------


def test_a_researcher_creates_a_survey(as_owner, owner):
    response = as_owner.post(
        url("create"),
        {
            "title": "Exam honesty",
            "introduction": "Line one\nLine two",
            "opens_at": "2030-01-01T09:00",
            "closes_at": "2030-02-01T09:00",
            "planned_responses": "800",
        },
    )
    survey = Survey.objects.get(title="Exam honesty")
    assert response["Location"] == url("detail", survey.pk)
    assert survey.owner == owner
    assert survey.is_draft
    assert survey.planned_responses == 800
    assert survey.opens_at.isoformat() == "2030-01-01T09:00:00+00:00"
    page = as_owner.get(response["Location"]).content.decode()
    assert "Line one<br>Line two" in page


def test_the_new_survey_form_has_labelled_fields(as_owner):
    page = as_owner.get(url("create")).content.decode()
    for label in [
        "Title",
        "Introduction (optional)",
        "Opens at (optional)",
        "Closes at (optional)",
        "Planned number of respondents",
    ]:
        assert f">{label}</label>" in page
    assert 'type="datetime-local"' in page
    assert "Create survey</button>" in page


def test_survey_errors_are_shown_next_to_their_fields(as_owner):
    response = as_owner.post(
        url("create"),
        {
            "title": "",
            "opens_at": "2030-02-01T09:00",
            "closes_at": "2030-01-01T09:00",
            "planned_responses": "0",
        },
    )
    assert response.status_code == 200
    assert form_errors(response, "title") == ["This field is required."]
    assert form_errors(response, "closes_at") == [
        "The close date must be after the open date."
    ]
    assert form_errors(response, "planned_responses")
    assert 'aria-invalid="true"' in response.content.decode()
    assert not Survey.objects.exists()


def test_a_researcher_edits_the_survey_details(as_owner, draft_survey):
    page = as_owner.get(url("edit", draft_survey.pk)).content.decode()
    assert 'value="Sensitive habits"' in page
    response = as_owner.post(
        url("edit", draft_survey.pk),
        {"title": "Renamed", "introduction": "", "planned_responses": "250"},
    )
    assert response.status_code == 302
    draft_survey.refresh_from_db()
    assert (draft_survey.title, draft_survey.planned_responses) == ("Renamed", 250)


def test_text_is_escaped_everywhere(as_owner, owner):
    survey = survey_create(
        owner=owner, title="<b>Bold</b>", introduction="<script>alert(1)</script>"
    )
    question_create(
        survey=survey,
        text="<script>alert(2)</script>",
        kind="multiple_choice",
        options=["<i>a</i>", "b"],
        design={"name": "krr", "k": 2, "epsilon": 1.0},
    )
    pages = [
        as_owner.get(url("list")).content.decode(),
        as_owner.get(url("detail", survey.pk)).content.decode(),
    ]
    for page in pages:
        assert "<script>alert" not in page
        assert "<b>Bold</b>" not in page
    detail = pages[1]
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in detail
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail
    assert "&lt;i&gt;a&lt;/i&gt;" in detail


# -- adding questions ----------------------------------------------------------


def add(client, survey, **overrides):
    return client.post(url("question_create", survey.pk), question_data(**overrides))


def test_the_question_form_starts_with_warner_three_to_one(as_owner, draft_survey):
    response = as_owner.get(url("question_create", draft_survey.pk))
    form = response.context["form"]
    assert form["kind"].value() == "yes_no"
    assert form["design_name"].value() == "warner"
    assert form["p"].value() == 0.75
    page = response.content.decode()
    assert 'id="design-preview" aria-live="polite"' in page
    assert "75% of respondents answer truthfully" in page
    assert 'type="module" src="/static/js/design-preview.js"' in page
    assert '<script id="design-preview-config" type="application/json">' in page


def test_it_adds_a_warner_question_by_its_probability(as_owner, draft_survey):
    response = add(as_owner, draft_survey, text="Drugs?", p="0.8")
    question = draft_survey.questions.get(text="Drugs?")
    assert response["Location"].endswith(f"#question-{question.pk}")
    assert question.design == {"name": "warner", "p": 0.8}
    assert question.options == ["No", "Yes"]
    assert question.position == 4


def test_it_adds_a_warner_question_by_epsilon(as_owner, draft_survey):
    add(as_owner, draft_survey, text="Eps", mode="epsilon", epsilon="1.0986123")
    question = draft_survey.questions.get(text="Eps")
    assert question.design["name"] == "warner"
    assert question.design["p"] == pytest.approx(0.75, abs=1e-6)


def test_it_adds_forced_response_by_probabilities(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Forced",
        design_name="forced_response",
        p_truth="0.8",
        p_forced="0, 0.2",
    )
    question = draft_survey.questions.get(text="Forced")
    assert question.design == {
        "name": "forced_response",
        "p_truth": 0.8,
        "p_forced": [0.0, 0.2],
    }


def test_forced_probabilities_left_empty_are_split_evenly(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Even",
        design_name="forced_response",
        p_truth="0.6",
    )
    design = draft_survey.questions.get(text="Even").design
    assert design["p_forced"] == pytest.approx([0.2, 0.2])


def test_it_adds_multiple_choice_forced_response_by_epsilon(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Choice",
        kind="multiple_choice",
        options="Red\n\nGreen\nBlue\n",
        design_name="forced_response",
        mode="epsilon",
        epsilon="2",
    )
    question = draft_survey.questions.get(text="Choice")
    assert question.options == ["Red", "Green", "Blue"]
    assert question.get_design().epsilon == pytest.approx(2.0, abs=1e-6)
    assert len(set(question.design["p_forced"])) == 1


def test_it_adds_an_unrelated_question(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Unrelated",
        design_name="unrelated_question",
        p="0.7",
        q="0.25",
    )
    question = draft_survey.questions.get(text="Unrelated")
    assert question.design == {"name": "unrelated_question", "p": 0.7, "q": 0.25}


def test_the_unrelated_question_cannot_be_set_by_epsilon(as_owner, draft_survey):
    response = add(
        as_owner, draft_survey, design_name="unrelated_question", mode="epsilon"
    )
    assert response.status_code == 200
    assert "not by epsilon" in form_errors(response, "mode")[0]


def test_it_adds_krr_by_epsilon_whatever_the_mode(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="How often?",
        kind="multiple_choice",
        options="Never\nSometimes\nOften",
        design_name="krr",
        epsilon="1.5",
    )
    question = draft_survey.questions.get(text="How often?")
    assert question.design == {"name": "krr", "k": 3, "epsilon": 1.5}


def test_it_adds_a_direct_question(as_owner, draft_survey):
    add(
        as_owner,
        draft_survey,
        text="Age?",
        kind="direct",
        options="Under 30\n30 or over",
        design_name="",
    )
    question = draft_survey.questions.get(text="Age?")
    assert question.design == {"name": "direct", "k": 2}
    assert question.kind == Question.Kind.DIRECT


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"p": "1.5"}, "p", "p must be in (0, 1)"),
        ({"p": "0.5"}, "p", "p must not be 1/2"),
        ({"p": "many"}, "p", "Enter a number"),
        ({"p": ""}, "p", "Give p"),
        (
            {"mode": "epsilon", "epsilon": "0"},
            "epsilon",
            "epsilon must be between 0.001 and 15",
        ),
        ({"mode": "epsilon", "epsilon": "99"}, "epsilon", "epsilon must be between"),
        (
            {"design_name": "forced_response", "p_truth": "0.5", "p_forced": "0.3,0.3"},
            "p_forced",
            "p_forced must sum to 1 - p_truth",
        ),
        (
            {"design_name": "forced_response", "p_forced": "0.25,0.1,0.15"},
            "p_forced",
            "one probability per option: 2, got 3",
        ),
        (
            {"design_name": "forced_response", "p_forced": "a, b"},
            "p_forced",
            "p_forced must be numbers",
        ),
        ({"design_name": "forced_response", "p_truth": "1"}, "p_truth", "p_truth"),
        ({"design_name": "unrelated_question", "q": "2"}, "q", "q must be in [0, 1]"),
        ({"design_name": "krr"}, "design_name", "uses warner or forced_response"),
        (
            {"kind": "multiple_choice", "options": "Only one"},
            "options",
            "between 2 and 20 options",
        ),
        (
            {"kind": "multiple_choice", "options": "\n".join(map(str, range(21)))},
            "options",
            "got 21",
        ),
        ({"kind": "direct", "options": "Same\nSame"}, "options", "must be different"),
        ({"text": ""}, "text", "required"),
    ],
)
def test_invalid_parameters_give_a_form_error_naming_the_parameter(
    as_owner, draft_survey, overrides, field, words
):
    response = add(as_owner, draft_survey, **overrides)
    assert response.status_code == 200
    errors = form_errors(response, field)
    assert any(words in error for error in errors), errors
    assert draft_survey.questions.count() == 4
    assert 'aria-invalid="true"' in response.content.decode()


def test_an_invalid_design_is_explained_in_the_preview_too(as_owner, draft_survey):
    page = add(as_owner, draft_survey, p="1.5").content.decode()
    assert '<p class="preview-error">Probability p: p must be in (0, 1)' in page


# -- editing, reordering and deleting questions ----------------------------------


def test_the_edit_form_starts_from_the_saved_question(as_owner, draft_survey):
    question = draft_survey.questions.get(position=2)  # krr, 4 options
    form = as_owner.get(url("question_edit", draft_survey.pk, question.pk)).context[
        "form"
    ]
    assert form["text"].value() == question.text
    assert form["kind"].value() == "multiple_choice"
    assert form["options"].value() == "Never\nOnce\nA few times\nOften"
    assert form["design_name"].value() == "krr"
    assert form["epsilon"].value() == 1.0


def test_a_researcher_edits_a_question(as_owner, draft_survey):
    question = first_question(draft_survey)
    response = as_owner.post(
        url("question_edit", draft_survey.pk, question.pk),
        question_data(text="Reworded?", p="0.8"),
    )
    assert response.status_code == 302
    question.refresh_from_db()
    assert question.text == "Reworded?"
    assert question.design == {"name": "warner", "p": 0.8}
    assert question.position == 0


def test_questions_move_up_and_down(as_owner, draft_survey):
    first, second = list(draft_survey.questions.all())[:2]
    response = as_owner.post(
        url("question_move", draft_survey.pk, first.pk), {"direction": "down"}
    )
    assert response["Location"].endswith(f"#question-{first.pk}")
    assert list(draft_survey.questions.all())[:2] == [second, first]
    as_owner.post(url("question_move", draft_survey.pk, first.pk), {"direction": "up"})
    assert list(draft_survey.questions.all())[:2] == [first, second]


def test_a_move_needs_a_direction(as_owner, draft_survey):
    question = first_question(draft_survey)
    address = url("question_move", draft_survey.pk, question.pk)
    assert as_owner.post(address, {"direction": "sideways"}).status_code == 400
    assert as_owner.get(address).status_code == 405


def test_deleting_a_question_asks_first(as_owner, draft_survey):
    question = first_question(draft_survey)
    address = url("question_delete", draft_survey.pk, question.pk)
    page = as_owner.get(address).content.decode()
    assert "Delete this question?" in page
    assert "Delete question</button>" in page
    assert draft_survey.questions.filter(pk=question.pk).exists()
    as_owner.post(address)
    assert not draft_survey.questions.filter(pk=question.pk).exists()


def test_the_detail_page_offers_draft_actions(as_owner, draft_survey):
    page = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    for text in ["Add a question", "Move up", "Move down", "Edit", "Delete", "Publish"]:
        assert text in page
    assert f'href="{url("preview", draft_survey.pk)}"' in page
    assert "Close survey" not in page


def test_the_detail_page_explains_every_design(as_owner, draft_survey):
    page = as_owner.get(url("detail", draft_survey.pk)).content.decode()
    assert "Yes / no (randomized)" in page
    assert "Options: Never, Once, A few times, Often" in page
    assert "75% of respondents answer truthfully" in page
    assert "50% of respondents answer truthfully; 25% are told to answer No" in page
    assert "Someone who was 50% sure" in page
    assert "With 500 respondents" in page
    assert "Survey epsilon: 3.2" in page
    assert "Epsilons add up" in page
    assert '<span class="not-private">not private</span>' in page  # the direct one


# -- publishing, closing, reopening ------------------------------------------------


def test_publishing_asks_for_confirmation_explaining_the_freeze(as_owner, draft_survey):
    page = as_owner.get(url("publish", draft_survey.pk)).content.decode()
    assert "designs freeze when you publish" in page
    assert "Publish survey</button>" in page
    draft_survey.refresh_from_db()
    assert draft_survey.is_draft


def test_publishing_opens_the_survey_and_shows_the_share_link(as_owner, draft_survey):
    response = as_owner.post(url("publish", draft_survey.pk), follow=True)
    draft_survey.refresh_from_db()
    assert draft_survey.status == Survey.Status.OPEN
    page = response.content.decode()
    share = f"http://testserver/s/{draft_survey.slug}/"
    assert f'<input id="share-url" type="url" value="{share}" readonly>' in page
    assert "Published." in page
    assert "Close survey</button>" in page
    for hidden in ["Add a question", "Move up", "Delete<", "Publish</a>"]:
        assert hidden not in page


def test_an_empty_survey_is_not_published(as_owner, owner):
    survey = survey_create(owner=owner, title="Empty")
    response = as_owner.post(url("publish", survey.pk))
    assert messages_of(response) == ["Add at least one question before publishing."]
    survey.refresh_from_db()
    assert survey.is_draft


def test_publishing_twice_is_refused_with_a_message(as_owner, open_survey):
    response = as_owner.post(url("publish", open_survey.pk))
    assert "Cannot publish again" in messages_of(response)[0]


def test_editing_after_publishing_is_refused_with_a_message(as_owner, open_survey):
    question = first_question(open_survey)
    design = question.design
    response = as_owner.post(
        url("question_edit", open_survey.pk, question.pk),
        question_data(text="Sneaky", p="0.9"),
    )
    assert response["Location"] == url("detail", open_survey.pk)
    assert "the survey is published" in messages_of(response)[0]
    question.refresh_from_db()
    assert (question.text, question.design) == (
        "In the past 12 months, have you used a recreational drug?",
        design,
    )


@pytest.mark.parametrize("name", ["question_edit", "question_delete"])
def test_question_pages_of_a_published_survey_lead_back_with_a_message(
    as_owner, open_survey, name
):
    question = first_question(open_survey)
    response = as_owner.get(url(name, open_survey.pk, question.pk))
    assert response["Location"] == url("detail", open_survey.pk)
    assert "frozen" in messages_of(response)[0]


def test_a_published_survey_keeps_its_questions(as_owner, open_survey):
    question = first_question(open_survey)
    responses = [
        as_owner.post(url("question_create", open_survey.pk), question_data()),
        as_owner.post(url("question_delete", open_survey.pk, question.pk)),
        as_owner.post(
            url("question_move", open_survey.pk, question.pk), {"direction": "down"}
        ),
    ]
    for response in responses:
        assert "Cannot" in messages_of(response)[0]
    assert list(open_survey.questions.values_list("position", flat=True)) == [
        0,
        1,
        2,
        3,
    ]
    assert open_survey.questions.first() == question


def test_a_survey_is_closed_and_reopened(as_owner, open_survey):
    response = as_owner.post(url("close", open_survey.pk), follow=True)
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.CLOSED
    assert "Reopen survey</button>" in response.content.decode()
    as_owner.post(url("reopen", open_survey.pk))
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


def test_a_draft_cannot_be_closed(as_owner, draft_survey):
    response = as_owner.post(url("close", draft_survey.pk))
    assert messages_of(response) == ["Only an open survey can be closed."]
    draft_survey.refresh_from_db()
    assert draft_survey.is_draft


def test_state_changes_are_posts(as_owner, open_survey):
    assert as_owner.get(url("close", open_survey.pk)).status_code == 405
    assert as_owner.get(url("reopen", open_survey.pk)).status_code == 405


def test_state_changes_need_the_csrf_token(owner, open_survey):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post(url("close", open_survey.pk)).status_code == 403
    open_survey.refresh_from_db()
    assert open_survey.status == Survey.Status.OPEN


# -- previewing as a respondent -------------------------------------------------


def test_a_draft_can_be_previewed_by_its_owner(as_owner, draft_survey):
    response = as_owner.get(url("preview", draft_survey.pk))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Preview: this is what respondents see" in page
    assert "In the past 12 months" in page


# -- the live design preview ------------------------------------------------------


def preview(client, **params):
    return client.get(url("design_preview"), params)


def test_the_preview_of_warner_three_to_one_has_epsilon_ln_3(as_owner):
    response = preview(
        as_owner, kind="yes_no", design_name="warner", mode="probabilities", p="0.75"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["epsilon"] == pytest.approx(math.log(3), abs=1e-6)
    assert data["epsilon_text"] == "1.1"
    assert data["sentence"].startswith("75% of respondents answer truthfully")
    assert "at most 75% sure" in data["observer"]
    assert data["n"] == 500
    assert data["precision"].startswith("With 500 respondents, if 10%")


def test_the_preview_uses_the_planned_respondents(as_owner):
    small = preview(as_owner, kind="yes_no", design_name="warner", p="0.75", n="100")
    large = preview(as_owner, kind="yes_no", design_name="warner", p="0.75", n="10000")
    assert small.json()["half_width"] == pytest.approx(10 * large.json()["half_width"])
    assert "With 10,000 respondents" in large.json()["precision"]


def test_the_preview_describes_forced_response(as_owner):
    data = preview(
        as_owner,
        kind="yes_no",
        design_name="forced_response",
        p_truth="0.8",
        p_forced="0,0.2",
    ).json()
    assert data["epsilon"] is None
    assert data["sentence"].startswith(
        "80% of respondents answer truthfully; 20% are told to answer Yes."
    )


def test_the_preview_builds_multiple_choice_by_epsilon(as_owner):
    data = preview(
        as_owner,
        kind="multiple_choice",
        options="A\nB\nC\nD",
        design_name="krr",
        epsilon="1",
    ).json()
    assert data["epsilon"] == pytest.approx(1.0, abs=1e-6)
    assert data["design"] == {"name": "krr", "k": 4, "epsilon": 1.0}
    assert "least precise option" in data["precision"]


def test_the_preview_of_a_direct_question_says_it_is_not_private(as_owner):
    data = preview(as_owner, kind="direct", options="Young\nOld").json()
    assert data["epsilon"] is None
    assert data["epsilon_text"] == "not private"


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"kind": "yes_no", "design_name": "warner", "p": "1.5"}, "p must be in"),
        ({"kind": "yes_no", "design_name": "warner", "p": "x"}, "Probability p"),
        ({"kind": "nonsense"}, "Kind of question"),
        ({"kind": "multiple_choice", "options": "A"}, "between 2 and 20"),
    ],
)
def test_the_preview_explains_a_design_that_is_not_valid_yet(as_owner, params, words):
    response = preview(as_owner, **params)
    assert response.status_code == 200
    assert response.json()["valid"] is False
    assert words in response.json()["error"]


@pytest.mark.parametrize("n", ["0", "lots"])
def test_the_preview_answers_400_on_a_malformed_n(as_owner, n):
    response = preview(as_owner, kind="yes_no", design_name="warner", n=n)
    assert response.status_code == 400
    assert "n must be" in response.json()["error"]
