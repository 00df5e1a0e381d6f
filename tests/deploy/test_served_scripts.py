"""The scripts production serves are the repository's with comments and
indentation removed by ``config.static_minify`` (docs/methodology.md,
"Verifying the randomizer"; docs/security.md, "A tampered server"): the
randomizer exactly that, a module that imports another but for the hashed
name of what it imports; and the hashes the pages print are of the bytes
served. The scripts and the style sheet the respondent page carries inside
itself are those same bytes, each allowed by its own hash, and its policy
allows no other inline code."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders

from config.static_minify import strip
from config.static_storage import is_own, own_static_roots

REPO = Path(__file__).resolve().parents[2]


def served(settings: Any, name: str) -> bytes:
    return (Path(settings.STATIC_ROOT) / name).read_bytes()


def test_the_served_randomizer_is_the_repositorys_file_stripped(collected, settings):
    name = collected["js/rr.js"]
    assert name != "js/rr.js"  # a hashed name, cached for years
    source = (REPO / "static/js/rr.js").read_text()
    content = served(settings, name)
    assert content == strip("rr.js", source).encode()
    assert len(content) < len(source.encode()) * 0.6
    # The name's hash, the unhashed copy and the compressed copies agree.
    assert hashlib.md5(content).hexdigest()[:12] in name  # noqa: S324
    assert served(settings, "js/rr.js") == content
    assert gzip.decompress(served(settings, name + ".gz")) == content
    # Brotli is a declared dependency, so WhiteNoise always writes its copies.
    import brotli

    assert brotli.decompress(served(settings, name + ".br")) == content


def test_served_modules_differ_from_their_sources_only_in_their_imports_names(
    collected, settings
):
    # The page script imports nothing: the page hands it every module.
    page = served(settings, collected["js/survey.js"]).decode()
    assert page == strip("survey.js", (REPO / "static/js/survey.js").read_text())
    logic = served(settings, collected["js/survey/display-logic.js"]).decode()
    # By absolute URL, so that the same text works inside the respondent page.
    conditions = f"/static/{collected['js/conditions.js']}"
    assert f'"{conditions}"' in logic
    logic = logic.replace(conditions, "../conditions.js")
    source = (REPO / "static/js/survey/display-logic.js").read_text()
    assert logic == strip("display-logic.js", source)


def test_our_scripts_and_style_sheets_are_stripped_and_no_others(collected, settings):
    for original in ("css/site.css", "js/kinds/binary/page.js", "js/conditions.js"):
        assert b"/*" not in served(settings, collected[original])
    roots = own_static_roots()
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            ours = Path(storage.path(path)).resolve().is_relative_to(REPO / "static")
            if path.startswith(("admin/", "rest_framework/")):
                assert not is_own(storage, path, roots), path
            elif ours:
                assert is_own(storage, path, roots), path


def _pinned(page: str) -> list[tuple[str, str]]:
    """Every (URL, integrity) a page loads a script or style sheet with."""
    pairs = []
    for tag in re.findall(r"<(?:script|link)\b[^>]*\bintegrity=[^>]*>", page):
        (url,) = re.findall(r'\b(?:src|href)="([^"]+)"', tag)
        (sri,) = re.findall(r'\bintegrity="([^"]+)"', tag)
        pairs.append((url, sri))
    return pairs


def _sri(content: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(content).digest()).decode()


def _policy(response: Any) -> dict[str, list[str]]:
    directives = [
        part.split() for part in response["Content-Security-Policy"].split(";")
    ]
    return {words[0]: words[1:] for words in directives if words}


def _config(page: str) -> dict[str, Any]:
    (data,) = re.findall(
        r'<script id="survey-config" type="application/json">(.*?)</script>', page, re.S
    )
    return dict(json.loads(data))


@pytest.mark.django_db
def test_the_page_carries_its_scripts_and_style_sheet_as_served_and_allows_only_them(
    collected, settings, client, open_survey
):
    """The second round trip on a slow phone is the page's scripts and style
    sheet (docs/benchmarks.md): they come inside the HTML, each byte for byte
    its served file, allowed by the hash the transparency page states."""
    response = client.get(f"/s/{open_survey.slug}/")
    page = response.content.decode()
    scripts = re.findall(r'<script type="module">(.*?)</script>', page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    # The randomizer and the yes/no questions' module, then the page script,
    # which runs after them and takes their exports.
    paths = ["js/rr.js", "js/kinds/binary/page.js", "js/survey.js"]
    files = [served(settings, collected[path]) for path in paths]
    assert [text.encode() for text in scripts] == files
    style = served(settings, collected["css/site.css"])
    assert [text.encode() for text in styles] == [style]
    assert "stylesheet" not in page
    # Nothing left to fetch before the questions show.
    assert not _pinned(page)
    config = _config(page)
    assert config["randomizer"] == "inline:js/rr.js"
    assert config["scripts"] == ["inline:js/kinds/binary/page.js"]
    policy = _policy(response)
    assert sorted(policy["script-src"]) == sorted(
        ["'self'", *(f"'{_sri(content)}'" for content in files)]
    )
    assert policy["style-src"] == ["'self'", f"'{_sri(style)}'"]
    # Nothing else is allowed inline, and other pages allow nothing inline.
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    transparency = client.get(f"/s/{open_survey.slug}/transparency/")
    assert "sha256-" not in transparency["Content-Security-Policy"]
    # Each carried file is listed with its hash, as the page's policy names it.
    listing = transparency.content.decode()
    for content in files:
        assert f"'{_sri(content)}'</code>" in listing
    listed = re.findall(r'<a href="/static/([^"]+)">', listing)
    assert {collected[path] for path in paths} <= set(listed)
    for name in listed:
        content = served(settings, name)
        assert hashlib.sha256(content).hexdigest() in listing, name
        assert _sri(content) in listing, name
        assert f"({len(content):,} bytes)".replace(",", "") in listing.replace(",", "")


def test_every_module_a_page_may_load_hands_itself_over_as_served(collected):
    """A page carries every one of them (tests/js/carried.test.mjs checks
    what each hands over): none is left to a second round trip."""
    from surveys.kinds import KINDS, kind_module
    from surveys.respond.inline import carried_module
    from surveys.respond.integrity import RANDOMIZER, RANDOMIZER_PARTS
    from surveys.respond.page_modules import FEATURE_SCRIPTS

    paths = [
        RANDOMIZER,
        *RANDOMIZER_PARTS.values(),
        *(paths[0] for paths in FEATURE_SCRIPTS.values()),
        *(getattr(kind_module(kind, "page"), "SCRIPT", None) for kind in KINDS),
    ]
    for path in filter(None, paths):
        assert carried_module(path) is not None, path


@pytest.mark.django_db
def test_a_carried_module_that_imports_a_file_has_it_preloaded_with_its_hash(
    collected, settings, client, owner
):
    """Display logic's module imports the conditions by URL: inside the page
    that import still fetches a file, so the head preloads it with the
    integrity of the bytes served."""
    from surveys.builder.services import survey_publish
    from tests.surveys.display_logic.data import filtered_survey

    survey = survey_publish(survey=filtered_survey(owner)[0])
    page = client.get(f"/s/{survey.slug}/").content.decode()
    modules = _config(page)["modules"]
    assert modules == {"displayLogic": "inline:js/survey/display-logic.js"}
    logic = served(settings, collected["js/survey/display-logic.js"]).decode()
    assert f'<script type="module">{logic}</script>' in page
    conditions = collected["js/conditions.js"]
    assert _pinned(page) == [
        (f"/static/{conditions}", _sri(served(settings, conditions)))
    ]


@pytest.mark.django_db
def test_a_page_without_the_production_storage_links_its_files(client, open_survey):
    """The sources import ``./rr.js``, which inside a page at /s/<slug>/ names
    the wrong URL: only the production storage's files are sent inline."""
    response = client.get(f"/s/{open_survey.slug}/")
    page = response.content.decode()
    assert "<style>" not in page
    assert '<script type="module" src="/static/js/survey.js"' in page
    assert "sha256-" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_the_transparency_pages_command_reproduces_the_served_randomizer(
    collected, settings, client, open_survey
):
    """What the page tells a reader to run, in the published source, prints
    the SHA-256 of the randomizer it serves; run as the page says, with the
    standard library alone (``-I`` keeps config/ off the path)."""
    transparency = client.get(f"/s/{open_survey.slug}/transparency/").content.decode()
    command = "python3 -I config/static_minify.py static/js/rr.js --sha256"
    assert f"<code>{command}</code>" in transparency
    printed = subprocess.run(
        [sys.executable, *command.split()[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert (
        printed == hashlib.sha256(served(settings, collected["js/rr.js"])).hexdigest()
    )
    assert f'id="randomizer-sha256">{printed}<' in transparency


@pytest.mark.django_db
@pytest.mark.parametrize("part", ["static/js/rr-rule.js", "static/js/rr-arm.js"])
def test_the_same_command_reproduces_each_served_part_of_the_randomizer(
    collected, settings, client, open_survey, part
):
    """A part some pages load (its integrity listed on the transparency page)
    is served as its source stripped, imports and all: it imports nothing, so
    the page's command, run on its own file, prints what is served."""
    transparency = client.get(f"/s/{open_survey.slug}/transparency/").content.decode()
    assert f"<code>{part}</code>" in transparency
    printed = subprocess.run(
        [sys.executable, "-I", "config/static_minify.py", part, "--sha256"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    name = collected[part.removeprefix("static/")]
    assert printed == hashlib.sha256(served(settings, name)).hexdigest()
    assert f'<code class="hash">{printed}</code>' in transparency
