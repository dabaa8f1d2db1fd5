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
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for code in ("400", "401", "403", "404", "429", "503"):
                answer = operation["responses"][code]
                assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Errors"}, (
                    path, method, code)
            if method == "post":
                assert {"409", "413", "415", "422"} <= set(operation["responses"]), (path, method)


def test_only_json_bodies_are_advertised(schema):
    for operations in schema["paths"].values():
        for operation in operations.values():
            assert set(operation.get("requestBody", {}).get("content", {})) <= {"application/json"}


def test_both_authentication_schemes_are_declared(schema):
    assert {"Token", "Referee"} <= set(schema["components"]["securitySchemes"])
