from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from surveys.accounts import two_factor_views
from surveys.accounts.login import ThrottledLoginView
from surveys.accounts.views import api_token

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="surveys:list"), name="home"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/login/code/", two_factor_views.login_code, name="login-code"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/two-factor/", two_factor_views.two_factor_manage, name="two-factor"),
    path(
        "accounts/two-factor/enrol/",
        two_factor_views.two_factor_enrol,
        name="two-factor-enrol",
    ),
    path("accounts/token/", api_token, name="api-token"),
    path("accounts/", include("surveys.accounts.urls")),
    # The admin's own login has no throttle: staff log in through ours.
    path(
        "admin/login/",
        RedirectView.as_view(pattern_name="login", query_string=True),
    ),
    path("admin/", admin.site.urls),
    path("surveys/", include("surveys.urls")),
    path("s/", include("surveys.respond.urls")),
    path("api/v1/", include("surveys.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
        name="api-docs",
    ),
]

handler500 = "config.errors.server_error"
