"""The anchor every speed figure is measured beside: python-chess's perft, in nodes per second.

This machine is shared and its speed varies several-fold with other jobs, so a figure alone says
little; the same run measures python-chess (a mature pure-Python move generator) and the figure
is reported as a ratio to it (benchmarks/RESULTS.md). python-chess is a benchmark-only dependency
(the ``bench`` extra, see the README).

perft(depth) counts the leaf positions of the full legal-move tree from the initial position
(perft(3) = 8,902) by ``push``/``pop`` over ``legal_moves``, the last ply counted with
``legal_moves.count()`` (bulk counting, as move generators' perft is usually timed; pushing and
popping the last ply too runs about a third as many nodes per second).

Time is the process's CPU time (``time.process_time``), here and in the figures measured beside it:
on this shared two-core machine the wall clock of a one-second round moves by half with the other
jobs (65k to 110k playout actions/s in two runs a minute apart), the CPU time by a few percent.
"""

from __future__ import annotations

import time

PERFT = {1: 20, 2: 400, 3: 8_902, 4: 197_281}


def perft(board, depth: int) -> int:
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def perft_rate(seconds: float = 1.0, rounds: int = 3, depth: int = 3) -> float:
    """Nodes per CPU second of perft(``depth``) from the initial position: the best of ``rounds`` rounds
    of at least ``seconds`` of CPU time each (other load on the machine only ever slows a round)."""
    import chess  # benchmark-only: pip install -e .[bench]

    best = 0.0
    for _ in range(rounds):
        board = chess.Board()
        nodes = 0
        start = time.process_time()
        while True:
            n = perft(board, depth)
            assert n == PERFT[depth], "python-chess's move generator disagrees with the known perft count"
            nodes += n
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        best = max(best, nodes / elapsed)
    return best


def line(rate: float) -> str:
    return f"anchor: python-chess perft(3), bulk-counted, {rate:,.0f} nodes/s (CPU time, best of 3 rounds)"
