"""The scripts production serves are the repository's, so an outsider can check
a site against a release (docs/methodology.md, "Verifying the randomizer";
docs/security.md, "A tampered server"): the randomizer byte for byte, the page
script but for the hashed names of its imports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

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


def test_the_served_randomizer_is_the_repositorys_file_byte_for_byte(
    collected, settings
):
    served = collected["js/rr.js"]
    assert served != "js/rr.js"  # a hashed name, cached for years
    content = (Path(settings.STATIC_ROOT) / served).read_bytes()
    assert content == (REPO / "static/js/rr.js").read_bytes()


def test_the_served_page_script_differs_only_in_its_imports_hashed_names(
    collected, settings
):
    served = (Path(settings.STATIC_ROOT) / collected["js/survey.js"]).read_text()
    assert f'"./{Path(collected["js/rr.js"]).name}"' in served
    for original, hashed in collected.items():
        if original.startswith("js/"):
            served = served.replace(Path(hashed).name, Path(original).name)
    assert served == (REPO / "static/js/survey.js").read_text()
