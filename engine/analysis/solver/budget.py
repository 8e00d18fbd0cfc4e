"""How much a verdict may cost, and the one place the solver asks whether time is up.

A :class:`Budget` is what the caller allows; :meth:`Budget.start` turns it into a
:class:`Deadline` at the moment the solve begins, so everything a solve does -- setting the
search up, the static proof, the search itself, the health tiebreak -- is measured on the
same clock. Every phase asks the same object (``deadline.expired()``), never ``time`` itself.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator


@dataclass(frozen=True)
class Budget:
    """How much search a verdict may cost; running out gives ``unknown``, never ``unsolvable``.

    ``max_seconds`` bounds the whole solve (set-up, search and witness check). ``health_seconds``
    is the health tiebreak's own share once the turns are proven (None: whatever is left of
    ``max_seconds``). ``max_memory``, in bytes, bounds what the search stores (None: no bound).
    ``find_share``: the share of ``max_seconds`` kept, while no finish is found, for looking for any
    finish once the search stops (:mod:`.dive`); that look also expands at most that share of
    ``max_states`` (at least 1,000).
    """

    max_states: int = 500_000  # states expanded
    max_seconds: float = 20.0
    health_seconds: float | None = None
    max_memory: int | None = None
    find_share: float = 0.1

    def start(self, stop: threading.Event | None = None) -> Deadline:
        """The deadline of a solve that begins now; ``stop``, once set, ends it at once (a caller who stops
        waiting: the editor's F9 pressed again)."""
        return Deadline(time.perf_counter(), self.max_seconds, stop)


class Deadline:
    """The clock of one solve: ``expired()`` once ``seconds`` have passed since ``started``, or once ``stop`` is
    set (the deadlines cut from this one share it)."""

    __slots__ = ("started", "end", "stop")

    def __init__(self, started: float, seconds: float, stop: threading.Event | None = None) -> None:
        self.started = started
        self.end = started + seconds
        self.stop = stop

    def expired(self) -> bool:
        return time.perf_counter() > self.end or (self.stop is not None and self.stop.is_set())

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def left(self) -> float:
        if self.stop is not None and self.stop.is_set():
            return 0.0
        return max(0.0, self.end - time.perf_counter())

    def short_of(self, seconds: float) -> Deadline:
        """A deadline that ends ``seconds`` before this one (at its start at the earliest)."""
        sub = Deadline(self.started, 0.0, self.stop)
        sub.end = max(self.started, self.end - seconds)
        return sub

    def within(self, seconds: float | None) -> Deadline:
        """A deadline that ends ``seconds`` from now, or at this one's end if that comes first."""
        now = time.perf_counter()
        sub = Deadline(self.started, 0.0, self.stop)
        sub.end = self.end if seconds is None else min(self.end, now + seconds)
        return sub


class OutOfTime(BaseException):
    """A phase that never looks at the clock ran past its deadline (see :func:`enforced`).

    A BaseException, as KeyboardInterrupt is, so no ``except Exception`` on the way swallows it.
    """


GRACE_SECONDS = 0.1  # how far past its deadline an enforced phase may run


@contextmanager
def enforced(deadline: Deadline) -> Iterator[None]:
    """Keep ``deadline`` even in code that never asks it (building the tables and graphs of a huge
    level): past it, :class:`OutOfTime` is raised in that code, from a timer signal.

    Only the main thread of a process receives signals, so elsewhere (a worker thread of the
    editor or the hub) this does nothing and the phase runs to its end; nor does it replace a
    timer someone else has set.
    """
    if (threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer")
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        yield
        return

    def ring(signum, frame) -> None:
        raise OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, deadline.left() + GRACE_SECONDS)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
