from django.urls import path, re_path

import surveys.converters  # noqa: F401  (registers <lang:>)

from . import exports, members, models_api, public, sections, translations, views

app_name = "api"
urlpatterns = [
    # First: the respondents' endpoints are the busiest.
    path("public/surveys/<slug:slug>/", public.PublicSurvey.as_view(), name="public"),
    path(
        "public/surveys/<slug:slug>/<lang:lang>/",
        public.PublicSurveyInLanguage.as_view(),
        name="public_in",
    ),
    path(
        "public/surveys/<slug:slug>/responses/",
        public.Submission.as_view(),
        name="submit",
    ),
    path(
        "public/surveys/<slug:slug>/access/",
        public.AccessCheck.as_view(),
        name="access_check",
    ),
    path("surveys/", views.SurveyList.as_view(), name="surveys"),
    path("surveys/<int:pk>/", views.SurveyDetail.as_view(), name="survey"),
    path(
        "surveys/<int:pk>/publish/",
        views.SurveyPublish.as_view(),
        name="survey-publish",
    ),
    *(
        path(
            f"surveys/<int:pk>/{action}/",
            views.SurveyAction.as_view(action_name=action),
            name=f"survey-{action}",
        )
        for action in views.ACTIONS
    ),
    path(
        "surveys/<int:pk>/duplicate/",
        views.SurveyDuplicate.as_view(),
        name="survey-duplicate",
    ),
    path(
        "surveys/<int:pk>/translations/",
        translations.Translations.as_view(),
        name="translations",
    ),
    path("surveys/<int:pk>/questions/", views.QuestionList.as_view(), name="questions"),
    path(
        "surveys/<int:pk>/questions/order/",
        views.QuestionOrder.as_view(),
        name="question-order",
    ),
    path(
        "surveys/<int:pk>/questions/<int:qid>/",
        views.QuestionDetail.as_view(),
        name="question",
    ),
    path("surveys/<int:pk>/sections/", sections.SectionList.as_view(), name="sections"),
    path(
        "surveys/<int:pk>/sections/order/",
        sections.SectionOrder.as_view(),
        name="section-order",
    ),
    path(
        "surveys/<int:pk>/sections/<int:sid>/",
        sections.SectionDetail.as_view(),
        name="section",
    ),
    path("surveys/<int:pk>/runs/", views.RunList.as_view(), name="runs"),
    path("surveys/<int:pk>/runs/<int:run_id>/", views.RunDetail.as_view(), name="run"),
    path("surveys/<int:pk>/models/", models_api.ModelFitList.as_view(), name="models"),
    path(
        "surveys/<int:pk>/models/<int:fit_id>/",
        models_api.ModelFitDetail.as_view(),
        name="model",
    ),
    path("surveys/<int:pk>/estimates/", exports.Estimates.as_view(), name="estimates"),
    path(
        "surveys/<int:pk>/estimates.csv",
        exports.EstimatesCsv.as_view(),
        name="estimates-csv",
    ),
    path("surveys/<int:pk>/codebook/", exports.Codebook.as_view(), name="codebook"),
    path(
        "surveys/<int:pk>/answers.csv", exports.AnswersCsv.as_view(), name="answers-csv"
    ),
    path(
        "surveys/<int:pk>/answers.jsonl",
        exports.AnswersJsonl.as_view(),
        name="answers-jsonl",
    ),
    path(
        "surveys/<int:pk>/answers.sav", exports.AnswersSav.as_view(), name="answers-sav"
    ),
    path(
        "surveys/<int:pk>/answers.dta", exports.AnswersDta.as_view(), name="answers-dta"
    ),
    path(
        "surveys/<int:pk>/analysis-bundle.zip",
        exports.AnalysisBundle.as_view(),
        name="analysis-bundle",
    ),
    path("surveys/<int:pk>/members/", members.MemberList.as_view(), name="members"),
    path(
        "surveys/<int:pk>/members/<int:member_id>/",
        members.MemberDetail.as_view(),
        name="member",
    ),
    path("surveys/<int:pk>/transfer/", members.Transfer.as_view(), name="transfer"),
    path("surveys/<int:pk>/audit/", members.AuditList.as_view(), name="audit"),
    path("surveys/<int:pk>/audit.csv", members.AuditCsv.as_view(), name="audit-csv"),
    # Anything else under /api/v1/ is a JSON 404, not the site's HTML page.
    re_path(r"", views.no_such_endpoint),
]
