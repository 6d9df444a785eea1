"""Rooms and tables: /newroom, /room, /listroom, and every table command from its declaration in
lobby (lobby/tables/commands.py: ``TABLE_COMMANDS``), routed to the user's table."""
from __future__ import annotations

from typing import Any

from lobby.bots.strategies.expert import DEFAULT_SECONDS as EXPERT_DEFAULT_SECONDS
from lobby.bots.strategies.expert import MAX_SECONDS as EXPERT_MAX_SECONDS
from lobby.bots.strategies.expert import MIN_SECONDS as EXPERT_MIN_SECONDS
from lobby.events import Event
from lobby.tables import options as table_options
from lobby.text.messages import (
    LobbyError,
    rank_of_word,
)
from lobby.tichu import WISH_WORDS
from lobby.world.world import LISTROOM_PAGE, User
from protocol.commands.base import (
    Command,
    CommandContext,
    CommandGroup,
    Handler,
    on_off,
    table_sent,
    user_of,
)

__all__ = ["GROUP", "TABLE_HELP_PARAMS", "natural_words", "table_group"]

GROUP = CommandGroup()


@GROUP.command("newroom", "[GAME]")
def _newroom(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.world.open_table(user_of(ctx), args.get("game") or "tichu")


@GROUP.command("room", "NUMBER")
def _room(ctx: CommandContext, args: dict[str, str]) -> Any:
    raw = args["number"].lstrip("#")
    if not (raw.isascii() and raw.isdigit()):  # int() refuses other digits such as ²
        raise LobbyError("no-such-room", number=args["number"])
    me = user_of(ctx)
    room = ctx.world.room(int(raw))
    if me.room is room and room.table is not None:
        room.table.submit(me.name, "spielinfo")  # already there: show the table again
        return table_sent(ctx, room.table.number)
    ctx.world.enter(me, room)
    if int(raw) == 0:
        ctx.send(ctx.world.who(me))
        return None
    return table_sent(ctx, room.table.number) if room.table is not None else None


@GROUP.command("listroom", "[PAGE]", help_params={"per_page": LISTROOM_PAGE})
def _listroom(ctx: CommandContext, args: dict[str, str]) -> None:
    raw = args.get("page") or "1"
    if not (raw.isascii() and raw.isdigit()):  # int() would take other digits such as ５
        raise LobbyError("no-such-page", page=raw, pages=ctx.world.listroom().data["pages"])
    ctx.send(ctx.world.listroom(int(raw)))


# ---- the table commands, from their declaration in lobby (lobby/tables/commands.py) -------------
def _table_command(name: str) -> Handler:
    """The handler of table command ``name``: the parsed arguments go to the table of the
    user's room."""
    def handler(ctx: CommandContext, args: dict[str, str]) -> Any:
        me = user_of(ctx)
        if name == "look" and (me.room is None or me.room.table is None):
            ctx.send(_lobby_look(ctx, me))     # outside a table: where you are
            return None
        table = _info_table(ctx, args) if name == "spielinfo" and args.get("number") else \
            ctx.world.table_of(me)
        if name in ("start", "startnosave") and ctx.world.closing:
            raise LobbyError("shutting-down")
        table.submit(me.name, name, natural_words(name, args, ctx.lang))
        # the table's events wait for their journal commit: the command is done (its reply, the
        # next line) once they are out, so nobody sees an answer before what it caused
        return table_sent(ctx, table.number)
    return handler


def _info_table(ctx: CommandContext, args: dict[str, str]) -> Any:
    """The table ``/spielinfo NUMBER`` asks about, from anywhere (the lobby too): its room's
    table; ``no-such-table`` for a number no table has (the lobby's 0 included)."""
    raw = args["number"].lstrip("#")
    if not (raw.isascii() and raw.isdigit()) or int(raw) not in ctx.world.rooms or \
            ctx.world.room(int(raw)).table is None:
        raise LobbyError("no-such-table", number=args["number"])
    return ctx.world.room(int(raw)).table


def natural_words(command: str, args: dict[str, str], lang: str) -> dict[str, str]:
    """A table command's arguments with the reader's own words read as the table takes them:
    a rank word (``/wish Dame``, ``/wish queen``, ``/play Ma wish Dame``) as its notation (in
    every language the German names of BSW's letters too), an on or off word
    (``/option drawseat an``, ``oui``, ``til``) as on or off."""
    if command == "wish" and args.get("rank"):
        rank = rank_of_word(args["rank"], lang)
        if rank is not None:
            return {**args, "rank": rank}
    if command == "play" and args.get("cards"):
        words = args["cards"].split()
        for i in range(1, len(words)):
            if words[i - 1].lower() in WISH_WORDS:    # the Mah Jong's wish: /play Ma wunsch Dame
                words[i] = rank_of_word(words[i], lang) or words[i]
        return {**args, "cards": " ".join(words)}
    if command == "option" and args.get("value"):
        flag = on_off(args["value"], lang)
        if flag is not None:
            return {**args, "value": flag}
    return args


def _lobby_look(ctx: CommandContext, me: User) -> Event:
    """``/look`` outside a table: the room you are in, who else is there, the open tables."""
    room = me.room or ctx.world.lobby
    return Event("look", room=room.name, number=room.number,
                 names=[n for n in room.names() if n != me.name], tables=len(ctx.world.tables))


#: the figures the help of a table command names, from their constants
TABLE_HELP_PARAMS: dict[str, dict[str, Any]] = {
    "addbot": {"default": EXPERT_DEFAULT_SECONDS, "low": EXPERT_MIN_SECONDS,
               "high": EXPERT_MAX_SECONDS}}


def table_group() -> CommandGroup:
    """Every table command, from its declaration in lobby (lobby/tables/commands.py)."""
    from lobby.tables.table import TABLE_COMMANDS  # the table module declares them at its handlers
    group = CommandGroup()
    for tc in TABLE_COMMANDS:
        params = table_options.help_params() if tc.name == "option" else TABLE_HELP_PARAMS.get(
            tc.name, {})
        more = table_options.help_lines if tc.name == "option" else None
        group.commands.append(Command(tc.name, tc.args, _table_command(tc.name), tc.aliases,
                                      help_params=params, help_more=more, notices=tc.notices))
    return group
