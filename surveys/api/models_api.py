"""Model fits through the API: request a logistic regression, read it.

Requesting needs an analyst (it is an estimate run); reading, any role: a fit
holds aggregates only, with small covariate patterns' predictions withheld.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from estimation.results import DEFAULT_LEVEL
from estimation.runs.model_fits import MAX_COVARIATES, MAX_LEVEL, MIN_LEVEL
from estimation.runs.models import ModelFit
from estimation.runs.scheduling import model_fit_request
from surveys.team.roles import Need

from .views import SurveyScoped


class CovariateSerializer(serializers.Serializer):
    question = serializers.IntegerField(help_text="A direct question's id.")
    reference = serializers.IntegerField(
        min_value=0,
        default=0,
        help_text="The option code the question's other levels are compared with.",
    )


class ModelFitRequestSerializer(serializers.Serializer):
    outcome = serializers.IntegerField(
        help_text=(
            "The outcome: a randomized yes/no question's id, or a list "
            "experiment's (its sensitive item is modelled)."
        )
    )
    covariates = CovariateSerializer(
        many=True,
        allow_empty=False,
        max_length=MAX_COVARIATES,
        help_text=f"1 to {MAX_COVARIATES} distinct direct questions.",
    )
    level = serializers.FloatField(
        min_value=MIN_LEVEL, max_value=MAX_LEVEL, default=DEFAULT_LEVEL
    )


class ModelFitSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    covariates = CovariateSerializer(many=True, read_only=True)
    result = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text=(
            "Null until finished (and once superseded, on an invitation or panel "
            "survey). The fit: n, level, converged, iterations, log_likelihood, "
            "null_log_likelihood, separation, boundary, warnings (sentences), "
            "coefficients (name, term, estimate, std_error, z, p_value, wald_ci, "
            "profile_ci, odds_ratio, odds_ratio_wald_ci, odds_ratio_profile_ci; "
            "log-odds against each covariate's reference level), lr_tests and "
            "model_test (chi2, df, p_value), predicted (pattern, n, prevalence, "
            "ci) for patterns with at least small_cells.min_group_size answers. "
            "Covariates are named by their answers-export column (q1 .. qN). "
            "A list experiment's fit (model ictreg_ml) has its sensitive item's "
            "coefficients as coefficients, its control items' as "
            "control_coefficients, and no lr_tests or model_test."
        ),
    )

    class Meta:
        model = ModelFit
        fields = [
            "id",
            "url",
            "status",
            "outcome",
            "covariates",
            "level",
            "steps_done",
            "steps_total",
            "n",
            "dropped",
            "withheld",
            "result",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "n": {"help_text": "Answers to the outcome in the fit."},
            "dropped": {
                "help_text": "Answers left out: an optional covariate unanswered."
            },
            "withheld": {
                "help_text": "Covariate patterns whose prediction is withheld "
                "(too few answers)."
            },
        }

    def get_url(self, fit: ModelFit) -> str:
        return reverse(
            "api:model",
            args=[fit.survey_id, fit.pk],
            request=self.context.get("request"),
        )


class ModelFitList(SurveyScoped, generics.ListAPIView):
    """The survey's model fits, newest first; POST requests one."""

    serializer_class = ModelFitSerializer
    needs = {"POST": Need.ANALYSE}

    def get_queryset(self) -> QuerySet[ModelFit]:
        return ModelFit.objects.filter(survey=self.survey)

    @extend_schema(
        request=ModelFitRequestSerializer, responses={202: ModelFitSerializer}
    )
    def post(self, request: Request, pk: int) -> Response:
        """Fit a logistic regression of the outcome on the covariates; poll the
        fit's URL (its progress is steps_done of steps_total)."""
        serializer = ModelFitRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = serializer.validated_data
        fit = model_fit_request(
            survey=self.survey,
            outcome=data["outcome"],
            covariates=[dict(c) for c in data["covariates"]],
            level=data["level"],
            actor=request.user,
        )
        body = ModelFitSerializer(fit, context={"request": request}).data
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]}
        )


class ModelFitDetail(SurveyScoped, generics.RetrieveAPIView):
    """One fit: its status, progress and, once finished, its result."""

    serializer_class = ModelFitSerializer

    def get_object(self) -> ModelFit:
        return get_object_or_404(
            ModelFit.objects.filter(survey=self.survey), pk=self.kwargs["fit_id"]
        )
