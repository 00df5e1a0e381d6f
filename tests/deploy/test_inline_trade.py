"""The inline-code benchmark (benchmarks/inline_trade.py) rebuilds the page
as it was before it carried its code, from the page as served: every script
put back as its file, preloaded with its integrity and named by URL again.
Checked on the page the production storage serves, so its figures keep
measuring the page's own code rather than a rebuild that rotted with it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from benchmarks.inline_trade import _LISTED, UnpackError, _digest, unpack

pytestmark = pytest.mark.django_db

PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)" integrity="([^"]+)">')
CARRIED = re.compile(r'<script type="module">(.*?)</script>', re.S)


def _served(client: Any, settings: Any, survey: Any) -> tuple[str, dict[str, str]]:
    """The page, and every file the transparency page lists, by URL."""
    page = client.get(f"/s/{survey.slug}/").content.decode()
    listing = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    root = Path(settings.STATIC_ROOT)
    files = {
        url: (root / url.removeprefix("/static/")).read_text()
        for url in set(_LISTED.findall(listing))
    }
    return page, files


def _config(page: str) -> dict[str, Any]:
    (data,) = re.findall(
        r'<script id="survey-config" type="application/json">(.*?)</script>', page, re.S
    )
    return dict(json.loads(data))


def test_the_served_page_unpacks_into_the_files_it_carries(
    collected, settings, client, open_survey
):
    page, files = _served(client, settings, open_survey)
    style_url = f"/static/{collected['css/site.css']}"
    style = (Path(settings.STATIC_ROOT) / collected["css/site.css"]).read_text()
    carried = CARRIED.findall(page)
    assert len(carried) == 3  # the randomizer, the yes/no module, the page script

    unpacked = unpack(page, files, (style_url, style), keep=0)
    assert not CARRIED.findall(unpacked)
    assert f'<link rel="stylesheet" href="{style_url}">' in unpacked
    preloads = dict(PRELOAD.findall(unpacked))
    assert sorted(preloads.values()) == sorted(_digest(text) for text in carried)
    for url, sri in preloads.items():
        assert _digest(files[url]) == sri
    config = _config(unpacked)
    assert config["randomizer"] in preloads
    assert all(url in preloads for url in config["scripts"])

    # The page script and the style sheet stay: the page as it was before.
    halfway = unpack(page, files, (style_url, style), keep=1)
    assert CARRIED.findall(halfway) == [carried[-1]]
    assert f"<style>{style}</style>" in halfway
    assert len(PRELOAD.findall(halfway)) == 2


def test_a_carried_script_that_is_no_listed_file_stops_the_run(
    collected, settings, client, open_survey
):
    page, files = _served(client, settings, open_survey)
    randomizer = f"/static/{collected['js/rr.js']}"
    del files[randomizer]
    with pytest.raises(UnpackError, match="carried script 0 is no listed file"):
        unpack(page, files, ("", ""), keep=0)
