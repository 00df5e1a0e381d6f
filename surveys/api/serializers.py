"""What the API reads and writes. Validation of designs and states stays in the
services; these only shape data and declare it for the OpenAPI schema."""

from __future__ import annotations

import math
from typing import Any, cast

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from estimation import CI_METHODS, DEFAULT_METHOD
from estimation.inference.validation import MAX_DIRECT_PERCENT
from estimation.results import DEFAULT_LEVEL
from estimation.runs.models import EstimateRun
from surveys.builder.selectors import epsilon_of
from surveys.display_logic.questions import shown_to
from surveys.kinds import kind_module
from surveys.models import Question, Role, Survey
from surveys.team.selectors import abilities, role_for

# The levels a dashboard offers, and anything between them.
MIN_LEVEL, MAX_LEVEL = 0.5, 0.999


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


class SurveySerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username", read_only=True)
    role = serializers.SerializerMethodField(
        help_text="Your role on this survey: owner, editor, analyst or viewer "
        "(aggregates only); null where staff oversee a survey without one."
    )
    may = serializers.SerializerMethodField(
        help_text="What your role allows: view_estimates, read_answers (the "
        "answer rows and the codebook), edit (build, publish, close), manage "
        "(members, deletion, the audit log)."
    )
    response_count = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()
    epsilon = serializers.SerializerMethodField()
    questions_url = serializers.SerializerMethodField()
    respondent_url = serializers.SerializerMethodField()
    planned_responses = serializers.IntegerField(
        min_value=1, max_value=10_000_000, required=False
    )
    slug = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        help_text="The respondent link's last part. Random and topic-free unless "
        "given; may change only while the survey is a draft.",
    )
    public_title = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="What respondents see as the page's title and tab; empty uses title.",
    )
    response_limit = serializers.IntegerField(
        min_value=1,
        max_value=10_000_000,
        required=False,
        allow_null=True,
        help_text="A quota: the survey closes itself at exactly this many "
        "responses. Null: no limit.",
    )
    practice = serializers.BooleanField(
        required=False,
        help_text="A practice round before the questions: a harmless yes/no "
        "question randomized on the respondent's device and never sent or stored.",
    )
    practice_question = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        help_text="The practice question's wording; empty uses the default one, "
        "in the respondent's language.",
    )
    comprehension_check = serializers.PrimaryKeyRelatedField(
        queryset=Question.objects.none(),
        required=False,
        allow_null=True,
        help_text="The id of the direct question (with options) that checks "
        "respondents understood the randomizer; null for none.",
    )
    comprehension_pass = serializers.IntegerField(
        min_value=0,
        max_value=1000,
        required=False,
        allow_null=True,
        help_text="The option code of the check question that counts as passing.",
    )

    def get_fields(self) -> dict[str, Any]:
        """The check may only be one of this survey's own questions."""
        fields = super().get_fields()
        if isinstance(self.instance, Survey):
            check = cast(
                serializers.PrimaryKeyRelatedField, fields["comprehension_check"]
            )
            check.queryset = self.instance.questions.all()
        return fields

    class Meta:
        model = Survey
        fields = [
            "id",
            "title",
            "public_title",
            "introduction",
            "consent",
            "language",
            "offered_languages",
            "status",
            "state",
            "slug",
            "owner",
            "role",
            "may",
            "opens_at",
            "closes_at",
            "planned_responses",
            "access_mode",
            "response_limit",
            "panel_id_parameter",
            "completion_url",
            "completion_code",
            "screen_out_url",
            "practice",
            "practice_question",
            "comprehension_check",
            "comprehension_pass",
            "created_at",
            "published_at",
            "response_count",
            "epsilon",
            "questions_url",
            "respondent_url",
        ]
        read_only_fields = [
            "status",
            "created_at",
            "published_at",
            "offered_languages",
        ]
        extra_kwargs = {
            "language": {
                "help_text": "The language respondents read (one of the site's "
                "LANGUAGES codes, such as en or es): their pages, the protection "
                "sentences and the public API's messages. The survey's texts are "
                "written in it. Frozen at publishing."
            },
            "offered_languages": {
                "help_text": "Further languages respondents may choose; set them "
                "and their translations at the survey's translations/ endpoint."
            },
        }

    @extend_schema_field(serializers.ChoiceField(choices=Role.values, allow_null=True))
    def get_role(self, survey: Survey) -> str | None:
        role = role_for(self.context["request"].user, survey)
        return role.value if role is not None else None

    @extend_schema_field(serializers.DictField(child=serializers.BooleanField()))
    def get_may(self, survey: Survey) -> dict[str, bool]:
        return abilities(self.context["request"].user, survey)

    @extend_schema_field(serializers.IntegerField())
    def get_response_count(self, survey: Survey) -> int:
        counted = getattr(survey, "response_count", None)
        return survey.responses.count() if counted is None else counted

    @extend_schema_field(
        serializers.ChoiceField(
            choices=Survey.State.values,
            help_text="The status read with the dates, now: a published survey "
            "before opens_at is scheduled, one past closes_at is closed.",
        )
    )
    def get_state(self, survey: Survey) -> str:
        return str(survey.state.value)

    @extend_schema_field(
        serializers.FloatField(
            allow_null=True,
            help_text="Sum over the randomized questions; null when unbounded (a "
            "question with a device instruction does not protect a No).",
        )
    )
    def get_epsilon(self, survey: Survey) -> float | None:
        return _finite(epsilon_of(survey))

    def get_questions_url(self, survey: Survey) -> str:
        return reverse(
            "api:questions", args=[survey.pk], request=self.context.get("request")
        )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_respondent_url(self, survey: Survey) -> str | None:
        if survey.is_draft:
            return None
        return reverse(
            "respond:page", args=[survey.slug], request=self.context.get("request")
        )


class QuestionSerializer(serializers.ModelSerializer):
    options = serializers.ListField(
        child=serializers.CharField(max_length=200),
        max_length=20,
        required=False,
        help_text="Option labels in order; leave out for yes/no ([No, Yes]); "
        'for a count, its range ["0", "M"].',
    )
    design = serializers.DictField(
        help_text='The design as {"name": ..., **parameters}, e.g. '
        '{"name": "warner", "p": 0.75} or {"name": "krr", "epsilon": 1}.'
    )
    optional = serializers.BooleanField(
        required=False,
        help_text="May be left unanswered (direct) or answered “prefer not to "
        "answer” (randomized, not randomized itself); stored as missing.",
    )
    direct_percent = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_DIRECT_PERCENT,
        help_text="Validation arm, randomized questions only: the whole percentage "
        "of respondents, chosen at random on their device, asked directly (not "
        "protected, and told so before answering); 0 for none.",
    )
    condition = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text='Display logic: {"match": "all" | "any", "clauses": [{"question": '
        'id, "op": "equals", "value": i} | {..., "op": "one_of", "values": [i, ...]} '
        '| {..., "op": "range", "min": a, "max": b}]} on earlier questions asked '
        "plainly; null: always shown. Refused on a randomized question (docs/api.md).",
    )
    shown_to = serializers.SerializerMethodField()
    answer_format = serializers.DictField(
        required=False,
        help_text="A typed answer's format. For a number (kind numeric): "
        '{"minimum": 0, "maximum": 120, "decimals": 0, "unit": "years", '
        '"cuts": [30, 45, 65]}; its options are the ranges the cut points make '
        "(below 30, 30 to below 45, ...), made for it. For free text (kind "
        'free_text, asked plainly and not protected): {"max_length": 500}, the '
        "most characters an answer may have, 1 to 2000 (500 when not given); "
        "it has no options. For a sealed open answer (kind sealed_text, "
        "encrypted in the respondent's browser for the team key; its value is "
        'an envelope, never the text: docs/api.md): {"max_length": 500}, the '
        "same. {} for every other kind.",
    )
    epsilon = serializers.SerializerMethodField()
    yes_epsilon = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    client_spec = serializers.SerializerMethodField()
    shuffle_options = serializers.BooleanField(
        required=False,
        help_text="Direct questions only: show the options in an order drawn in "
        "each respondent's browser (never sent); answers keep the codes of the "
        "order given here.",
    )

    class Meta:
        model = Question
        fields = [
            "id",
            "position",
            "text",
            "kind",
            "options",
            "design",
            "optional",
            "direct_percent",
            "condition",
            "shown_to",
            "answer_format",
            "epsilon",
            "yes_epsilon",
            "description",
            "client_spec",
            "spec_version",
            "section",
            "shuffle_options",
        ]
        read_only_fields = ["position", "spec_version", "section"]

    @extend_schema_field(
        serializers.FloatField(
            allow_null=True,
            help_text="null: asked directly, not private, or unbounded (a question "
            "with a device instruction: a No given as instructed is not "
            "protected; see yes_epsilon).",
        )
    )
    def get_epsilon(self, question: Question) -> float | None:
        return _finite(question.get_design().epsilon)

    @extend_schema_field(
        serializers.CharField(
            help_text="Whose answers its estimates are of: empty for everyone, else "
            '"among respondents shown this question: those who answered ..."'
        )
    )
    def get_shown_to(self, question: Question) -> str:
        return shown_to(question, question.survey.questions.all())

    @extend_schema_field(
        serializers.FloatField(
            allow_null=True,
            help_text="A question with a device instruction (kind instructed): "
            "the epsilon a Yes is protected at; null for every other kind.",
        )
    )
    def get_yes_epsilon(self, question: Question) -> float | None:
        design = question.get_design()
        exports = kind_module(question.kind, "exports")
        return cast(float | None, exports.yes_epsilon(design))

    def get_description(self, question: Question) -> str:
        return question.get_design().describe(labels=question.options)

    @extend_schema_field(
        serializers.DictField(
            help_text="The exact data the respondent's browser randomizes with."
        )
    )
    def get_client_spec(self, question: Question) -> dict[str, Any]:
        return question.spec or question.client_spec()


class QuestionOrderSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="Every question id of the survey, in the new order.",
    )


class PublishSerializer(serializers.Serializer):
    confirm_unbounded = serializers.BooleanField(
        default=False,
        help_text="Required (true) when a question's design has no finite epsilon "
        "(a No is not protected) and the site allows such designs: your "
        "confirmation that respondents will be told. It is kept in the audit log.",
    )


class RunRequestSerializer(serializers.Serializer):
    ci_method = serializers.ChoiceField(
        choices=list(CI_METHODS), default=DEFAULT_METHOD
    )
    level = serializers.FloatField(
        min_value=MIN_LEVEL, max_value=MAX_LEVEL, default=DEFAULT_LEVEL
    )


class RunSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = EstimateRun
        fields = [
            "id",
            "url",
            "status",
            "trigger",
            "ci_method",
            "level",
            "n",
            "questions_done",
            "questions_total",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_url(self, run: EstimateRun) -> str:
        return reverse(
            "api:run", args=[run.survey_id, run.pk], request=self.context.get("request")
        )


class PublicQuestionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    kind = serializers.CharField()
    options = serializers.ListField(child=serializers.CharField())
    optional = serializers.BooleanField(
        help_text="May be sent as missing: left out, or with report null."
    )
    sensitive = serializers.BooleanField(
        help_text="Randomized in the browser; false when asked plainly."
    )
    epsilon = serializers.FloatField(
        allow_null=True, help_text="Null when asked plainly."
    )
    epsilon_text = serializers.CharField()
    band = serializers.ChoiceField(
        choices=["strong", "moderate", "weak", "minimal", "none"],
        help_text="Privacy band of the epsilon (see docs/methodology.md).",
    )
    band_name = serializers.CharField()
    protection = serializers.CharField(help_text="How the answer is protected.")
    observer = serializers.CharField(
        help_text="What one report can tell an observer; empty when asked plainly."
    )
    spec = serializers.DictField(help_text="What the browser randomizes with.")
    spec_version = serializers.CharField()
    condition = serializers.JSONField(
        allow_null=True,
        help_text="Display logic: shown only when the earlier plain answers meet "
        "it (docs/api.md); null: always shown. Send no answer for a question not "
        "shown.",
    )


class PublicSurveySerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField(help_text="The public title respondents see.")
    introduction = serializers.CharField()
    consent = serializers.CharField(
        help_text="Shown before the questions; empty: none. Not stored."
    )
    accepting_responses = serializers.BooleanField()
    access_mode = serializers.ChoiceField(
        choices=["open", "invitation", "panel"],
        help_text="invitation: send the link's #invitation= token as "
        "`invitation`; panel: send the participant id as `participant`.",
    )
    panel_id_parameter = serializers.CharField(
        help_text="Panel surveys: the query parameter holding the participant id."
    )
    epsilon = serializers.FloatField(
        allow_null=True, help_text="The whole response's epsilon; null if unbounded."
    )
    whole_response = serializers.DictField(
        allow_null=True,
        help_text="The whole-response bound in words; null when nothing is randomized.",
    )
    language = serializers.CharField(
        help_text="The language of this definition's texts and sentences."
    )
    languages = serializers.ListField(
        child=serializers.DictField(),
        help_text="Every language respondents may choose, the survey's first: "
        '{"code": ..., "page_url": ...}. Option codes are the same in each.',
    )
    transparency_url = serializers.CharField()
    submit_url = serializers.CharField()
    questions = PublicQuestionSerializer(many=True)


class AnswerSerializer(serializers.Serializer):
    question = serializers.IntegerField()
    report = serializers.IntegerField(help_text="The randomized option's index.")
    spec_version = serializers.CharField()


class SubmittedAnswerSerializer(AnswerSerializer):
    report = serializers.IntegerField(
        allow_null=True,
        help_text="The randomized option's index; null (or the entry left out) "
        "for an optional question not answered.",
    )


class SubmissionSerializer(serializers.Serializer):
    """For the schema only: the services validate submissions themselves."""

    respondent_key = serializers.RegexField(r"^[0-9a-f]{32}$")
    answers = SubmittedAnswerSerializer(many=True)
    invitation = serializers.CharField(
        required=False,
        help_text="Invitation-only surveys: the token from the link's "
        "#invitation= fragment. Counted once; never stored with the answers.",
    )
    participant = serializers.CharField(
        required=False,
        max_length=200,
        help_text="Panel surveys: the participant id from the link's query "
        "parameter. Counted once (keyed hash); never stored with the answers.",
    )


class ReceiptAnswerSerializer(AnswerSerializer):
    label = serializers.CharField()


class ReceiptSerializer(serializers.Serializer):
    respondent_key = serializers.CharField()
    received_on = serializers.DateField()
    answers = ReceiptAnswerSerializer(many=True)
    completion_url = serializers.URLField(
        required=False,
        help_text="Panel surveys: the panel's completion URL with the code.",
    )


class AccessCheckSerializer(serializers.Serializer):
    """For the schema only: what the respondent page sends when it opens."""

    invitation = serializers.CharField(
        required=False,
        help_text="Invitation-only surveys: the token from the link's "
        "#invitation= fragment. Checked only: nothing is stored or used up.",
    )
    participant = serializers.CharField(
        required=False,
        max_length=200,
        help_text="Panel surveys: the participant id from the link's query "
        "parameter. Checked only: nothing is stored.",
    )


class AccessCheckReplySerializer(serializers.Serializer):
    usable = serializers.BooleanField(
        help_text="Always true: a credential that would be refused gets the "
        "refusal's status and message instead."
    )
