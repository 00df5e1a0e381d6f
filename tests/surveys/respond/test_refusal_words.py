"""Why a spec is refused, in the page's language: the randomizer (rr.js) and
each kind's script say it in English by code, and the page's messages carry
each code's sentence in the page's language. The English here is the scripts'
own, read from them by Node, so neither side can drift."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.utils import translation

from surveys.kinds import KINDS, kind_module
from surveys.respond.messages import page_messages, refusal_sentences
from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER = re.compile(r"\{(\w+)\}")

READ_TABLES = """
const rr = await import(process.argv[1]);
const tables = { randomizer: rr.REFUSALS };
for (const [kind, file] of Object.entries(JSON.parse(process.argv[2]))) {
  tables[kind] = (await import(file)).default(rr).refusals ?? {};
}
console.log(JSON.stringify(tables));
"""


def kind_scripts() -> dict[str, str]:
    """Each kind with a script of its own, to the script's file on disk."""
    scripts = {}
    for kind in KINDS:
        script = kind_module(kind, "page").SCRIPT
        if script:
            found = finders.find(script)
            assert found, script
            scripts[kind] = Path(str(found)).as_uri()
    return scripts


@pytest.fixture(scope="module")
def script_tables() -> dict[str, dict[str, str]]:
    node = shutil.which("node")
    if node is None:
        skip_or_fail("Node.js is not installed")
    rr = (ROOT / "static" / "js" / "rr.js").as_uri()
    done = subprocess.run(
        [
            node,
            "--input-type=module",
            "-e",
            READ_TABLES,
            rr,
            json.dumps(kind_scripts()),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    tables: dict[str, dict[str, str]] = json.loads(done.stdout)
    return tables


def test_the_english_sentences_are_the_scripts_own(script_tables):
    with translation.override("en"):
        assert refusal_sentences([]) == script_tables["randomizer"]
        for kind in KINDS:
            own = {
                code: sentence
                for code, sentence in refusal_sentences([kind]).items()
                if code not in script_tables["randomizer"]
            }
            assert own == script_tables.get(kind, {}), kind


def test_a_kind_reuses_no_code_of_the_randomizer_or_another_kind(script_tables):
    """One code, one sentence: a kind that meant another sentence under a
    taken code would be translated as the other."""
    seen: dict[str, str] = {}
    for owner, table in script_tables.items():
        for code in table:
            assert code not in seen, (code, owner, seen.get(code))
            seen[code] = owner


def test_every_sentence_is_translated_with_the_same_particulars():
    with translation.override("en"):
        english = refusal_sentences(KINDS)
    with translation.override("es"):
        spanish = refusal_sentences(KINDS)
    assert spanish.keys() == english.keys()
    for code, sentence in english.items():
        assert spanish[code] != sentence, code
        assert set(PLACEHOLDER.findall(spanish[code])) == set(
            PLACEHOLDER.findall(sentence)
        ), code


def test_a_page_carries_the_sentences_of_its_kinds_in_another_language_only():
    """English pages leave them to the scripts, which say the same."""
    with translation.override("en"):
        assert "refusals" not in page_messages(questions=1, kinds=list(KINDS))
    with translation.override("es"):
        words = page_messages(questions=1, kinds=[])
    with translation.override("es"):
        every = page_messages(questions=1, kinds=list(KINDS))
    assert set(words["refusals"]) < set(every["refusals"])
    assert words["refusals"]["tooLoose"].startswith("su diseño protegería")
