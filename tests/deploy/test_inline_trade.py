"""The inline-code benchmark's join (benchmarks/inline_trade.py) still makes
one valid module of the modules we serve, so its figures keep measuring the
page's own code rather than a join that rotted with it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.inline_trade import JoinError, join_modules
from config.static_minify import strip_js
from tests.conftest import skip_or_fail

REPO = Path(__file__).resolve().parents[2]
PAGE = "/static/js/survey.js"


def served(path: Path) -> str:
    return strip_js(path.read_text())


def sources() -> dict[str, str]:
    """Every module a page can load, stripped as production serves it, by a
    URL of its own: the page script, the randomizer and its parts, each
    kind's script and every feature but display logic (which imports the
    conditions module, and is left out of the join; see the test below)."""
    found = {PAGE: served(REPO / "static/js/survey.js")}
    found["/static/js/rr.js"] = served(REPO / "static/js/rr.js")
    for part in sorted(REPO.glob("static/js/rr-*.js")):
        found[f"/static/js/{part.name}"] = served(part)
    for feature in sorted(REPO.glob("static/js/survey/*.js")):
        if feature.name != "display-logic.js":
            found[f"/static/js/survey/{feature.name}"] = served(feature)
    for kind in sorted(REPO.glob("surveys/kinds/*/static/page.js")):
        found[f"/static/js/kinds/{kind.parent.parent.name}/page.js"] = served(kind)
    return found


def test_every_module_joins_into_one_module_that_parses(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        skip_or_fail("Node.js is not installed")
    modules = sources()
    joined = join_modules(PAGE, modules)
    assert "import(" not in joined
    assert not [
        line for line in joined.splitlines() if line.startswith(("import ", "export "))
    ]
    # Each module other than the page script and the randomizer is kept by its URL.
    for url in modules:
        if url not in (PAGE, "/static/js/rr.js"):
            assert f'__modules["{url}"] = ' in joined
    script = tmp_path / "joined.mjs"
    script.write_text(joined)
    checked = subprocess.run(
        [str(node), "--check", str(script)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr


def test_a_module_that_imports_another_is_refused() -> None:
    modules = sources()
    modules["/static/js/survey/display-logic.js"] = served(
        REPO / "static/js/survey/display-logic.js"
    )
    with pytest.raises(JoinError, match="display-logic.js imports another module"):
        join_modules(PAGE, modules)
