"""In the browser: the demo answered in Spanish, from the first word on the page
to the receipt, with only the randomized reports leaving the browser."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from surveys.builder.demo import demo_seed
from surveys.models import Response
from tests.browser.helpers import (
    answer_everything,
    check_requests,
    check_storage,
    expected_receipt,
    page_path,
    receipt_items,
)
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401

# Words of the English page: none may be left on the Spanish one.
ENGLISH = [
    "Your privacy",
    "Send my answers",
    "of the time",
    "Your device",
    "Protected",
    "Asked plainly",
    "How this survey protects you",
    "Thank you",
    "Skip to content",
    "Please answer",
    "Sending",
    "received",
    "This browser keeps",
]


def assert_no_english(text: str) -> None:
    left = [words for words in ENGLISH if words in text]
    assert left == [], left


def test_the_demo_is_answered_in_spanish(visit, axe_source):  # noqa: F811
    survey, _ = demo_seed(respondents=0, language="es")
    # A Spanish browser: the demo offers English too, and the bare link opens
    # in the browser's preferred language among those offered.
    respondent = visit(locale="es-ES")
    page = respondent.page
    respondent.goto(page_path(survey))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page).to_have_title(survey.title)
    expect(page.get_by_role("heading", name="Su privacidad")).to_be_visible()
    expect(page.locator("#whole-response")).to_contain_text(
        "Todas sus respuestas protegidas juntas"
    )
    warner = page.locator(".protection").first
    expect(warner).to_contain_text(
        "Su dispositivo lanza en secreto una moneda sesgada."
    )
    expect(warner).to_contain_text("75\u00a0% de las veces")
    expect(page.get_by_role("radio", name="Sí", exact=True).first).to_be_visible()
    assert violations(page, axe_source) == [], "Spanish survey page"

    # Sending too early: the page script's words, with Spanish plurals.
    send = page.get_by_role("button", name="Enviar mis respuestas")
    send.click()
    expect(page.locator("#status")).to_have_text(
        "Responda a todas las preguntas que no son opcionales (quedan 4 preguntas)."
    )
    assert_no_english(page.locator("body").inner_text())

    answer_everything(page, survey)
    send.click()
    receipt = page.locator("#receipt")
    expect(receipt).to_be_visible()
    expect(page.get_by_role("heading", name="Gracias")).to_be_visible()
    expect(page.locator("#receipt-intro")).to_have_text(
        "Hemos recibido sus respuestas. Esto es lo que envió su dispositivo."
    )
    # The receipt's date in Spanish, as the page's language says.
    expect(page.locator("#receipt-kept-text")).to_have_text(
        re.compile(r"^Este navegador guarda .* hasta el \d+ de [a-z]+ de \d{4},")
    )
    expect(page.locator("#receipt-randomized .receipt-note").first).to_contain_text(
        "Aleatorizada en su dispositivo"
    )
    assert_no_english(receipt.inner_text())
    assert violations(page, axe_source) == [], "Spanish receipt"

    body = check_requests(respondent, survey)
    check_storage(respondent, survey, body)
    assert receipt_items(page) == expected_receipt(body["answers"])
    assert Response.objects.filter(survey=survey).count() == 1

    page.get_by_role("button", name="Eliminar de este dispositivo").click()
    expect(page.locator("#receipt-kept-text")).to_have_text(
        "Eliminado: este navegador ya no guarda nada de esta encuesta."
    )
    respondent.assert_clean()
