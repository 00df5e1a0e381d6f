"""The platform's registry of question kinds."""

import pytest

from surveys.kinds import KINDS, kind_module
from surveys.models import Question


def test_it_registers_every_question_kind_in_the_order_the_builder_lists_them():
    assert list(KINDS) == list(Question.Kind.values)


def test_it_names_a_kind_as_its_twin_in_the_pure_core():
    from estimation.kinds import KINDS as CORE_KINDS

    assert set(KINDS.values()) - set(CORE_KINDS) == {"direct"}


def test_it_imports_a_kinds_role_by_name():
    assert kind_module("instructed", "text").__name__ == "surveys.kinds.instructed.text"


@pytest.mark.parametrize(
    ("kind", "role", "message"),
    [
        ("nonsense", "text", "kind must be one of"),
        ("instructed", "nonsense", "has no 'nonsense' module"),
    ],
)
def test_an_unknown_kind_or_role_is_a_value_error_naming_it(kind, role, message):
    with pytest.raises(ValueError, match=message):
        kind_module(kind, role)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_plays_the_builders_role(kind):
    builder = kind_module(kind, "builder")
    assert builder.DESIGNS
    assert isinstance(builder.ANSWERED_YES_NO, bool)
    assert builder.NOT_OPTIONAL is None or isinstance(builder.NOT_OPTIONAL, str)
    assert callable(builder.clean_options)
    assert callable(builder.build_design)


def test_every_matrix_design_the_builder_offers_has_its_kinds_sentence():
    from surveys.builder.design_text import _design_sentences

    offered = {name for kind in KINDS for name in kind_module(kind, "builder").DESIGNS}
    # Encodings and instructed designs are described by their kind's own summary.
    own_summary = {"sue", "oue", "cheating_detection", "lie_detector"}
    assert set(_design_sentences()) == offered - own_summary


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_plays_the_text_role(kind):
    text = kind_module(kind, "text")
    assert callable(text.summary)
    assert callable(text.epsilon_text)
    assert isinstance(text.DESIGN_SENTENCES, dict)
