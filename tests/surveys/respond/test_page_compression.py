"""The respondent's pages are sent compressed: Brotli to a browser that
accepts it, gzip to one that accepts only gzip, and the page's data carries
nothing the script does not use."""

import gzip
import json
import re

import brotli
import pytest

from surveys.respond.compression import accepts

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["", "transparency/"])
def test_a_gzip_browser_gets_the_page_compressed(client, open_survey, page):
    url = f"/s/{open_survey.slug}/{page}"
    plain = client.get(url)
    packed = client.get(url, headers={"accept-encoding": "gzip, deflate"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content).decode()
    assert body == plain.content.decode()
    assert open_survey.title in body
    assert len(packed.content) < len(plain.content) / 2


@pytest.mark.parametrize("page", ["", "transparency/"])
def test_a_brotli_browser_gets_the_same_page_in_brotli(client, open_survey, page):
    url = f"/s/{open_survey.slug}/{page}"
    plain = client.get(url)
    packed = client.get(url, headers={"accept-encoding": "gzip, deflate, br, zstd"})
    assert packed.status_code == 200
    assert packed["Content-Encoding"] == "br"
    assert "Accept-Encoding" in packed["Vary"]
    assert packed["Content-Length"] == str(len(packed.content))
    assert brotli.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2


def test_a_client_asking_for_neither_gets_the_page_as_it_is(client, open_survey):
    page = client.get(
        f"/s/{open_survey.slug}/", headers={"accept-encoding": "identity"}
    )
    assert page.status_code == 200
    assert "Content-Encoding" not in page
    assert "Accept-Encoding" in page["Vary"]
    assert open_survey.title in page.content.decode()


def test_a_refused_brotli_falls_back_to_gzip(client, open_survey):
    page = client.get(
        f"/s/{open_survey.slug}/", headers={"accept-encoding": "br;q=0, gzip"}
    )
    assert page["Content-Encoding"] == "gzip"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br", True),
        ("BR", True),
        ("br;q=0.5", True),
        ("br;q=0", False),
        ("br;q=x", False),
        ("*", True),
        ("gzip", False),
        ("brotli", False),
        ("", False),
    ],
)
def test_it_reads_whether_brotli_is_accepted(header, expected):
    assert accepts(header, "br") is expected


def test_the_compressed_page_keeps_its_referrer_policy(client, open_survey):
    packed = client.get(f"/s/{open_survey.slug}/", headers={"accept-encoding": "gzip"})
    assert packed["Referrer-Policy"] == "no-referrer"


def test_the_page_data_leaves_the_question_text_to_the_html(client, open_survey):
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    (data,) = re.findall(
        r'<script id="survey-config" type="application/json">(.*?)</script>',
        page,
        re.S,
    )
    questions = json.loads(data)["questions"]
    assert questions
    for question in questions:
        assert "text" not in question
        assert f'id="q{question["id"]}-text"' in page


def test_each_receipt_note_is_sent_once(client, open_survey):
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    (data,) = re.findall(
        r'<script id="survey-config" type="application/json">(.*?)</script>',
        page,
        re.S,
    )
    config = json.loads(data)
    notes = config["receiptNotes"]
    assert len(notes) == len(set(notes))
    assert all(notes)
    assert {q["note"] for q in config["questions"]} == set(range(len(notes)))
    assert all("receipt_note" not in q for q in config["questions"])
