"""What the OpenAPI schema says of every operation, for any app's API: the errors it can answer.

drf-spectacular documents what each view declares; the errors every operation can give come from
the project's machinery, so this post-processing hook adds them everywhere, in the one error shape:
400 (bad input), 401/403 (who may), 404, 409 (an Idempotency-Key still in progress), 413 (body too
large), 415 (not JSON), 422 (a key reused with another body), 429 (throttled, or a PIN locked out),
503 (the database is unavailable). Safe methods get only those they can meet. Every operation also
lists 414, the web server's own answer to a request line longer than it reads (gunicorn's
``limit_request_line``, set in gunicorn.conf.py): it comes before ginscore sees the request, so it
has no body in the error shape, and the schema promises none.
"""
from scoring import policy
from scoring.actors import actor_for


def errors_schema(location: dict[str, dict], required: list[str]) -> dict:
    """The one error shape, ``{"errors": [{<location>, "field", "message"}]}``."""
    return {
        "type": "object",
        "required": ["errors"],
        "properties": {
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": required,
                    "properties": {
                        **location,
                        "field": {"type": "string", "nullable": True, "description": "the field that is wrong"},
                        "message": {"type": "string"},
                    },
                },
            }
        },
    }


HAND = {"hand": {"type": "integer", "nullable": True, "description": "the hand the problem is in"}}
ERROR_SCHEMA = errors_schema(HAND, ["hand", "field", "message"])


ERRORS = {
    "400": "the input was refused: each problem names its hand and field",
    "401": "no valid credentials: a Token or Referee authorization header",
    "403": "this caller's role may not do this",
    "404": "no such object, or it is not visible to this caller",
    "405": "this method is not offered here",
    "406": "only JSON answers are offered",
    "409": "a request with this Idempotency-Key is still in progress: retry after Retry-After seconds",
    "413": "the request body is larger than the limit",
    "415": "the body must be JSON",
    "422": "this Idempotency-Key was already used for a different request",
    "429": "too many requests (or wrong PINs): retry after Retry-After seconds",
    "503": "the database is unavailable for a moment: nothing was changed, retry after Retry-After seconds",
}
# The event contract (EVENTS.md) names the result a problem is in, where the hands API names the hand;
# errors raised before the view runs (a body too large, the database down) keep the hands API's shape.
EVENT_ERROR_SCHEMA = errors_schema(
    {"result": {"type": "integer", "nullable": True,
                "description": "the 1-based index in results of the result the problem is in"}, **HAND},
    ["field", "message"],
)
EVENT_TAG = "tournaments"
SAFE_ERRORS = ["400", "401", "403", "404", "405", "406", "429", "503"]
ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
EVENT_ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/EventErrors"}}}
# gunicorn.conf.py's limit_request_line (gunicorn's default): the schema states the figure the server enforces.
REQUEST_LINE_LIMIT = 4094
URI_TOO_LONG = {
    "description": f"the request line (method, path and query) is longer than the web server reads "
    f"({REQUEST_LINE_LIMIT:,} bytes): answered by the server itself, before the API, without the error shape",
}
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}}


def add_error_responses(result, generator, request, public):
    components = result.setdefault("components", {})
    components.setdefault("schemas", {})["Errors"] = ERROR_SCHEMA
    components["schemas"]["EventErrors"] = EVENT_ERROR_SCHEMA
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            codes = SAFE_ERRORS if method == "get" else list(ERRORS)
            content = EVENT_ERROR_CONTENT if EVENT_TAG in operation.get("tags", ()) else ERROR_CONTENT
            responses = operation.setdefault("responses", {})
            responses.setdefault("414", dict(URI_TOO_LONG))
            for code in codes:
                answer = responses.setdefault(code, {"description": ERRORS[code]})
                declared = answer.get("content", {}).get("application/json", {})
                # The one error schema replaces whatever the view declared; its worked examples stay.
                answer["content"] = {"application/json": {
                    **content["application/json"],
                    **({"examples": declared["examples"]} if "examples" in declared else {}),
                }}
                if code in {"409", "429", "503"}:
                    answer["headers"] = RETRY_AFTER
            if method == "post":
                operation.setdefault("parameters", []).append({
                    "in": "header", "name": "Idempotency-Key", "required": False, "schema": {"type": "string"},
                    "description": "a retry with the same key gets the first answer and changes nothing twice",
                })
    return result


def schema_audience(request) -> bool:
    """Which schema a caller is served (``core.api.schema``): the answers' personal fields are an organiser's."""
    return policy.sees_personal_data(actor_for(request))
