from django.urls import path

import surveys.converters  # noqa: F401  (registers <lang:>)
from surveys.access import urls as access_urls
from surveys.builder import section_views, translation_views, views
from surveys.mailing import urls as mailing_urls
from surveys.results import export_views, model_views
from surveys.results import views as results
from surveys.sealing import views as sealing
from surveys.team import urls as team_urls

app_name = "surveys"
urlpatterns = [
    path("", views.survey_list, name="list"),
    path("new/", views.survey_create, name="create"),
    path("design-preview/", views.design_preview, name="design_preview"),
    path("<int:pk>/", views.survey_detail, name="detail"),
    path("<int:pk>/edit/", views.survey_edit, name="edit"),
    path("<int:pk>/duplicate/", views.survey_duplicate, name="duplicate"),
    path("<int:pk>/delete/", views.survey_delete, name="delete"),
    path("<int:pk>/results/", results.survey_results, name="results"),
    path("<int:pk>/team-key/", sealing.team_key_page, name="team_key"),
    path(
        "<int:pk>/questions/<int:qid>/sealed/",
        sealing.sealed_answers_page,
        name="sealed_answers",
    ),
    path("<int:pk>/results/recompute/", results.survey_recompute, name="recompute"),
    path(
        "<int:pk>/results/status/",
        results.survey_results_status,
        name="results_status",
    ),
    path(
        "<int:pk>/results/runs/<int:run_id>/",
        results.run_status,
        name="run_progress",
    ),
    path(
        "<int:pk>/results/models/",
        model_views.model_fit_create,
        name="model_fit",
    ),
    path(
        "<int:pk>/results/models/<int:fit_id>/",
        model_views.model_fit_status,
        name="model_progress",
    ),
    path(
        "<int:pk>/export/answers.csv",
        export_views.answers,
        {"file_format": "csv"},
        name="export_answers_csv",
    ),
    path(
        "<int:pk>/export/answers.jsonl",
        export_views.answers,
        {"file_format": "jsonl"},
        name="export_answers_jsonl",
    ),
    path(
        "<int:pk>/export/answers.sav",
        export_views.answers,
        {"file_format": "sav"},
        name="export_answers_sav",
    ),
    path(
        "<int:pk>/export/answers.dta",
        export_views.answers,
        {"file_format": "dta"},
        name="export_answers_dta",
    ),
    path(
        "<int:pk>/export/analysis-bundle.zip",
        export_views.answers,
        {"file_format": "zip"},
        name="export_analysis_bundle",
    ),
    path(
        "<int:pk>/export/codebook.json",
        export_views.codebook_json,
        name="export_codebook_json",
    ),
    path("<int:pk>/export/codebook/", export_views.codebook_page, name="codebook"),
    path(
        "<int:pk>/export/estimates.csv",
        export_views.estimates_csv,
        name="export_estimates_csv",
    ),
    path(
        "<int:pk>/export/estimates.json",
        export_views.estimates_json,
        name="export_estimates_json",
    ),
    path("<int:pk>/preview/", views.survey_preview, name="preview"),
    path("<int:pk>/preview/<lang:lang>/", views.survey_preview, name="preview_in"),
    path(
        "<int:pk>/translations/",
        translation_views.survey_translations,
        name="translations",
    ),
    path(
        "<int:pk>/translations/<lang:lang>/",
        translation_views.survey_translation_edit,
        name="translation_edit",
    ),
    path("<int:pk>/publish/", views.survey_publish, name="publish"),
    path("<int:pk>/close/", views.survey_close, name="close"),
    path("<int:pk>/reopen/", views.survey_reopen, name="reopen"),
    path("<int:pk>/questions/new/", views.question_create, name="question_create"),
    path(
        "<int:pk>/questions/<int:qid>/edit/",
        views.question_edit,
        name="question_edit",
    ),
    path(
        "<int:pk>/questions/<int:qid>/delete/",
        views.question_delete,
        name="question_delete",
    ),
    path(
        "<int:pk>/questions/<int:qid>/move/",
        views.question_move,
        name="question_move",
    ),
]
urlpatterns += [
    path("<int:pk>/sections/", section_views.sections_page, name="sections"),
    path(
        "<int:pk>/sections/questions/",
        section_views.section_questions,
        name="section_questions",
    ),
    path(
        "<int:pk>/sections/<int:sid>/",
        section_views.section_edit,
        name="section_edit",
    ),
    path(
        "<int:pk>/sections/<int:sid>/move/",
        section_views.section_move,
        name="section_move",
    ),
    path(
        "<int:pk>/sections/<int:sid>/delete/",
        section_views.section_delete,
        name="section_delete",
    ),
]
urlpatterns += access_urls.urlpatterns
urlpatterns += mailing_urls.urlpatterns
urlpatterns += team_urls.urlpatterns
