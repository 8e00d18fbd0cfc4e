"""Per-key token buckets: a burst, then a steady rate (docs/hub.md, "Rate limits").

Buckets live in the process: with several hub processes behind one address each keeps
its own, so a client may reach ``processes x rate`` at most. That bounds abuse per
process, which is what protects a process's workers; a shared limit would live in the
database or in front of the processes.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    burst: int  # requests allowed at once
    per_minute: float  # then this many a minute


class RateLimiter:
    def __init__(self, rate: Rate, clock=time.monotonic, max_keys: int = 100_000) -> None:
        self.rate, self.clock, self.max_keys = rate, clock, max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """0 when the request may go ahead, else the seconds until it may."""
        refill = self.rate.per_minute / 60.0
        now = self.clock()
        with self._lock:
            tokens, when = self._buckets.get(key, (float(self.rate.burst), now))
            tokens = min(float(self.rate.burst), tokens + (now - when) * refill)
            if tokens >= 1.0:
                if len(self._buckets) >= self.max_keys and key not in self._buckets:
                    self._forget_full(now, refill)
                self._buckets[key] = (tokens - 1.0, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / refill if refill > 0 else 3600.0

    def _forget_full(self, now: float, refill: float) -> None:
        """Drop the buckets that have refilled (they hold nothing a new bucket would not)."""
        full = [k for k, (t, w) in self._buckets.items() if t + (now - w) * refill >= self.rate.burst]
        for k in full:
            del self._buckets[k]
