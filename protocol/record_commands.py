"""The commands of the game records, registered into THE command table: ``/history [NAME]``,
``/replay GAME [ROUND]`` and ``/rangliste``.

``protocol/commands.py`` calls ``register(COMMANDS)`` at its end. The work (SQL and the rendering
through the message catalog, a replay re-plays the whole game) runs on the store's worker thread
(``lobby.records.GameArchive``); the reply is one event (``history``, ``replay``, ``ranking``)
with the lines in ``lines`` and, for text mode, joined in ``text``. The statistics of
``/finger`` come from the same archive (protocol/commands.py).
"""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from lobby.events import Event
from lobby.numbers import ascii_int
from lobby.messages import LobbyError
from lobby.records import GameArchive

if TYPE_CHECKING:
    from protocol.commands import CommandContext, CommandTable

__all__ = ["register", "HISTORY_LIMIT", "RANKING_LIMIT"]

HISTORY_LIMIT = 10
RANKING_LIMIT = 20


def _archive(ctx: "CommandContext") -> GameArchive:
    persistence = getattr(ctx.world, "recorder", None)
    archive = getattr(persistence, "archive", None)
    return archive if archive is not None else GameArchive(ctx.store)


def _lines_event(kind: str, lines: list[str], **data: Any) -> Event:
    return Event(kind, dict(data, lines=list(lines), text="\n".join(lines)))


def _number(word: str, usage: str) -> int:
    number = ascii_int(word.lstrip("#"))
    if number is None:
        raise LobbyError("bad-arguments", usage=usage)
    return number


def register(table: "CommandTable") -> None:
    """Add /history, /replay and /rangliste to ``table``."""
    def command(name: str, spec: str, summary: str, help: str, aliases: tuple[str, ...] = ()
                ) -> Any:
        return table.command(name, spec, summary, help=textwrap.dedent(help), aliases=aliases)

    @command("history", "[NAME]", "Your (or NAME's) recent games.", """
    Lists the last ten finished games of NAME (without NAME: your own), newest first: the game
    number (for /replay), date, table, the two teams with the final score, the number of rounds,
    won or lost, and whether the game was unrated.
    """)
    async def _history(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        name = args.get("name") or ctx.user.name
        lines = await _archive(ctx).history_text(name, HISTORY_LIMIT)
        ctx.send(_lines_event("history", lines, name=name))

    @command("replay", "GAME [ROUND]", "Show a stored game round by round.", """
    Prints stored game GAME (the number /history shows) round by round: the seats, every hand as
    dealt, the calls, the exchange, every play, pass and Dragon gift, and each round's score.
    With ROUND only that round.
    """)
    async def _replay(ctx: "CommandContext", args: dict[str, str]) -> None:
        usage = "/replay GAME [ROUND]"
        game = _number(args["game"], usage)
        round_no = _number(args["round"], usage) if args.get("round") else None
        lines = await _archive(ctx).replay_text(game, round_no)
        ctx.send(_lines_event("replay", lines, game=game, round=round_no))

    @command("rangliste", "", "The best players by rating (rated games only).", """
    The ranking list: the players with the highest Team Elo rating (docs/rating.md), with their
    number of rated games. Only games of four registered players, not started with /startnosave
    and without a fixed seed, are rated.
    """, aliases=("ranking",))
    async def _rangliste(ctx: "CommandContext", args: dict[str, str]) -> None:
        lines = await _archive(ctx).ranking_text(RANKING_LIMIT)
        ctx.send(_lines_event("ranking", lines))
