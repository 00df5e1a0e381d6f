from django.urls import path

from . import respondent_views

app_name = "respond"
urlpatterns = [
    path("<slug:slug>/", respondent_views.survey_page, name="page"),
]
