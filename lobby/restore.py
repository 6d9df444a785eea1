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

from typing import Any

from lobby.bots.player import BotPlayer, is_bot_name
from lobby.journal import OpenTable
from lobby.table import BOT_TAKEOVER_STRATEGY, PLAYING, TableActor
from lobby.table_options import options_from_saved

__all__ = ["restore_table"]


def restore_table(world: Any, ot: OpenTable, persistence: Any) -> TableActor:
    """Build table ``ot.table_no`` in ``world`` as the journal left it; returns the table."""
    extra = ot.extra if isinstance(ot.extra, dict) else {}
    match = ot.match()
    if match.finished:
        raise ValueError("the journal holds a finished game")
    table = TableActor(ot.table_no, world.clock, world._table_deliver)
    if world.on_new_table is not None:          # tests: bot_delay
        world.on_new_table(table)
    table.options = options_from_saved(extra.get("options"))
    table.host = extra.get("host")
    table.nosave = bool(extra.get("nosave"))
    names = [p.name for p in ot.players]
    table.match = match
    table.players = list(names)
    table.join_order = list(names)
    table.seats = list(names)                    # as /start leaves them: by player
    table.seed = match.seed
    table.state = PLAYING
    table.games_started = 1
    strategies = extra.get("bots") or {}
    now = world.clock.seconds()
    for p in ot.players:
        if p.kind == "bot" or is_bot_name(p.name):
            strategy = strategies.get(p.name) or p.name.split("~", 1)[-1] or BOT_TAKEOVER_STRATEGY
            try:
                bot = BotPlayer(table, p.name, strategy, world.clock, delay=table.bot_delay)
            except (KeyError, ValueError):
                bot = BotPlayer(table, p.name, BOT_TAKEOVER_STRATEGY, world.clock,
                                delay=table.bot_delay)
            table.bots[p.name] = bot
        else:
            table.gone.add(p.name)
            table.gone_since[p.name] = now
    # a guest's seat goes back only to the same address (World.guest_seat), after a restart too
    guests = extra.get("guests") or {}
    table.guest_addresses = {n: a for n, a in guests.items() if n in names and isinstance(a, str)}
    for name, address in table.guest_addresses.items():
        world.note_away_guest(name, address, now)
    persistence.adopt(table, ot)
    world.add_restored_table(table)
    table._send_views()                          # the bots get their view (and act if due)
    return table
