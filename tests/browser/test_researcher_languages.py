"""A researcher switches the builder to Spanish with the page's language
menu, then creates a survey and a question in Spanish: every step is found by
its Spanish label, and axe-core finds no violation at desktop width or on a
375 px phone."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from surveys.models import AccountPreference
from tests.browser.test_accessibility import axe_source as axe_source  # fixture
from tests.browser.test_accessibility import violations
from tests.browser.test_researcher import log_in, settled_preview

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}


def clean_at_both_widths(page: Any, source: str, where: str) -> None:
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        assert violations(page, source) == [], f"{where} at {size['width']} px"
    page.set_viewport_size(DESKTOP)


def test_a_researcher_builds_in_spanish(visit, owner, axe_source):
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)

    page.get_by_label("Page language").select_option("es")
    page.get_by_role("button", name="Change language").click()
    expect(page.get_by_role("heading", name="Sus encuestas")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_label("Idioma de la página")).to_have_value("es")
    assert AccountPreference.objects.get(user=owner).language == "es"
    clean_at_both_widths(page, axe_source, "the list of surveys")

    page.get_by_role("link", name="Nueva encuesta", exact=True).click()
    expect(page.get_by_role("heading", name="Nueva encuesta", level=1)).to_be_visible()
    clean_at_both_widths(page, axe_source, "the new survey form")
    page.get_by_label("Idioma", exact=True).select_option("es")
    page.get_by_label("Título", exact=True).fill("Conducta en el trabajo")
    page.get_by_label("Número previsto de personas encuestadas").fill("400")
    page.get_by_role("button", name="Crear la encuesta").click()
    expect(
        page.get_by_role("heading", name="Conducta en el trabajo", level=1)
    ).to_be_visible()
    expect(page.get_by_role("status").first).to_contain_text("Encuesta creada")

    page.get_by_role("link", name="Añadir una pregunta", exact=True).click()
    page.get_by_label("Texto de la pregunta").fill(
        "¿Se ha atribuido alguna vez el mérito del trabajo de un colega?"
    )
    page.get_by_label("Sí / no (aleatorizada)").check()
    page.get_by_label("Diseño", exact=True).select_option(label="Warner")
    page.get_by_label("Las probabilidades propias del diseño").check()
    page.get_by_label("Probabilidad p", exact=True).fill("0.75")
    settled_preview(page, "1,1")  # epsilon = ln 3, with a decimal comma
    preview = page.locator("#design-preview")
    expect(preview).to_contain_text("Cómo se aleatorizan las respuestas")
    expect(preview).to_contain_text(
        "de las personas encuestadas responde con la verdad"
    )
    clean_at_both_widths(page, axe_source, "the question form")
    page.get_by_role("button", name="Añadir la pregunta").click()
    expect(page.get_by_role("status").first).to_contain_text("Pregunta añadida")
    expect(page.locator("#questions-title")).to_have_text("Preguntas")
    clean_at_both_widths(page, axe_source, "the survey's page")
