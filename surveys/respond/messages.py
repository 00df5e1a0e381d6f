"""Every word the respondent page's script shows, translated here into the
survey's language: the script holds no text of its own.

Placeholders in braces (``{number}``) are filled in by the script. The
randomizer and the kinds' scripts say why they refuse a spec in English, the
language the page's words are written in: a page in another language carries
each reason's translation by its code. A counted sentence comes as its
distinct plural forms and, for each count the page can need, which form it
takes: the language's plural rule is applied here, by gettext, not in the
browser. A kind's words come only with a question of that kind (its page
role's ``words``). The access messages (invitation, panel) come with the
access settings, from :func:`surveys.access.selectors.respondent_access`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, ngettext

from surveys.kinds import kind_module


def page_messages(
    *,
    questions: int,
    kinds: Iterable[str] = (),
    features: Iterable[str] = (),
    preview: bool = False,
) -> dict[str, Any]:
    """The script's words for a page of ``questions`` questions of ``kinds``
    that uses ``features`` (:mod:`surveys.respond.page_modules`): a feature
    the page does not load gets none of its words, and only the researcher's
    ``preview`` gets the preview's."""
    features = set(features)
    kinds = list(dict.fromkeys(kinds))
    return {
        # Nothing on a page in the language the scripts speak: the sentences
        # would repeat theirs.
        **(
            {}
            if get_language() == settings.LANGUAGE_CODE
            else {"refusals": refusal_sentences(kinds)}
        ),
        **_question_messages(),
        **_kind_words(kinds),
        **(_direct_messages() if "arms" in features else {}),
        **_receipt_messages(),
        **(_preview_messages() if preview else {}),
        **_sending_messages(),
        **(_section_messages() if "pages" in features else {}),
        "questionsLeft": counted_forms(
            lambda count: ngettext(
                "Please answer every question that is not optional (%(count)d "
                "question left).",
                "Please answer every question that is not optional (%(count)d "
                "questions left).",
                count,
            ),
            most=questions,
        ),
    }


def counted_forms(
    sentence_for: Callable[[int], str], *, most: int
) -> dict[str, list[Any]]:
    """A counted sentence for the counts 1 to ``most``: its distinct forms in
    the active language (``sentence_for(count)``, an ``ngettext`` with the
    count as ``%(count)d``, sent as ``{count}``), and for each count (from 1)
    the index of its form. Far shorter than a sentence per count, and the
    language's own plural rule (gettext's) chooses, so the browser needs none."""
    forms: list[str] = []
    form: list[int] = []
    for count in range(1, most + 1):
        sentence = sentence_for(count).replace("%(count)d", "{count}")
        if sentence not in forms:
            forms.append(sentence)
        form.append(forms.index(sentence))
    return {"forms": forms, "form": form}


def _kind_words(kinds: Iterable[str]) -> dict[str, str]:
    """The words of the kinds shown (their page role's ``words``): a kind not
    on the page sends none."""
    words: dict[str, str] = {}
    for kind in kinds:
        words.update(kind_module(kind, "page").words())
    return words


def refusal_sentences(kinds: Iterable[str]) -> dict[str, str]:
    """Why the randomizer (static/js/rr.js, ``REFUSALS``) or the script of one
    of ``kinds`` refuses a spec, by code, in the active language."""
    refusals = {
        "unreadableArm": gettext(
            "the page sent an unreadable validation arm ({problem})"
        ),
        "armTooLarge": gettext(
            "it would ask {share}% of respondents directly, without "
            "protection, above the limit of {limit}%"
        ),
        "statedAnswer": gettext(
            "its design states epsilon {stated} for an answer, but its "
            "thresholds give {epsilon}"
        ),
        "tooLoose": gettext(
            "its design would protect your answer less than this page allows "
            "(epsilon {epsilon}, above the limit of {limit})"
        ),
        "unreadable": gettext("the page sent an unreadable design ({problem})"),
        "answersMismatch": gettext(
            "its design has {k} answers, but the question shows {shown}"
        ),
        "unknownProcedure": gettext("the page cannot run the procedure {procedure}"),
        "producedByYou": gettext(
            "its design {design} is answered by you, not randomized by this device"
        ),
    }
    for kind in dict.fromkeys(kinds):
        refusals.update(kind_module(kind, "page").refusals())
    return refusals


def _question_messages() -> dict[str, str]:
    return {
        "plainLabel": gettext("Asked plainly:"),
        "plainText": gettext("sent exactly as you answer. It is not protected."),
        "plainReceipt": gettext("Asked plainly: sent exactly as you answered."),
        "unsafe": gettext("Question {number} cannot be answered safely: {reason}."),
        "refused": gettext(
            "{reason} Nothing has been sent. Please let the people running this "
            "survey know."
        ),
        "noAnswer": gettext("Not answered"),
        "noAnswerNote": gettext(
            "Sent as it is, not randomized: the survey learns that you did not "
            "answer this question, though not what your answer would have been."
        ),
    }


def _direct_messages() -> dict[str, str]:
    """A question asked directly of this respondent (the validation arm)."""
    return {
        "directLabel": gettext("Asked directly:"),
        "directText": gettext(
            "this device chose you at random to answer this question directly. "
            "Your answer is sent exactly as you give it: it is not protected. "
            "Other respondents answer it randomized, and comparing the two shows "
            "how much asking directly changes answers."
        ),
        "directReceipt": gettext(
            "Asked directly (chosen at random on your device): sent exactly as "
            "you answered."
        ),
    }


def _preview_messages() -> dict[str, str]:
    """The receipt of the researcher's preview, where nothing is sent."""
    return {
        "previewIntro": gettext(
            "Preview: nothing was sent. A respondent's device would have sent these "
            "answers."
        ),
        "previewKept": gettext("Nothing is kept in this browser during a preview."),
    }


def _receipt_messages() -> dict[str, str]:
    return {
        "kept": gettext(
            "This browser keeps the randomized answers above (never your own "
            "choices, and not answers to questions asked plainly) until {date}, so "
            "that this survey is not answered twice from here, which would let the "
            "randomness be averaged away. Anyone using this browser could see them "
            "until then."
        ),
        "received": gettext("Thank you. Your answers were received."),
        "removed": gettext(
            "Removed: this browser no longer keeps anything from this survey."
        ),
    }


def _sending_messages() -> dict[str, str]:
    return {
        "sending": gettext("Sending your answers…"),
        "retry": gettext("Try sending again"),
        "offline": gettext(
            "Your answers could not be sent: check your connection and try again."
        ),
        "busy": gettext(
            "The server could not take your answers just now. Please try again in "
            "a moment."
        ),
        "refusedStatus": gettext("Your answers were refused (error {status})."),
        # A sealed answer (surveys/kinds/sealed/) this browser could not encrypt.
        "sealFailed": gettext(
            "This browser could not seal your typed answer, so nothing was sent "
            "or kept ({reason}). Please try an up-to-date browser."
        ),
        "sendAgain": gettext("Send my answers again"),
        "notConfirmed": gettext(
            "Your answers were not confirmed yet. Send them again to finish."
        ),
    }


def _section_messages() -> dict[str, str]:
    """A survey of several pages (sections): where the respondent is, and
    what a page left earlier keeps of its answers (docs/methodology.md,
    "Answers kept between pages")."""
    return {
        "pageOf": gettext("Page {page} of {pages}"),
        "answeredRandomized": gettext(
            "Answered. Your device randomized this answer when you left its page "
            "and keeps only the randomized answer, to send with the others; your "
            "own choice was not kept, so it cannot be shown again. To change it, "
            "answer again: only the new answer, randomized, will be sent."
        ),
        "answeredKept": gettext(
            "Answered. Your device keeps this answer as it will be sent, until you "
            "send your answers; it is not shown again here. To change it, answer "
            "again."
        ),
        # The button beside either note, made by the pages' script only when a
        # page is left (twenty hidden notes in the markup cost 2.6 KB).
        "answerAgain": gettext("Answer again"),
    }
