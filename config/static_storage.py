"""Static files for production: WhiteNoise's compressed, hashed storage, with
the ES modules' own imports rewritten to hashed names as well.

Without the rewrite, ``survey.<hash>.js`` imports plain ``./rr.js``, which can
only be cached briefly (it changes under the same name), and a phone holding
an old copy could pair it with a newer page. With it, every file the pages
load is immutable and cached for years.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedModulesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
