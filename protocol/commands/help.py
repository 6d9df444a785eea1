"""/help: the commands a user may use, grouped, and the help of one command.

``help_group(table)`` declares /help for the table it describes (protocol/commands/__init__.py
adds it last, once every other command is in).
"""
from __future__ import annotations

from typing import Any

from lobby.events import Event
from protocol.commands.base import (
    ROLE_ORDER,
    CommandContext,
    CommandGroup,
    CommandTable,
    user_of,
)

__all__ = ["HELP_GROUPS", "ROLE_ORDER", "help_group", "help_listing"]

#: /help's groups in their order, each with its commands in the order listed (the group's title
#: is the catalog's ``help-group-GROUP``); a command named in no group is listed under "other"
HELP_GROUPS: dict[str, tuple[str, ...]] = {
    "lobby": ("who", "wwho", "whereis", "finger", "manager", "help", "quit"),
    "chat": ("tell", "add", "sub", "showlist", "notify", "unnotify", "friends"),
    "tables": ("listroom", "newroom", "room", "look", "join", "leave", "addbot", "removebot",
               "option", "start", "startnosave", "spielinfo", "reset", "remove", "accept",
               "refuse", "unseat", "bar", "unbar"),
    "play": ("play", "pass", "bomb", "tichu", "grand", "nogrand", "schupf", "wish", "dragon"),
    "records": ("history", "replay", "next", "tchlog", "rangliste"),
    "account": ("register", "password", "set", "iset"),
    "moderation": ("kick", "ban", "unban", "banlist", "bmute", "announce", "closetable", "role",
                   "shutdown"),
}


def help_listing(table: CommandTable, role: str | None,
                 lang: str = "en") -> list[dict[str, str]]:
    """The commands a user with ``role`` may use, grouped (HELP_GROUPS' order): /help's list."""
    rank = ROLE_ORDER.index(role) if role in ROLE_ORDER else 0
    listed: list[dict[str, str]] = []
    seen: set[str] = set()
    groups = [*HELP_GROUPS.items(), ("other", tuple(c.name for c in table))]
    for group, names in groups:
        for name in names:
            cmd = table.commands.get(name)
            if cmd is None or name in seen:
                continue
            seen.add(name)
            if ROLE_ORDER.index(cmd.role) > rank:
                continue
            listed.append({"name": cmd.name, "usage": cmd.usage,
                           "summary": cmd.summary_text(lang), "group": group})
    return listed


def help_group(commands: CommandTable) -> CommandGroup:
    """/help (and its aliases) for the table ``commands``."""
    GROUP = CommandGroup()

    @GROUP.command("help", "[COMMAND]", aliases=("hilfe", "aide", "ayuda", "hjælp", "hjaelp"))
    def _help(ctx: CommandContext, args: dict[str, str]) -> Any:
        name = args.get("command")
        lang = ctx.lang
        if name:
            cmd = commands.resolve(name.lstrip("/"))
            summary = cmd.summary_text(lang)
            ctx.send(Event("help-command", usage=cmd.usage, aliases=list(cmd.aliases),
                           summary=summary, help=cmd.help_text(lang) or summary))
            return None
        me = user_of(ctx)
        moderation = ctx.world.moderation
        if not me.registered or moderation is None:    # guests have no role
            ctx.send(Event("help", commands=help_listing(commands, None, lang)))
            return None

        async def with_role() -> None:
            role = await moderation.role_of(me)
            ctx.send(Event("help", commands=help_listing(commands, role, lang)))
        return with_role()

    return GROUP
