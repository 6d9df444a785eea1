"""THE command table: every command of a person or a bot, one module per group, the table built
here, in one place (``build_commands``), from the groups the modules declare.

- `base.py`: what the groups are made of (``Command``, ``CommandGroup``, ``CommandTable``,
  ``CommandContext``) and the parser of a line;
- `people.py`: /who, /wwho, /whereis, /finger, /manager, /quit, /tell, /notify, /unnotify, /friends;
- `account.py`: /register, /password; `settings.py`: /set, /iset;
- `tables.py`: /newroom, /room, /listroom and every table command from its declaration in lobby
  (lobby/tables/commands.py);
- `moderation.py`: mute lists and the moderators' and admins' commands;
- `records.py`: /history, /replay, /tchlog, /rangliste (and /finger's statistics);
- `help.py`: /help, for the table it describes;
- `bare.py`: what a command's arguments must be when it is typed without the slash;
- `docs.py`: the generated reference of docs/protocol.md (``python -m protocol.commands
  --write-docs``).

A module declares its commands (``GROUP = CommandGroup()``, ``@GROUP.command(...)`` at each
handler); importing it registers nothing. /help, /help COMMAND, the reference and ``parse_line``
work on the table built here.

May import: lobby (the world the commands act on), protocol.render, protocol.commands; Twisted.
Never protocol.telnet, protocol.connection, protocol.web or protocol.process
(tests/project/test_layers.py).
"""
from __future__ import annotations

from typing import Any

from protocol.commands import account, help, moderation, people, records, settings, tables
from protocol.commands.bare import BARE_CHECKS, BARE_WHOLE_WORD
from protocol.commands.base import (
    Command,
    CommandContext,
    CommandGroup,
    CommandTable,
    Parsed,
    parse_command_line,
)

__all__ = ["COMMANDS", "Command", "CommandContext", "CommandGroup", "CommandTable", "Parsed",
           "build_commands", "parse_line"]


def build_commands() -> CommandTable:
    """THE command table: every group, and /help for it."""
    table = CommandTable(bare_checks=BARE_CHECKS, bare_whole_word=BARE_WHOLE_WORD)
    for group in (people.GROUP, account.GROUP, tables.GROUP, settings.GROUP, tables.table_group(),
                  moderation.GROUP, records.GROUP, help.help_group(table)):
        table.add_group(group)
    return table


COMMANDS = build_commands()


def parse_line(line: str, table: CommandTable = COMMANDS, ctx: Any = None) -> Parsed | None:
    """A line typed by a logged-in user (``ctx``: their session), against THE command table
    unless another is given; None for a blank line. Raises LobbyError (base.py
    ``parse_command_line``)."""
    return parse_command_line(line, table, ctx)
