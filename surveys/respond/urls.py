from django.urls import path

from surveys.respond import views

app_name = "respond"
urlpatterns = [
    path("<slug:slug>/", views.survey_page, name="page"),
    path("<slug:slug>/transparency/", views.transparency_page, name="transparency"),
]
