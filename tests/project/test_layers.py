"""The import rules between the layers (issue 25): each package's ``__init__`` docstring says what
it may import, and this test holds every module of lobby/ and protocol/ to it.

Every import counts: at the top of a module, inside a function, and under ``if TYPE_CHECKING:``
(a type-only import is still a dependency a reader has to follow). Imports are read with ``ast``
from the source, nothing is imported. A module belongs to the layer of the longest prefix in
``LAYERS``; what it imports of the project must fall under one of its layer's allowed prefixes.
The few places that break a rule today are listed in ``EXCEPTIONS``, each with its reason; an
exception that is no longer needed fails the test too, so the list only shrinks.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("lobby", "protocol", "tichu_bot")


@dataclass(frozen=True)
class Layer:
    may_import: tuple[str, ...]
    twisted: bool = True


_LOBBY_BASE = ("lobby.tichu", "lobby.text", "lobby.events")
LAYERS: dict[str, Layer] = {
    # the world (lobby/): never protocol
    "lobby": Layer(()),
    "lobby.tichu": Layer(("lobby.tichu",), twisted=False),
    "lobby.text": Layer(("lobby.text", "lobby.tichu"), twisted=False),
    "lobby.events": Layer(("lobby.text", "lobby.tichu"), twisted=False),
    "lobby.bots": Layer(()),
    "lobby.bots.strategies": Layer(("lobby.bots.strategies", "lobby.tichu", "tichu_bot"), twisted=False),
    "lobby.bots.runtime": Layer(("lobby.bots.runtime", "lobby.bots.strategies", *_LOBBY_BASE)),
    "lobby.storage": Layer(("lobby.storage", *_LOBBY_BASE)),
    "lobby.tables": Layer(("lobby.tables", "lobby.storage", "lobby.bots", *_LOBBY_BASE)),
    "lobby.world": Layer(("lobby",)),
    # the wire (protocol/)
    "protocol": Layer(()),
    "protocol.option_fields": Layer(()),
    "protocol.web_options": Layer(("protocol.option_fields",), twisted=False),
    "protocol.__main__": Layer(("protocol.process",)),
    "protocol.telnet": Layer(("protocol.telnet",)),
    "protocol.render": Layer(("lobby", "protocol.render")),
    "protocol.commands": Layer(("lobby", "protocol.render", "protocol.commands")),
    "protocol.connection": Layer(("lobby", "protocol.telnet", "protocol.render", "protocol.commands",
                                  "protocol.option_fields", "protocol.connection")),
    "protocol.web": Layer(("lobby", "protocol.telnet", "protocol.render", "protocol.connection",
                           "protocol.option_fields", "protocol.web_options", "protocol.web")),
    "protocol.process": Layer(("lobby", "protocol")),
}

#: (importing module, imported module): why the rule is broken there, and until when
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("protocol.telnet.options", "lobby"):
        "MSSP reports the server's version (lobby.__version__) read where it is sent",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    return {_module_name(p): p for top in ("lobby", "protocol")
            for p in sorted((ROOT / top).rglob("*.py"))}


SOURCES = _sources()


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".")
    is_package = SOURCES[module].name == "__init__.py"
    base = package if is_package else package[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(module: str) -> set[str]:
    """Every module ``module`` imports (a name imported from a package counts as its submodule
    when there is one: ``from lobby.tables import options`` is ``lobby.tables.options``)."""
    tree = ast.parse(SOURCES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node)
            found.add(source)
            for alias in node.names:
                if f"{source}.{alias.name}" in SOURCES:
                    found.add(f"{source}.{alias.name}")
    return found


def layer_of(module: str) -> str:
    candidates = [name for name in LAYERS if module == name or module.startswith(name + ".")]
    assert candidates, f"{module} is in no layer: add its package to LAYERS and say what it may import"
    return max(candidates, key=len)


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _is_project(module: str) -> bool:
    return any(_under(module, top) for top in PROJECT)


def violations() -> dict[tuple[str, str], str]:
    """(importer, imported) -> the rule it breaks, for every import no rule allows."""
    found: dict[tuple[str, str], str] = {}
    for module in SOURCES:
        name = layer_of(module)
        layer = LAYERS[name]
        for imported in sorted(imports_of(module)):
            if _is_project(imported):
                if _under(imported, name) and name not in ("lobby", "protocol"):
                    continue                                   # its own layer
                if imported in ("lobby", "protocol") and _under(module, imported):
                    continue                                   # a package's own __init__
                if not any(_under(imported, allowed) for allowed in layer.may_import):
                    found[module, imported] = f"layer {name} may import only {layer.may_import}"
            elif not layer.twisted and (_under(imported, "twisted") or _under(imported, "zope")):
                found[module, imported] = f"layer {name} imports no Twisted"
    return found


def test_every_module_belongs_to_a_layer() -> None:
    assert len(SOURCES) > 80                                   # the scan sees the tree
    for module in SOURCES:
        layer_of(module)


def test_imports_follow_the_layers() -> None:
    found = violations()
    unexplained = {pair: rule for pair, rule in found.items() if pair not in EXCEPTIONS}
    assert not unexplained, "\n".join(f"{a} imports {b}: {rule}" for (a, b), rule in unexplained.items())


def test_every_declared_exception_is_still_needed() -> None:
    found = violations()
    stale = [pair for pair in EXCEPTIONS if pair not in found]
    assert not stale, f"no longer needed, remove from EXCEPTIONS: {stale}"


def test_lobby_never_imports_protocol() -> None:
    """The rule the others rest on, stated on its own (it has no exception)."""
    offenders = [(m, i) for m in SOURCES if _under(m, "lobby")
                 for i in imports_of(m) if _under(i, "protocol")]
    assert offenders == []


def test_nothing_imports_the_process_but_its_entry_points() -> None:
    users = sorted((m, i) for m in SOURCES if not _under(m, "protocol.process")
                   for i in imports_of(m) if _under(i, "protocol.process"))
    # (__main__ holds SIGHUP with the process's tiny entry module, which imports the server)
    allowed = {("protocol.__main__", "protocol.process.entry")}
    assert set(users) - allowed <= set(EXCEPTIONS)


@pytest.mark.parametrize("package", sorted(m for m, p in SOURCES.items() if p.name == "__init__.py"
                                           and m.count(".") <= 2))
def test_each_package_says_what_it_holds_and_may_import(package: str) -> None:
    """Each package's docstring says what it holds and what it may import."""
    doc = ast.get_docstring(ast.parse(SOURCES[package].read_text(encoding="utf-8"))) or ""
    assert doc, f"{package} has no docstring"
    if package not in ("lobby.text.locales",):
        assert "import" in doc.lower(), f"{package}'s docstring does not say what it may import"


def test_the_rules_catch_a_breach() -> None:
    """The check itself: a render module importing the connection is caught (so no empty test)."""
    assert not any(_under(i, allowed) for i in ["protocol.connection.session"]
                   for allowed in LAYERS["protocol.render"].may_import)
    assert layer_of("lobby.bots.strategies.search") == "lobby.bots.strategies"
    assert LAYERS[layer_of("lobby.tichu.round")].twisted is False


def _module_edges(module: str) -> set[str]:
    """The modules of the project ``module`` imports when it runs or is type-checked: every
    import, at the top, inside a function or under ``if TYPE_CHECKING:`` (all count here; none
    is left out). ``from package import submodule`` is an edge to the submodule alone: the
    package's ``__init__`` runs first for any of its modules, which is no circle of theirs."""
    tree = ast.parse(SOURCES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node)
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in SOURCES else source)
    return {m for m in found if m in SOURCES and m != module}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (module -> the modules it imports): each strongly
    connected group of more than one module, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:           # Tarjan's algorithm (the graph is small: recursion)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_lobby_has_no_import_cycle() -> None:
    """No module of lobby imports, through others, a module that imports it (issue 25): the
    strategies are registered in lobby/bots/strategies/registry.py (they import the interface,
    never the registry), a table's views and recorder name no table class (``ViewedTable``, the
    generic ``TableRecorder``), and a restored table's recorder is the Protocol ``Adopter``.
    Imports inside functions and type-only ones count too."""
    graph = {m: {i for i in _module_edges(m) if _under(i, "lobby")}
             for m in SOURCES if _under(m, "lobby")}
    assert import_cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    """The check itself: a circle of three and one of two are found, a chain is not."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d", "f"}, "f": set()}
    assert sorted(import_cycles(graph)) == [["a", "b", "c"], ["d", "e"]]
    # a function's import counts: persistence's old import of restore inside `restore` made one
    assert "lobby.world.restore" in _module_edges("lobby.world.persistence")
