"""Infrastructure failures are told apart from quality failures and retried with backoff."""

from __future__ import annotations

import subprocess

import pytest

from tracegrade.errors import InfrastructureError
from tracegrade.evals import infra_status, is_infra, retry_infra


class StatusError(Exception):
    def __init__(self, status_code: int) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


class Response:
    def __init__(self, status: int) -> None:
        self.status = status


class ResponseError(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"HTTP {status}")
        self.response = Response(status)


@pytest.mark.parametrize(
    "exc",
    [
        TimeoutError("read timed out"),
        ConnectionRefusedError("server down"),
        ConnectionResetError(),
        subprocess.TimeoutExpired(["evals"], 60),
        InfrastructureError("database down"),
        StatusError(429),
        StatusError(500),
        StatusError(503),
        StatusError(599),
        ResponseError(502),
    ],
)
def test_infrastructure_failures(exc: Exception):
    assert is_infra(exc)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("wrong answer"),
        AssertionError(),
        FileNotFoundError("suite.toml"),
        StatusError(400),
        StatusError(404),
        StatusError(600),
        ResponseError(422),
        KeyError("x"),
    ],
)
def test_other_failures_are_not_infrastructure(exc: Exception):
    assert not is_infra(exc)


def test_the_status_is_read_from_the_error_or_its_response():
    assert infra_status(StatusError(429)) == 429
    assert infra_status(ResponseError(503)) == 503
    assert infra_status(ValueError()) is None


class Flaky:
    """Fails with the given exceptions, then returns "ok"."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "ok"


def test_infra_failures_are_retried_with_exponential_backoff():
    waits: list[float] = []
    call = Flaky(TimeoutError(), StatusError(503))
    assert retry_infra(call, attempts=3, backoff=0.5, sleep=waits.append) == "ok"
    assert call.calls == 3
    assert waits == [0.5, 1.0]


def test_exhausted_retries_raise_an_infrastructure_error():
    waits: list[float] = []
    call = Flaky(StatusError(429), StatusError(429), StatusError(429), StatusError(429))
    with pytest.raises(InfrastructureError) as caught:
        retry_infra(call, attempts=4, backoff=1.0, factor=3.0, sleep=waits.append, what="judge")
    assert waits == [1.0, 3.0, 9.0]  # no wait after the last attempt
    assert call.calls == 4
    assert "judge failed 4 times" in str(caught.value)
    assert "not counted as a quality failure" in str(caught.value)
    assert isinstance(caught.value.__cause__, StatusError)
    assert is_infra(caught.value)


def test_other_errors_propagate_at_once():
    waits: list[float] = []
    call = Flaky(ValueError("bad output"))
    with pytest.raises(ValueError, match="bad output"):
        retry_infra(call, attempts=5, sleep=waits.append)
    assert call.calls == 1
    assert waits == []


def test_one_attempt_never_waits():
    waits: list[float] = []
    with pytest.raises(InfrastructureError):
        retry_infra(Flaky(TimeoutError()), attempts=1, sleep=waits.append)
    assert waits == []


def test_bad_retry_settings():
    with pytest.raises(ValueError, match="attempts >= 1"):
        retry_infra(Flaky(), attempts=0)
