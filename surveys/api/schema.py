"""Error responses in the OpenAPI schema, added to every operation in one place.

Every failure has the body of :mod:`surveys.api.errors`; which statuses an
operation can return follows from where it lives and what it does.
"""

from __future__ import annotations

from typing import Any

WRITES = {"post", "put", "patch", "delete"}
ERROR = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "What is wrong, in a sentence."},
        "field": {"type": "string", "description": "The input at fault, if one is."},
        "errors": {
            "type": "object",
            "additionalProperties": True,
            "description": "Every validation message, by field.",
        },
    },
    "required": ["error"],
}


def _codes(path: str, method: str, operation: dict[str, Any]) -> dict[int, str]:
    public = path.startswith("/api/v1/public/")
    codes = {
        404: "No such object, or not one of yours.",
        503: "The database cannot be reached just now; retry after `Retry-After`.",
    }
    if method in WRITES or operation.get("parameters"):
        codes[400] = "Invalid input; `field` names it."
    if method in WRITES and method != "delete":
        codes[415] = "The body is not application/json."
    if public:
        codes[429] = "Too many requests from this client; retry later."
        if method in WRITES:
            codes[409] = (
                "Not accepting responses now, or the design changed since the "
                "page was loaded."
            )
            codes[413] = "The submission is too large."
    else:
        codes[401] = "Not authenticated: send `Authorization: Token <key>`."
        if method in WRITES:
            codes[403] = "Staff can read every survey but change only their own."
            codes[409] = "The survey's state does not allow this."
    return codes


def add_error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for code, text in _codes(path, method, operation).items():
                responses.setdefault(str(code), {"description": text, "content": body})
    return result
