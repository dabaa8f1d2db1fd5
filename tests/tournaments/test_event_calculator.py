"""The event contract through both doors: ``manage.py event`` and ``POST /api/v1/event/``.

Every refusal EVENTS.md lists gets exit 2 / HTTP 400 with the error JSON, never a traceback; a good
document gets the same answer from both doors as from the engine.
"""

import json

import pytest
from rest_framework.test import APIClient

from scoring.api.views import CalculatorThrottle
from tests.calculators import post_json, run_calculator_command
from tournaments.engine import run_event

from .engine.test_contract_examples import CONTRACT_REQUEST
from .error_cases import ERROR_CASES


def run_command(stdin_text, monkeypatch):
    return run_calculator_command("event", stdin_text, monkeypatch)


def post(body, client=None):
    return post_json("/api/v1/event/", body, client)


def test_the_command_answers_the_contract_example(monkeypatch):
    code, answer = run_command(json.dumps(CONTRACT_REQUEST), monkeypatch)
    assert code == 0
    assert answer == run_event(CONTRACT_REQUEST)
    assert answer["next_round"]["bye"] == "Cleo"


@pytest.mark.django_db
def test_the_api_answers_the_contract_example_anonymously_like_the_command(monkeypatch):
    response = post(CONTRACT_REQUEST)
    assert response.status_code == 200
    assert response.json() == run_event(CONTRACT_REQUEST)
    assert [s["name"] for s in response.json()["standings"]] == ["Ann", "Dev", "Bob", "Cleo"]


@pytest.mark.parametrize(("request_doc", "result", "field", "words"), [case[1:] for case in ERROR_CASES],
                         ids=[case[0] for case in ERROR_CASES])
def test_the_command_refuses_with_exit_2_and_the_error_json(request_doc, result, field, words, monkeypatch):
    code, document = run_command(json.dumps(request_doc), monkeypatch)
    assert code == 2
    assert any(p["result"] == result and p["field"] == field and words in p["message"] for p in document["errors"])


@pytest.mark.django_db
@pytest.mark.parametrize(("request_doc", "result", "field", "words"), [case[1:] for case in ERROR_CASES],
                         ids=[case[0] for case in ERROR_CASES])
def test_the_api_refuses_with_400_and_the_error_json(request_doc, result, field, words):
    response = post(request_doc)
    assert response.status_code == 400
    problems = response.json()["errors"]
    assert any(p["result"] == result and p["field"] == field and words in p["message"] for p in problems), problems
    assert all(set(p) == {"result", "field", "message"} for p in problems)


def test_the_command_refuses_text_that_is_not_json(monkeypatch):
    code, document = run_command("{format: swiss", monkeypatch)
    assert code == 2
    assert document["errors"][0]["result"] is None
    assert "not valid JSON" in document["errors"][0]["message"]


@pytest.mark.django_db
def test_the_api_refuses_text_that_is_not_json_in_the_event_error_shape():
    response = post("{format: swiss")
    assert response.status_code == 400
    assert set(response.json()["errors"][0]) == {"result", "field", "message"}


@pytest.mark.django_db
def test_the_api_is_throttled_for_anonymous_callers(monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "rate", "3/minute", raising=False)
    client = APIClient()
    assert [post(CONTRACT_REQUEST, client).status_code for _ in range(4)] == [200, 200, 200, 429]
    problem = post(CONTRACT_REQUEST, client).json()["errors"][0]
    assert set(problem) == {"result", "field", "message"}
    assert "throttled" in problem["message"].lower()


@pytest.mark.django_db
def test_the_openapi_schema_documents_the_endpoint_with_the_contract_example():
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    operation = json.loads(response.content)["paths"]["/api/v1/event/"]["post"]
    body = operation["requestBody"]["content"]
    assert list(body) == ["application/json"]
    examples = body["application/json"]["examples"]
    assert any(e["value"] == CONTRACT_REQUEST for e in examples.values())
    answers = operation["responses"]["200"]["content"]["application/json"]["examples"]
    assert any(e["value"] == run_event(CONTRACT_REQUEST) for e in answers.values())
    assert {"200", "400", "429"} <= set(operation["responses"])
