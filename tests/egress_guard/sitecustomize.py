"""Loaded by each Python process started with this folder on PYTHONPATH (see test_egress_processes).

An audit hook records, and refuses, each ``socket.connect`` to an address that is not
loopback and each name lookup of anything but this machine, appending one line per attempt
to ``$TRACEGRADE_EGRESS_LOG``. Child processes (pool workers, Ray's dashboard, agents and
workers) inherit the environment, so each installs the hook too.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys

_LOG = os.environ.get("TRACEGRADE_EGRESS_LOG")
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "", None}


def _local(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if host in _LOCAL_NAMES:
        return True
    if not isinstance(host, str):
        return False
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host.lower() in _LOCAL_NAMES or host == socket.gethostname()
    return address.is_loopback or (
        isinstance(address, ipaddress.IPv6Address)
        and address.ipv4_mapped is not None
        and address.ipv4_mapped.is_loopback
    )


def _record(what: str) -> None:
    if _LOG:
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {' '.join(sys.argv)[:160]}: {what}\n")
    raise ConnectionRefusedError(f"egress blocked by the test guard: {what}")


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event == "socket.connect":
        sock, address = args[0], args[1]
        family = getattr(sock, "family", None)
        internet = family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple)
        if internet and not _local(address[0]):  # type: ignore[index]
            _record(f"connect {address!r}")
    elif event == "socket.getaddrinfo" and not _local(args[0]):
        _record(f"getaddrinfo {args[0]!r}")


if _LOG:
    sys.addaudithook(_hook)
