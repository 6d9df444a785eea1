"""The glue between tables, the action journal (lobby/storage/journal.py) and the game records
(lobby/storage/records.py): nothing a player did is lost.

``Persistence(store, world, clock)`` is made once per server; it is the *recorder*
(lobby/tables/recording.py: ``World.recorder``, ``TableActor.recorder``). The world builds every table
with it, in two ways:

- the table's deliver callback is ``gate(number, deliver)``: every event the table sends goes
  through ``Journal.send`` and leaves only after every journal write the table made before it is
  committed (one SQLite transaction per reactor turn at most, on the reactor thread's own
  connection or the store's thread: lobby/storage/journal.py);
- the table calls back (``TableActor.recorder``): ``started`` at ``/start`` (the journal gets the
  options, the players and ``match.record()``), ``action`` after each accepted action (journal
  entry ``len(match.actions)``), ``seats_changed`` when a bot takes over a seat, ``finished``
  when the game is over (the game, its statistics and ratings are stored and the journal closed
  in one transaction) and ``abandoned`` when a running table is closed.

At start-up ``restore()`` rebuilds every table that was playing when the process stopped (killed
or shut down): same number, options and seats, bots re-created, the match replayed to its last
recorded action (lobby/world/restore.py); its human players are away until they log in again.

Who is who: a seated name is a ``bot`` when the table has a bot of that name, ``registered``
when it was logged in with an account at the start, else a ``guest`` (docs/rating.md: only games
of four registered humans, not ``/startnosave``, not ``/option seed``, are rated).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger, LogLevel

from lobby.events import Event, error_event
from lobby.storage.journal import Journal, OpenTable
from lobby.tables.recording import Deliver

if TYPE_CHECKING:
    from lobby.storage.store import Store
    from lobby.tables.table import TableActor
    from lobby.world.world import World
from lobby.storage.records import GameArchive, Participant, finished_game
from lobby.tichu import Action
from lobby.world.restore import restore_table

__all__ = ["Persistence"]

log = Logger(namespace="lobby.persistence")


class Persistence:
    """The server's journal and game archive, and the hooks tables call."""

    def __init__(self, store: Store, world: World, clock: IReactorTime | None = None, *,
                 fsync: bool = False, inline: bool = True) -> None:
        self.store = store
        self.world = world
        self.clock = clock if clock is not None else world.clock
        #: (``inline``: the journal's small transactions on the reactor thread's own database
        #: connection; ``fsync`` keeps every transaction on the store's thread; lobby/storage/journal.py)
        self.journal = Journal(store, self.clock, fsync=fsync, on_failure=self._not_journaled,
                               inline=inline)
        #: tables whose players were told this game cannot be saved (once per game)
        self._told_unsaved: set[int] = set()
        self.archive = GameArchive(store)
        #: True after shutdown(): tables closed from now on keep their journal (restored later)
        self.frozen = False
        self._kinds: dict[int, dict[str, str]] = {}       # table -> name -> kind
        self._started_at: dict[int, float] = {}
        #: stored games (GameRecord) as their transactions commit (tests, logs)
        self.saved: list[Any] = []
        #: game actions accepted since the start (the server's metrics read it)
        self.actions = 0

    # ---- wiring --------------------------------------------------------------------------------
    def gate(self, table_no: int, deliver: Deliver) -> Deliver:
        """``deliver`` behind the journal's outbox, for the table ``table_no`` is built with."""
        journal = self.journal

        def gated(names: list[str], event: Event) -> None:
            journal.send(table_no, deliver, names, event)
        return gated

    # ---- what tables call ----------------------------------------------------------------------
    def started(self, table: TableActor) -> None:
        """``/start``: the journal of a new game (replaces whatever it held for the number)."""
        assert table.match is not None
        number = table.number
        self._told_unsaved.discard(number)
        kinds = {name: self._kind(table, name) for name in table.players}
        self._kinds[number] = kinds
        started_at = self.clock.seconds()
        self._started_at[number] = started_at
        # whether the game is rated was decided at /start: its record says so from now on
        head = dict(table.match.record_head(), rated=table.rated, unrated=table.unrated)
        self.journal.start_table(
            number, options=table.options.as_dict(), players=self._players(table),
            head=head, extra=self._extra(table), started_at=started_at)

    def action(self, table: TableActor, player: int, action: Action) -> None:
        """An accepted ``match.apply(player, action)``."""
        self.actions += 1
        assert table.match is not None              # (an action of its match)
        self.journal.record_action(table.number, len(table.match.actions), player, action)

    def seats_changed(self, table: TableActor) -> None:
        """A bot took over a seat (or a player came back into one)."""
        kinds = self._kinds.setdefault(table.number, {})
        for name in table.players:
            kinds.setdefault(name, self._kind(table, name))
            if name in table.bots:
                kinds[name] = "bot"
        self.journal.set_players(table.number, self._players(table))
        self.journal.set_extra(table.number, self._extra(table))

    def finished(self, table: TableActor) -> Deferred[Any]:
        """The game is over: store it (records, statistics, ratings), close the journal."""
        number = table.number
        try:
            game = self._game(table)
        except Exception:
            log.failure("table {table}: the finished game could not be recorded", table=number)
            return self.journal.end_table(number)
        self._forget(number)
        humans = [n for n in table.players if n not in table.bots]
        d = self.journal.finish_table(number, game)
        d.addBoth(self.archive.game_saved)       # the cached history, ranking ... change
        d.addCallbacks(self._saved, self._not_saved, errbackArgs=(number, humans))
        return d

    def abandoned(self, table: TableActor) -> None:
        """A running table is closed before the game's end: what was played is stored with the
        result ``abandoned`` and who left (each of them loses the game), and its journal goes
        (unless shutting down: then it is kept for the next start)."""
        if self.frozen:
            return
        number = table.number
        game = None
        if table.match is not None and table.match.actions:
            try:
                game = self._game(table, abandoned=dict(table.result or {}))
            except Exception:
                log.failure("table {table}: the abandoned game could not be recorded",
                            table=number)
        self._forget(number)
        humans = [n for n in table.players if n not in table.bots]
        d = self.journal.finish_table(number, game)
        d.addCallbacks(self._saved, self._not_saved, errbackArgs=(number, humans))

    def _game(self, table: TableActor, abandoned: dict[str, Any] | None = None) -> Any:
        """The FinishedGame of ``table``'s game (``abandoned``: its result when the table was
        closed before the end), with what /start decided and who left."""
        number = table.number
        assert table.match is not None
        return finished_game(
            table.match, self._record_players(table), options=table.options.as_dict(),
            table_no=number, started_at=self._started_at.get(number),
            ended_at=self.clock.seconds(), nosave=table.nosave, log=table.options.log,
            seeded=table.options.seed is not None,
            # the actions as the journal encoded them (once), unless a write was lost
            from_journal=number not in self.journal.failed_tables,
            unrated=table.unrated, abandoned=abandoned, left_first=table.first_leaver())

    def when_sent(self, table_no: int) -> Deferred[None] | None:
        """None if the table holds no events back; else a Deferred that fires once the events
        it holds now have been sent (a command's reply comes after what the command caused)."""
        if not self.journal.pending(table_no):
            return None
        d: Deferred[None] = Deferred()
        self.journal.send(table_no, d.callback, None)
        return d

    # ---- start-up and shutdown -----------------------------------------------------------------
    async def restore(self) -> list[TableActor]:
        """Rebuild every table the journal holds (start-up, before the ports open). Returns the
        restored TableActors. A table that cannot be rebuilt is logged and its journal kept."""
        open_tables: list[OpenTable] = await self.journal.load_open_tables()
        tables = []
        for ot in open_tables:
            if ot.table_no in self.world.tables:
                log.warn("journal of table {table}: the number is taken; not restored",
                         table=ot.table_no)
                continue
            try:
                table = restore_table(self.world, ot, self)
            except Exception:
                log.failure("journal of table {table}: restoring it failed; its journal is kept",
                            table=ot.table_no)
                continue
            tables.append(table)
            log.info("table {table} restored at action {seq} (players {players})",
                     table=ot.table_no, seq=ot.last_seq, players=[p.name for p in ot.players])
        return tables

    def adopt(self, table: TableActor, ot: OpenTable) -> None:
        """A restored table (built with this recorder and its gate): no new journal, it goes on
        at ``last_seq + 1``."""
        self._kinds[table.number] = {p.name: p.kind for p in ot.players}
        if ot.started_at is not None:
            self._started_at[table.number] = ot.started_at

    def flush(self) -> Deferred[None]:
        """Commit everything buffered now."""
        return self.journal.flush()

    def shutdown(self) -> Deferred[None]:
        """``/shutdown`` or SIGTERM: every running table stays in the journal (the next start
        restores it); what is buffered is committed."""
        self.frozen = True
        for number in sorted(self.world.tables):
            table = self.world.tables[number]
            if table.state == "playing" and table.match is not None:
                self.journal.set_extra(number, self._extra(table))
        try:
            return self.journal.flush()
        except Exception:
            log.failure("journal: the last flush failed")
            return succeed(None)

    # ---- inside ----------------------------------------------------------------------------
    def _kind(self, table: TableActor, name: str) -> str:
        if name in table.bots:
            return "bot"
        known = self._kinds.get(table.number, {}).get(name)
        if known is not None:
            return known
        user = self.world.online(name)
        return "registered" if user is not None and user.registered else "guest"

    def _players(self, table: TableActor) -> list[Participant]:
        kinds = self._kinds.get(table.number, {})
        return [Participant(n, "bot" if n in table.bots else kinds.get(n) or self._kind(table, n))
                for n in table.players]

    def _record_players(self, table: TableActor) -> list[Participant]:
        """The players as the game's record keeps them: a seat whose player left stays theirs,
        marked with the round they left in and the bot that took it over."""
        players = self._players(table)
        kinds = self._kinds.get(table.number, {})
        for name, left in table.leavers.items():
            p = left.get("player")
            if not isinstance(p, int) or not 0 <= p < 4:
                continue
            bot = left.get("bot")
            players[p] = Participant(name, kinds.get(name) or "registered", int(left["round"]),
                                     bot if isinstance(bot, str) else None)
        return players

    def _extra(self, table: TableActor) -> dict[str, Any]:
        """What the table needs besides the match to go on after a restart (its `snapshot()`,
        with the reconnect keys' hashes); `guests`: the address each guest player had when they
        sat down (the per-address table limit counts it after a restart too)."""
        kinds = self._kinds.get(table.number, {})
        snapshot = table.snapshot()
        guests = snapshot["guests"]
        identities: dict[str, str] = {}
        for name in table.players:
            if kinds.get(name) == "guest" and name not in table.bots:
                address = self.world.address_of(table.number, name)
                if address is not None:
                    guests[name] = address
                # who sat down under the name (one guest session): the guest who comes back
                # with the seat's key after a restart is the same person to those they talked
                # to, and a namesake in the room is shown as somebody else
                identity = self.world.identity_at(table.number, name)
                if identity:
                    identities[name] = identity
        if identities:
            snapshot["identities"] = identities
        host = self.world.host_record(table.number)   # (review) who the host is, to know them again
        if host is not None:
            snapshot["host_record"] = host
        return snapshot

    def _forget(self, number: int) -> None:
        self._kinds.pop(number, None)
        self._started_at.pop(number, None)

    def _saved(self, record: Any) -> Any:
        if record is not None:
            self.saved.append(record)
            log.info("game #{game} of table {table} stored ({rated})", game=record.game_id,
                     table=record.game.table_no,
                     rated="rated" if record.game.rated else record.game.unrated_reason)
        return record

    def _not_saved(self, failure: Any, number: int, humans: list[str] | None = None) -> None:
        log.failure("table {table}: the finished game was NOT stored", failure,
                    level=LogLevel.error, table=number)
        self._tell_unsaved(number, humans)
        return None

    def _not_journaled(self, tables: list[int]) -> None:
        """Journal.on_failure: a batch of these tables' writes was not committed."""
        for number in tables:
            self._tell_unsaved(number, None)

    def _tell_unsaved(self, number: int, humans: list[str] | None) -> None:
        """Tell the human players of table ``number`` (once per game) that their game cannot be
        saved: a database write failed (the error is in the log)."""
        if number in self._told_unsaved:
            return
        if humans is None:
            table = self.world.tables.get(number)
            if table is None:
                return
            humans = [n for n in table.players if n not in table.bots]
        self._told_unsaved.add(number)
        for name in humans:
            user = self.world.online(name)
            if user is None:
                continue
            try:
                user.listener.deliver(error_event("game-not-saved", table=number))
            except Exception:
                log.failure("telling {user} that table {table} cannot be saved", user=name,
                            table=number)
