"""The rules engine on its own (lobby/tichu; docs/engine.md): it imports nothing above it and
knows no text (its refusals are codes and parameters whose text is in the lobby's catalog), each
layer has one event type with its own name, and application code reaches the engine through its
facade only (`lobby.tichu`, whose `__all__` is the API)."""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import lobby.tichu
from lobby.text.messages import ENGINE_ERRORS, ERRORS, text
from lobby.tichu import Rejected

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "lobby" / "tichu"
#: the application code: everything that is not the engine or a test
APPLICATION = [p for d in ("lobby", "protocol", "tichu_bot", "scripts", "twisted")
               for p in sorted((ROOT / d).rglob("*.py")) if ENGINE not in p.parents]
#: (file, engine module) imports allowed past the facade, each with its reason
PAST_THE_FACADE = {
    # a micro-benchmark of the move generator's variants: it swaps moves.py's own functions
    ("scripts/bench_moves.py", "lobby.tichu.moves"),
}


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, [names]) of every import statement in the file, nested ones included."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def test_application_code_imports_the_facade_only() -> None:
    facade = set(lobby.tichu.__all__)
    wrong = []
    for path in APPLICATION:
        rel = path.relative_to(ROOT).as_posix()
        for module, names in _imports(path):
            if module.startswith("lobby.tichu."):
                wrong.append(f"{rel}: from {module} import {', '.join(names)}")
            elif module == "lobby.tichu":
                for name in names:
                    if name not in facade and (rel, f"lobby.tichu.{name}") not in PAST_THE_FACADE:
                        wrong.append(f"{rel}: lobby.tichu.{name} is not in the facade")
    assert not wrong, "\n".join(wrong)
    assert len(APPLICATION) > 50


def test_the_facade_exports_what_it_names() -> None:
    for name in lobby.tichu.__all__:
        assert hasattr(lobby.tichu, name), name


def test_the_engine_imports_nothing_above_it() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        for module, _ in _imports(path):
            top = module.partition(".")[0]
            assert top not in ("protocol", "twisted", "tichu_bot"), f"{path.name}: {module}"
            assert top != "lobby" or module.startswith("lobby.tichu"), f"{path.name}: {module}"
            # and of the rest, the standard library only: the engine could be a package of its own
            assert top == "lobby" or top in sys.stdlib_module_names, f"{path.name}: {module}"


def test_the_engine_has_no_text_templates() -> None:
    """No formatter and none of the catalog's conversions (!w word, !p plural, !t duration) in
    the engine; a refusal carries only its code and parameters."""
    for path in sorted(ENGINE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert "Formatter" not in source, path.name
        assert not re.search(r"\{[a-z_]+![wpt][}:]", source), path.name
    refusal = Rejected("too-low", play="R9 G9", top="RK GK")
    assert (refusal.code, refusal.params) == ("too-low", {"play": "R9 G9", "top": "RK GK"})
    assert not hasattr(refusal, "message")


def test_every_refusal_of_the_engine_is_in_the_catalog() -> None:
    """The codes the engine raises are catalog keys (the engine's own in ENGINE_ERRORS), and
    every entry of ENGINE_ERRORS is a code the engine raises."""
    raised = set()
    for path in sorted(ENGINE.glob("*.py")):
        raised |= set(re.findall(r'Rejected\("([a-z-]+)"', path.read_text(encoding="utf-8")))
    assert raised and raised <= set(ERRORS), raised - set(ERRORS)
    assert set(ENGINE_ERRORS) <= raised, set(ENGINE_ERRORS) - raised
    assert text("wrong-kind", play="R9 G9", top="R8", kind="pair", top_kind="single") == \
        "R9 G9 cannot be played on R8: a pair does not go on a single card."
    assert text("wrong-kind", "de", play="R9 G9", top="R8", kind="pair", top_kind="single") \
        != text("wrong-kind", play="R9 G9", top="R8", kind="pair", top_kind="single")


def test_one_event_type_per_layer_with_its_own_name() -> None:
    """The engine's GameEvent (lobby/tichu/events.py), the world's Event (lobby/events.py): each
    name, and each JSON conversion (the engine's json_data, the wire's jsonable), defined once."""
    defined: dict[str, list[str]] = {}
    for path in [*sorted(ENGINE.glob("*.py")), *APPLICATION]:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                defined.setdefault(node.name, []).append(path.relative_to(ROOT).as_posix())
    assert defined["GameEvent"] == ["lobby/tichu/events.py"]
    assert defined["Event"] == ["lobby/events.py"]
    assert defined["json_data"] == ["lobby/tichu/events.py"]
    assert defined["jsonable"] == ["protocol/render/json_lines.py"]


def test_the_engines_modules_import_each_other_in_no_circle() -> None:
    """Each engine module may use those below it, never one that uses it back (no import put
    off into a function to break a circle): the graph of their imports, nested ones included,
    has an order."""
    graph: dict[str, set[str]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        if path.stem == "__init__":
            continue
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                deps.add(node.module)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith("lobby.tichu."):
                    deps.add(node.module.rpartition(".")[2])
                elif node.module == "lobby.tichu":
                    deps.update(alias.name for alias in node.names
                                if (ENGINE / f"{alias.name}.py").exists())
        graph[path.stem] = deps - {path.stem}
    done: list[str] = []
    while len(done) < len(graph):
        ready = [m for m in graph if m not in done and graph[m] <= set(done)]
        assert ready, f"a circle among {sorted(set(graph) - set(done))}"
        done += ready
