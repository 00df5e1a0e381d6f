"""The scripts production serves are the repository's with comments and
indentation removed by ``config.static_minify`` (docs/methodology.md,
"Verifying the randomizer"; docs/security.md, "A tampered server"): the
randomizer exactly that, the page script but for the hashed names of its
imports; and the hashes the pages print are of the bytes served. The page
script and the style sheet the respondent page carries inside itself are
those same bytes, and its policy allows no other inline code."""

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
from django.core.management import call_command

from config.static_minify import strip
from config.static_storage import is_own, own_static_roots

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def collected(settings: Any, tmp_path: Path) -> dict[str, str]:
    """collectstatic with the production storage; the manifest's names."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "config.static_storage.HashedModulesStorage"},
    }
    call_command(
        "collectstatic",
        interactive=False,
        verbosity=0,
        # Only the site's own files: the scripts import nothing from these.
        ignore_patterns=["admin/*", "drf_spectacular_sidecar/*", "rest_framework/*"],
    )
    return json.loads((tmp_path / "staticfiles.json").read_text())["paths"]


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


def test_the_served_page_script_differs_only_in_its_imports_hashed_names(
    collected, settings
):
    page = served(settings, collected["js/survey.js"]).decode()
    # By absolute URL, so that the same text works inside the respondent page.
    assert f'"/static/{collected["js/rr.js"]}"' in page
    page = page.replace("/static/js/", "./")
    for original, hashed in collected.items():
        if original.startswith("js/"):
            page = page.replace(Path(hashed).name, Path(original).name)
    assert page == strip("survey.js", (REPO / "static/js/survey.js").read_text())


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


@pytest.mark.django_db
def test_the_pages_hashes_are_of_the_stripped_files_served(
    collected, settings, client, open_survey
):
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    pinned = _pinned(page)
    assert f"/static/{collected['js/rr.js']}" in dict(pinned)
    # The page script comes inside the page (see the next test), not as a file.
    assert f"/static/{collected['js/survey.js']}" not in dict(pinned)
    # No display logic on this survey: its module is not loaded at all.
    assert f"/static/{collected['js/conditions.js']}" not in dict(pinned)
    for url, sri in pinned:
        assert sri == _sri(served(settings, url.removeprefix("/static/"))), url
    transparency = client.get(f"/s/{open_survey.slug}/transparency/").content.decode()
    listed = re.findall(r'<a href="/static/([^"]+)">', transparency)
    assert collected["js/rr.js"] in listed
    assert collected["js/survey.js"] in listed
    for name in listed:
        content = served(settings, name)
        assert hashlib.sha256(content).hexdigest() in transparency, name
        assert _sri(content) in transparency, name
        assert f"({len(content):,} bytes)".replace(",", "") in transparency.replace(
            ",", ""
        )


def _policy(response: Any) -> dict[str, list[str]]:
    directives = [
        part.split() for part in response["Content-Security-Policy"].split(";")
    ]
    return {words[0]: words[1:] for words in directives if words}


@pytest.mark.django_db
def test_the_page_carries_its_script_and_style_sheet_as_served_and_allows_only_them(
    collected, settings, client, open_survey
):
    """The second round trip on a slow phone is the page's own script and
    style sheet (docs/benchmarks.md): they come inside the HTML, byte for byte
    the served files, allowed by the hash the transparency page states."""
    response = client.get(f"/s/{open_survey.slug}/")
    page = response.content.decode()
    scripts = re.findall(r'<script type="module">(.*?)</script>', page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    script = served(settings, collected["js/survey.js"])
    style = served(settings, collected["css/site.css"])
    assert [text.encode() for text in scripts] == [script]
    assert [text.encode() for text in styles] == [style]
    assert "stylesheet" not in page
    policy = _policy(response)
    assert policy["script-src"] == ["'self'", f"'{_sri(script)}'"]
    assert policy["style-src"] == ["'self'", f"'{_sri(style)}'"]
    # Nothing else is allowed inline, and other pages allow nothing inline.
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    transparency = client.get(f"/s/{open_survey.slug}/transparency/")
    assert "sha256-" not in transparency["Content-Security-Policy"]
    assert _sri(script) in transparency.content.decode()


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
