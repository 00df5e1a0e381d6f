"""The translation gate: every message a respondent can meet is translated in
every language the site offers, and the compiled catalogues are the committed
ones.

The messages are extracted as ``make messages`` does (Django's ``makemessages``,
on a copy of the sources, so the tree is never written to) and compared with
the committed ``locale/<lang>/LC_MESSAGES/django.po``.
"""

from __future__ import annotations

import gettext
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.catalogues import Entry, Key, compiled_messages, read_po, untranslated
from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("config", "estimation", "surveys", "templates")
# Everything a respondent can read: their pages (and the error pages they may
# meet), the page script's words, the public API's refusals, and the sentences
# built from a design.
RESPONDENT_SOURCES = frozenset(
    {
        "templates/base.html",
        "templates/404.html",
        "templates/500.html",
        "templates/503.html",
        "templates/surveys/respond.html",
        "templates/surveys/transparency.html",
        "templates/surveys/_language_switcher.html",
        "surveys/respond/messages.py",
        "surveys/respond/selectors.py",
        "surveys/respond/submissions.py",
        "surveys/access/selectors.py",
        "surveys/access/services.py",
        "surveys/api/public.py",
        "surveys/ratelimit.py",
        "surveys/words.py",
        "surveys/templatetags/times.py",
        "config/errors.py",
        "estimation/bands.py",
        "estimation/designs.py",
        "estimation/kinds/binary/designs.py",
        "estimation/kinds/choice/designs.py",
        "estimation/planning.py",
        "estimation/words.py",
    }
)
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]


def catalogue_path(language: str, suffix: str = "po") -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / f"django.{suffix}"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[Key, Entry]:
    """The project's messages, as ``make messages`` would extract them today."""
    if shutil.which("xgettext") is None:
        skip_or_fail("gettext is not installed (apt-get install gettext)")
    work = tmp_path_factory.mktemp("messages")
    for name in SOURCES:
        shutil.copytree(
            ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__")
        )
    (work / "locale").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(work)
        patch.setattr(settings, "LOCALE_PATHS", [work / "locale"])
        call_command("makemessages", locale=["es"], verbosity=0, no_obsolete=True)
    return read_po((work / "locale/es/LC_MESSAGES/django.po").read_text())


def respondent_keys(extracted: dict[Key, Entry]) -> set[Key]:
    return {
        key
        for key, entry in extracted.items()
        if RESPONDENT_SOURCES.intersection(entry.locations)
    }


def test_the_gate_sees_the_respondent_pages_the_script_and_the_design_sentences(
    extracted,
):
    keys = respondent_keys(extracted)
    for message in [
        "Send my answers",  # respond.html
        "How this survey protects your answers",  # transparency.html
        "Sending your answers…",  # the page script's words
        "Your device secretly flips a weighted coin.",  # a design sentence
        "less than %(percent)s",  # numbers in words
        (  # a public API refusal
            "This invitation has already been used. Each invitation link answers "
            "the survey once: if you have not answered it, ask whoever invited "
            "you for a new link."
        ),
        "strong protection",  # a band's name
    ]:
        assert (None, message) in keys
    assert ("after a percentage", "%") in keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_a_respondent_can_meet_is_translated(extracted, language):
    catalogue = read_po(catalogue_path(language).read_text())
    problems = untranslated(sorted(respondent_keys(extracted), key=str), catalogue)
    assert not problems, f"{language}: run `make messages` and translate: " + "; ".join(
        f"{msgid!r} ({why})" for (_, msgid), why in problems.items()
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_holds_every_message_of_the_sources(extracted, language):
    """Researcher-facing messages may stay untranslated, but the catalogue is
    current: ``make messages`` has been run since the last change."""
    catalogue = read_po(catalogue_path(language).read_text())
    missing = sorted(set(extracted) - set(catalogue), key=str)
    assert not missing, f"{language}: run `make messages`; missing {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_compiled_from_the_committed_po(language):
    catalogue = read_po(catalogue_path(language).read_text())
    with catalogue_path(language, "mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    compiled = {key: text for key, text in compiled.items() if key != ""}
    assert compiled == compiled_messages(catalogue), (
        f"{language}: django.mo differs from django.po; run `make messages`"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_has_the_forms_its_language_needs(language):
    text = catalogue_path(language).read_text()
    forms = int(re.search(r"nplurals=(\d+)", text).group(1))
    for entry in read_po(text).values():
        if entry.plural is not None:
            assert sorted(entry.strings) == list(range(forms)), entry.msgid


def test_the_gate_fails_on_a_missing_an_empty_and_a_fuzzy_message(extracted):
    catalogue = read_po(catalogue_path("es").read_text())
    keys = sorted(respondent_keys(extracted), key=str)
    assert untranslated(keys, catalogue) == {}
    removed, emptied, fuzzy = (None, "Send my answers"), keys[0], keys[1]
    del catalogue[removed]
    catalogue[emptied].strings = {i: "" for i in catalogue[emptied].strings}
    catalogue[fuzzy].fuzzy = True
    assert untranslated(keys, catalogue) == {
        removed: "missing",
        emptied: "empty",
        fuzzy: "fuzzy",
    }


def test_the_reader_handles_contexts_plurals_continuations_and_escapes():
    text = r"""
#: a.py:1 templates/b.html:2
#, fuzzy, python-format
msgctxt "ctx"
msgid ""
"Say \"%(x)s\" "
"twice"
msgid_plural "plural"
msgstr[0] "uno"
msgstr[1] ""

#~ msgid "gone"
#~ msgstr "ido"
"""
    (entry,) = read_po(text).values()
    assert entry.key == ("ctx", 'Say "%(x)s" twice')
    assert entry.locations == ["a.py", "templates/b.html"]
    assert entry.plural == "plural"
    assert entry.strings == {0: "uno", 1: ""}
    assert entry.fuzzy
    assert not entry.translated


@pytest.mark.parametrize(
    "path",
    [
        "static/js/survey.js",
        *sorted(
            str(p.relative_to(ROOT)) for p in (ROOT / "static/js/survey").glob("*.js")
        ),
    ],
)
def test_the_page_script_holds_no_words_of_its_own(path):
    """Every sentence static/js/survey.js and its feature modules show comes
    from config.messages."""
    script = (ROOT / path).read_text()
    code = "\n".join(
        line for line in script.splitlines() if not line.lstrip().startswith("//")
    )
    # A string literal with two words in it is a sentence for people.
    prose = re.findall(r"([\"'`])([A-Za-z][a-z]+ [a-z]+[^\"'`]*)\1", code)
    assert prose == []
