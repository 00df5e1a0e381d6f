"""Static files for production: WhiteNoise's compressed, hashed storage, with
the ES modules' own imports rewritten to hashed names as well, and our own
scripts and style sheets served without comments, indentation and needless
spaces.

Without the rewrite, ``survey.<hash>.js`` imports plain ``./rr.js``, which can
only be cached briefly (it changes under the same name), and a phone holding
an old copy could pair it with a newer page. With it, every file the pages
load is immutable and cached for years. The rewritten references are
absolute (``/static/js/rr.<hash>.js``, not ``./rr.<hash>.js``): a file means
the same wherever its text is read, so the respondent page can carry its
scripts and style sheet inside itself, byte for byte the collected files
(``surveys/respond/inline.py``), and an import in one (the display logic's)
still finds its file.

The stripping (``config.static_minify``) happens before hashing, so the
hashed names, the manifest, the .gz/.br copies and the integrity hashes the
pages print (``surveys/respond/integrity.py`` reads the collected file) are
all of the stripped bytes. Only files found in ``STATICFILES_DIRS`` (our
``static/`` and the kinds' ``surveys/kinds/<kind>/static/``) are stripped;
Django's admin, DRF and other packages' files are served as shipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from whitenoise.storage import CompressedManifestStaticFilesStorage

from config.static_minify import STRIPPERS, StripError, strip

# Marks the rewritten reference in a converter's output, so that it can be
# made absolute without repeating Django's own resolution of it.
_MARK = "\x00"


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
    # Read by surveys/respond/inline.py: a collected script or style sheet
    # names every file it refers to by absolute URL (see the module's
    # docstring), so its text works inside a page as well as in its file.
    absolute_references = True

    def url_converter(
        self, name: str, hashed_files: Any, template: str | None = None
    ) -> Callable[[Any], str]:
        """Django's rewrite of a reference to its hashed name, made absolute
        against the file's own URL (Django keeps the reference's ``./``).

        Only the reference changes: Django writes the whole statement again
        from a template of its own (``import{a}from"./a.js"`` would come out
        as ``import{a} from "./a.js"``), and a served module is to differ
        from its stripped source in the imported file's name and nothing
        else (docs/security.md)."""
        template = template or self.default_template
        marked = super().url_converter(
            name, hashed_files, template.replace("%(url)s", f"{_MARK}%(url)s{_MARK}")
        )
        here = urljoin(settings.STATIC_URL, name.replace("\\", "/"))

        def converter(matchobj: Any) -> str:
            text = marked(matchobj)
            if _MARK not in text:  # left alone: another origin, a data: URL
                return text
            reference = urljoin(here, text.split(_MARK)[1])
            matched = matchobj["matched"]
            start = matchobj.start("url") - matchobj.start("matched")
            end = start + len(matchobj["url"])
            return matched[:start] + reference + matched[end:]

        return converter

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
