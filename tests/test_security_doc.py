"""docs/security.md names the test behind each of its claims. Every name must
exist, and every row of its claim tables must name a test or say plainly that
the claim is not tested, so the threat model cannot point at a test that was
renamed or removed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "security.md"
# `tests/<path>.py::test_name` or `tests/js/<file>.test.mjs::the test's title`
REFERENCE = re.compile(r"`(tests/[\w/.-]+\.(?:py|mjs))::([^`]+)`")
CLAIM_HEADER = re.compile(r"^\|\s*claim\s*\|", re.IGNORECASE)


def references(text: str) -> list[tuple[str, str]]:
    return REFERENCE.findall(text)


def defines(path: Path, name: str) -> bool:
    """Whether the file defines that test: a pytest function or a node test."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        if not name.startswith("test_"):
            return False
        pattern = rf"^\s*(?:async\s+)?def {re.escape(name)}\("
        return re.search(pattern, text, re.MULTILINE) is not None
    quoted = rf"\btest\(\s*([\"'`]){re.escape(name)}\1"
    return re.search(quoted, text) is not None


def claim_rows(text: str) -> list[str]:
    """The body rows of every table whose first column is headed "claim"."""
    rows, in_table = [], False
    for line in text.splitlines():
        if CLAIM_HEADER.match(line):
            in_table = True
        elif in_table and line.startswith("|"):
            if not re.match(r"^\|[\s|:-]+\|$", line):
                rows.append(line)
        else:
            in_table = False
    return rows


def test_every_test_the_threat_model_names_exists():
    named = references(DOC.read_text(encoding="utf-8"))
    assert len(named) >= 40, "the threat model names the tests behind its claims"
    missing = [
        f"{path}::{name}"
        for path, name in named
        if not (ROOT / path).is_file() or not defines(ROOT / path, name)
    ]
    assert missing == []


def test_every_claim_names_its_test_or_says_it_is_not_tested():
    rows = claim_rows(DOC.read_text(encoding="utf-8"))
    assert len(rows) >= 30, "the actors' tables were found"
    bare = [
        row
        for row in rows
        if not references(row.rsplit("|", 2)[-2])
        and "not tested" not in row.rsplit("|", 2)[-2].lower()
    ]
    assert bare == []


def test_a_renamed_test_would_be_caught(tmp_path):
    script = tmp_path / "check.test.mjs"
    script.write_text('test("it holds", () => {});\n', encoding="utf-8")
    module = tmp_path / "test_x.py"
    module.write_text("def test_it_holds():\n    pass\n", encoding="utf-8")
    assert defines(script, "it holds")
    assert not defines(script, "it held")
    assert defines(module, "test_it_holds")
    assert not defines(module, "test_it_held")
    assert not defines(module, "it_holds")


def test_the_readme_links_the_threat_model():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/security.md)" in readme
