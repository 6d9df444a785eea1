"""The commands of mute lists and moderation, registered into THE command table.

``protocol/commands.py`` calls ``register(COMMANDS)`` at its end, so these commands are part of
/help and of the generated reference in docs/protocol.md like every other one. The work is done
by ``lobby.moderation.Moderation`` (``ctx.world.moderation``); refusals are LobbyErrors with
stable codes (``not-allowed`` for anybody without the role).
"""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from lobby.events import Event
from lobby.messages import LobbyError

if TYPE_CHECKING:
    from protocol.commands import CommandContext, CommandTable

__all__ = ["register", "DEFAULT_SHUTDOWN_SECONDS", "MAX_SHUTDOWN_SECONDS"]

DEFAULT_SHUTDOWN_SECONDS = 60
MAX_SHUTDOWN_SECONDS = 24 * 3600
_LISTS = ("mute", "ignore")


def _moderation(ctx: "CommandContext") -> Any:
    moderation = getattr(ctx.world, "moderation", None)
    if moderation is None:  # a world built without the server (never in the server itself)
        raise LobbyError("not-allowed", command="moderation", role="the server operator")
    return moderation


def _list_name(word: str) -> str:
    if word.lower() not in _LISTS:
        raise LobbyError("unknown-list", name=word)
    return "mute"


def register(table: "CommandTable") -> None:
    """Add the mute-list and moderation commands to ``table``."""
    def command(name: str, spec: str, summary: str, help: str) -> Any:
        return table.command(name, spec, summary, help=textwrap.dedent(help))

    @command("add", "LIST NAME", "Add NAME to a list of yours: /add mute NAME.", """
    /add mute NAME puts NAME on your mute (ignore) list, as on BSW: you no longer see what NAME
    says in rooms nor NAME's tells, and a tell of NAME to you looks sent to NAME. The list of a
    registered name is stored; a guest's list lasts while the guest is online.
    """)
    async def _add(ctx: "CommandContext", args: dict[str, str]) -> None:
        _list_name(args["list"])
        assert ctx.user is not None
        await _moderation(ctx).mute(ctx.user, args["name"])

    @command("sub", "LIST NAME", "Take NAME off a list of yours: /sub mute NAME.", """
    /sub mute NAME takes NAME off your mute list again.
    """)
    async def _sub(ctx: "CommandContext", args: dict[str, str]) -> None:
        _list_name(args["list"])
        assert ctx.user is not None
        await _moderation(ctx).unmute(ctx.user, args["name"])

    @command("showlist", "LIST", "Show a list of yours: /showlist mute.", """
    /showlist mute shows the names on your mute list.
    """)
    def _showlist(ctx: "CommandContext", args: dict[str, str]) -> None:
        _list_name(args["list"])
        assert ctx.user is not None
        names = _moderation(ctx).mute_list(ctx.user)
        if names:
            ctx.send(Event("mute-list", count=len(names), names=list(names)))
        else:
            ctx.send(Event("mute-list-empty"))

    @command("kick", "NAME [REASON...]", "Moderators: disconnect NAME.", """
    Moderators and admins: closes NAME's connection with REASON (NAME may log in again; /ban
    keeps NAME out). A moderator cannot kick a moderator or an admin. Logged.
    """)
    async def _kick(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        await _moderation(ctx).kick(ctx.user, args["name"], args.get("reason", ""))

    @command("ban", "NAME [DURATION] [REASON...]", "Moderators: keep NAME out.", """
    Moderators and admins: NAME can no longer log in, for DURATION (90s, 30m, 2h, 7d, 1w, a bare
    number means minutes) or, without one (or with perm), until /unban NAME; NAME is disconnected
    if online. The ban is stored. A moderator cannot ban a moderator or an admin. Logged.
    """)
    async def _ban(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        rest = " ".join(v for v in (args.get("duration"), args.get("reason")) if v)
        await _moderation(ctx).ban(ctx.user, args["name"], rest)

    @command("unban", "NAME", "Moderators: lift the ban on NAME.", """
    Moderators and admins: NAME may log in again. Logged.
    """)
    async def _unban(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        await _moderation(ctx).unban(ctx.user, args["name"])

    @command("bmute", "NAME [OFF]", "Moderators: silence NAME in public rooms (off: undo).",
                   """
    Moderators and admins: NAME may no longer speak in rooms (the lobby and the table rooms);
    tells still work. /bmute NAME off lifts it. Stored; logged.
    """)
    async def _bmute(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        off = args.get("off")
        if off is not None and off.lower() != "off":
            raise LobbyError("bad-arguments", usage="/bmute NAME [off]")
        await _moderation(ctx).bmute(ctx.user, args["name"], off is not None)

    @command("announce", "TEXT...", "Moderators: say TEXT to everybody online.", """
    Moderators and admins: one line to everybody online, wherever they are. Logged.
    """)
    async def _announce(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        await _moderation(ctx).announce(ctx.user, args["text"])

    @command("shutdown", "[SECONDS] [REASON...]", "Admins: stop the server after a warning.",
                   f"""
    Admins: warns everybody that the server stops in SECONDS (default
    {DEFAULT_SHUTDOWN_SECONDS}), refuses new tables and new games from then on, and after SECONDS
    stops cleanly (every connection told and closed, the database closed). Logged.
    """)
    async def _shutdown(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        word = args.get("seconds", "")
        reason = args.get("reason", "")
        if word and word.isascii() and word.isdigit():
            seconds = int(word)
        else:
            seconds = DEFAULT_SHUTDOWN_SECONDS
            reason = " ".join(v for v in (word, reason) if v)
        if seconds > MAX_SHUTDOWN_SECONDS:
            raise LobbyError("bad-arguments", usage="/shutdown [SECONDS] [REASON...]")
        await _moderation(ctx).shutdown(ctx.user, float(seconds), reason)

    @command("role", "NAME ROLE", "Admins: give NAME a role: admin, moderator or none.",
                   """
    Admins: makes the registered NAME an admin or a moderator, or (none) an ordinary player
    again. Stored; logged. The first admin comes from the server's --admin option.
    """)
    async def _role(ctx: "CommandContext", args: dict[str, str]) -> None:
        assert ctx.user is not None
        await _moderation(ctx).set_role(ctx.user, args["name"], args["role"])
