"""Flees counted on the levels as they are laid out: a turn's chain of flees (``flee_chain``, ``F``) and
the flees from enemies paralysed by thrown potions (``level_flee_paths``).

The bound (``docs/solver.md``, *Potions*) lets a turn in which ``p`` potions of paralysis are thrown
add the tiles of a simple path whose every tile is an ADJACENT TILE of one of the ``p`` enemies
paralysed, each beside the one before: at most 1, 4, 7 tiles for ``p`` = 1, 2, 3 wherever the enemies
stand (``potions.FLEE_PATHS``). When no enemy can move (no potion of teleportation in the game: it is
the only thing that moves one), those enemies are enemy cards where the level lays them, and the
longest such path over the level's own cards is often shorter (a sparse level, walls between them).
"""

from __future__ import annotations

from ...rules.tables import ENEMY

SUBSETS = 5_000  # groups of enemy cards of one size a level may hold before the table stops at the size before
OFF_CARDS = 8  # enemy cards of one level whose sets ``off_cards_chain`` tries (2^8 sets at most)


def level_flee_paths(d, most: int, limit: int = SUBSETS) -> tuple[int, ...]:
    """``(0, L1, ..., Lk)``: for each p up to ``most``, the most tiles of a simple path whose every tile
    is an ADJACENT TILE of one of p enemy cards of one level (not one of those cards' own cells: they
    stand there alive), each tile an ADJACENT TILE of the one before; the most over every level and
    every p cards, and never less for more cards. Shorter than ``most + 1`` when a level holds more than
    ``limit`` linked groups of the next size (the caller keeps its general table beyond).

    Only groups whose cards are linked count: a path through the tiles beside two groups with no tile
    of one beside or on a tile of the other stays beside one of them, which is counted on its own.
    """
    best = [0] * (most + 1)
    done = most
    for lo, hi in d.level_range:
        foes = [j for j in range(lo, hi) if d.kind[j] == ENEMY]
        beside = {e: frozenset(d.near[e]) for e in foes}
        reach = {e: beside[e] | {k for t in beside[e] for k in d.near[t]} for e in foes}
        links = {e: [f for f in foes if f != e and reach[e] & beside[f]] for e in foes}
        groups = {frozenset((e,)) for e in foes if beside[e]}
        for p in range(1, most + 1):
            if p > done:
                break
            if p > 1:
                groups = _grown(groups, links, limit)
                if groups is None:
                    done = p - 1
                    break
            for group in groups:
                tiles = frozenset().union(*(beside[e] for e in group)) - group
                length = _longest_path(tiles, d.near)
                if length > best[p]:
                    best[p] = length
            if not groups:
                break
    for p in range(1, done + 1):
        best[p] = max(best[p], best[p - 1])
    return tuple(best[:done + 1])


def _grown(groups: set, links: dict, limit: int) -> set | None:
    """The linked groups one card larger than ``groups`` (None past ``limit`` of them)."""
    out = set()
    for g in groups:
        for e in g:
            for f in links[e]:
                if f not in g:
                    out.add(g | {f})
                    if len(out) > limit:
                        return None
    return out


def _longest_path(tiles: frozenset, near) -> int:
    """The most tiles of a simple path within ``tiles``, consecutive tiles ADJACENT TILEs (``near``)."""
    best = 0

    def walk(v: int, seen: set, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        for u in near[v]:
            if u in tiles and u not in seen:
                seen.add(u)
                walk(u, seen, length + 1)
                seen.discard(u)

    for v in tiles:
        walk(v, {v}, 1)
    return best


def tile_groups(near, inside: list, lo: int = 0) -> tuple[list[int], list[int]]:
    """The connected groups of the cells ``lo + i`` with ``inside[i]``, each an ADJACENT TILE (``near``) of
    another of its group (all of one level): per cell its group (-1: not inside), and per group its size."""
    group = [-1] * len(inside)
    sizes: list[int] = []
    for i, flag in enumerate(inside):
        if not flag or group[i] >= 0:
            continue
        g = len(sizes)
        group[i], stack, size = g, [i + lo], 0
        while stack:
            c = stack.pop()
            size += 1
            for j in near[c]:
                k = j - lo
                if inside[k] and group[k] < 0:
                    group[k] = g
                    stack.append(j)
        sizes.append(size)
    return group, sizes


def calm_enemies(d) -> frozenset[int]:
    """The cells of the enemy cards with DOES NOT CHASE ("a player can flee without needing to roll"):
    the only enemies a warrior (CANNOT FLEE) with no CAN FLEE X may flee from, besides a paralysed one
    (docs/rules.md, *Fleeing*)."""
    return frozenset(j for j in range(len(d.kind)) if d.kind[j] == ENEMY and not d.chases[j])


def flee_chain(d, foes=None, moved: int = 0) -> int:
    """The most tiles one turn's flees can advance the hero (``F`` in docs/solver.md), each flee from
    one of the enemy cards on the cells ``foes`` (None: any enemy card).

    A flee that lands next to another enemy starts combat at once, and the hero may flee again
    (docs/rules.md, "Fleeing next to another enemy"). Every landing but the last of such a chain
    is then on an ADJACENT TILE of an enemy card fled from, each an ADJACENT TILE of the one before,
    so the chain without its detours stays in one connected group of those tiles and adds one last
    step: at most the largest group's size (1 when no two such tiles touch: a single flee; 0 when
    ``foes`` is empty: no flee at all).

    ``moved``: how many times an enemy may be moved in the game (the potions of teleportation to be had:
    a thrown one moves the enemy to a pathing tile of the player's choice, docs/rules.md *Items*). A moved
    enemy makes at most its 4 ADJACENT TILEs newly beside an enemy (leaving its cell makes none), and each
    new tile touches at most 4 tiles, each in at most one group of the cards as laid: after ``moved`` moves a
    group holds at most ``4·moved`` new tiles and the tiles of ``16·moved`` groups as laid (two tiles of
    different groups touch only through a new tile), or is one group as laid.
    """
    if foes is None:
        near_enemy = [bool(row) for row in d.enemy_near]
    else:
        if not foes:
            return 0
        near_enemy = [any(e in foes for e in row) for row in d.enemy_near]
    _, sizes = tile_groups(d.near, near_enemy)
    best = max(sizes, default=1)
    if moved and ENEMY in d.kind:  # (no enemy card: none to move)
        sizes.sort(reverse=True)
        best = max(best, 4 * moved + sum(sizes[:16 * moved]))
    return best


def off_cards_chain(d, foes, lo: int, hi: int, most: int = OFF_CARDS) -> int:
    """The most tiles of a connected group of cells of one level (``lo``..``hi``) each beside one of a set ``A`` of
    the enemy cards ``foes`` and not the card of one of ``A``, over every set ``A`` of them (0 when ``foes`` is
    empty): ``flee_chain``'s group, less the cards of the enemies fled (docs/solver.md, *Flees land off the enemies'
    cards*). More than ``most`` cards: the group with their cards, as ``flee_chain`` counts it.

    A flee lands on "an adjacent tile the hero could move onto" (docs/rules.md, *Fleeing*), never on the card of an
    enemy alive; the hero's own tile is none either. The enemies alive stay the same from a chain's first fight to
    its end: a fight in which one is slain while another stays beside the hero ends the turn ("The combat turn
    ends the turn unless every adjacent enemy is slain", ``_step_combat_over``), and one in which all are slain
    resumes at step 4, ending the chain. So a chain's stands lie in one group of the tiles beside the set ``A`` of
    the enemies of ``foes`` alive then and off their cards; taking every ``A`` covers every state."""
    if not foes:
        return 0
    bit = {e: 1 << k for k, e in enumerate(sorted(foes))}
    beside = [0] * (hi - lo)  # per cell of the level: the foes beside it, and the foe on it, as bits
    on = [0] * (hi - lo)
    for i in range(lo, hi):
        for e in d.enemy_near[i]:
            beside[i - lo] |= bit.get(e, 0)
        on[i - lo] = bit.get(i, 0)
    if len(bit) > most:
        return _largest_group(d, [b != 0 for b in beside], lo)
    best = 0
    for alive in range(1, 1 << len(bit)):
        size = _largest_group(d, [b & alive != 0 and not o & alive for b, o in zip(beside, on)], lo)
        if size > best:
            best = size
    return best


def _largest_group(d, inside: list, lo: int) -> int:
    """The size of the largest of :func:`tile_groups` (0: none)."""
    return max(tile_groups(d.near, inside, lo)[1], default=0)


def calm_chain(d, calm: frozenset) -> int:
    """``flee_chain(d, calm)`` less the cards of the enemies fled: the largest :func:`off_cards_chain` of a level (at
    least 1 with a card in ``calm``, as ``flee_chain``: ``F > 0`` keeps the rules of a hero who may flee)."""
    if not calm:
        return 0
    return max(1, max(off_cards_chain(d, [e for e in calm if lo <= e < hi], lo, hi) for lo, hi in d.level_range))


def calm_flee_gains(d, calm: frozenset) -> tuple[int, ...]:
    """``(0, X1, ..., Xn)``, n the number of enemy cards not in ``calm`` (``Xn`` stands for any p >= n:
    p potions paralyse at most n enemies): the most tiles the flees of one turn in which p enemies are
    paralysed can add to ``flee_chain(d, calm)`` for a warrior who flees only the DOES NOT CHASE enemy
    cards ``calm`` and paralysed enemies, nothing moving an enemy (no potion of teleportation).

    Such a turn's chain, its detours left out, is a simple path of tiles each beside a calm card (the set
    ``C``, in groups) or beside one of the p enemies paralysed, each tile beside the one before (as in
    ``flee_chain``). If every tile is in ``C`` it lies in one group: no gain. Otherwise its tiles outside
    ``C`` are among the ``a(e)`` ADJACENT TILEs outside ``C`` of each paralysed enemy ``e``, and each group
    it passes through lies beside one of those tiles (where the path leaves or enters the group): so it has
    at most the sum over the p enemies of ``G(e)`` = ``a(e)`` + the sizes of the groups beside those
    tiles, and ``Xp`` = the sum of the p largest ``G(e)`` less ``flee_chain(d, calm)``, at least 0. Nor is it
    ever more than ``flee_chain(d)`` (tiles beside any enemy card) less ``flee_chain(d, calm)``.
    """
    chain = flee_chain(d, calm)
    inside = [any(e in calm for e in row) for row in d.enemy_near]
    group, sizes = tile_groups(d.near, inside)
    gains = []
    for e in range(len(d.kind)):
        if d.kind[e] != ENEMY or e in calm:
            continue  # a calm enemy paralysed adds no tile: its ADJACENT TILEs are in C already
        outside = [t for t in d.near[e] if not inside[t]]
        touched = {group[x] for t in outside for x in d.near[t] if inside[x]}
        gains.append(len(outside) + sum(sizes[g] for g in touched))
    gains.sort(reverse=True)
    cap = flee_chain(d) - chain  # every tile of any chain is beside an enemy card
    out, total = [0], 0
    for g in gains:
        total += g
        out.append(min(max(0, total - chain), cap))
    return tuple(out)
