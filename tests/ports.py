"""A port for a test's server, picked where the system's own picks never go.

A port the system picked (bind to port 0) and released is free only for a moment: until the server binds it, the
system may hand it to any client socket (urllib, Chromium, another test worker's), and the server then fails to
start or, worse, a readiness check is answered by another server. Ports below the ephemeral range are never handed
out that way; one is picked at random there (test workers pick apart) and checked free.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

_PICK = random.SystemRandom()  # not the tests' seeded ``random``: two workers must not pick alike


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = (int(n) for n in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
        return low, high
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def free_port(host: str = "127.0.0.1") -> int:
    """A port on ``host`` nothing listens on now, outside the range the system gives client sockets."""
    low, high = _ephemeral_range()
    outside = range(10_000, low) if low > 11_000 else range(high + 1, 65_536)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for _ in range(200 if len(outside) > 0 else 0):
        port = _PICK.choice(outside)
        try:
            with socket.create_server((host, port), family=family):
                return port
        except OSError:
            continue
    with socket.create_server((host, 0), family=family) as probe:  # a crowded machine: the system's pick
        return probe.getsockname()[1]
