"""The platform's registry of question kinds."""

import importlib
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from surveys.builder.validation_arm import direct_arm_percent
from surveys.kinds import KIND_TABLE, KINDS, KindRole, kind_module
from surveys.models import Question


def test_it_registers_every_question_kind_in_the_order_the_builder_lists_them():
    assert list(KINDS) == list(Question.Kind.values)


def test_it_names_a_kind_as_its_twin_in_the_pure_core():
    from estimation.kinds import KINDS as CORE_KINDS

    # Only kinds asked plainly have nothing to estimate in the core of their own.
    plain = {entry.package for entry in KIND_TABLE if not entry.sensitive}
    assert set(KINDS.values()) - set(CORE_KINDS) == plain
    assert "direct" in plain


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
    assert callable(builder.no_validation_arm)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_plays_the_forms_role(kind):
    form = kind_module(kind, "form")
    assert form.FIXED_DESIGN is None or form.FIXED_DESIGN in (
        kind_module(kind, "builder").DESIGNS
    )
    assert callable(form.labels)
    assert callable(form.design_dict)
    assert callable(form.initial)


SAVED = [
    ("yes_no", None, {"name": "warner", "p": 0.8}),
    (
        "yes_no",
        None,
        {"name": "forced_response", "p_truth": 0.6, "p_forced": [0.1, 0.3]},
    ),
    ("yes_no", None, {"name": "unrelated_question", "p": 0.7, "q": 0.3}),
    ("yes_no", None, {"name": "crosswise", "p": 0.2}),
    ("multiple_choice", ["a", "b", "c"], {"name": "krr", "k": 3, "epsilon": 2.0}),
    ("direct", ["a", "b", "c"], {"name": "direct", "k": 3}),
    ("multi_select", ["a", "b"], {"name": "oue", "m": 2, "epsilon_one_hot": 3.0}),
    (
        "count",
        [str(i) for i in range(6)],
        {"name": "geometric", "m": 5, "epsilon": 1.0},
    ),
    ("count", [str(i) for i in range(6)], {"name": "direct", "k": 6}),
    (
        "instructed",
        None,
        {"name": "lie_detector", "p1": 0.2, "p2": 0.8, "group_share": 0.4},
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "options", "design"), SAVED, ids=repr)
def test_a_saved_question_edited_unchanged_keeps_its_design(
    owner, kind, options, design
):
    # Each kind fills the edit form from its saved design and builds the
    # design back from the form: the two must agree.
    from surveys.builder.design_forms import DesignForm, initial_for_question
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create

    survey = survey_create(owner=owner, title="Kinds")
    question = question_create(
        survey=survey, text="Q?", kind=kind, options=options, design=design
    )
    initial = initial_for_question(question)
    form = DesignForm(data={k: v for k, v in initial.items() if v is not None})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["design"] == question.design


def test_every_matrix_design_the_builder_offers_has_its_kinds_sentence():
    from surveys.builder.design_text import _design_sentences

    offered = {name for kind in KINDS for name in kind_module(kind, "builder").DESIGNS}
    # Encodings, instructed designs and list experiments are described by their
    # kind's own summary.
    own_summary = {
        "sue",
        "oue",
        "cheating_detection",
        "lie_detector",
        "list_experiment",
    }
    assert set(_design_sentences()) == offered - own_summary


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_plays_the_text_role(kind):
    text = kind_module(kind, "text")
    assert callable(text.summary)
    assert callable(text.epsilon_text)
    assert isinstance(text.DESIGN_SENTENCES, dict)


@pytest.mark.parametrize(
    ("kind", "design", "message"),
    [
        ("direct", {"name": "direct"}, "a direct question is asked plainly"),
        ("multi_select", {"name": "sue"}, "cannot have a validation arm yet"),
        ("count", {"name": "direct"}, "this count is asked plainly"),
        ("instructed", {"name": "lie_detector"}, "already separates honest answers"),
        ("yes_no", {"name": "crosswise"}, "answer a pairing"),
    ],
)
def test_a_kind_without_a_validation_arm_says_why(kind, design, message):
    with pytest.raises(ValidationError, match=message):
        direct_arm_percent(kind, 10, design)


@pytest.mark.parametrize(
    ("kind", "design"),
    [
        ("yes_no", {"name": "warner"}),
        ("multiple_choice", {"name": "krr"}),
        ("count", {"name": "geometric"}),
    ],
)
def test_a_randomized_design_keeps_its_validation_arm(kind, design):
    assert direct_arm_percent(kind, 10, design) == 10


def test_a_rating_scale_keeps_its_points_in_order_and_is_asked_plainly():
    builder = kind_module("rating_scale", "builder")
    points = ["Strongly disagree", "Disagree", "Neither", "Agree", "Strongly agree"]
    assert builder.clean_options(points, language="en") == points
    with pytest.raises(ValidationError):
        builder.clean_options([str(i) for i in range(12)], language="en")
    assert not Question(kind="rating_scale").is_sensitive
    extra = kind_module("rating_scale", "exports").matrix_extra(
        Question(kind="rating_scale", options=points)
    )
    assert extra["scale"]["ordered"] is True
    assert extra["scale"]["order"] == points


def test_a_kind_without_its_own_role_module_is_not_looked_for_again():
    """Submissions ask for their kinds' roles many times each: a module that
    is not there is looked for once, not on disk at every call."""
    from surveys.kinds import ROLE_DEFAULTS

    # A KindRole's own module is the lookup's result (None: not there).
    missing = [
        (kind, role)
        for kind in KINDS
        for role in ROLE_DEFAULTS
        if isinstance(kind_module(kind, role), KindRole)
        and kind_module(kind, role)._own is None
    ]
    assert missing  # some kind uses a role's defaults alone
    kind, role = missing[0]
    own = f"surveys.kinds.{KINDS[kind]}.{role}"
    real = importlib.import_module

    def looked_for(name, *args):
        assert name != own, f"{own} looked for again"
        return real(name, *args)

    with mock.patch("importlib.import_module", looked_for):
        assert isinstance(kind_module(kind, role), KindRole)
