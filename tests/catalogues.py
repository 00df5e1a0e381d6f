"""Reading gettext catalogues without polib, and finding what a language lacks.

The translation gate (tests/test_translations.py) extracts the project's
messages with Django's own ``makemessages`` and compares them with a committed
catalogue through these few functions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field

Key = tuple[str | None, str]  # (context, msgid)


@dataclass
class Entry:
    msgid: str
    context: str | None = None
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    locations: list[str] = field(default_factory=list)

    @property
    def key(self) -> Key:
        return (self.context, self.msgid)

    @property
    def translated(self) -> bool:
        """Every form has a translation and none is marked fuzzy."""
        return not self.fuzzy and bool(self.strings) and all(self.strings.values())


def _unquote(text: str) -> str:
    # PO strings are C-style literals; Python reads the same escapes.
    return str(ast.literal_eval(text.strip()))


def read_po(text: str) -> dict[Key, Entry]:
    """The entries of a ``.po`` file by (context, msgid), header and obsolete
    entries left out."""
    entries: dict[Key, Entry] = {}
    for block in text.split("\n\n"):
        entry = _read_entry(block)
        if entry is not None and entry.msgid:
            entries[entry.key] = entry
    return entries


def _read_entry(block: str) -> Entry | None:
    entry = Entry(msgid="")
    target: tuple[str, int] | None = None
    values: dict[tuple[str, int], str] = {}
    for line in block.strip().splitlines():
        if line.startswith("#~"):
            return None
        if line.startswith("#:"):
            entry.locations += [ref.rsplit(":", 1)[0] for ref in line[2:].split()]
        elif line.startswith("#,"):
            entry.fuzzy = "fuzzy" in line[2:].replace(",", " ").split()
        elif line.startswith('"') and target is not None:
            values[target] += _unquote(line)
        elif line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            name, _, index = keyword.partition("[")
            target = (name, int(index.rstrip("]") or 0))
            values[target] = _unquote(rest)
    entry.msgid = values.get(("msgid", 0), "")
    entry.context = values.get(("msgctxt", 0))
    entry.plural = values.get(("msgid_plural", 0))
    entry.strings = {i: v for (name, i), v in values.items() if name == "msgstr"}
    return entry


def untranslated(wanted: Iterable[Key], catalogue: dict[Key, Entry]) -> dict[Key, str]:
    """Each wanted message the catalogue does not translate, with why."""
    problems = {}
    for key in wanted:
        entry = catalogue.get(key)
        if entry is None:
            problems[key] = "missing"
        elif entry.fuzzy:
            problems[key] = "fuzzy"
        elif not entry.translated:
            problems[key] = "empty"
    return problems


def compiled_messages(catalogue: dict[Key, Entry]) -> dict[object, str]:
    """What ``msgfmt`` puts in a ``.mo`` from these entries, keyed as Python's
    ``gettext`` reads it back: fuzzy and empty translations are left out."""
    messages: dict[object, str] = {}
    for entry in catalogue.values():
        if not entry.translated:
            continue
        msgid = (
            entry.msgid
            if entry.context is None
            else f"{entry.context}\x04{entry.msgid}"
        )
        if entry.plural is None:
            messages[msgid] = entry.strings[0]
        else:
            for index, text in entry.strings.items():
                messages[(msgid, index)] = text
    return messages
