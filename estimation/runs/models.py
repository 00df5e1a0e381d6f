"""Saved estimates: one run per recomputation, with a row per question and option.

Dashboards read these rows and never estimate inside a request. PostgreSQL is
the only store of record; the broker carries messages only.
"""

from __future__ import annotations

from django.db import models

from surveys.models import Question, Survey


class EstimateRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    class Trigger(models.TextChoices):
        RESPONSES = "responses", "New responses"
        RESEARCHER = "researcher", "Requested by the researcher"

    survey = models.ForeignKey(
        Survey, on_delete=models.CASCADE, related_name="estimate_runs"
    )
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    trigger = models.CharField(max_length=10, choices=Trigger.choices)
    ci_method = models.CharField(max_length=16)
    level = models.FloatField()
    # Every response in the run, answered or not; each saved question row has
    # its own n (those who answered it), so missing answers show as the gap.
    n = models.PositiveIntegerField(null=True, blank=True)
    questions_total = models.PositiveIntegerField(default=0)
    questions_done = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    # [[ISO date, responses], ...] as counted by this run, for the dashboard.
    responses_per_day = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["survey", "status", "-finished_at"])]

    def __str__(self) -> str:
        return f"run {self.pk} of survey {self.survey_id} ({self.status})"

    @property
    def duration_seconds(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None


class QuestionEstimate(models.Model):
    """One question's estimate in a run, overall or within one subgroup.

    A subgroup row names the direct question and the option that define it.
    """

    run = models.ForeignKey(
        EstimateRun, on_delete=models.CASCADE, related_name="question_estimates"
    )
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="+")
    group_question = models.ForeignKey(
        Question, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    group_option = models.PositiveSmallIntegerField(null=True, blank=True)
    n = models.PositiveIntegerField()
    epsilon = models.FloatField(null=True, blank=True, help_text="Null: not private.")
    warnings = models.JSONField(default=list)
    solver = models.JSONField(default=dict)
    # A question with a validation arm, overall row only: the direct answers'
    # counts in option order. The row's own n and options are the randomized
    # arm's alone (estimation/inference/validation.py).
    direct_reported = models.JSONField(null=True, blank=True)
    # A count question's mean count with its interval (MeanEstimate.to_dict).
    mean = models.JSONField(null=True, blank=True)
    # A count asked with noise: the bins of counts its n identifies, with
    # their intervals (ShownDistribution.to_dict, estimation/count_distribution.py).
    distribution = models.JSONField(null=True, blank=True)
    # A question with a device instruction (cheating detection, the lie
    # detector): ComplianceEstimate.to_dict() with the four report counts
    # under "reported"; such a row has no option rows.
    compliance = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["run", "question__position", "group_question__position"]

    def __str__(self) -> str:
        return f"estimate of question {self.question_id} in run {self.run_id}"


class OptionEstimate(models.Model):
    question_estimate = models.ForeignKey(
        QuestionEstimate, on_delete=models.CASCADE, related_name="options"
    )
    option = models.PositiveSmallIntegerField()
    reported = models.PositiveIntegerField(help_text="Responses reporting this option.")
    estimate = models.FloatField()
    unbiased = models.FloatField()
    std_error = models.FloatField()
    ci_lower = models.FloatField()
    ci_upper = models.FloatField()
    # Check all that apply: the option is an item, ``reported`` the reports
    # with it ticked, and the band holds for all items at once (Bonferroni).
    band_lower = models.FloatField(null=True, blank=True)
    band_upper = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["question_estimate", "option"]

    def __str__(self) -> str:
        return f"option {self.option}: {self.estimate:.3f}"


class ModelFit(models.Model):
    """A logistic regression of one randomized yes/no question on direct ones.

    Saved like an estimate run so the dashboard and the API read the fit and
    never compute it inside a request; ``result`` is the core's
    ``LogisticFit.to_dict()`` with the small covariate patterns' predictions
    withheld (estimation/runs/model_fits.py).
    """

    Status = EstimateRun.Status

    survey = models.ForeignKey(
        Survey, on_delete=models.CASCADE, related_name="model_fits"
    )
    outcome = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="+")
    # [{"question": id, "reference": option code}, ...] in the request's order.
    covariates = models.JSONField()
    level = models.FloatField()
    status = models.CharField(
        max_length=8, choices=EstimateRun.Status.choices, default=Status.QUEUED
    )
    steps_done = models.PositiveSmallIntegerField(default=0)
    steps_total = models.PositiveSmallIntegerField(default=0)
    # Answers to the outcome in the fit; ``dropped`` more were left out because
    # a covariate was unanswered ("no answer" of an optional direct question).
    n = models.PositiveIntegerField(null=True, blank=True)
    dropped = models.PositiveIntegerField(null=True, blank=True)
    # Covariate patterns whose predicted prevalence is withheld (too few answers).
    withheld = models.PositiveIntegerField(null=True, blank=True)
    # Null until finished, and again once a later fit supersedes it on a survey
    # that keeps only its latest numbers (invitations and panels).
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["survey", "status", "-finished_at"])]

    def __str__(self) -> str:
        return f"model fit {self.pk} of survey {self.survey_id} ({self.status})"


class SurveyCounts(models.Model):
    """A survey's saved counts: how many responses they hold, and when they
    were last brought up to date or rebuilt (estimation/runs/counting.py).

    Its row is also the lock that lets one process at a time change them.
    """

    survey = models.OneToOneField(
        Survey, on_delete=models.CASCADE, primary_key=True, related_name="counts"
    )
    responses = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)
    recounted_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"counts of survey {self.survey_id}: {self.responses} responses"


class ReportCount(models.Model):
    """How many counted answers to a question sent ``report`` from ``stratum``.

    A survey's table of these is all an estimate run reads: its size is that
    of the design (questions x reports x strata), not the number of answers.
    """

    survey = models.ForeignKey(Survey, on_delete=models.CASCADE, related_name="+")
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    report = models.PositiveIntegerField()
    stratum = models.PositiveIntegerField()
    count = models.PositiveBigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["question", "report", "stratum"], name="one_count_per_cell"
            )
        ]

    def __str__(self) -> str:
        return f"{self.count} x report {self.report} to question {self.question_id}"


class DayCount(models.Model):
    """How many counted responses arrived on a day (the dashboard's chart)."""

    survey = models.ForeignKey(Survey, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    count = models.PositiveBigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["survey", "day"], name="one_count_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.count} responses to survey {self.survey_id} on {self.day}"


class RunComparisons(models.Model):
    """The subgroup comparisons the results page shows by default for a
    finished run, computed by the worker right after it
    (estimation/runs/saved_comparisons.py): JSON text, read once per web
    process instead of fitting them on the first view."""

    run = models.OneToOneField(
        EstimateRun,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="saved_comparisons",
    )
    text = models.TextField()

    def __str__(self) -> str:
        return f"comparisons of run {self.run_id}"
