"""Our own ES modules and style sheets without comments, indentation and
needless spaces: what production serves (``config.static_storage`` applies it
at collectstatic time; development serves the sources as they are).

Why our own tokenizer rather than a minifier from PyPI: the established
pure-Python one (rjsmin 1.3.0) silently truncates a template literal nested in
another's ``${…}`` when the inner one holds ``//``: the file is cut
there, and a truncated randomizer is worse than a heavy one. And this file
needs nothing but Python, so a reader can run it.

What it does, and nothing more, so that a reader can check a served file
against the source by eye as well as by hash:

- JavaScript: removes comments, indentation, trailing and repeated spaces and
  blank lines, and every space between two tokens that reads the same
  without it: a space stays only between two names, keywords or numbers, a
  number and a ``.``, two punctuators that would join into another
  (``a - -b``), a ``/`` and what would make it a comment or a regular
  expression's flags, and after ``<`` before ``!`` or ``/`` and after
  ``--`` before ``>`` (which mean something to the HTML page that carries
  the script). Every line break between two tokens is kept (one for a run
  of them, and one for a block comment that spanned lines), so automatic
  semicolon insertion reads the same statements and each line of the served
  file is a line of the source. Strings, regular-expression literals and
  template literals (their text, including line breaks and anything that
  looks like a comment in it) are copied byte for byte; a ``${…}`` inside a
  template is code and is stripped like code.
- CSS: removes comments, and collapses every run of whitespace to one space,
  none beside ``{ } ; ,``, and a block's last semicolon; strings and
  ``url(…)`` are copied as they are.
- A ``/*!`` comment at the very start (a licence) is kept.

A ``/`` starts a regular expression or divides by what came before it, as
every JavaScript tokenizer decides: after a value (a name, a number, a string,
``)``, ``]``, a postfix ``++``) it divides; after an operator, ``(``, ``}``,
the start, a keyword such as ``return``, or the ``)`` closing the condition
of ``if``, ``while``, ``for`` or ``with`` it starts a literal. A string,
template, regular expression or comment left open at a line's or the file's
end raises ``StripError`` rather than serve a guess.

Run as ``python config/static_minify.py FILE`` (no Django, no dependencies)
to print the stripped bytes of a source file, or with ``--sha256`` / ``--sri``
their hashes, to compare with what a site serves.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

# Keywords after which a ``/`` begins a regular expression (the expression
# they take comes next), unlike a name, after which it divides.
_REGEX_AFTER = frozenset(
    "await case delete do else extends in instanceof new of return throw"
    " typeof void yield".split()
)
# Keywords whose ``( … )`` is a condition, after which a statement (and so
# possibly a regular expression) begins: ``if (a) /b/.test(c)``.
_CONDITION_BEFORE = frozenset(("if", "while", "for", "with"))
# Punctuators, longest first so that the scan takes ``>>>=`` whole.
_PUNCTUATORS = sorted(
    (
        ">>>= ... === !== **= <<= >>= >>> &&= ||= ??= => == != <= >= && || ??"
        " ?. ++ -- += -= *= /= %= &= |= ^= ** << >> { } ( ) [ ] ; , < > + - *"
        " / % & | ^ ! ~ ? : = . @"
    ).split(),
    key=len,
    reverse=True,
)
# Characters that are a token on their own in CSS and never join a
# neighbour into another: the space beside them carries nothing.
_CSS_LONE = frozenset("{};,")
_SPACES = " \t\f\v\u00a0\ufeff"
_HEX = frozenset("0123456789abcdefABCDEF")
_NEWLINES = "\n\r\u2028\u2029"


class StripError(ValueError):
    """The source could not be tokenized with certainty; nothing is served."""


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_$#\\" or ord(char) > 127


def _js_space_needed(previous: str, following: str) -> bool:
    """Whether the space between two JavaScript tokens must stay: without it
    they would read as other tokens, or as markup to the HTML parser of a
    page that carries the script inside it."""
    last, first = previous[-1], following[0]
    if _word_char(last) and _word_char(first):
        return True  # two names, keywords or numbers: ``return x``
    if previous[0].isdigit() and first == ".":
        return True  # ``1 .toString()``
    if last == "/" and (first in "/*" or (len(previous) > 1 and _word_char(first))):
        return True  # a comment, or a name read as a regular expression's flags
    if (last == "<" and first in "!/") or (previous.endswith("--") and first == ">"):
        return True  # ``<!--``, ``</script``, ``-->``
    # Two punctuators that would join into a longer one: ``a - -b``, ``a ? .5``.
    return any(
        previous.endswith(punctuator[:cut]) and following.startswith(punctuator[cut:])
        for punctuator in _PUNCTUATORS
        for cut in range(1, len(punctuator))
    )


def _css_space_needed(previous: str, following: str) -> bool:
    return not (previous[-1] in _CSS_LONE or following[0] in _CSS_LONE)


class _Output:
    """The stripped text, with the space or line break owed before the next
    token decided when that token arrives."""

    def __init__(self, space_needed: Callable[[str, str], bool]) -> None:
        self.parts: list[str] = []
        self.space_needed = space_needed
        self.space = False
        self.newline = False
        # The text just written: the last token, or a literal's text.
        self.previous = ""
        # Every token and literal text, in order.
        self.tokens: list[str] = []

    def token(self, text: str) -> None:
        if self.parts:
            if self.newline:
                self.parts.append("\n")
            elif self.space and self.space_needed(self.previous, text):
                self.parts.append(" ")
        self.space = self.newline = False
        self.parts.append(text)
        self.previous = text
        self.tokens.append(text)

    def raw(self, text: str) -> None:
        """Text inside a literal: copied as it is, never separated."""
        self.parts.append(text)
        if text:
            self.previous = text
            self.tokens.append(text)

    def text(self) -> str:
        body = "".join(self.parts)
        return body + "\n" if body else ""


def _line_of(source: str, index: int) -> int:
    return source.count("\n", 0, index) + 1


def _leading_licence(source: str) -> tuple[str, int]:
    """A ``/*!`` comment at the very start, kept; and where code begins."""
    start = len(source) - len(source.lstrip(_SPACES + _NEWLINES))
    if source.startswith("/*!", start):
        end = source.find("*/", start + 3)
        if end < 0:
            raise StripError(f"line {_line_of(source, start)}: unclosed comment")
        return source[start : end + 2], end + 2
    return "", 0


def _quoted(source: str, start: int) -> int:
    """The end of the string literal opening at ``start``."""
    quote, index = source[start], start + 1
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char in "\n\r":
            break
        index += 1
    raise StripError(f"line {_line_of(source, start)}: unclosed string")


def _regex(source: str, start: int) -> int:
    """The end of the regular-expression literal opening at ``start``, with
    its flags; a ``/`` inside ``[…]`` does not close it."""
    index, in_class = start + 1, False
    while index < len(source):
        char = source[index]
        if char in _NEWLINES:
            break
        if char == "\\":
            index += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            index += 1
            while index < len(source) and _word_char(source[index]):
                index += 1
            return index
        index += 1
    raise StripError(f"line {_line_of(source, start)}: unclosed regular expression")


def _template_text(source: str, start: int) -> tuple[int, bool]:
    """From inside a template literal at ``start``: where its text stops, and
    whether at a ``${`` (True) or at its closing backtick (False)."""
    index = start
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "`":
            return index + 1, False
        if char == "$" and source.startswith("${", index):
            return index + 2, True
        index += 1
    raise StripError(f"line {_line_of(source, start)}: unclosed template literal")


def _divides(previous: str, before_previous: str) -> bool:
    """Whether a ``/`` after the token ``previous`` divides (else it starts a
    regular expression)."""
    if not previous:
        return False
    if previous in (")", "]", "++", "--", "`", "value"):
        return True
    if _word_char(previous[0]):
        # A keyword used as a property name (``a.return``) is a name.
        return previous not in _REGEX_AFTER or before_previous in (".", "?.")
    return False


def strip_js(source: str) -> str:
    """``source`` (an ES module) without comments, indentation, blank lines or
    needless spaces; raises ``StripError`` where it cannot tell what a
    character is."""
    return _read_js(source).text()


def js_tokens(source: str) -> list[str]:
    """The tokens of ``source`` as :func:`strip_js` reads them: a file's and
    its stripped text's must be the same (tests/deploy/test_static_minify.py)."""
    return _read_js(source).tokens


def _read_js(source: str) -> _Output:
    licence, index = _leading_licence(source)
    out = _Output(_js_space_needed)
    if licence:
        out.token(licence)
        out.newline = True
    # What each open ``{`` belongs to: a block or object (False) or a
    # template literal's ``${`` (True), whose ``}`` resumes the template.
    braces: list[bool] = []
    # Whether each open ``(`` follows ``if``, ``while``, ``for`` or ``with``;
    # its ``)`` is then recorded as ``)stmt``, after which ``/`` is a literal.
    parens: list[bool] = []
    previous = before = ""
    length = len(source)
    while index < length:
        char = source[index]
        if char in _SPACES:
            out.space = True
            index += 1
        elif char in _NEWLINES:
            out.newline = True
            index += 1
        elif source.startswith("//", index):
            while index < length and source[index] not in _NEWLINES:
                index += 1
        elif source.startswith("/*", index):
            end = source.find("*/", index + 2)
            if end < 0:
                raise StripError(f"line {_line_of(source, index)}: unclosed comment")
            comment = source[index : end + 2]
            # A comment that spans lines is a line break to the grammar.
            if any(mark in comment for mark in _NEWLINES):
                out.newline = True
            else:
                out.space = True
            index = end + 2
        elif char in "'\"":
            end = _quoted(source, index)
            out.token(source[index:end])
            previous, before, index = "value", previous, end
        elif char == "`" or (char == "}" and braces and braces[-1]):
            if char == "}":
                braces.pop()
                out.token("}")
            else:
                out.token("`")
            end, substitution = _template_text(source, index + 1)
            out.raw(source[index + 1 : end])
            if substitution:
                braces.append(True)
                previous, before = "${", previous
            else:
                previous, before = "`", previous
            index = end
        elif char == "/" and not _divides(previous, before):
            end = _regex(source, index)
            out.token(source[index:end])
            previous, before, index = "value", previous, end
        elif _word_char(char):
            end = index + 1
            while end < length and _word_char(source[end]):
                if source[end] == "\\":
                    end += 1
                end += 1
            # A number's ``.`` and exponent sign stay with it (``1.5e-3``).
            while end < length and (
                (source[end] == "." and char.isdigit())
                or (source[end] in "+-" and char.isdigit() and source[end - 1] in "eE")
            ):
                end += 1
                while end < length and _word_char(source[end]):
                    end += 1
            out.token(source[index:end])
            previous, before, index = source[index:end], previous, end
        else:
            punctuator = next(
                (p for p in _PUNCTUATORS if source.startswith(p, index)), char
            )
            if punctuator == "{":
                braces.append(False)
            elif punctuator == "}" and braces:
                braces.pop()
            out.token(punctuator)
            index += len(punctuator)
            if punctuator == "(":
                parens.append(previous in _CONDITION_BEFORE and before != ".")
            elif punctuator == ")" and parens and parens.pop():
                punctuator = ")stmt"
            previous, before = punctuator, previous
    return out


def strip_css(source: str) -> str:
    """``source`` (a style sheet) without comments or needless whitespace."""
    licence, index = _leading_licence(source)
    out = _Output(_css_space_needed)
    if licence:
        out.token(licence)
    length = len(source)
    while index < length:
        char = source[index]
        if char in _SPACES or char in _NEWLINES:
            out.space = True
            index += 1
        elif source.startswith("/*", index):
            end = source.find("*/", index + 2)
            if end < 0:
                raise StripError(f"line {_line_of(source, index)}: unclosed comment")
            out.space = True
            index = end + 2
        elif char in "'\"":
            end = _quoted(source, index)
            out.token(source[index:end])
            index = end
        elif char == "\\":
            # An escaped character is part of a name: never a lone ``;``
            # whose neighbouring space could go. A hex escape takes up to six
            # digits and the one whitespace character that ends it.
            end = index + 1
            while end < min(index + 7, length) and source[end] in _HEX:
                end += 1
            if end == index + 1:
                end += 1
            elif end < length and source[end] in _SPACES + _NEWLINES:
                end += 1
            out.token(source[index:end])
            out.previous = "\\"
            index = end
        elif source[index : index + 4].lower() == "url(":
            end = source.find(")", index)
            if end < 0:
                raise StripError(f"line {_line_of(source, index)}: unclosed url(")
            out.token(source[index : end + 1])
            index = end + 1
        elif char == "}" and out.parts and out.parts[-1] == ";":
            # A block's last declaration needs no semicolon.
            out.parts.pop()
            out.token("}")
            index += 1
        else:
            end = index + 1
            while (
                end < length
                and source[end] not in _SPACES + _NEWLINES + "'\"\\/"
                and source[end] not in _CSS_LONE
                and source[index] not in _CSS_LONE
                and source[end : end + 4].lower() != "url("
            ):
                end += 1
            out.token(source[index:end])
            index = end
    return out.text()


STRIPPERS = {".js": strip_js, ".mjs": strip_js, ".css": strip_css}


def strip(name: str, source: str) -> str:
    """``source`` stripped as its file name's extension says."""
    return STRIPPERS[Path(name).suffix](source)


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Print a source file as production serves it: its "
        "comments, indentation and needless spaces removed (before the hashed "
        "names of its imports are written in)."
    )
    parser.add_argument("file", type=Path)
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--sha256", action="store_true", help="print its SHA-256")
    shown.add_argument("--sri", action="store_true", help="print its SRI value")
    arguments = parser.parse_args(argv)
    content = strip(arguments.file.name, arguments.file.read_text("utf-8"))
    data = content.encode("utf-8")
    if arguments.sha256:
        print(hashlib.sha256(data).hexdigest())
    elif arguments.sri:
        digest = base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")
        print(f"sha256-{digest}")
    else:
        sys.stdout.buffer.write(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
