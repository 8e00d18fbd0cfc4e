"""The architecture, held by tests (issue 11): the screens, the CLI, the hub and the tests read the
engine through its public API; the modules import one another without cycles; no broad ``except``
swallows an error without saying why.

Equivalent to import-linter contracts, written with :mod:`ast` so the project needs no new tool.
"""

from __future__ import annotations

import ast
import re
import tokenize
from functools import cache
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "cli", "editor", "hub")  # the folders pyproject maps to cardrogue.*
OUTSIDE = ("editor", "cli", "hub", "tests")  # what must keep to the engine's public API

# The game state's inner tables: the compiled dungeon (``d``), the face codes, the enemies'
# condition tuples, the identified-potion bit mask, the teleported enemies. The view
# (engine/rules/view.py) answers all of them; they may change shape at any time.
STATE_TABLES = {"d", "faces", "foes", "identified", "visitors"}

# Engine modules that read a game as the tools outside do: the solver's explanations speak in the
# campaign model's terms (and the search's findings, cells as addresses), the Monte Carlo policy
# decides from the view. They keep to the public API too, and import no compiled tables.
HELD = ("engine/analysis/solver/explain.py", "engine/analysis/montecarlo.py")
TABLES_MODULE = "cardrogue.engine.rules.tables"
# What the search keeps in compiled cell indices; explain reads ``search.findings()`` instead.
SEARCH_INSIDES = {"trace", "relax"}

# White-box tests of the solver's own machinery, which cannot be tested through the view.
WHITE_BOX = {
    ("tests/test_hub_text_rule.py", "test_the_search_for_stacked_marks_leaves_emoji_out"): "the fast search's class of candidates, which decides its speed",
    ("tests/test_loader.py", "test_a_problem_at_the_end_of_a_big_file_is_located_without_walking_every_token"): "counts the tokens the walk takes",
    ("tests/test_solver_poison.py", "_admitted"): "the table reads the raw fields",
    ("tests/test_solver_dive.py", "test_the_gold_first_policy_keeps_a_bounded_number_of_answers_about_locked_chests"): "the cache is the policy's own",
    ("tests/test_solver_known.py", "_known_apart"): "the table reads the raw fields",
    ("tests/test_solver_small_sets.py", "test_small_levels_compare_faces_as_sets_and_big_ones_exactly"): "the table reads the raw fields",
    ("tests/test_solver_spent.py", "test_a_slain_enemys_dice_are_dropped_and_a_living_ones_kept"): "packing is about the raw fields",
    ("tests/test_solver_spent.py", "test_an_enemy_moved_by_a_potion_of_teleportation_keeps_its_dice"): "packing is about the raw fields",
    ("tests/test_solver.py", "walk_checking_the_bound"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_8x8_par_lines_proved_before_the_gap_fixes_keep_the_bound_within_their_turns"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_cached_bound_equals_the_plain_one"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_cached_potion_bound_equals_the_plain_one"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_one_potion_costs_the_bound_at_most_one_turn"): "the relaxation reads the tables",
    ("tests/test_solver.py", "_root_bounds"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_packed_state_unpacks_to_the_same_state"): "packing is about the raw fields",
    ("tests/test_solver.py", "test_a_queued_state_shares_its_fronts_signature"): "packing is about the raw fields",
    ("tests/test_solver.py", "test_paced_routes_without_potions_leave_the_face_down_counts_out"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_flee_paths_are_the_longest_paths_beside_paralysed_enemies"): "the relaxation reads the tables",
    ("tests/test_solver.py", "test_five_potions_of_teleportation_8x8_map_gets_its_par_with_faces_compared_as_sets"): "the table reads the raw fields",
    ("tests/test_solver.py", "test_more_face_up_dominates_only_where_a_teleport_surely_has_somewhere_to_go"): "the table reads the raw fields",
    ("tests/test_solver.py", "test_faces_compared_as_sets_keep_the_uniform_cost_verdict"): "the table reads the raw fields",
    ("tests/test_solver.py", "test_bound_never_overestimates_on_states_off_the_best_line"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_the_table_counts_that_path_on_the_level"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_level_flee_paths_equal_every_group_of_enemy_cards_tried"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_the_level_table_stops_where_a_level_holds_too_many_groups"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_flees_beside_a_column_of_enemies_count_one_a_potion"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_seed_6_is_finished_in_13_turns_and_the_bound_allows_it"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "_mid_game_states"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_bound_never_overestimates_mid_game_with_potions_of_paralysis"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_potion_of_paralysis_maps_keep_the_uniform_cost_verdict"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_four_potions_in_one_turn_follow_the_level_not_four_a_potion"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_a_potion_on_its_cell_gains_only_after_the_walk_reaches_it"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_potions_picked_up_in_order_apply_to_paralysis_alone"): "the relaxation reads the tables",
    ("tests/test_solver_paralysis.py", "test_the_pickup_costs_found_from_the_parent_mask_equal_those_found_afresh"): "the relaxation reads the tables",
    ("tests/test_solver_one_way.py", "test_a_one_way_flip_reveals_a_tile_the_next_turn_enters"): "the relaxation reads the tables",
    ("tests/test_solver_one_way.py", "test_bound_never_overestimates_along_the_witness_with_one_way_flips"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "_moves_bound"): "the moves count is read alone",
    ("tests/test_solver_one_flee.py", "_bound_without_the_rule"): "the rule is switched off alone",
    ("tests/test_solver_winning_turn.py", "_WinningTurnMayGain"): "the rule is switched off alone",
    ("tests/test_solver_winning_turn.py", "_bound_without_the_rule"): "the rule is switched off alone",
    ("tests/test_solver_winning_turn.py", "test_the_winning_turn_holds_no_gain"): "the relaxation reads the tables",
    ("tests/test_solver_one_flee.py", "test_two_gains_from_the_one_flee_take_two_steps_more"): "the relaxation reads the tables",
    ("tests/test_solver_one_flee.py", "test_seed_7_one_potion_of_paralysis_gets_its_par"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "_within_on_wanders"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_a_move_beside_an_enemy_revealed_away_from_the_warrior_may_still_start_a_flee_this_turn"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "_maps"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_a_potion_picked_up_between_the_two_tiles_beside_an_enemy_revealed_later"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "_met_maps"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_bound_never_overestimates_beside_enemies_met_before"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_a_fight_after_moving_flips_a_tile_for_the_next_turn"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "_bound_holds_past_turn_2"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "_along_and_around"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_bound_never_overestimates_after_a_flee_from_a_paralysed_enemy"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_tiles_entered_away_from_enemies_are_moves_whatever_potions_are_held"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_moves_count_never_overestimates_with_potions_of_paralysis"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_moves_count_along_the_13_turn_line_of_the_8x8_map_of_seed_6"): "the relaxation reads the tables",
    ("tests/test_solver_para_moves.py", "test_half_turns_updated_from_the_state_before_equal_the_plain_ones"): "the kept counts are compared with the plain ones",
    ("tests/test_solver_para_moves.py", "test_no_enemy_is_met_so_before_the_walk_first_stands_on_a_potion"): "the bound with the first-pickup rule off",
    ("tests/test_solver_para_moves.py", "test_the_first_potion_picked_up_on_the_8x8_maps"): "the bound with the first-pickup rule off",
    ("tests/test_solver_para_moves.py", "test_the_first_flee_holds_no_gain"): "the bound with the first-flee rule off",
    ("tests/test_solver_rolls.py", "_bound"): "the relaxation reads the tables",
    ("tests/test_solver_rolls.py", "_flee_maps"): "the relaxation reads the tables",
    ("tests/test_solver_dive.py", "_player"): "a playout policy is built on the search's tables",
    ("tests/test_solver_rolls.py", "test_an_enemy_whose_next_roll_fails_is_not_fled_this_turn"): "the relaxation reads the tables",
    ("tests/test_solver_rolls.py", "test_origin_counts_updated_from_the_state_before_equal_the_plain_ones"): "the kept counts are compared with the plain ones",
    ("tests/test_engine_teleport_targets.py", "test_teleport_targets_are_the_tiles_a_teleport_may_take"): "the list written out is compared with the rule's check of one tile",
    ("tests/test_engine_teleport_targets.py", "_one_tile"): "the rule as written, one tile at a time, reads the state's tables",
    ("tests/test_solver_trees.py", "test_trees_equal_the_least_over_every_junction_as_written"): "the kept trees are compared with the ones written out",
    ("tests/test_solver_potions_results.py", "test_a_value_kept_for_some_routes_is_not_read_for_others"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "_bounds_of_a_search"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "test_cached_potion_bound_equals_the_plain_one"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "test_the_plans_kept_stay_within_their_cap"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "test_plans_are_shared_by_the_masks_that_give_them_the_same_values"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "_agrees"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "_disagreeing"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "_settled"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "test_a_plan_keeps_its_groups_of_sets_per_the_potions_held"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "test_the_least_turns_of_a_paralysis_map_come_from_one_search_over_the_sets"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_potions_cache.py", "test_a_plan_keeps_its_values_where_the_orders_of_pickups_are_read"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_kept_calls.py", "_search"): "the bound with and without the cap on _with_met is compared",
    ("tests/test_solver_kept_calls.py", "test_calls_with_a_ceiling_are_answered_from_what_earlier_ones_learnt"): "the kept potion bound is compared with the plain one",
    ("tests/test_solver_siblings.py", "test_a_child_a_later_sibling_dominates_gets_no_bound"): "the search's bound reads are watched",
    ("tests/helpers.py", "bound"): "the relaxation reads the tables",
    ("tests/helpers.py", "turns_left_below"): "the reference search is cut at the bound checked, its heuristic swapped",
    ("tests/test_solver_teleport_two_gains.py", "test_two_enemies_beside_one_tile_of_a_corridor_give_one_gain_at_most"): "the relaxation reads the tables",
    ("tests/test_solver_teleport_two_gains.py", "test_seed_5_is_proved_at_its_par"): "the relaxation reads the tables",
    ("tests/test_solver_teleport_uses.py", "_both"): "the relaxation reads the tables",
    ("tests/test_solver_teleport_gain.py", "test_two_potions_of_teleportation_take_the_walk_one_tile_further_and_the_bound_allows_it"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "_relax"): "the relaxation reads the tables",
    ("tests/test_solver_flee_landings.py", "test_the_chain_leaves_out_the_cards_of_the_enemies_fled"): "the relaxation reads the tables",
    ("tests/test_solver_flee_landings.py", "test_the_chain_of_a_state_leaves_out_the_cards_of_the_enemies_alive"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_an_enemy_moved_by_a_potion_of_teleportation_can_join_groups_of_tiles"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_a_potion_of_teleportation_keeps_the_chain_beside_every_enemy"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_a_warriors_flees_stop_beside_an_enemy_that_chases"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_the_chain_is_unchanged_for_other_heroes_and_a_warrior_with_can_flee"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_a_potion_of_paralysis_adds_its_flees_per_potion"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_a_paralysed_enemy_joins_two_groups_of_tiles_beside_trolls"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "_mid_game_states"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_troll_maps_keep_the_uniform_cost_verdict"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_the_warriors_bound_never_overestimates_mid_game"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_held_out_style_maps_with_the_warriors_chain_keep_the_uniform_cost_verdict"): "the relaxation reads the tables",
    ("tests/test_solver_flee_chain.py", "test_the_10x10_traps_map_of_seed_0_is_solved"): "the relaxation reads the tables",
}


def sources(*folders: str) -> list[Path]:
    return sorted(p for f in folders if (ROOT / f).is_dir() for p in (ROOT / f).rglob("*.py"))


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def module_name(path: Path) -> str:
    parts = ("cardrogue", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def engine_private_names() -> frozenset[str]:
    """Every ``_name`` the engine defines: functions, methods, classes, module constants, attributes."""
    names = set()
    for path in sources("engine"):
        for node in ast.walk(parsed(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


def enclosing_functions(tree: ast.Module) -> dict[int, str]:
    """id(node) -> the name of the top-level function or class holding it."""
    out = {}
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for node in ast.walk(top):
                out[id(node)] = top.name
    return out


def private_uses(tree: ast.Module, rel: str, allowed=WHITE_BOX) -> list[str]:
    """Where the module ``tree`` (the file ``rel``) reaches past the engine's public API. Inside the
    engine (a HELD module) a relative import counts as an import from the engine."""
    private = engine_private_names()
    holder = enclosing_functions(tree)
    inside = rel.startswith("engine/")
    found = []
    for node in ast.walk(tree):
        if (rel, holder.get(id(node))) in allowed:
            continue
        where = f"{rel}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and ((inside and node.level) or (node.module or "").startswith("cardrogue.engine")):
            found += [f"{where}: imports {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Attribute):
            base = node.value
            own = isinstance(base, ast.Name) and base.id in ("self", "cls")
            if node.attr in private and not own:
                found.append(f"{where}: {ast.unparse(node)}")
            elif node.attr in STATE_TABLES and "view" not in ast.unparse(base).lower():
                found.append(f"{where}: {ast.unparse(node)} (a state's inner table: read the view)")
    return found


def test_the_ui_cli_hub_and_tests_use_only_the_engines_public_api():
    """No ``state.d``, no ``_foe``, no private engine name outside the engine (issue 11, point 2)."""
    found = [use for path in sources(*OUTSIDE) if path.name != "test_architecture.py"
             for use in private_uses(parsed(path), path.relative_to(ROOT).as_posix())]
    assert found == []


def held_uses(tree: ast.Module, rel: str) -> list[str]:
    """Where a HELD module reaches past the public API: a private name, the compiled tables
    (``rules.tables``, ``.d``) or the search's insides."""
    found = private_uses(tree, rel)
    name = module_name(ROOT / rel)
    package = name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + [base]).rstrip(".")
            if any(t == TABLES_MODULE for t in [base] + [f"{base}.{a.name}" for a in node.names]):
                found.append(f"{where}: imports {TABLES_MODULE}")
        elif isinstance(node, ast.Import):
            found += [f"{where}: imports {TABLES_MODULE}" for a in node.names if a.name == TABLES_MODULE]
        elif (isinstance(node, ast.Attribute) and node.attr in SEARCH_INSIDES and isinstance(node.value, ast.Name)
              and node.value.id == "search"):
            found.append(f"{where}: {ast.unparse(node)} (the search's insides: read search.findings())")
    return found


def test_the_explanations_and_the_monte_carlo_policy_use_only_the_public_api():
    """Issue 11, point 2: no compiled tables (``rules.tables``, ``.d``), no private engine name, and
    no search insides in the solver's explanations and the Monte Carlo runner."""
    assert [use for rel in HELD for use in held_uses(parsed(ROOT / rel), rel)] == []


def test_the_held_modules_check_catches_tables_search_insides_and_private_names():
    probe = ast.parse("from ...rules.tables import ENEMY\nfrom ...rules import tables\nfrom ...rules.view import Tile\n"
                      "from ...rules.state import _nothing\n"
                      "def f(search, s):\n    return search.d.kind, search.trace.slain, s._foe(1)\n")
    found = sorted(f.split(": ", 1)[1] for f in held_uses(probe, "engine/analysis/solver/probe.py"))
    assert found == [f"imports {TABLES_MODULE}", f"imports {TABLES_MODULE}", "imports rules.state._nothing", "s._foe",
                     "search.d (a state's inner table: read the view)",
                     "search.trace (the search's insides: read search.findings())"]


def test_the_white_box_list_is_honest():
    """Each white-box entry names a function that exists and still reaches past the public API."""
    stale = []
    for rel, name in WHITE_BOX:
        tree = parsed(ROOT / rel)
        body = [n for n in tree.body if getattr(n, "name", None) == name]
        if not body or not private_uses(ast.Module(body=body, type_ignores=[]), rel, allowed=frozenset()):
            stale.append((rel, name))
    assert stale == []


def test_the_public_api_check_catches_a_private_use():
    probe = ast.parse("from cardrogue.engine.rules.state import _nothing\n"
                      "def f(s, view):\n    return s.d.cards, s._foe(3), view.foes, s.faces, s.view().foes\n")
    found = sorted(f.split(": ", 1)[1] for f in private_uses(probe, "tests/probe.py"))
    assert found == ["imports cardrogue.engine.rules.state._nothing", "s._foe",
                     "s.d (a state's inner table: read the view)", "s.faces (a state's inner table: read the view)"]


# ---------------------------------------------------------------------------------------- imports


def imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports, at any depth (lazy imports too), except for type checking."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = parsed(path)
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING") for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [node.module or ""]).rstrip(".")
            else:
                base = node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for target in targets:
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name:
                out.add(target)
    return out


def import_graph() -> nx.DiGraph:
    paths = sources(*PACKAGES)
    modules = {module_name(p) for p in paths}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for path in paths:
        graph.add_edges_from((module_name(path), target) for target in imports(path, modules))
    return graph


def test_no_import_cycles():
    """A module never imports, even lazily, one that imports it back (issue 11, point 5).
    Imports made only for type checking (``if TYPE_CHECKING:``) do not count: they never run."""
    assert sorted(sorted(c) for c in nx.simple_cycles(import_graph())) == []


def test_the_engine_imports_no_ui():
    """DESIGN: engine/ never imports Textual, Rich or the UI, even lazily."""
    graph = import_graph()
    for path in sources("engine"):
        tree = parsed(path)
        used = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        used |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}
        assert not used & {"textual", "rich"}, path
        assert not {t for t in graph.successors(module_name(path)) if not t.startswith("cardrogue.engine")}, path


def loaded_on_import(name: str) -> set[str]:
    """What importing module ``name`` runs: its module-level imports (not those inside functions or
    for type checking), then theirs within the project, at any depth. Third-party names stay whole."""
    paths = {module_name(p): p for p in sources(*PACKAGES)}
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        path = paths.get(current)
        if path is None:
            continue
        package = current if path.name == "__init__.py" else current.rsplit(".", 1)[0]
        parents = [current.rsplit(".", i)[0] for i in range(1, current.count("."))]
        todo += [p for p in parents if p in paths]
        for node in parsed(path).body:
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
                base = (".".join(package.split(".")[: package.count(".") + 2 - node.level] + [node.module or ""]).rstrip(".")
                        if node.level else node.module or "")
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names]
            else:
                continue
            todo += targets
    return seen


def test_the_cli_modules_load_no_ui_until_a_command_opens_it():
    """DESIGN: commands that need no UI never import Textual; cli/ imports the editor, Textual and Rich
    only inside the commands that open the UI (tests/test_cli.py runs each plain command to prove it)."""
    for path in sources("cli"):
        loaded = loaded_on_import(module_name(path))
        ui = {m for m in loaded if m.split(".")[0] in ("textual", "rich") or m.startswith("cardrogue.editor")}
        assert not ui, (path, sorted(ui))


def test_the_readme_layout_names_every_module_of_the_flat_packages():
    """README's Layout is the newcomer's map: each module of editor/, hub/, engine/'s top level and the
    solver is named there (rules/ and format/ are described by what they hold)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("```")[1]
    modules = [p for f in ("editor", "hub", "engine", "engine/analysis/solver") for p in (ROOT / f).glob("*.py")
               if p.name != "__init__.py"]
    assert [str(p.relative_to(ROOT)) for p in sorted(modules) if not re.search(rf"\b{p.stem}\b", layout)] == []


# ---------------------------------------------------------------------------------------- errors


BROAD = {"Exception", "BaseException"}


def comment_lines(path: Path) -> set[int]:
    with path.open("rb") as f:
        return {tok.start[0] for tok in tokenize.tokenize(f.readline) if tok.type == tokenize.COMMENT}


def silent_broad_excepts(path: Path) -> list[str]:
    """``except:`` / ``except Exception`` handlers that neither re-raise nor say why in a comment."""
    tree = parsed(path)
    comments = None
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ExceptHandler):
            continue
        kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        if not any(k is None or (isinstance(k, ast.Name) and k.id in BROAD) for k in kinds):
            continue
        if any(isinstance(n, ast.Raise) for stmt in node.body for n in ast.walk(stmt)):
            continue
        comments = comment_lines(path) if comments is None else comments
        if not comments & {node.lineno, node.lineno + 1, node.body[0].lineno}:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_broad_except_swallows_an_error_without_a_reason():
    """Issue 11, point 5: a broad ``except`` re-raises, or a comment on it says why it may catch anything."""
    assert [f for path in sources(*PACKAGES) for f in silent_broad_excepts(path)] == []


def test_dead_scaffolding_is_gone():
    """Issue 11, point 5: no message announces a feature that "has not landed" or is "not available in this build"."""
    stale = ("has not landed", "not available in this build")
    found = [p for p in sources(*PACKAGES) if any(s in p.read_text(encoding="utf-8") for s in stale)]
    found += [p for p in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
              if any(s in p.read_text(encoding="utf-8") for s in stale)]
    assert found == []
