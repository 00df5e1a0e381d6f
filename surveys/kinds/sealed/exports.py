"""A sealed open answer in the exports: its column ``qN`` holds the sealed
envelope as stored, an opaque string (empty when not answered) that only the
team's key opens, in every format (CSV, JSON lines, SPSS, Stata, the API); the
codebook says it is encrypted and how to open it; nothing is estimated (the
``exports`` role: the names it leaves out are surveys/kinds/base_exports.py's,
the rest surveys/kinds/base_text.py's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, override

from surveys.kinds.base_text import estimated, export_columns, reported_labels
from surveys.models import Question
from surveys.results.codebook import matrix_entry

__all__ = [
    "codebook_entry",
    "estimated",
    "export_columns",
    "r_question",
    "TEXT_MEANING",
    "report_codes",
    "report_label",
    "reported_labels",
]

SEALED_NOTE = gettext_lazy(
    "Sealed open answer: ENCRYPTED. Each value is an envelope "
    "(v1.<ephemeral key>.<salt>.<iv>.<ciphertext>, base64url) made in the "
    "respondent's browser with ECDH P-256, HKDF-SHA256 and AES-256-GCM for the "
    "research team's public key; the server never held the text. Open the "
    "values on the survey's sealed answers page with the team's key file and "
    "passphrase (docs/security.md). It is no category: it makes no stratum, "
    "subgroup, breakdown or covariate, and nothing is estimated from it."
)


TEXT_MEANING = gettext_lazy(
    "question %(number)s: a sealed envelope (encrypted text that only the research "
    "team's key opens; empty when not answered)"
)


def report_codes(question: Question, language: str) -> list[tuple[int, str]]:
    """Its one report: answered (the envelope is the answer)."""
    with override(language):
        return [(0, gettext("Answered (sealed: encrypted for the research team)"))]


def report_label(
    question: Question, labels: list[str], language: str, report: int
) -> str:
    return report_codes(question, language)[0][1]


def codebook_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    entry = matrix_entry(column, question, answered)
    return {
        **entry,
        "options": [],
        # Read by the re-analysis (estimation/inference/exported.py): skipped.
        "estimated": False,
        "privacy": gettext(
            "sealed (encrypted in the browser; only the team's key opens it)"
        ),
        "text_answer": {
            "column": column,
            "type": "string",
            "max_length": question.answer_format["max_length"],
            "protected": True,
            "encrypted": True,
            "note": str(SEALED_NOTE),
            "file_note": (
                "sealed open answer: an encrypted envelope (opaque string); only "
                "the research team's key opens it; nothing estimated."
            ),
        },
    }


def r_question(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """No estimate to check: the R script says the column is encrypted."""
    column = entry["column"]
    return (
        f"\n# {column}: sealed open answer (encrypted for the team's key); "
        "nothing is estimated from it.\n"
        f'cat("{column}: sealed,", sum(!is.na(answers${column}) & '
        f'answers${column} != ""), "answered\\n")\n'
    )
