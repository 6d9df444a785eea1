"""The table commands, each declared once: name, aliases, argument spec, help keys, handler.

A handler is a method of ``lobby.tables.table.TableActor``, registered with the decorator::

    @TABLE_COMMANDS.command("join", "[SEAT]")
    def cmd_join(self, user: str, args: dict[str, str]) -> None: ...

and gets the arguments parsed once, by the spec (lobby/tables/command_spec.py): a dict of argument key
-> text. The wire layer (protocol/commands/tables.py) puts every table command into THE command table
from this registry (the same spec, aliases, and help texts: ``cmd-NAME`` and ``cmd-NAME-help``
in the message catalog), parses what a person typed and hands the table the parsed dict; a bot
or a test may give the table the text after the command word (or its words), which is parsed by
the same spec here. Aliases (BSW's ``kartentausch``, ``passe``, ...) are resolved by ``lookup``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lobby.tables.command_spec import Arg, CommandKeys, bind, keyed, parse_spec

__all__ = ["Notices", "TableCommand", "TableCommands", "TABLE_COMMANDS", "TableArgs"]

#: what a table command may be given: parsed arguments, or the text after the command word
#: (or its words), or nothing
TableArgs = Mapping[str, Any] | str | list[str] | tuple[str, ...] | None

Handler = Callable[[Any, str, dict[str, str]], None]
#: whether a table command, with these arguments, tells the table's people something about its
#: user (True, False, or a test of the parsed arguments: ``/option NAME VALUE`` does, the
#: listing ``/option`` does not). The wire layer's guard prices those (issue 23, B5:
#: ``--table-changes-per-minute``), so one user cannot flood a table's people with notices.
Notices = bool | Callable[[Mapping[str, str]], bool]
#: a handler as declared (it may take more, with defaults: the decorator hands it back as it is)
H = TypeVar("H", bound=Handler)


@dataclass(frozen=True, slots=True)
class TableCommand(CommandKeys):
    name: str
    args: tuple[Arg, ...]
    handler: Handler
    aliases: tuple[str, ...] = ()
    notices: Notices = False

    def parse(self, args: TableArgs) -> dict[str, str]:
        """The arguments by key: a mapping is taken as parsed already (its values as text);
        text (or a list of words) is bound by the spec. LobbyError 'bad-arguments'."""
        if args is None:
            return bind(self.args, "", self.usage)
        if isinstance(args, str):
            return bind(self.args, args, self.usage)
        if isinstance(args, (list, tuple)):
            return bind(self.args, " ".join(str(a) for a in args), self.usage)
        return keyed(self.args, args, self.usage)


@dataclass
class TableCommands:
    commands: dict[str, TableCommand] = field(default_factory=dict)
    _words: dict[str, TableCommand] = field(default_factory=dict)

    def command(self, name: str, spec: str = "", *, aliases: tuple[str, ...] = (),
                notices: Notices = False) -> Callable[[H], H]:
        """Decorator: the decorated TableActor method handles table command ``name``;
        ``notices``: it tells the table's people about its user (see ``Notices``)."""
        def register(handler: H) -> H:
            cmd = TableCommand(name, parse_spec(spec), handler, tuple(aliases), notices)
            for word in (name, *aliases):
                if word in self._words:
                    raise ValueError(f"table command word {word!r} is defined twice")
                self._words[word] = cmd
            self.commands[name] = cmd
            return handler
        return register

    def lookup(self, word: str) -> TableCommand | None:
        """The command named ``word`` (its name or an alias), or None."""
        return self._words.get(word.lower())

    def __iter__(self) -> Iterator[TableCommand]:
        return iter(self.commands.values())

    def __contains__(self, name: object) -> bool:
        return name in self.commands


TABLE_COMMANDS = TableCommands()
