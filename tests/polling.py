"""A wait that polls soon, then less often: what a test waits for is often there in a few hundredths of a second,
and a fixed step of 0.2 s made each such wait 0.2 s (43 waits were 8.6 s of a 16 s browser test). The waits stay
bounded by their callers' deadlines; how soon a poll comes is never asserted."""

from __future__ import annotations

import time


class Pauses:
    """Each call sleeps: ``first`` seconds, then twice as long each time, up to ``most``."""

    def __init__(self, first: float = 0.01, most: float = 0.1) -> None:
        self.next, self.most = first, most

    def __call__(self) -> None:
        time.sleep(self.next)
        self.next = min(2 * self.next, self.most)
