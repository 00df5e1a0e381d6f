"""The SPSS or Stata file as one pyreadstat call over the whole table writes
it (how the exports wrote it before they wrote a chunk at a time), and the
bytes of a file with its time of writing blanked, for comparing the two."""

from __future__ import annotations

import re

from surveys.results import exports, stat_files


def whole_file(survey, file_format: str) -> bytes:
    labels = stat_files.labels_for(survey, file_format)
    frame = stat_files.answers_frame(
        exports.answers_csv(survey, guard=False), labels.code_types
    )
    return b"".join(stat_files.write_file(frame, labels, file_format))


def untimed(content: bytes, file_format: str) -> bytes:
    """The file without the minute (Stata) or second (SPSS) it was written."""
    if file_format == "sav":
        # The header's creation date (9 bytes) and time (8) follow the case
        # count (offset 80) and the compression bias (8 bytes).
        return content[:92] + b"\0" * 17 + content[109:]
    return re.sub(rb"<timestamp>.*?</timestamp>", b"<timestamp/>", content, count=1)
