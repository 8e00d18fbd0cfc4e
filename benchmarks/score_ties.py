"""CPU per add to a local score table holding 300 forged rows tied with 4 tied runs of the duel: rows re-verified
and time.process_time per add (run from the repository root: `.venv/bin/python benchmarks/score_ties.py`)."""
import sqlite3, sys, time, tempfile
from pathlib import Path
sys.path.insert(0, "tests")
from test_player_campaigns import duel_dict, load, recorded
from cardrogue.engine.records import scores
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.records.scores import ScoreStore

TIED = [("end", "flip E", "attack", "move E", "end", "flip E", "move E"),
        ("flip E", "attack", "end", "move E", "end", "flip E", "move E"),
        ("flip E", "attack", "move E", "end", "end", "flip E", "move E"),
        ("flip E", "attack", "move E", "end", "flip E", "end", "move E")]
c = load(duel_dict())
runs = [verify_replay(recorded(c, a, player=f"p{i}").text(), c).run for i, a in enumerate(TIED)]
db = Path(tempfile.mkdtemp()) / "s.db"
with ScoreStore(db) as s:
    s.add(runs[0], c)
with sqlite3.connect(db) as con:
    con.executemany(f"INSERT INTO scores_{c.content_hash} VALUES (?, 'eve', 3, 12, 1e12, ?)",
                    ((f"{i:064x}", runs[0].replay_text) for i in range(300)))
con.close()
n = [0]
real = scores.verify_replay
scores.verify_replay = lambda *a, **k: n.__setitem__(0, n[0] + 1) or real(*a, **k)
with ScoreStore(db) as s:
    for r in runs[1:]:
        n[0] = 0
        t = time.process_time()
        s.add(r, c)
        print(f"add: {n[0]} rows re-verified, {time.process_time() - t:.3f} s CPU")
