"""Nothing leaves the machine unless a provider is configured (DESIGN.md section 4).

Every outbound connection is refused and recorded by a guard on ``socket.socket.connect``,
``connect_ex``, ``socket.create_connection`` and ``socket.getaddrinfo`` (a name lookup of
anything but this machine). Loopback and Unix sockets stay allowed: the store may talk to
a local PostgreSQL. The guard sees this process only; a ``command`` suite's child process
(legacy_evals.py) is plain Python that opens no socket.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import threading
from pathlib import Path

import pytest

from tests.cli.runner import run_cli
from tracegrade.judges import FakeJudge, case_from_trace, run_panel
from tracegrade.suites import load_suite, run_suite
from tracegrade.traces import read_trace

REPO = Path(__file__).resolve().parent.parent
LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


def _is_local_host(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


class EgressGuard:
    """Records (and refuses) every attempt to reach another machine."""

    def __init__(self) -> None:
        self.attempts: list[str] = []
        self._lock = threading.Lock()

    def check(self, what: str, family: int | None, address: object) -> None:
        if family is not None and family == getattr(socket, "AF_UNIX", None):
            return
        host = address[0] if isinstance(address, tuple) and address else address
        if _is_local_host(host):
            return
        with self._lock:
            self.attempts.append(f"{what} {address!r}")
        raise ConnectionRefusedError(f"egress blocked by the test guard: {what} {address!r}")


@pytest.fixture
def egress(monkeypatch: pytest.MonkeyPatch) -> EgressGuard:
    guard = EgressGuard()
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex
    create_connection, getaddrinfo = socket.create_connection, socket.getaddrinfo

    def guarded_connect(self: socket.socket, address: object) -> None:
        guard.check("connect", self.family, address)
        connect(self, address)  # type: ignore[arg-type]

    def guarded_connect_ex(self: socket.socket, address: object) -> int:
        guard.check("connect_ex", self.family, address)
        return connect_ex(self, address)  # type: ignore[arg-type]

    def guarded_create_connection(address: tuple[str, int], *args, **kwargs) -> socket.socket:
        guard.check("create_connection", None, address)
        return create_connection(address, *args, **kwargs)

    def guarded_getaddrinfo(host, *args, **kwargs):
        guard.check("getaddrinfo", None, (host,))
        return getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "create_connection", guarded_create_connection)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    return guard


# --- the guard can fail -------------------------------------------------------------------


def test_the_guard_catches_a_deliberate_outbound_connection(egress: EgressGuard) -> None:
    with pytest.raises(ConnectionRefusedError, match="egress blocked"):
        socket.create_connection(("192.0.2.10", 443), timeout=1)  # TEST-NET-1, never routed
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as raw,
        pytest.raises(ConnectionRefusedError),
    ):
        raw.connect(("198.51.100.7", 80))
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as raw,
        pytest.raises(ConnectionRefusedError),
    ):
        raw.connect_ex(("203.0.113.9", 80))
    assert egress.attempts == [
        "create_connection ('192.0.2.10', 443)",
        "connect ('198.51.100.7', 80)",
        "connect_ex ('203.0.113.9', 80)",
    ]


def test_the_guard_catches_an_http_client_calling_out(egress: EgressGuard) -> None:
    connection = http.client.HTTPSConnection("api.openai.com", timeout=1)
    with pytest.raises(ConnectionRefusedError):
        connection.request("GET", "/v1/models")
    connection.close()
    assert egress.attempts == ["create_connection ('api.openai.com', 443)"]


def test_loopback_stays_allowed(egress: EgressGuard) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
    assert egress.attempts == []


# --- tracegrade opens no outbound socket --------------------------------------------------


def test_grading_the_example_suite_opens_no_socket(egress: EgressGuard) -> None:
    results = run_suite(load_suite(REPO / "examples" / "suite.toml"))
    assert [result.matched for result in results] == [True, True, True, True]
    assert egress.attempts == []


def test_a_fake_judge_panel_opens_no_socket(egress: EgressGuard) -> None:
    verdict = {"verdict": "supported", "confidence": 1, "citations": ["f4.4"], "reasoning": "."}
    case = case_from_trace(read_trace(REPO / "examples" / "traces" / "read-source.json"))
    result = run_panel([FakeJudge([verdict] * 3, model="gpt-4o-mini")], [case], repeats=3)
    assert (result.cases[0].verdict, result.bad_citations) == ("supported", 0)
    assert egress.attempts == []


def test_running_the_example_project_with_its_judge_panel_opens_no_socket(
    egress: EgressGuard, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'egress.db'}"
    result = run_cli(capsys, "run", str(REPO / "examples" / "project"), "--store", url)
    assert result.code == 0, result.err
    assert "refund_answer_panel" in result.out
    assert "judge $" in result.out  # the panel's judge calls were costed
    assert egress.attempts == []
