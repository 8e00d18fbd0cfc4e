"""How many states an abstracted proof search could merge on a generated 8x8 map (issue 14, the ceiling).

Run ``python benchmarks/abstract_ceiling.py SEED [STATES] [PAR]``: searches the 8x8 map of ``benchmarks/gen.py`` (as
``bench_solver.py`` makes it) with ``Budget(max_states=STATES, max_seconds=3600)`` (default 100,000; no clock),
records every state the search pops (expands), and counts the distinct keys of those with ``turn + h < PAR`` (the
states a proof of ``PAR`` must exhaust; PAR defaults to the par found, else to one past the least ``f`` still open)
under several abstractions. Each key leaves out the turn (an abstract search keeps the least turn per key) and:

- ``concrete``: nothing more (the states themselves, up to their turn);
- ``-health``: the hero's health, poison and antidote;
- ``-gold``: the gold;
- ``-dice``: the dice drawn from every card's stream (``draws``);
- ``-foehp``: the enemies' health (their poison, paralysis and attack kept);
- ``-foes``: every entry of ``foes`` (health and conditions);
- ``-all``: all of the above (health, gold, dice, foes);
- ``-all-far``: and the faces (alive/cleared) of the enemy cards, and the visitors, more than ``2 (PAR - turn) + 1``
  grid steps from the hero (an enemy whose state is unknown: the abstract game would let the hero take it either
  way);
- ``-all-combat``: ``-all`` and the combat's inner steps (``fight``, ``todo``, ``awaiting``, ``waiting``);
- ``-all-farfaces``: ``-all-far`` and every face more than that far (the enemies' and the tiles');
- ``-all-offwalk``: ``-all`` and every face of a cell off every walk of two steps a turn from the hero to a way
  out in ``PAR - turn`` turns (UNSOUND as a claim that the hero cannot use it: flees, relocations and potions of
  teleportation go further; a limit of what merging the faces off the walk could give);
- ``-all-combat-alive``: ``-all-combat`` and each enemy card face up read as alive or slain;
- ``relevant``: every face no line finishing before ``PAR`` can read, and those cells' enemies, dice and visitors
  (``relevant``: argued for the generated maps, where the warrior is paced: two steps a turn, and the potions'
  landings and flees counted); health, gold and the dice of the other cells kept; ``-all-relevant``: and ``-all``;
  ``-all-combat-relevant``: and the combat's inner steps;
- ``-all-quiet``: ``-all`` and whether each pathing tile or item is face down or up.

``--fields`` also prints the keys with each keyed field left out alone; ``--save F`` keeps the popped states' fields
in F (pickle) and ``SEED 0 PAR --load F`` analyses them again without searching. ``--chosen``: an A* in the game
where the hero chooses every die (keys without the turn and the dice), to see whether it proves ``PAR`` and in how
many expanded keys (``--chosen-all``: health, gold and ``foes`` left out too).

The ratio printed is states / keys: the most an abstract search over that key could save on the states it must
expand, if its transitions reached no state the concrete search does not (they do: they are generous).
Optionally ``--dice K``: also solves the same map under K other dice seeds (the layout unchanged, the campaign's
``seed`` field changed, the potions' colours set to what the map's own seed makes them), an upper limit of the par
of a game where every roll may be chosen, so a lower limit of how far best-case dice lower par.
State counts only; the load of the machine does not change them.
"""

from __future__ import annotations

import argparse
import heapq
import pickle
import sys
import time
from collections import Counter, deque

from gen import campaign, campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.analysis.solver import search as search_module
from cardrogue.engine.analysis.solver.packing import unpack
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.canonical import dumps
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.model.potions import potion_identities
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver.result import INF
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.model.campaign import CardKind
from cardrogue.engine.rules.fields import FIELDS
from cardrogue.engine.rules.phases import CHOOSE_TELEPORT, DEAD, MOVING, STEP1, WON
from cardrogue.engine.rules.phases import COMBAT as COMBAT_PHASE
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.rules.tables import CLEARED, ENEMY, PICKUP, PLAIN

NO_CLOCK = 3600
KEYED = tuple(f.name for f in FIELDS if f.key is not None and f.name != "turn")
HEALTH = {"health", "poison", "antidote"}
COMBAT = {"fight", "todo", "awaiting", "waiting"}
ABSTRACTIONS = ("concrete", "-health", "-gold", "-dice", "-foehp", "-foes", "-all", "-all-far", "-all-combat",
                "-all-farfaces", "-all-offwalk", "-all-quiet", "-all-combat-alive", "relevant", "-all-relevant",
                "-all-combat-relevant")
BY_TURN = ("concrete", "-all", "-all-offwalk", "-all-quiet", "relevant", "-all-relevant")


class Recorder:
    """A stand-in for the ``heapq`` module inside the search: records every entry it pops."""

    heappush = staticmethod(heapq.heappush)

    def __init__(self) -> None:
        self.popped: list = []

    def heappop(self, heap):
        e = heapq.heappop(heap)
        if e[5][4]:
            self.popped.append((e[0], e[4]))
        return e


def grid_distances(d, lo: int, hi: int) -> list:
    """Steps between every two cells of the level along its paths, faces ignored."""
    n = hi - lo
    out = []
    for a in range(n):
        dist = [99] * n
        dist[a] = 0
        todo = deque([a])
        while todo:
            c = todo.popleft()
            for j in d.adjacent[lo + c]:
                if j >= 0 and dist[j - lo] == 99:
                    dist[j - lo] = dist[c] + 1
                    todo.append(j - lo)
        out.append(dist)
    return out


def row(s) -> dict:
    """The keyed fields of ``s`` as plain hashable values (the pending steps by their text)."""
    v = {name: getattr(s, name) for name in KEYED}
    v["faces"] = bytes(s.faces)
    v["foes"] = tuple(sorted(s.foes.items())) if s.foes else ()
    v["visitors"] = tuple(sorted(s.visitors.items())) if s.visitors else ()
    for name in ("todo", "awaiting", "stats"):
        if name in v:
            v[name] = repr(v[name])
    return v


ALL = HEALTH | {"gold", "draws", "foes"}
CARDS: dict = {}  # card id -> card, of the map analysed


def keys(v: dict, turn: int, par: int, d, lo: int, dist: list, exits: list) -> dict:
    def key(drop: set, **over) -> tuple:
        return tuple(over.get(n, v[n]) for n in KEYED if n not in drop)

    n = len(dist)
    foehp = tuple((e, f[1:]) for e, f in v["foes"])
    out = {
        "concrete": key(set()),
        "-health": key(HEALTH),
        "-gold": key({"gold"}),
        "-dice": key({"draws"}),
        "-foehp": key(set(), foes=foehp),
        "-foes": key({"foes"}),
        "-all": key(ALL),
        "-all-combat": key(ALL | COMBAT),
    }
    reach = 2 * (par - turn) + 1
    here = dist[v["pos"] - lo]
    faces = bytearray(v["faces"])
    for j in range(lo, lo + n):
        if d.kind[j] == ENEMY and here[j - lo] > reach and faces[j] != 0:
            faces[j] = CLEARED  # alive or slain: unknown
    visitors = tuple((c, e) for c, e in v["visitors"] if here[c - lo] <= reach)
    out["-all-far"] = key(ALL, faces=bytes(faces), visitors=visitors)
    for j in range(lo, lo + n):
        if here[j - lo] > reach:
            faces[j] = 3  # any face
    out["-all-farfaces"] = key(ALL, faces=bytes(faces), visitors=visitors)
    faces = bytearray(v["faces"])
    for j in range(lo, lo + n):
        if here[j - lo] + min(dist[j - lo][w - lo] for w in exits) > reach:
            faces[j] = 3  # off every walk of two steps a turn to a way out
    out["-all-offwalk"] = key(ALL, faces=bytes(faces))
    faces = bytearray(v["faces"])
    for j in range(lo, lo + n):
        if d.kind[j] in (PLAIN, PICKUP) and faces[j] != CLEARED:
            faces[j] = 3  # a pathing tile or an item: face down or up, unknown
    out["-all-quiet"] = key(ALL, faces=bytes(faces))
    faces = bytearray(v["faces"])
    for j in range(lo, lo + n):
        if d.kind[j] == ENEMY and faces[j] != 0:
            faces[j] = CLEARED  # an enemy card face up: alive or slain, unknown
    out["-all-combat-alive"] = key(ALL | COMBAT, faces=bytes(faces))
    keep = relevant(v, turn, par, d, lo, dist, exits)
    faces = bytearray(v["faces"])
    for j in range(lo, lo + n):
        if not keep[j - lo]:
            faces[j] = 3
    visitors = tuple((c, e) for c, e in v["visitors"] if keep[c - lo])
    foes = tuple((e, f) for e, f in v["foes"] if keep[e - lo])
    draws = tuple((c, k) for c, k in v["draws"] if keep[c - lo])
    out["relevant"] = key(set(), faces=bytes(faces), visitors=visitors, foes=foes, draws=draws)
    out["-all-relevant"] = key(ALL, faces=bytes(faces), visitors=visitors)
    out["-all-combat-relevant"] = key(ALL | COMBAT, faces=bytes(faces), visitors=visitors)
    return out


def steps_left(v: dict) -> int:
    """The steps still possible in the current turn for the paced warrior (2 a turn: ``Relaxation.remaining``
    with ``S`` = 2, no flee, no relocation, the double move)."""
    phase = v["phase"]
    if phase in (STEP1, CHOOSE_TELEPORT) or (phase == COMBAT_PHASE and not v["moved"]):
        return 2
    if phase == MOVING:
        return v["moves"] + (1 if v["pure"] and not v["repeated"] else 0)
    return 0


def relevant(v: dict, turn: int, par: int, d, lo: int, dist: list, exits: list) -> list:
    """Per cell of the level: may a line that finishes before turn ``par`` read its face? (the paced warrior of the
    generated maps: 2 steps a turn, every path open; the other steps are the flees from enemies paralysed by a
    potion of paralysis, counted 2 a potion held or on a cell and 2 an enemy paralysed now).

    The tiles he may stand on: those of a walk to a way out within ``B = r + 2 (par - 1 - turn) + 2 E`` steps
    (``r`` the steps left this turn); with a potion of teleportation held or on a cell, those within ``2 (par - 1 -
    turn) + 2 E`` steps of a way out (a drink ends the turn: a landing, then walks), with one held every tile
    within ``B`` of the hero (a walk, then a drink landing on the way out: a landing there finishes), and those of
    a walk within ``B`` to each potion on a cell and on from it (from the hero, or, with another potion to drink
    first, from anywhere within that many steps of it); with two held and a turn before ``par - 1`` left, every
    tile (the first drink lands anywhere, the second on the way out). A face is read only from a tile he stands on or beside it (entered, flipped, an enemy
    beside him); ``B`` and the regions only shrink along a line. A thrown potion of teleportation also reads which
    tiles far away are revealed (where it may put the enemy): an abstract state reading those as revealed
    offers every target any of its states does."""
    n = len(dist)
    faces = v["faces"]
    pots_tele, pots_para = [], []
    for j in range(lo, lo + n):
        card = d.card[j]
        if card.kind is CardKind.POTION and faces[j] != CLEARED:
            effect = d.potions.get(card.colour)
            (pots_tele if effect == "teleportation" else pots_para if effect == "paralysis" else []).append(j - lo)
    held_tele = held_para = 0
    for cid in v["hand"]:
        card = CARDS.get(cid)
        if card is not None and card.kind is CardKind.POTION:
            effect = d.potions.get(card.colour)
            held_tele += effect == "teleportation"
            held_para += effect == "paralysis"
    if v["phase"] == CHOOSE_TELEPORT and v["subject"] == -1:
        held_tele += 1  # drunk, his landing still to choose: as one held
    para_now = sum(1 for _, f in v["foes"] if f[2])
    extra = 2 * (held_para + len(pots_para) + para_now)
    land = 2 * (par - 1 - turn) + extra
    budget = steps_left(v) + land
    here = dist[v["pos"] - lo]
    toexit = [min(dist[i][w - lo] for w in exits) for i in range(n)]
    stand = [here[i] + toexit[i] <= budget for i in range(n)]
    if held_tele or pots_tele:
        if held_tele >= 2 and land >= 2:
            return [True] * n  # a drink lands anywhere, and a turn before T is left for a walk and a second drink
        for i in range(n):
            if toexit[i] <= land or (held_tele and here[i] <= budget):
                stand[i] = True  # a landing near the way out; a walk anywhere, then a drink landing on it
        other_any = held_tele or len(pots_tele) > 1
        for p in pots_tele:
            for i in range(n):
                if (here[i] + dist[i][p] <= budget or here[p] + dist[p][i] <= budget
                        or (other_any and dist[i][p] <= land)):
                    stand[i] = True
    keep = stand[:]
    for i in range(n):
        if stand[i]:
            for row in (d.adjacent[lo + i], d.flip_to[lo + i]):
                for j in row:
                    if j >= 0:
                        keep[j - lo] = True
    paralysed = {e for e, f in v["foes"] if f[2]}
    for i in range(n):
        j = lo + i
        if d.kind[j] not in (PLAIN, ENEMY, PICKUP) or d.card[j].kind is CardKind.POTION or j in paralysed:
            keep[i] = True  # only pathing tiles, enemies not paralysed and items other than potions are merged
    return keep


def run_watched(search: Search, heap) -> tuple[tuple, float]:
    """``search.run()`` with ``heap`` in place of the search's heapq (a module-like recorder of its pushes and pops):
    its result and the CPU seconds it took."""
    search_module.heapq = heap
    t0 = time.process_time()
    try:
        result = search.run()
    finally:
        search_module.heapq = heapq
    return result, time.process_time() - t0


def census(seed: int, states: int, par_given: int | None, save: str | None, fields: bool) -> None:
    c = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    search = Search(c, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    rec = Recorder()
    (verdict, _, turns, health, _), cpu = run_watched(search, rec)
    d = search.d
    open_f = [e[0] for e in search.heap if e[5][4]]
    least = min(open_f) if open_f else None
    head = (f"seed {seed}: {verdict} turns={turns} health={health} expanded={search.expanded} "
            f"generated={search.generated} least f open={least} cpu={cpu:.1f}s")
    rows = []
    for f, p in rec.popped:
        s = unpack(p, d)
        rows.append((f, s.turn, row(s)))
    data = {"seed": seed, "head": head, "turns": turns, "least": least, "rows": rows}
    if save:
        with open(save, "wb") as out:
            pickle.dump(data, out)
    analyse(data, par_given, fields)


def analyse(data: dict, par_given: int | None, fields: bool = False) -> None:
    seed = data["seed"]
    CARDS.clear()
    CARDS.update(load_campaign_text(campaign_text(1, 8, seed=seed)).campaign.cards)
    par = par_given or data["turns"] or (data["least"] + 1 if data["least"] is not None else None)
    print(f"{data['head']}; proving par {par}")
    d = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    d = GameState.new(d, 0, log=False).d
    lo, hi = d.level_range[0]
    dist = grid_distances(d, lo, hi)
    exits = [j for j in range(lo, hi) if d.exit[j]]
    below = [(f, t, v) for f, t, v in data["rows"] if f < par]
    by_f = Counter(f for f, _, _ in below)
    print(f"  popped {len(data['rows'])}, with f < {par}: {len(below)} (by f: {sorted(by_f.items())})")
    seen = {a: set() for a in ABSTRACTIONS}
    per_turn = {}
    for f, turn, v in below:
        ks = keys(v, turn, par, d, lo, dist, exits)
        t = per_turn.setdefault(turn, {a: set() for a in ABSTRACTIONS})
        t["n"] = t.get("n", 0) + 1
        for a in ABSTRACTIONS:
            seen[a].add(ks[a])
            t[a].add(ks[a])
    n = len(below)
    print("  | abstraction | keys | states / keys |")
    for a in ABSTRACTIONS:
        print(f"  | {a} | {len(seen[a]):,} | {n / max(1, len(seen[a])):.2f} |")
    if fields:
        for name in KEYED:
            ks = {tuple(v[m] for m in KEYED if m != name) for _, _, v in below}
            print(f"    without {name}: {len(ks):,} keys")
    print("  by turn (states: keys " + ", ".join(BY_TURN) + "):")
    for turn in sorted(per_turn):
        r = per_turn[turn]
        print(f"    turn {turn}: {r['n']} states: " + ", ".join(f"{len(r[a])}" for a in BY_TURN))


def dice(seed: int, k: int, states: int) -> None:
    """The same map under ``k`` other dice seeds: their pars (a lower limit of what best-case dice allow)."""
    for other in range(1, k + 1):
        data = campaign(1, 8, seed=seed)
        data["potions"] = potion_identities(seed)  # the colours' effects as the map's own seed fixes them
        data["seed"] = seed * 1000 + other
        c = load_campaign_text(dumps(data)).campaign
        r = solve_campaign(c, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
        print(f"  seed {seed}, dice seed {data['seed']}: {r.verdict} turns={r.turns} at least={r.turns_at_least}")


def chosen(seed: int, states: int, par: int, drop: tuple = ("draws",)) -> None:
    """The abstract game with the fields ``drop`` left out and every die chosen by the hero: an A* (the project's
    bound, its flee chains on fated rolls turned off) over the keys without the turn and ``drop``, each chance
    point branched over its six faces. Stops at the first finish (the abstract par, if below ``par`` the
    abstraction cannot prove ``par``), at ``f >= par`` popped (``par`` proved in the abstraction: every concrete
    walk is one of its walks) or after ``states`` expanded keys."""
    c = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    root = GameState.new(c, 0, log=False)
    root.resolve(FatedResolver(c))
    relax = relaxation(c, root.d)
    relax.rolls = None  # the fated rolls of the flee chains: no fate here
    kept = tuple(n for n in KEYED if n not in drop)

    def key(s) -> tuple:
        return tuple(bytes(s.faces) if n == "faces" else repr(getattr(s, n)) for n in kept)

    def leaves(s):
        if s.chance is None:
            yield s
            return
        for n in range(1, 7):
            x = s.clone()
            x.apply_roll(n)
            yield from leaves(x)

    best = {key(root): root.turn}
    h0 = relax.bound(root, True)
    heap = [(root.turn + h0, h0, 0, root)]
    counter = expanded = generated = 0
    by_f = Counter()
    t0 = time.process_time()
    outcome = "budget"
    while heap:
        f, h, _, s = heapq.heappop(heap)
        if best.get(key(s), 99) < s.turn:
            continue
        if f >= par:
            outcome = f"proved: least f open {f} >= {par}"
            break
        if s.outcome == WON:
            outcome = f"finish in {s.turn} turns (below {par}: the abstraction cannot prove {par})"
            break
        if expanded >= states:
            outcome = f"budget: least f open {f}"
            break
        expanded += 1
        by_f[f] += 1
        for action in s.legal_actions():
            x = s.clone()
            x.apply(action)
            for y in leaves(x):
                generated += 1
                if y.outcome == DEAD:
                    continue
                k = key(y)
                if best.get(k, 99) <= y.turn:
                    continue
                best[k] = y.turn
                hy = 0 if y.outcome == WON else relax.bound(y, True)
                if hy == INF:
                    continue
                counter += 1
                heapq.heappush(heap, (y.turn + hy, hy, counter, y))
    print(f"seed {seed}, dice chosen by the hero, keys without turn and {', '.join(drop)}: {outcome}; "
          f"expanded {expanded:,}, generated {generated:,}, keys {len(best):,} (by f: {sorted(by_f.items())}), "
          f"cpu {time.process_time() - t0:.1f}s")


def main() -> int:
    parser = argparse.ArgumentParser(description="the keys an abstracted proof search would merge (issue 14)")
    parser.add_argument("seed", type=int)
    parser.add_argument("states", type=int, nargs="?", default=100_000)
    parser.add_argument("par", type=int, nargs="?", default=None)
    parser.add_argument("--fields", action="store_true", help="the keys with each field left out alone")
    parser.add_argument("--save", help="keep the popped states' fields in this file (pickle)")
    parser.add_argument("--load", help="analyse a file --save wrote instead of searching")
    parser.add_argument("--chosen", action="store_true", help="A* in the game where the hero chooses every die")
    parser.add_argument("--chosen-all", action="store_true", help="and health, gold and the enemies' health dropped")
    parser.add_argument("--dice", type=int, default=0, help="solve under this many other dice seeds")
    args = parser.parse_args()
    if args.chosen or args.chosen_all:
        drop = ("draws",) if args.chosen else ("draws", "health", "poison", "antidote", "gold", "foes")
        chosen(args.seed, args.states, args.par or 13, drop)
    elif args.dice:
        dice(args.seed, args.dice, args.states)
    elif args.load:
        try:
            with open(args.load, "rb") as f:
                data = pickle.load(f)  # a file this script wrote (--save)
        except (OSError, pickle.UnpicklingError, EOFError) as err:
            print(f"abstract_ceiling: cannot read {args.load}: {err}", file=sys.stderr)
            return 2
        analyse(data, args.par, args.fields)
    else:
        census(args.seed, args.states, args.par, args.save, args.fields)
    return 0


if __name__ == "__main__":
    sys.exit(main())
