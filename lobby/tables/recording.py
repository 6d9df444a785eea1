"""The recorder: what tables, the world and the wire layer may ask of the server's persistence.

The server keeps one ``lobby.world.persistence.Persistence`` (the action journal and the game archive)
and calls it the *recorder* everywhere: ``World.recorder``, ``TableActor.recorder``. These
Protocols say what each side uses, so that nobody needs ``Any`` or ``getattr`` to reach it:

- ``TableRecorder``: what a table tells it (a game started, an action was accepted, a bot took
  over a seat, the game is over, a running table was closed);
- ``Recorder``: that, plus what the world and the commands need: the delivery gate a table is
  built with (``gate``: a table's events leave only after its journal writes are committed),
  ``when_sent`` (a command's reply waits for the events it caused) and the game ``archive``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from lobby.events import Event

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from lobby.storage.records import GameArchive
    from lobby.tichu import Action

__all__ = ["Deliver", "TableRecorder", "Recorder"]

#: how a table's events leave it: ``deliver(recipients, event)``
Deliver = Callable[[list[str], Event], None]

#: the table the recorder is told about (lobby.tables.table.TableActor, which imports this
#: module: the interface names no table class, so there is no import circle, not even for types)
Table = TypeVar("Table", contravariant=True)


class TableRecorder(Protocol[Table]):
    """What a table tells the recorder (``TableRecorder[TableActor]``)."""

    def started(self, table: Table) -> None:
        """``/start``: a new game (the journal gets the options, players and the match)."""

    def action(self, table: Table, player: int, action: Action) -> None:
        """An accepted action, before its events are handed to the table's deliver."""

    def seats_changed(self, table: Table) -> None:
        """A bot took over a seat."""

    def finished(self, table: Table) -> Any:
        """The game is over: store it."""

    def abandoned(self, table: Table) -> None:
        """A running table was closed without a result."""


class Recorder(TableRecorder[Table], Protocol[Table]):
    """The recorder as the world and the wire layer see it (``Recorder[TableActor]``)."""

    archive: GameArchive

    def gate(self, table_no: int, deliver: Deliver) -> Deliver:
        """``deliver`` behind the journal's outbox: what table ``table_no`` sends leaves only
        after every journal write the table made before it is committed."""

    def when_sent(self, table_no: int) -> Deferred[None] | None:
        """None if table ``table_no`` holds no events back, else a Deferred that fires once
        the events it holds now have been sent."""
