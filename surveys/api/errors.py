"""One error body for every API failure: ``{"error": ..., "field": ...}``.

``error`` is a sentence a person can act on; ``field`` names the offending input
for validation errors, and ``errors`` keeps every message by field. Service
exceptions map to statuses here, so views just call the service.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from config.errors import DATABASE_RETRY_AFTER, database_message
from surveys.builder.services import SlugTakenError, SurveyStateError
from surveys.respond.submissions import SubmissionError

logger = logging.getLogger(__name__)


def error_body(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, SubmissionError):
        response = _response(exc.status, exc.message, exc.field)
        if exc.redirect:
            # A panel's screen-out URL: the respondent page sends them there.
            response.data["redirect"] = exc.redirect
        return response
    if isinstance(exc, SlugTakenError):
        # Valid when sent: another survey took the link in the meantime.
        message = exc.message_dict["slug"][0]
        return _response(status.HTTP_409_CONFLICT, message, SlugTakenError.field)
    if isinstance(exc, SurveyStateError):
        field = getattr(exc, "field", None)
        return _response(status.HTTP_409_CONFLICT, str(exc), field)
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is unreachable (restarting, failing over): a 503 the
        # client can retry, not a 500. The message can name hosts: not logged.
        logger.error("database unavailable: %s", type(exc).__name__)
        response = _response(status.HTTP_503_SERVICE_UNAVAILABLE, database_message())
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(response.data)
        response.data = {"error": message, "errors": response.data}
        if field:
            response.data["field"] = field
    else:
        detail = response.data.get("detail", response.data)
        response.data = {"error": str(detail)}
    return response


def _response(code: int, message: str, field: str | None = None) -> Response:
    body = {"error": message} if field is None else {"error": message, "field": field}
    return Response(body, status=code)


def _first_error(data: Any, path: str = "") -> tuple[str, str]:
    """The first message and the dotted path of the field it belongs to."""
    if isinstance(data, dict):
        for key, value in data.items():
            name = path if key == "non_field_errors" else _join(path, str(key))
            return _first_error(value, name)
    if isinstance(data, list) and data:
        first = data[0]
        if isinstance(first, (dict, list)):
            index = next((i for i, item in enumerate(data) if item), 0)
            return _first_error(data[index], _join(path, str(index)))
        return path, _sentence(path, str(first))
    return path, _sentence(path, str(data) or "Invalid input.")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _sentence(field: str, message: str) -> str:
    return f"{field}: {message}" if field else message
