"""The respondent's pages are sent compressed: Brotli to a browser that
accepts it, gzip to one that accepts only gzip, and the page's data carries
nothing the script does not use."""

import gzip
import hashlib
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


def test_a_page_sent_twice_is_sent_at_brotlis_best_from_then_on(client, open_survey):
    from surveys.respond.compression import BEST_QUALITY, BROTLI_QUALITY, _Packer

    content = client.get(f"/s/{open_survey.slug}/").content
    packer = _Packer()
    quick = brotli.compress(content, mode=brotli.MODE_TEXT, quality=BROTLI_QUALITY)
    best = brotli.compress(content, mode=brotli.MODE_TEXT, quality=BEST_QUALITY)
    assert len(best) < len(quick)  # else the test would prove nothing
    assert [packer.pack(content) for _ in range(2)] == [quick, quick]
    packer.settle()
    kept = packer.pack(content)
    assert kept == best
    assert packer.pack(content) is kept  # compressed once, then kept
    assert brotli.decompress(kept) == content


def test_no_request_waits_for_brotlis_best(monkeypatch):
    """Quality 11 runs in a thread of the packer's own, never in the thread
    that serves the request; until it is done the page goes at quality 5."""
    import threading

    from surveys.respond import compression

    qualities = []
    started, release = threading.Event(), threading.Event()
    compress = brotli.compress

    def recording(content, *, mode, quality):
        qualities.append((quality, threading.current_thread() is requests))
        if quality == compression.BEST_QUALITY:
            started.set()
            release.wait(timeout=30)
        return compress(content, mode=mode, quality=quality)

    monkeypatch.setattr(compression.brotli, "compress", recording)
    requests = threading.current_thread()
    packer = compression._Packer()
    page = b"<p>the same page for every respondent</p>" * 50
    quick = [packer.pack(page) for _ in range(2)]
    assert started.wait(timeout=30)
    # Its best copy under way: the third sight does not wait for it.
    assert packer.pack(page) == quick[0]
    release.set()
    packer.settle()
    assert brotli.decompress(packer.pack(page)) == page
    # Three sights at quality 5 in the request's thread, in whatever order
    # beside the one quality 11 in the packer's; the fourth sight is the copy.
    assert sorted(qualities) == [
        (compression.BROTLI_QUALITY, True),
        (compression.BROTLI_QUALITY, True),
        (compression.BROTLI_QUALITY, True),
        (compression.BEST_QUALITY, False),
    ]


def test_pages_beyond_what_it_keeps_are_forgotten(monkeypatch):
    from surveys.respond import compression

    monkeypatch.setattr(compression, "KEPT_PAGES", 2)
    monkeypatch.setattr(compression, "SEEN_PAGES", 2)
    packer = compression._Packer()
    pages = [f"<p>page {n}</p>".encode() * 50 for n in range(3)]
    for page in pages:
        for _ in range(3):
            packer.pack(page)
        packer.settle()
    assert len(packer._kept) == 2
    assert hashlib.sha256(pages[0]).digest() not in packer._kept
    # Seen once each, then pushed out by newer pages: no sight is counted twice.
    for page in pages:
        packer.pack(page)
    assert len(packer._seen) <= 2
