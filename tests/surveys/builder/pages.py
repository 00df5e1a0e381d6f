"""What the builder's page tests share: URLs, a posted question form, what a
response says back."""

from django.contrib.messages import get_messages
from django.urls import reverse


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


def first_question(survey):
    return survey.questions.first()


def add(client, survey, **overrides):
    return client.post(url("question_create", survey.pk), question_data(**overrides))


def preview(client, **params):
    return client.get(url("design_preview"), params)
