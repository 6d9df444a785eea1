"""Rebuilding a table from the action journal after a restart (``Persistence.restore``).

A restored table has the number, options, seats, host and bots it had; its Match is
``Match.replay`` of the journal's consistent prefix, so it stands exactly after the last action
whose events anybody could have seen (the journal committed every action before its events were
sent). Every human player is *away* (``TableActor.gone``) from the moment of the restore: the
table waits for them, and logging in again puts each one back into the seat (World.login). The
grace time before the others may ``/remove`` an absent player starts at the restore. Bots are
re-created under their old names and strategies and given the current view, so a bot whose turn
it was plays on by itself.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from lobby.bots.runtime.player import is_bot_name
from lobby.storage.journal import OpenTable
from lobby.tables.recording import TableRecorder
from lobby.tables.table import BOT_TAKEOVER_STRATEGY, TableActor

if TYPE_CHECKING:
    from lobby.world.world import World

__all__ = ["Adopter", "restore_table"]


class Adopter(TableRecorder[TableActor], Protocol):
    """The recorder a restored table is built with (lobby.world.persistence.Persistence, which
    imports this module): it takes the table's journal over where the journal left it."""

    def adopt(self, table: TableActor, ot: OpenTable) -> None:
        """``table`` goes on with the journal of ``ot`` (no new journal)."""


def restore_table(world: World, ot: OpenTable, recorder: Adopter) -> TableActor:
    """Build table ``ot.table_no`` in ``world`` as the journal left it; returns the table."""
    snapshot = ot.extra if isinstance(ot.extra, dict) else {}
    match = ot.match()
    if match.finished:
        raise ValueError("the journal holds a finished game")
    names = [p.name for p in ot.players]
    strategies = snapshot.get("bots") or {}
    bots = {p.name: strategies.get(p.name) or p.name.split("~", 1)[-1] or BOT_TAKEOVER_STRATEGY
            for p in ot.players if p.kind == "bot" or is_bot_name(p.name)}
    # a guest's seat goes back only with its reconnect key (the snapshot keeps its hash), after a
    # restart too
    guests = [p.name for p in ot.players if p.kind == "guest" and p.name not in bots]
    table = TableActor.restored(ot.table_no, world.clock, world.table_deliver(ot.table_no),
                                snapshot, match, names, bots, recorder=recorder,
                                seat_policy=world, guests=guests, bot_pool=world.bot_pool,
                                wheel=world.wheel)
    if world.on_new_table is not None:          # tests: bot_delay
        world.on_new_table(table)
    recorder.adopt(table, ot)
    host = snapshot.get("host_record")
    world.add_restored_table(table, table.guest_addresses,
                             host if isinstance(host, dict) else None)
    identities = snapshot.get("identities")
    if isinstance(identities, dict):              # (a journal of an older version: none)
        world.restore_identities(ot.table_no, {str(n): str(i) for n, i in identities.items()
                                               if n in guests and isinstance(i, str)})
    if world.tables.get(ot.table_no) is table:   # (a game of bots alone is closed instead)
        table.resume()                           # the bots get their view (and act if due)
    return table
