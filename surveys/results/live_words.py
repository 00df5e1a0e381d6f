"""The sentences the results page's scripts write (static/js/results-live.js,
static/js/model-fit.js), translated here and passed with their configuration,
so a page in Spanish is not told what happens in English. Each ``%(name)s``
is filled in the browser from the progress it reads."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, pgettext


def _common() -> dict[str, str]:
    return {
        "no_reason": gettext("no reason was recorded"),
        "of": gettext("%(done)s of %(total)s"),
    }


def run_words() -> dict[str, str]:
    """What results-live.js says of a run, and how it writes a time."""
    return {
        **_common(),
        "queued": gettext("A recomputation is queued."),
        "running": gettext(
            "Computing: %(questions_done)s of %(questions_total)s questions done."
        ),
        "finished": gettext("Done. Showing the new estimates…"),
        "failed": gettext(
            "The computation failed: %(error)s. The estimates shown are from the "
            "last one that finished."
        ),
        "shown": gettext("New estimates are shown."),
        "shown_computed": gettext("New estimates are shown (computed %(when)s)."),
        # The parts come from the browser's Intl.DateTimeFormat, in ``locale``.
        "time": pgettext(
            "a time in the reader's zone",
            "%(day)s %(month)s %(year)s, %(hour)s:%(minute)s %(zone)s",
        ),
    }


def fit_words() -> dict[str, str]:
    """What model-fit.js says of a model fit."""
    return {
        **_common(),
        "queued": gettext("A model fit is queued."),
        "running": gettext(
            "Fitting the model: step %(steps_done)s of %(steps_total)s done."
        ),
        "finished": gettext("The model is ready and shown below."),
        "failed": gettext("The model fit failed: %(error)s"),
    }


def intl_locale() -> str:
    """The page's language for the browser's date formats: British English
    (day before month) for English, else the language itself."""
    language = translation.get_language() or "en"
    return "en-GB" if language.split("-")[0] == "en" else language
