"""Each kind's page fragments live in its own package
(``surveys/kinds/<package>/templates/``) and are named ``kinds/<package>/...``:
this loader, registered in config/settings.py, finds them there, as Django's
app loader finds an app's templates."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from django.core.exceptions import SuspiciousFileOperation
from django.template import Origin
from django.template.loaders import filesystem
from django.utils._os import safe_join

KINDS_DIR = Path(__file__).resolve().parent
PREFIX = "kinds/"


class Loader(filesystem.Loader):
    """``kinds/<package>/<name>`` is ``surveys/kinds/<package>/templates/<name>``."""

    def get_template_sources(self, template_name: str) -> Iterator[Origin]:
        if not template_name.startswith(PREFIX):
            return
        package, _, name = template_name.removeprefix(PREFIX).partition("/")
        if not package or not name:
            return
        try:
            path = safe_join(KINDS_DIR, package, "templates", name)
        except SuspiciousFileOperation:
            return  # outside the kinds' folders: not a kind's fragment
        yield Origin(name=path, template_name=template_name, loader=self)

    def template_names(self) -> Iterator[str]:
        """Every kind's fragments by the name pages ask for (the worker's
        warm-up compiles them: config/warmup.py)."""
        for folder in sorted(KINDS_DIR.glob("*/templates")):
            for path in sorted(folder.rglob("*.html")):
                yield f"{PREFIX}{folder.parent.name}/{path.relative_to(folder).as_posix()}"
