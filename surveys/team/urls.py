"""The team and audit log pages, added to the researchers' URLs (namespace
surveys)."""

from django.urls import path

from surveys.team import views

urlpatterns = [
    path("<int:pk>/team/", views.team, name="team"),
    path("<int:pk>/team/add/", views.team_add, name="team_add"),
    path("<int:pk>/team/<int:member_id>/role/", views.team_role, name="team_role"),
    path(
        "<int:pk>/team/<int:member_id>/remove/",
        views.team_remove,
        name="team_remove",
    ),
    path("<int:pk>/team/transfer/", views.team_transfer, name="team_transfer"),
    path("<int:pk>/audit/", views.audit, name="audit"),
    path("<int:pk>/audit.csv", views.audit_csv_download, name="audit_csv"),
]
