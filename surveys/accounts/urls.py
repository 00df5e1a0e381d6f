"""Password change and reset (Django's views, URL names as Django names them)
and the optional sign-up, under /accounts/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from surveys.accounts import views
from surveys.accounts.password import ThrottledPasswordResetView

urlpatterns = [
    path(
        "password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("language/", views.language_choose, name="set_language"),
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup_sent"),
    path(
        "signup/verify/<uidb64>/<token>/",
        views.signup_verify,
        name="signup_verify",
    ),
]
