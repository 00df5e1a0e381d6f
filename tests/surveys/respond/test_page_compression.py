"""The respondent's pages are sent compressed to a browser that accepts gzip,
and the page's data carries nothing the script does not use."""

import gzip
import json
import re

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["", "transparency/"])
def test_a_gzip_browser_gets_the_page_compressed(client, open_survey, page):
    url = f"/s/{open_survey.slug}/{page}"
    plain = client.get(url)
    packed = client.get(url, headers={"accept-encoding": "gzip, deflate, br"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content).decode()
    assert open_survey.title in body
    assert len(packed.content) < len(plain.content) / 2


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
