"""Each notifications test starts and ends with the background thread idle: work a test left waiting (a retry
due minutes later) is dropped, never run against the next test's database."""

import pytest

from core import background


@pytest.fixture(autouse=True)
def _background_idle():
    background.forget_waiting()
    yield
    background.forget_waiting()
    background.wait_idle(20)
