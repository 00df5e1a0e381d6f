"""Static files for production: WhiteNoise's compressed, hashed storage, with
the ES modules' own imports rewritten to hashed names as well, and our own
scripts and style sheets served without comments and indentation.

Without the rewrite, ``survey.<hash>.js`` imports plain ``./rr.js``, which can
only be cached briefly (it changes under the same name), and a phone holding
an old copy could pair it with a newer page. With it, every file the pages
load is immutable and cached for years.

The stripping (``config.static_minify``) happens before hashing, so the
hashed names, the manifest, the .gz/.br copies and the integrity hashes the
pages print (``surveys/respond/integrity.py`` reads the collected file) are
all of the stripped bytes. Only files found in ``STATICFILES_DIRS`` (our
``static/`` and the kinds' ``surveys/kinds/<kind>/static/``) are stripped;
Django's admin, DRF and other packages' files are served as shipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from whitenoise.storage import CompressedManifestStaticFilesStorage

from config.static_minify import STRIPPERS, StripError, strip


def own_static_roots() -> list[Path]:
    """The folders of ``STATICFILES_DIRS``: the site's own static files."""
    roots = []
    for entry in settings.STATICFILES_DIRS:
        folder = entry[1] if isinstance(entry, tuple | list) else entry
        roots.append(Path(folder).resolve())
    return roots


def is_own(storage: Storage, path: str, roots: list[Path]) -> bool:
    """Whether ``path`` in the finder's ``storage`` is one of our files."""
    try:
        location = Path(storage.path(path)).resolve()
    except NotImplementedError:
        return False
    return any(location.is_relative_to(root) for root in roots)


class HashedModulesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    # Read by surveys/respond/integrity.py: the transparency page then says
    # the scripts are served stripped, and how to reproduce their bytes.
    strips_sources = True

    def post_process(
        self,
        paths: dict[str, tuple[Storage, str]],
        dry_run: bool = False,
        **options: Any,
    ) -> Iterator[tuple[str, str | None, Any]]:
        if not dry_run:
            paths = self._stripped(paths)
        yield from super().post_process(paths, dry_run=dry_run, **options)

    def _stripped(
        self, paths: dict[str, tuple[Storage, str]]
    ) -> dict[str, tuple[Storage, str]]:
        """Overwrite the collected copy of each of our scripts and style
        sheets with its stripped text, and have the hashing read that copy."""
        roots = own_static_roots()
        result = dict(paths)
        for name, (storage, path) in paths.items():
            if Path(name).suffix not in STRIPPERS or not is_own(storage, path, roots):
                continue
            with storage.open(path) as source:
                text = source.read().decode("utf-8")
            try:
                content = strip(name, text)
            except StripError as error:
                raise StripError(f"{name}: {error}") from error
            if self.exists(name):
                self.delete(name)
            self._save(name, ContentFile(content.encode("utf-8")))
            result[name] = (self, name)
        return result
