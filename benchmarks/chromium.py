"""Debian's Chromium, launched the one way this project uses it (tests and benchmarks)."""

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# Headless as root, with no background traffic: the machines reach no network
# beyond the package registries, and a respondent page must make no other request.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
