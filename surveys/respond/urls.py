from django.urls import path

import surveys.converters  # noqa: F401  (registers <lang:>)
from surveys.respond import views

app_name = "respond"
urlpatterns = [
    path("<slug:slug>/", views.survey_page, name="page"),
    path("<slug:slug>/transparency/", views.transparency_page, name="transparency"),
    path("<slug:slug>/<lang:lang>/", views.survey_page, name="page_in"),
    path(
        "<slug:slug>/<lang:lang>/transparency/",
        views.transparency_page,
        name="transparency_in",
    ),
]
