"""The invitations pages, added to the researchers' URLs (namespace surveys)."""

from django.urls import path

from surveys.access import views

urlpatterns = [
    path("<int:pk>/invitations/", views.invitations, name="invitations"),
    path(
        "<int:pk>/invitations/new/",
        views.invitations_create_view,
        name="invitations_create",
    ),
    path(
        "<int:pk>/invitations/import/",
        views.invitations_import,
        name="invitations_import",
    ),
    path(
        "<int:pk>/invitations/links.csv",
        views.invitations_csv,
        name="invitations_csv",
    ),
]
