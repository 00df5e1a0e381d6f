"""The question form in a real browser shows only the fields the chosen kind,
design and way of setting it use, for every kind and design the builder
offers; the script learns them from the server, so this pins what it shows."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from playwright.sync_api import expect

from surveys.builder.kinds import DESIGNS_FOR_KIND
from surveys.builder.services import survey_create
from tests.browser.test_researcher import log_in

MODES = ("probabilities", "epsilon")
VISIBLE = """() => [...document.querySelectorAll('#question-form .field[data-field]')]
  .filter((element) => !element.hidden)
  .map((element) => element.dataset.field)"""
CHOOSE_MODE = """(mode) => {
  const radio = document.querySelector(`input[name="mode"][value="${mode}"]`);
  radio.checked = true;
  radio.dispatchEvent(new Event("change", { bubbles: true }));
}"""
GROUP_HIDDEN = "() => document.querySelector('[data-group=\"design\"]').hidden"
# Shown whatever the kind: the question's text and settings.
ALWAYS = {"text", "kind", "optional", "direct_percent"}
# Asked plainly: no design to choose, the design menu's group hidden.
PLAIN = {"direct", "rating_scale", "numeric", "free_text", "sealed_text"}
NUMBER_FIELDS = {
    "number_minimum",
    "number_maximum",
    "number_decimals",
    "number_unit",
    "number_cuts",
}


def expected(kind: str, design: str, mode: str) -> set[str]:
    """What the form has always shown for a kind, design and mode."""
    if kind == "count":
        return {"maximum", "design_name"} | (
            {"epsilon"} if design == "geometric" else set()
        )
    if kind == "instructed":
        return {"design_name", "p1", "p2", "group_share"}
    if kind == "numeric":
        return NUMBER_FIELDS
    if kind in ("free_text", "sealed_text"):
        return {"text_max_length"}
    if kind == "list_experiment":
        return {"options", "sensitive_item", "design_name", "treatment_share"}
    used = set() if kind == "yes_no" else {"options"}
    if kind in PLAIN:
        return used
    used.add("design_name")
    if design in ("krr", "sue", "oue"):
        return used | {"epsilon"}
    if design == "unrelated_question":
        return used | {"p", "q"}
    if design == "crosswise":
        return used | {"p"}
    used.add("mode")
    if mode == "epsilon":
        return used | {"epsilon"}
    if design == "warner":
        return used | {"p"}
    return used | {"p_truth", "p_forced"}


def test_each_kind_and_design_shows_only_the_fields_it_uses(visit: Any, owner: Any):
    survey = survey_create(owner=owner, title="Fields")
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(reverse("surveys:question_create", args=[survey.pk]))
    form = page.locator("#question-form")
    for kind, designs in DESIGNS_FOR_KIND.items():
        form.locator(f'input[name="kind"][value="{kind}"]').check()
        expect(page.get_by_label("Design", exact=True)).to_have_value(designs[0])
        for design in designs:
            if kind not in PLAIN:
                page.get_by_label("Design", exact=True).select_option(design)
            for mode in MODES:
                # Set even where its field is hidden, as a previous design left it.
                page.evaluate(CHOOSE_MODE, mode)
                shown = set(page.evaluate(VISIBLE))
                want = expected(kind, design, mode)
                group_hidden = page.evaluate(GROUP_HIDDEN)
                assert group_hidden == (kind in PLAIN), (kind, design, mode)
                assert shown == ALWAYS | want, (kind, design, mode)
