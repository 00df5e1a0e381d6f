"""Display logic: a question shown only when earlier direct answers meet a
condition. ``conditions`` is pure (the format, its validation, evaluation and
wording); ``questions`` holds it against a survey's questions. Services and
interfaces may import it; models may not.
"""
