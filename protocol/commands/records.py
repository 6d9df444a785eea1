"""The commands of the game records, one group of THE command table: ``/history [NAME]``,
``/replay GAME [ROUND]``, ``/tchlog GAME`` and ``/rangliste``.

protocol/commands/__init__.py builds the table from this group with the others. The work (SQL; a replay
re-plays the whole game) runs on the store's worker thread (``lobby.storage.records.GameArchive``); the
reply is one event (``history``, ``replay``, ``tchlog``, ``ranking``) carrying the records as data
(``to_json()`` of lobby/storage/records.py's objects): machine mode sends it as it is, text mode renders
it (protocol/render/records.py). The statistics of ``/finger`` come from the same archive
(``finger_statistics``, used by protocol/commands/people.py).
"""
from __future__ import annotations

from typing import Any

from lobby.events import Event
from lobby.storage.bswlog import tch_lines
from lobby.storage.records import GameArchive, PlayerStats
from lobby.text.messages import LobbyError
from lobby.text.numbers import MAX_NUMBER, ascii_int
from protocol.commands.base import CommandContext, CommandGroup
from protocol.render.context import DEFAULT_HEIGHT

__all__ = ["GROUP", "finger_statistics", "known_name", "HISTORY_LIMIT", "RANKING_LIMIT"]

HISTORY_LIMIT = 10
RANKING_LIMIT = 20


def _archive(ctx: CommandContext) -> GameArchive:
    recorder = ctx.world.recorder
    return recorder.archive if recorder is not None else GameArchive(ctx.store)


async def finger_statistics(ctx: CommandContext, name: str) -> dict[str, Any]:
    """The ``statistics`` of ``/finger`` for the registered player ``name``
    (``PlayerStats.to_json()``: zeros and no rating before the first saved game)."""
    stats = await _archive(ctx).player_stats(name)
    return (stats if stats is not None else PlayerStats.empty(name)).to_json()


async def known_name(ctx: CommandContext, name: str) -> None:
    """LobbyError('no-such-user') unless ``name`` is a registered account or someone online
    (as /finger: ``/history nobody`` is not "nobody has no finished games")."""
    if ctx.world.online(name) is None and await ctx.store.get_account(name) is None:
        raise LobbyError("no-such-user", name=name)


def _number(word: str, usage: str) -> int:
    """A game or round number as typed (``#12`` or ``12``): a number too large to be one is
    still a number (``MAX_NUMBER``, larger than any game id or round: no-such-game or
    no-such-round follows); anything but ASCII digits is the usage error."""
    digits = word.lstrip("#")
    number = ascii_int(digits)
    if number is None:
        if digits.isascii() and digits.isdigit():
            return MAX_NUMBER
        raise LobbyError("bad-arguments", usage=usage)
    return number


#: /history, /replay, /tchlog and /rangliste (summary and help: the catalog's cmd-NAME, cmd-NAME-help)
GROUP = CommandGroup()


@GROUP.command("history", "[NAME]", cost=3)
async def _history(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    me = ctx.user.name                   # (ctx.user is None once the connection is gone)
    name = args.get("name") or me
    games = await _archive(ctx).recent_games(name, HISTORY_LIMIT)
    if not games and name != me:
        await known_name(ctx, name)      # (a guest's old games are still shown: archive first)
    ctx.send(Event("history", name=name, games=[g.to_json() for g in games]))

@GROUP.command("replay", "GAME [ROUND]", cost=5)
async def _replay(ctx: CommandContext, args: dict[str, str]) -> None:
    usage = "/replay GAME [ROUND]"
    game = _number(args["game"], usage)
    round_no = _number(args["round"], usage) if args.get("round") else None
    try:
        replay = await _archive(ctx).replay(game, round_no)
    except LobbyError as e:          # name the numbers as typed, however large
        if e.code == "no-such-game":
            e.params["game"] = args["game"].lstrip("#")
        elif e.code == "no-such-round":
            e.params["round"] = args["round"].lstrip("#")
        raise
    ctx.send(Event("replay", replay.to_json()))

@GROUP.command("next", help_params={"rows": DEFAULT_HEIGHT})
def _next(ctx: CommandContext, args: dict[str, str]) -> None:
    """The next page of a long answer (/replay) that stopped at its ``-- more --`` line."""
    if not ctx.next_page():
        raise LobbyError("no-more-pages")


@GROUP.command("tchlog", "GAME", cost=5)
async def _tchlog(ctx: CommandContext, args: dict[str, str]) -> None:
    game = _number(args["game"], "/tchlog GAME")
    try:
        text = await _archive(ctx).tch_log(game)
    except LobbyError as e:
        if e.code == "no-such-game":
            e.params["game"] = args["game"].lstrip("#")
        raise
    ctx.send(Event("tchlog", game=game, lines=tch_lines(text)))

@GROUP.command("rangliste", aliases=("ranking",), cost=3)
async def _rangliste(ctx: CommandContext, args: dict[str, str]) -> None:
    rows = await _archive(ctx).top_players(RANKING_LIMIT)
    ctx.send(Event("ranking", players=[r.to_json() for r in rows]))
