from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz
from surveys.login import ThrottledLoginView

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="surveys:list"), name="home"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("surveys/", include("surveys.urls")),
    path("s/", include("surveys.respondent_urls")),
    path("healthz", healthz, name="healthz"),
]
