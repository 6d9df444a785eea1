"""What each person sees of a table (`table-view` data), and the caches that keep it cheap.

``TableViews(table)`` builds the views of one ``lobby.tables.table.TableActor``: a seated player's own
view (the engine's view for their player, with their hand) or the public one (``name`` None).
After every change the table asks for the views of its whole audience at once (``views``): the
part that does not depend on who looks (seats, options, gone, bots: the ``context``) is computed
once per change, the game's shared part once per change (``Match.views``), and the parts that did
not change since the last views are the very objects of the last views, so the renderers
(protocol/render/json_lines.py) recognise what they have encoded already. The shared values are
frozen where they are made (lobby.tichu `freeze`): nobody can change a delivered view's data.
What the views read of the table is the Protocol ``ViewedTable``: this module, which table.py
imports, imports nothing of table.py (not even for types).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from lobby.tichu import FrozenDict, FrozenList, freeze

if TYPE_CHECKING:
    from lobby.tichu import Match

__all__ = ["TableViews", "ViewedTable"]


class ViewedTable(Protocol):
    """What the views read of a table (lobby.tables.table.TableActor), read only."""

    @property
    def number(self) -> int: ...

    @property
    def state(self) -> str: ...

    @property
    def host(self) -> str | None: ...

    @property
    def options(self) -> Any:
        """Its lobby.tables.options.TableOptions (a generated dataclass: ``shown()``)."""

    @property
    def gone(self) -> set[str]: ...

    @property
    def bots(self) -> Mapping[str, object]: ...

    @property
    def seated(self) -> list[str | None]:
        """Names by seat, following the Match's seating while it runs."""

    @property
    def match(self) -> Match | None: ...

    @property
    def players(self) -> list[str]:
        """Match player index -> name (fixed at the start)."""

    @property
    def result(self) -> dict[str, Any] | None: ...

    def bot_list(self) -> dict[str, str]:
        """Bots at the table: name -> strategy."""

    def bombwindow_left(self) -> float | None:
        """Seconds until the bomb window after a won trick closes; None when none is open."""


class TableViews:
    """The views of one table, built from its state (read only)."""

    def __init__(self, table: ViewedTable) -> None:
        self._table = table
        #: (seated, context) of the last views sent: while they do not change the next views
        #: take the same objects
        self._last_context: tuple[list[str | None], dict[str, Any]] | None = None
        #: the names by seat last given (`names`), frozen
        self._last_names: list[str | None] | None = None

    def names(self) -> list[str | None]:
        """The names by seat now (the table's ``seated``), frozen: the very object given last
        (to the views and the game's events) while they do not change, so the renderers that
        keep what they made of a table's names by identity find it."""
        now = self._table.seated
        last = self._last_names
        names: list[str | None] = freeze(now) if last is None else _reuse(last, now)
        self._last_names = names
        return names

    def context(self, seated: list[str | None]) -> dict[str, Any]:
        """The part of every view that does not depend on who looks."""
        t = self._table
        return {"options": t.options.shown(),
                "gone": sorted(t.gone & {n for n in seated if n}) if t.gone else [],
                "bots": t.bot_list() if t.bots else {}}

    def changed(self) -> tuple[list[str | None], dict[str, Any]]:
        """The seating and context of the views after a change, reusing the objects of the last
        views where nothing changed."""
        seated = self.names()
        context = self.context(seated)
        last = self._last_context
        if last is None:
            context = {k: freeze(v) for k, v in context.items()}
        else:                       # unchanged parts: the very objects of the last views
            context = {"options": freeze(context["options"]),
                       "gone": _reuse(last[1]["gone"], context["gone"]),
                       "bots": _reuse(last[1]["bots"], context["bots"])}
        self._last_context = (seated, context)
        return seated, context

    def view(self, name: str | None, seated: list[str | None] | None = None,
             context: dict[str, Any] | None = None) -> dict[str, Any]:
        """The view of ``name`` (seated), or the public view (None or not seated)."""
        t = self._table
        if seated is None:
            seated = t.seated
        if context is None:
            context = self.context(seated)
        seat = seated.index(name) if name is not None and name in seated else None
        data: dict[str, Any] = {
            "table": t.number, "state": t.state, "seats": seated, "you": name,
            "seat": seat, "host": t.host, "options": context["options"],
            "gone": context["gone"], "bots": context["bots"],
        }
        match = t.match
        if match is not None:
            player = t.players.index(name) if seat is not None and name is not None else None
            data["game"] = match.view(player)
            data["scores"] = list(match.scores)
            data["round_no"] = match.round_no
            window = t.bombwindow_left()
            if window is not None:
                data["bombwindow_left"] = window
        if t.result is not None:
            data["result"] = t.result
        return data

    def views(self, names: list[str | None], seated: list[str | None],
              context: dict[str, Any]) -> list[dict[str, Any]]:
        """`[view(name, seated, context) for name in names]` (each name seated, or None for
        the public view), the game's part every view shares built once per change."""
        t = self._table
        match = t.match
        if match is None:
            return [self.view(name, seated, context) for name in names]
        seats = [seated.index(name) if name is not None else None for name in names]
        games = match.views([t.players.index(name) if name is not None else None
                             for name in names])
        scores = games[0]["scores"] if games else freeze(list(match.scores))   # the same values
        window = t.bombwindow_left()
        result = freeze(t.result)
        base: dict[str, Any] = {
            "table": t.number, "state": t.state, "seats": seated, "you": None,
            "seat": None, "host": t.host, "options": context["options"],
            "gone": context["gone"], "bots": context["bots"],
            "game": None, "scores": scores, "round_no": match.round_no,
        }
        if window is not None:
            base["bombwindow_left"] = window
        if result is not None:
            base["result"] = result
        # the same keys in the same order as view's; every value of `base` is frozen (the
        # context's, the match's, text and numbers) and so is each game (Match.views): one copy
        # per view makes it a FrozenDict, which the table's Event takes as it is
        return [FrozenDict(base, you=name, seat=seat, game=game)
                for name, seat, game in zip(names, seats, games, strict=True)]


def _reuse(old: Any, new: Any) -> Any:
    """`old` (frozen) if it is a list (or dict) of texts and None with the same items in the
    same order (of the same types) as `new`, else `new` frozen (`freeze`: not copied when
    `old` stands for it)."""
    if old is new:
        return old
    kind = _FROZEN_KIND.get(type(new))
    if kind is None or type(old) is not kind or len(old) != len(new):
        return freeze(new)
    if kind is FrozenDict:
        old_items, new_items = list(old.items()), list(new.items())
        if old_items != new_items or not all(_plain(k) and _plain(v) for k, v in new_items):
            return freeze(new)
        return old
    if old == new and all(map(_plain, new)):
        return old
    return freeze(new)


#: a list or dict (frozen or not) -> the frozen type of it
_FROZEN_KIND: dict[type[Any], type[Any]] = {list: FrozenList, FrozenList: FrozenList,
                                            dict: FrozenDict, FrozenDict: FrozenDict}


def _plain(value: Any) -> bool:
    return value is None or type(value) is str
