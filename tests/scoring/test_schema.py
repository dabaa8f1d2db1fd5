"""The OpenAPI schema tells the truth (schemathesis checks the live API against it in .ci/run)."""

import pytest
import yaml
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    return yaml.safe_load(client.get(reverse("schema")).content)


def test_pending_hands_may_have_no_confirmation_time(schema):
    version = schema["components"]["schemas"]["HandVersion"]["properties"]["confirmed_at"]
    assert version.get("nullable") is True


def test_correct_and_void_document_the_201_they_answer(schema):
    for action in ("correct", "void"):
        responses = schema["paths"][f"/api/v1/games/{{id}}/hands/{{number}}/{action}/"]["post"]["responses"]
        assert "201" in responses
        assert "200" not in responses


def test_every_operation_documents_its_errors_in_the_error_shape(schema):
    """The hands API's errors name the hand; the event contract's name the result (EVENTS.md)."""
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            shape = "EventErrors" if "tournaments" in operation.get("tags", ()) else "Errors"
            for code in ("400", "401", "403", "404", "429", "503"):
                answer = operation["responses"][code]
                assert answer["content"]["application/json"]["schema"] == {"$ref": f"#/components/schemas/{shape}"}, (
                    path, method, code)
            if method == "post":
                assert {"409", "413", "415", "422"} <= set(operation["responses"]), (path, method)


def test_only_json_bodies_are_advertised(schema):
    for operations in schema["paths"].values():
        for operation in operations.values():
            assert set(operation.get("requestBody", {}).get("content", {})) <= {"application/json"}


def test_both_authentication_schemes_are_declared(schema):
    assert {"Token", "Referee"} <= set(schema["components"]["securitySchemes"])


def test_the_event_calculator_documents_errors_that_name_the_result(schema):
    errors = schema["paths"]["/api/v1/event/"]["post"]["responses"]["400"]["content"]["application/json"]["schema"]
    assert errors == {"$ref": "#/components/schemas/EventErrors"}
    # The worked refusal the view declares survives the hook that puts the one error schema in place.
    assert schema["paths"]["/api/v1/event/"]["post"]["responses"]["400"]["content"]["application/json"]["examples"]
    item = schema["components"]["schemas"]["EventErrors"]["properties"]["errors"]["items"]
    assert {"result", "field", "message"} <= set(item["properties"])


def test_the_ratings_routes_are_documented_with_their_fields(schema):
    listed = schema["paths"]["/api/v1/ratings/"]["get"]
    assert listed["tags"] == ["ratings"]
    rating = schema["components"]["schemas"]["Rating"]["properties"]
    assert {"player", "name", "mu", "sigma", "rating", "games", "provisional"} <= set(rating)
    history = schema["paths"]["/api/v1/players/{id}/ratings/"]["get"]
    assert history["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RatingHistory"}
    seeding = schema["components"]["schemas"]["SeedRequest"]["properties"]["method"]
    assert "openskill" in str(seeding) or "openskill" in str(schema["components"]["schemas"].get("MethodEnum"))


def test_every_operation_documents_the_servers_answer_to_a_request_line_too_long(schema):
    """gunicorn answers 414 itself (HTML, before the API) past its limit_request_line: schemathesis once
    generated such a URL, and a status the schema does not list fails its conformance check."""
    import runpy
    from pathlib import Path

    from scoring.api.schema import REQUEST_LINE_LIMIT

    conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    assert conf["limit_request_line"] == REQUEST_LINE_LIMIT == 4094
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            answer = operation["responses"]["414"]
            assert "4,094 bytes" in answer["description"], (path, method)
            assert "content" not in answer, (path, method)  # no error-shape promise for the server's own page
