"""The respondent and transparency pages of a check-all-that-apply question."""

import json
import re

import pytest

from estimation.kinds.multiselect.designs import OptimizedUnary
from tests.surveys.respond.multiselect import add_multiselect

pytestmark = pytest.mark.django_db

ITEMS = ["Cannabis", "Cocaine", "Ecstasy"]


@pytest.fixture
def multiselect(open_survey):
    return add_multiselect(open_survey, ITEMS, OptimizedUnary(m=3, epsilon_one_hot=1.0))


def config_of(page):
    (data,) = re.findall(
        r'<script id="survey-config" type="application/json">(.*?)</script>',
        page,
        re.S,
    )
    return json.loads(data)


def test_each_item_is_a_checkbox_with_no_name(client, open_survey, multiselect):
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    group = page.split('role="group" data-kind="multi_select"')[1].split("</div>")[0]
    # One button per item; the page script makes each a checkbox of the
    # group (tests/browser/test_multiselect.py finds them by that role).
    assert group.count("<button data-option=") == 3
    assert "name=" not in group
    assert "Tick all that apply" in page


def test_the_page_sends_the_unary_spec_and_the_words_for_it(
    client, open_survey, multiselect
):
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    config = config_of(page)
    shown = next(q for q in config["questions"] if q["id"] == multiselect.pk)
    # Its kind's script, named by place; the kind's name is not sent.
    assert "/kinds/multiselect/" in config["scripts"][shown["script"]]
    assert "kind" not in shown
    assert shown["spec"]["bit"]["k"] == 2
    assert shown["spec"]["m"] == 3
    assert "an item you did not tick is sent ticked 26.9%" in page
    assert (
        "each item you ticked was sent ticked 50%"
        in config["receiptNotes"][shown["note"]]
    )
    assert config["messages"]["nothingTicked"] == "Nothing sent ticked"


def test_the_transparency_page_shows_the_bit_matrix(client, open_survey, multiselect):
    page = client.get(f"/s/{open_survey.slug}/transparency/").content.decode()
    assert "Sent not ticked" in page
    design = multiselect.get_design()
    assert f"{design.q:.10f}" in page  # q on the grid, to 10 decimals
