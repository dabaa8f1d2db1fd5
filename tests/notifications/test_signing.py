"""Standard Webhooks signing against the spec's own published example (its Python library's test vector), and
verification refusing what was changed, too old or signed with another secret. No database."""

import base64
from datetime import UTC, datetime

import pytest
from standardwebhooks import webhooks
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from notifications import signing

SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
SPEC_TIMESTAMP = 1614265330
SPEC_BODY = '{"test": 2432232314}'
SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_the_signature_is_the_specs_example():
    assert signing.sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY) == SPEC_SIGNATURE


def verify_at(now: int, secret: str, body: str, headers: dict, monkeypatch) -> None:
    """The receivers' library verifying as at ``now`` (the spec's example is from 2021)."""

    class Then(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.fromtimestamp(now, tz or UTC)

    monkeypatch.setattr(webhooks, "datetime", Then)
    Webhook(secret).verify(body, headers, json_parse=False)


def test_the_specs_example_verifies_and_a_change_does_not(monkeypatch):
    headers = signing.headers(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)
    assert headers == {"webhook-id": SPEC_ID, "webhook-timestamp": str(SPEC_TIMESTAMP),
                       "webhook-signature": SPEC_SIGNATURE}
    verify_at(SPEC_TIMESTAMP + 10, SPEC_SECRET, SPEC_BODY, headers, monkeypatch)
    with pytest.raises(WebhookVerificationError):
        verify_at(SPEC_TIMESTAMP, SPEC_SECRET, SPEC_BODY.replace("2", "3"), headers, monkeypatch)
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify_at(SPEC_TIMESTAMP + 301, SPEC_SECRET, SPEC_BODY, headers, monkeypatch)
    with pytest.raises(WebhookVerificationError):
        verify_at(SPEC_TIMESTAMP, signing.new_secret(), SPEC_BODY, headers, monkeypatch)
    several = {**headers, "webhook-signature": "v1,bm9wZQ== " + SPEC_SIGNATURE}
    verify_at(SPEC_TIMESTAMP, SPEC_SECRET, SPEC_BODY, several, monkeypatch)


def test_a_new_secret_is_whsec_and_32_random_bytes():
    secret = signing.new_secret()
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 32
    assert secret != signing.new_secret()


def test_the_integrators_page_verifies_the_specs_example_in_python(monkeypatch):
    import pathlib
    import re
    import time

    page = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "integrators" / "webhooks.md").read_text()
    (code,) = [block for block in re.findall(r"```python\n(.*?)```", page, re.S) if "def verify" in block]
    scope: dict = {}
    exec(code.replace('SECRET = "whsec_..."', f'SECRET = "{SPEC_SECRET}"'), scope)
    monkeypatch.setattr(time, "time", lambda: SPEC_TIMESTAMP + 1)
    headers = {"webhook-id": SPEC_ID, "webhook-timestamp": str(SPEC_TIMESTAMP), "webhook-signature": SPEC_SIGNATURE}
    assert scope["verify"](SPEC_BODY.encode(), headers) == {"test": 2432232314}
    with pytest.raises(ValueError, match="no signature matches"):
        scope["verify"](b'{"test": 1}', headers)
