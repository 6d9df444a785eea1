"""Who is there and talking to them: /who, /wwho, /whereis, /finger, /manager, /quit, /tell,
/notify, /unnotify, /friends (the help's groups "lobby" and "chat", but for the mute lists of
protocol/commands/moderation.py)."""
from __future__ import annotations

from typing import Any

from lobby.events import Event
from lobby.text.messages import (
    LobbyError,
)
from protocol.commands.base import (
    ByOnline,
    CommandContext,
    CommandGroup,
    user_of,
)
from protocol.commands.records import finger_statistics

__all__ = ["GROUP"]

GROUP = CommandGroup()


#: /who and /wwho: one more ordinary command per WHO_PER users online (F6 of issue 23: 64 guests
#: asking /wwho 18 times a second made 30 MB in 15 s)
WHO_PER = 25


@GROUP.command("who", cost=ByOnline(WHO_PER))
def _who(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.who(user_of(ctx)))


@GROUP.command("wwho", cost=ByOnline(WHO_PER))
def _wwho(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.wwho())


@GROUP.command("tell", "NAME TEXT...", aliases=("whisper",))
def _tell(ctx: CommandContext, args: dict[str, str]) -> None:
    if ctx.world.online(args["name"]) is not None \
            and not ctx.speech_allowed("tell " + args["name"].lower(), args["text"]):
        return          # (the speech budget of the tells to that recipient: protocol.connection.guard)
    ctx.world.tell(user_of(ctx), args["name"], args["text"])


#: the machine-mode version whose objects answer the friends commands (render_json.TYPES_SINCE)
FRIENDS_PROTOCOL = 4


def _needs_protocol(ctx: CommandContext, command: str, version: int) -> None:
    """LobbyError('needs-protocol') in machine mode below `version`: the answer would be an
    object that version does not have (text mode and newer versions: nothing)."""
    if ctx.output.lacks_objects_of(version):
        raise LobbyError("needs-protocol", command=command, version=version,
                         protocol=ctx.protocol)


@GROUP.command("notify", "NAME")
async def _notify(ctx: CommandContext, args: dict[str, str]) -> None:
    _needs_protocol(ctx, "notify", FRIENDS_PROTOCOL)
    await _friends_of(ctx).notify(user_of(ctx), args["name"])


@GROUP.command("unnotify", "NAME")
async def _unnotify(ctx: CommandContext, args: dict[str, str]) -> None:
    _needs_protocol(ctx, "unnotify", FRIENDS_PROTOCOL)
    await _friends_of(ctx).unnotify(user_of(ctx), args["name"])


@GROUP.command("friends")
def _friends(ctx: CommandContext, args: dict[str, str]) -> None:
    _needs_protocol(ctx, "friends", FRIENDS_PROTOCOL)
    ctx.send(_friends_of(ctx).listing(user_of(ctx)))


def _friends_of(ctx: CommandContext) -> Any:
    from lobby.world.friends import Friends
    if ctx.world.friends is None:            # (a world without a server: in memory only)
        Friends(None, ctx.world)
    return ctx.world.friends


@GROUP.command("finger", "[NAME]", cost=2)
async def _finger(ctx: CommandContext, args: dict[str, str]) -> None:
    name = args.get("name") or user_of(ctx).name      # without a name: your own
    account = await ctx.store.get_account(name)
    online = ctx.world.online(name)
    if account is not None:
        shown = account.name
    elif online is not None:
        shown = online.name
    else:
        bot = _bot_named(ctx, name) if ctx.output.describes_bots else None
        if bot is not None:             # /who lists the bots: /finger says what one is
            raise LobbyError("finger-bot", **bot)
        raise LobbyError("no-such-user", name=name)
    statistics = None
    if account is not None:
        statistics = await finger_statistics(ctx, account.name)
    ctx.send(Event(
        "finger", name=shown, registered=account is not None,
        registered_at=account.registered_at if account else None,
        last_seen=account.last_seen if account else None,
        online=online is not None, statistics=statistics,
        room=online.room.name if online is not None and online.room is not None else None,
        # a staff member's role (protocol 4; text mode marks it)
        **({"role": role} if account is not None
           and (role := ctx.world.staff_role(account.name)) is not None else {}),
        # your own /finger: what your connection's client told (TTYPE/MTTS), to you alone
        **_own_client(ctx, online)))


def _bot_named(ctx: CommandContext, name: str) -> dict[str, Any] | None:
    """A bot seated at a table called ``name`` (``Bot1`` or ``Bot1~heuristic``): its name,
    strategy and table (text mode's /finger of a bot, issue 26 #4), or None."""
    low = name.lower()
    for number, table in sorted(ctx.world.tables.items()):
        for full, bot in table.bots.items():
            if low in (full.lower(), full.partition("~")[0].lower()):
                return {"name": full, "strategy": bot.strategy_name,   # the one form of its name
                        "table": number}
    return None


def _own_client(ctx: CommandContext, online: Any) -> dict[str, str]:
    """``{"client": ...}`` for /finger of yourself when your client told its name (TTYPE)."""
    if online is None or online is not ctx.user:
        return {}
    describe = getattr(ctx, "client_description", None)
    client = describe() if describe is not None else None
    return {"client": client} if client else {}


@GROUP.command("quit", "", aliases=("exit",))
def _quit(ctx: CommandContext, args: dict[str, str]) -> None:
    me = user_of(ctx)
    if ctx.output.warns_on_quit and not me.quit_warned:
        # a player of a running game is warned once (issue 26, #7): the game waits for them
        playing = ctx.world.playing_at(me)
        if playing is not None:
            me.quit_warned = True
            raise LobbyError("quit-in-game" if me.registered else "quit-in-game-guest",
                             table=playing, name=me.name)
    ctx.quit(Event("bye", name=me.name))


@GROUP.command("manager", "", aliases=("lobby",))
def _manager(ctx: CommandContext, args: dict[str, str]) -> None:
    me = user_of(ctx)
    ctx.world.enter(me, ctx.world.lobby, "manager")
    ctx.send(ctx.world.who(me))


@GROUP.command("whereis", "NAME")
def _whereis(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.whereis(args["name"]))
