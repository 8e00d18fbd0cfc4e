"""Hunt for overestimates of the turns bound where *The first potion picked up* (docs/solver.md) raises it.

Run ``python benchmarks/bound_hunt_first.py SEED TRIALS``: small open maps (2x6 to 4x5) of the paced warrior with
one to three potions of paralysis and two to six enemies (goblins of 40 health, kobolds, cave bats, sewer rats),
some tiles face up; six random walks each (a throw, a flee or a flip three times in five when legal, 0 to 13
actions). Where the bound is above the one with the rule off (``_first_gain`` read as 0), it is compared with the
turns left found by the uniform-cost reference search (``reference=True``, 20,000 states). Figures only.
"""
import sys, random, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers import campaign, cell
from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState
def build(w, h, pots, gobs, face_up=()):
    cells = []
    for y in range(h):
        for x in range(w):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < w - 1), ("S", y < h - 1), ("W", x > 0)) if ok)
            card = "starting-tile" if (x, y) == (0, 0) else "red-potion" if (x, y) in pots else gobs.get((x, y), "pathing-tile")
            extra = {"exit": True} if (x, y) == (w - 1, h - 1) else {}
            cells.append(cell(x, y, card, paths, face="up" if (x, y) == (0, 0) or (x, y) in face_up else "down", **extra))
    return campaign(cells, potions={"red": "paralysis"}, cards={"goblin": {"health": 40}})
def remaining(c, s):
    search = Search(c, 0, True, Budget(max_states=20_000, max_seconds=3600), reference=True)
    search.root = s.clone()
    verdict, _, turns, _, _ = search.run()
    return turns - s.turn if verdict == SOLVED else None
rng = random.Random(int(sys.argv[1]))
checked = over = gainful = 0
t0 = time.process_time()
for trial in range(int(sys.argv[2])):
    w, h = rng.choice([(3, 4), (4, 4), (3, 5), (4, 5), (2, 6), (3, 6)])
    free = [(x, y) for y in range(h) for x in range(w) if (x, y) not in ((0, 0), (w - 1, h - 1))]
    rng.shuffle(free)
    np_ = rng.choice([1, 2, 2, 3]); ng = rng.randrange(2, 7)
    pots = tuple(free[:np_])
    gobs = {p: rng.choice(["goblin", "kobold", "cave-bat", "sewer-rat"]) for p in free[np_:np_ + ng]}
    up = tuple(p for p in free[np_ + ng:] if rng.random() < 0.3)
    c = build(w, h, pots, gobs, up)
    for walk in range(6):
        resolver = FatedResolver(c)
        s = GameState.new(c, log=False); s.resolve(resolver)
        for _ in range(rng.randrange(0, 14)):
            legal = s.legal_actions()
            if not legal or s.is_terminal():
                break
            chosen = [a for a in legal if a.verb in ("throw", "flee", "flip")]
            s.step(rng.choice(chosen if chosen and rng.random() < 0.6 else legal), resolver)
        if s.is_terminal():
            continue
        R = relaxation(c, s.d)
        b = R.bound(s, True)
        orig = Relaxation._first_gain
        Relaxation._first_gain = lambda self, *a: 0
        b0 = Relaxation(c, s.d).bound(s, True)
        Relaxation._first_gain = orig
        if b == b0:
            continue
        gainful += 1
        left = remaining(c, s)
        if left is None:
            continue
        checked += 1
        if b > left:
            over += 1
            print("OVER", (w, h, pots, gobs, up), "turn", s.turn, "phase", s.phase, "pos", s.pos, "bound", b, "left", left, flush=True)
print(f"trials {sys.argv[2]} states where the rule raised the bound {gainful}, checked {checked}, overestimates {over}, cpu {time.process_time()-t0:.0f}s")
