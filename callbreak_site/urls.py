"""Root URLs: admin, API, its schema and docs, i18n, then the browser pages last."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from games.urls import api_urlpatterns, page_urlpatterns
from games.web import api_errors

from . import ops

# The API docs run Swagger UI and Redoc from our static files (drf-spectacular-sidecar) under the site's
# Content-Security-Policy, with what each needs added: Swagger UI's page has a <style> block (its start-up
# script is served as a file by the "split" view); Redoc injects its styles and runs a worker from a blob.
swagger_ui = csp_update({"style-src": ["'unsafe-inline'"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema"))
redoc = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})(
    SpectacularRedocView.as_view(url_name="api-schema"))

urlpatterns = [
    path("healthz", ops.healthz, name="healthz"),
    path("readyz", ops.readyz, name="readyz"),
    path("metrics", ops.metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", swagger_ui, name="api-docs"),
    path("api/redoc/", redoc, name="api-redoc"),
    path("api/", include(api_urlpatterns)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include(page_urlpatterns)),
]

handler404 = api_errors.handler404
handler500 = api_errors.handler500
