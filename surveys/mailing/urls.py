"""The e-mail page's routes, added to the researchers' URLs (namespace surveys)."""

from django.urls import path

from surveys.mailing import views

urlpatterns = [
    path("<int:pk>/invitations/email/", views.mail_page, name="invitations_mail"),
    path(
        "<int:pk>/invitations/email/addresses/",
        views.addresses_add_view,
        name="invitations_mail_addresses",
    ),
    path(
        "<int:pk>/invitations/email/addresses/delete/",
        views.addresses_delete_view,
        name="invitations_mail_forget",
    ),
    path(
        "<int:pk>/invitations/email/message/",
        views.message_save_view,
        name="invitations_mail_message",
    ),
    path(
        "<int:pk>/invitations/email/send/",
        views.mailing_send_view,
        name="invitations_mail_send",
    ),
    path(
        "<int:pk>/invitations/email/progress/",
        views.mailing_progress_view,
        name="invitations_mail_progress",
    ),
]
