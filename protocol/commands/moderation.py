"""The commands of mute lists and moderation: one group of THE command table.

protocol/commands/__init__.py builds the table from this group with the others, so these commands
are part of /help and of the generated reference in docs/protocol.md like every other one. The work is done
by ``lobby.world.moderation.Moderation`` (``ctx.world.moderation``); refusals are LobbyErrors with
stable codes (``not-allowed`` for anybody without the role).
"""
from __future__ import annotations

from typing import Any

from lobby.events import Event
from lobby.text.messages import LobbyError, Msg
from lobby.text.numbers import ascii_int
from protocol.commands.base import CommandContext, CommandGroup

__all__ = ["GROUP", "DEFAULT_SHUTDOWN_SECONDS", "MAX_SHUTDOWN_SECONDS"]

DEFAULT_SHUTDOWN_SECONDS = 60
MAX_SHUTDOWN_SECONDS = 24 * 3600
_LISTS = ("mute", "ignore")


def _moderation(ctx: CommandContext) -> Any:
    moderation = ctx.world.moderation
    if moderation is None:  # a world built without the server (never in the server itself)
        raise LobbyError("not-allowed", command="moderation", role=Msg("role-operator"))
    return moderation


def _list_name(word: str) -> str:
    if word.lower() not in _LISTS:
        raise LobbyError("unknown-list", name=word)
    return "mute"


#: the mute-list and moderation commands (summary and help: the catalog's cmd-NAME, cmd-NAME-help)
GROUP = CommandGroup()


@GROUP.command("add", "LIST NAME")
async def _add(ctx: CommandContext, args: dict[str, str]) -> None:
    _list_name(args["list"])
    assert ctx.user is not None
    await _moderation(ctx).mute(ctx.user, args["name"])

@GROUP.command("sub", "LIST NAME")
async def _sub(ctx: CommandContext, args: dict[str, str]) -> None:
    _list_name(args["list"])
    assert ctx.user is not None
    await _moderation(ctx).unmute(ctx.user, args["name"])

@GROUP.command("showlist", "LIST")
def _showlist(ctx: CommandContext, args: dict[str, str]) -> None:
    _list_name(args["list"])
    assert ctx.user is not None
    names = _moderation(ctx).mute_list(ctx.user)
    if names:
        ctx.send(Event("mute-list", count=len(names), names=list(names)))
    else:
        ctx.send(Event("mute-list-empty"))

@GROUP.command("kick", "NAME [REASON...]", role="moderator")
async def _kick(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    await _moderation(ctx).kick(ctx.user, args["name"], args.get("reason", ""))

@GROUP.command("ban", "NAME [DURATION] [REASON...]", role="moderator")
async def _ban(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    rest = " ".join(v for v in (args.get("duration"), args.get("reason")) if v)
    await _moderation(ctx).ban(ctx.user, args["name"], rest)

@GROUP.command("unban", "NAME", role="moderator")
async def _unban(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    await _moderation(ctx).unban(ctx.user, args["name"])

@GROUP.command("banlist", "", role="moderator")
async def _banlist(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    await _moderation(ctx).list_bans(ctx.user)

@GROUP.command("bmute", "NAME [OFF]", role="moderator")
async def _bmute(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    off = args.get("off")
    if off is not None and off.lower() != "off":
        raise LobbyError("bad-arguments", usage="/bmute NAME [off]")
    await _moderation(ctx).bmute(ctx.user, args["name"], off is not None)

@GROUP.command("closetable", "TABLE [REASON...]", role="moderator")
async def _closetable(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    raw = args["table"].lstrip("#")
    number = ascii_int(raw)
    if number is None:
        raise LobbyError("bad-arguments", usage="/closetable TABLE [REASON...]")
    await _moderation(ctx).close_table(ctx.user, number, args.get("reason", ""))

@GROUP.command("announce", "TEXT...", role="moderator")
async def _announce(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    await _moderation(ctx).announce(ctx.user, args["text"])

#: what /shutdown alone answers (it never shuts the server down by itself)
SHUTDOWN_USAGE = "/shutdown SECONDS [REASON...] | /shutdown cancel"


@GROUP.command("shutdown", "[SECONDS] [REASON...]", role="admin",
         help_params={"default": DEFAULT_SHUTDOWN_SECONDS})
async def _shutdown(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    word = args.get("seconds", "")
    reason = args.get("reason", "")
    if not word:                    # a slip of the keyboard must not stop the server
        raise LobbyError("bad-arguments", usage=SHUTDOWN_USAGE)
    if word.lower() == "cancel" and not reason:
        await _moderation(ctx).cancel_shutdown(ctx.user)
        return
    if word.isascii() and word.isdigit():
        seconds = int(word)
    else:
        seconds = DEFAULT_SHUTDOWN_SECONDS
        reason = " ".join(v for v in (word, reason) if v)
    if seconds > MAX_SHUTDOWN_SECONDS:
        raise LobbyError("bad-arguments", usage=SHUTDOWN_USAGE)
    await _moderation(ctx).shutdown(ctx.user, float(seconds), reason)

@GROUP.command("role", "NAME ROLE", role="admin")
async def _role(ctx: CommandContext, args: dict[str, str]) -> None:
    assert ctx.user is not None
    await _moderation(ctx).set_role(ctx.user, args["name"], args["role"])
