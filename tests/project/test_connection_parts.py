"""The connection is composed of parts, not inherited (docs/architecture.md, "The connection"):
the byte layer and one handler per telnet option, the log-in state machine, the output mode
object, the declared services, the guard's interfaces; and no import circle among them. These
read the sources (ast) and the classes; the behaviour itself is pinned by the wire tests."""
from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import pytest

from protocol.connection import guard as guard_module
from protocol.connection import machine, session
from protocol.connection.session import STATES, Services, Session
from protocol.telnet import options as telnet_options
from protocol.telnet import transport as telnet
from protocol.telnet.transport import TelnetLineProtocol, TelnetOption

ROOT = Path(__file__).resolve().parents[2]

#: import cycles inside protocol/ that are declared (none may involve the connection's parts)
DECLARED_CYCLES: list[set[str]] = []


def _tree(module: object) -> ast.Module:
    return ast.parse(inspect.getsource(module))  # type: ignore[arg-type]


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every protocol module `path` imports: at the top, in functions, under TYPE_CHECKING."""
    deps: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in modules:
                    deps.add(full)
                elif node.module in modules:
                    deps.add(node.module)
        elif isinstance(node, ast.Import):
            deps.update(alias.name for alias in node.names if alias.name in modules)
    return deps


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for v in graph:
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_no_import_circle_in_the_wire_layer() -> None:
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    parts = {m.__name__ for m in (session, machine, guard_module, telnet, telnet_options)}
    assert parts <= set(graph)
    cycles = _cycles(graph)
    assert not [c for c in cycles if c & parts], cycles
    assert [c for c in cycles if c not in DECLARED_CYCLES] == []
    # the server and its metrics do not import each other either
    assert not [c for c in cycles if any(m.endswith((".server", ".metrics")) for m in c)]


def test_the_session_inherits_no_telnet_machine_or_option_class() -> None:
    for base in Session.__mro__:
        assert base.__module__ not in (telnet.__name__, telnet_options.__name__,
                                       machine.__name__), base
    assert not hasattr(telnet_options, "MudOptions") and not hasattr(machine, "MachineMode")


def test_one_handler_object_per_telnet_option(lobby: object) -> None:
    c = lobby.connect()                                           # type: ignore[attr-defined]
    options = c.session.telnet.options
    assert isinstance(c.session.telnet, TelnetLineProtocol)
    assert c.session.telnet.app is c.session
    assert sorted(options) == sorted([telnet.GMCP, telnet.NAWS, telnet.ECHO, telnet.SGA, telnet.EOR,
                                      telnet_options.MSSP, telnet_options.MCCP2,
                                      telnet_options.CHARSET, telnet_options.TTYPE])
    assert all(isinstance(h, TelnetOption) and h.code == code for code, h in options.items())
    assert len({type(h) for h in options.values()}) == len(options)


def _compares_a_state_name(tree: ast.Module) -> list[int]:
    names = set(STATES)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            reads_state = any(isinstance(s, ast.Attribute) and s.attr == "state" for s in sides)
            constants = [s for s in sides if isinstance(s, ast.Constant) and s.value in names]
            tuples = [e for s in sides if isinstance(s, ast.Tuple) for e in s.elts
                      if isinstance(e, ast.Constant) and e.value in names]
            if reads_state and (constants or tuples):
                hits.append(node.lineno)
    return hits


def test_the_log_in_is_a_state_machine_with_one_prompt_place() -> None:
    # no `session.state == "login"` left in the connection's parts: states are objects
    for module in (session, machine, guard_module):
        assert _compares_a_state_name(_tree(module)) == [], module.__name__
    # every transition names a state; every state of the log-in has its prompt
    for state in STATES.values():
        assert set(state.next) <= set(STATES), state
        if state.logging_in:
            assert "def prompt" in inspect.getsource(type(state))
    assert {s.name for s in STATES.values() if s.logging_in} == {"login", "password", "confirm",
                                                                 "seat-key"}
    # each prompt's text is chosen in its State's `prompt` and nowhere else (the switch to machine
    # mode and a refusal ask the state: Session.show_prompt)
    keys = {"login-prompt": "AskName", "password-prompt": "AskPassword",
            "guest-confirm": "ConfirmGuest", "seat-key-prompt": "AskSeatKey"}
    found: dict[str, list[str]] = {key: [] for key in keys}
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)] + [tree]:
            body = cls.body if isinstance(cls, ast.ClassDef) else [
                n for n in tree.body if not isinstance(n, ast.ClassDef)]
            for node in (c for b in body for c in ast.walk(b)):
                if isinstance(node, ast.Constant) and node.value in keys:
                    where = cls.name if isinstance(cls, ast.ClassDef) else path.name
                    found[node.value].append(where)
    assert found == {key: [cls] for key, cls in keys.items()}


def test_an_impossible_transition_is_refused(lobby: object) -> None:
    c = lobby.connect()                                           # type: ignore[attr-defined]
    c.login("Ann")
    assert c.session.state == "active"
    for state in (session.LOGIN, session.PASSWORD, session.CONFIRM, session.SEAT_KEY):
        with pytest.raises(RuntimeError):
            c.session._go(state)               # a logged-in connection never logs in again
    assert c.session.state == "active"


def test_the_mode_is_an_object_not_a_flag() -> None:
    # nothing outside the output mode objects asks which mode a connection is in: the callers
    # (the commands, the greeting, the metrics) ask the mode what to do (issue 25, 1.)
    root = Path(__file__).resolve().parents[2] / "protocol"
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reads = [n.lineno for n in ast.walk(tree)
                 if (isinstance(n, ast.Attribute) and n.attr in ("json_mode", "machine")
                     and isinstance(n.ctx, ast.Load))
                 or (isinstance(n, ast.Constant) and n.value == "json_mode")]
        assert reads == [], path


def test_the_connection_reads_services_never_the_factory() -> None:
    for module in (session, machine, telnet_options):
        tree = _tree(module)
        assert not [n.lineno for n in ast.walk(tree)
                    if isinstance(n, ast.Attribute) and n.attr == "factory"], module.__name__
    assert [f for f in Services.__dataclass_fields__] == [
        "world", "store", "accounts", "guard", "metrics", "telnet_options", "motd", "lang",
        "sessions"]
    # and the factory is no second way to them: it builds connections and holds `services`
    from protocol.process.server import LobbyFactory
    assert not [name for name in Services.__dataclass_fields__ if hasattr(LobbyFactory, name)]


def test_the_guard_never_reaches_into_a_session_or_the_world() -> None:
    tree = _tree(guard_module)
    private = [n.lineno for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and n.attr.startswith("_")
               and isinstance(n.value, ast.Attribute | ast.Name)
               and getattr(n.value, "attr", getattr(n.value, "id", "")) == "session"]
    writes = [n.lineno for n in ast.walk(tree)
              if isinstance(n, ast.Assign | ast.AugAssign)
              for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
              if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Attribute | ast.Name)
              and getattr(t.value, "attr", getattr(t.value, "id", "")) == "session"]
    tables = [n.lineno for n in ast.walk(tree)
              if isinstance(n, ast.Attribute) and n.attr == "tables"]
    transport = [n.lineno for n in ast.walk(tree)
                 if isinstance(n, ast.Attribute) and n.attr in ("transport", "state", "user")
                 and getattr(n.value, "attr", getattr(n.value, "id", "")) == "session"]
    assert (private, writes, tables, transport) == ([], [], [], [])
    # what it may ask and tell is declared
    asked = {n for n in dir(guard_module.GuardedConnection) if not n.startswith("_")}
    assert asked == {"address", "is_open", "awaiting_login", "active_user", "user_name",
                     "deliver", "answer_aside", "disconnect", "refuse", "answer_foreign"}


def _foreign_private_names(tree: ast.Module) -> list[str]:
    """`obj._name` in a module where `_name` is not defined (a method, a class attribute or an
    attribute its own classes set): a private name of another module's object."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
        elif isinstance(node, ast.Assign):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "self"):
            own.add(node.attr)
    return [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__") and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_the_connections_parts_use_no_private_name_of_another_part() -> None:
    # each part acts on the next through its declared interface (the byte layer's hold_offers,
    # never_offer; the session's show_prompt, command_ends, feed, settings_chosen), never through
    # a private name of an object another module defines
    for module in (session, machine, guard_module):
        assert _foreign_private_names(_tree(module)) == [], module.__name__
