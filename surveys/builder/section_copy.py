"""A duplicate's sections: the same pages, holding the same questions.

Apart from the section services (sections.py) so that survey_duplicate
(services.py) can use it without importing them back.
"""

from __future__ import annotations

from surveys.models import Section, Survey


def sections_copy(*, source: Survey, target: Survey) -> None:
    """Give ``target`` (a fresh copy of ``source`` whose questions were copied
    in the same order) ``source``'s sections, each question in its section."""
    copies = {
        section.pk: Section.objects.create(
            survey=target,
            position=section.position,
            title=section.title,
            text=section.text,
            shuffle_questions=section.shuffle_questions,
            # The copy offers the same languages: its pages keep their words.
            translations=section.translations,
        )
        for section in source.sections.all()
    }
    if not copies:
        return
    originals = list(source.questions.all())
    for original, copied in zip(originals, target.questions.all(), strict=True):
        if original.section_id is not None:
            copied.section = copies[original.section_id]
            copied.save(update_fields=["section"])
