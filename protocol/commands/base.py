"""The command table's parts: ``Command``, ``CommandGroup``, ``CommandTable``, and the parser of
a line (``parse_command_line``).

THE command table (``protocol.commands.COMMANDS``) is built in one place, protocol/commands/
__init__.py, from the groups its modules declare; this module is what they declare them with.

Adding a command is one decorated handler in its group's module and its two texts in the message
catalog (lobby/text/messages.py ``HELP_TEXTS``: ``cmd-NAME``, the one-line summary, and
``cmd-NAME-help``)::

    GROUP = CommandGroup()

    @GROUP.command("finger", "NAME")
    async def finger(ctx: CommandContext, args: dict[str, str]) -> None: ...

Argument specs (lobby/tables/command_spec.py) are words separated by spaces: ``NAME`` is one word,
``TEXT...`` takes the rest of the line, ``[X]`` is optional. A handler gets the session
(``CommandContext``) and a dict of argument name (lower case) -> string; it answers with
``ctx.send(event)`` and refuses with ``raise LobbyError(code, ...)``. It may be ``async``
(password work, database queries). The table commands are declared in lobby (at their handlers,
lobby/tables/commands.py) and added to the table from that declaration (protocol/commands/
tables.py), routed to the user's table.

Parsing (BSW conventions): a leading ``/`` is optional; ``;NAME text`` whispers; a command word
may be any unique prefix of a command name or alias. With a ``/``, an unknown word is the error
``unknown-command`` and an ambiguous prefix ``ambiguous-command``; without one, such a line is
speech to your room.
"""
from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from lobby.events import Event
from lobby.storage.accounts import Accounts
from lobby.storage.store import Store
from lobby.tables.command_spec import Arg, CommandKeys, bind, parse_spec
from lobby.tables.commands import Notices
from lobby.text.messages import LobbyError, text, words_for
from lobby.world.world import User, World

__all__ = ["Arg", "ByOnline", "Command", "CommandContext", "CommandGroup", "CommandTable", "Handler",
           "Parsed", "ROLE_ORDER", "bare_valid", "parse_command_line", "parse_spec", "on_off",
           "table_sent", "user_of"]

class OutputMode(Protocol):
    """What a command asks the connection's output mode (protocol.connection.machine's
    TextOutput or JsonOutput) where a person and a program are answered differently: what to
    do, never which mode it is."""

    @property
    def checks_bare_words(self) -> bool:
        """A word without the slash is a command only when it fits what a person means by it
        (bare.py's checks); False: whenever its arguments bind (programs)."""

    @property
    def describes_bots(self) -> bool:
        """`/finger` of a bot's name says what the bot is (`finger-bot`)."""

    @property
    def warns_on_quit(self) -> bool:
        """`/quit` in a running game warns once before it leaves."""

    def lacks_objects_of(self, version: int) -> bool:
        """An answer made of the objects of protocol `version` would not reach the connection
        (machine mode below that version): the command is refused instead."""


class CommandContext(Protocol):
    """What a handler may use: the session of the user who typed the command."""

    user: User | None

    @property
    def world(self) -> World: ...

    @property
    def store(self) -> Store: ...

    @property
    def accounts(self) -> Accounts: ...

    @property
    def settings(self) -> dict[str, str]:
        """Per-connection settings (/set), e.g. {"color": "on"}."""

    @property
    def lang(self) -> str:
        """The language of everything this connection is told (/set lang, the account's,
        --lang)."""

    #: the version of machine mode's objects (/iset protocol, %json N)
    protocol: int

    @property
    def output(self) -> OutputMode:
        """The connection's output mode (text or machine mode; /iset json, %json replace it)."""

    def set_json_mode(self, on: bool) -> None:
        """/iset json 1|0: switch the connection's output mode."""

    def set_protocol(self, version: int) -> None:
        """/iset protocol N: the version of the objects the connection reads from now on."""

    def next_page(self) -> bool:
        """/next: the next page of the last long answer (text mode); False when none is left."""

    def send(self, event: Event) -> None: ...

    def quit(self, event: Event) -> None: ...

    def password_attempt(self, account: str | None, kind: str) -> Any:
        """protocol.connection.guard's count of password work (before any hash); LobbyError when
        refused."""

    def registration_attempt(self) -> Any:
        """protocol.connection.guard's count of new accounts per address; LobbyError when refused."""

    def failure_delay(self) -> Any:
        """A Deferred that fires after the pause that follows a wrong password."""

    def speech_allowed(self, channel: str, text: str) -> bool:
        """protocol.connection.guard's speech budget of the address group for ``channel`` (a room, the
        tells to one recipient): False drops the line; LobbyError when it is refused."""


Handler = Callable[[CommandContext, dict[str, str]], "Awaitable[None] | None"]


@dataclass(frozen=True, slots=True)
class Command(CommandKeys):
    name: str
    args: tuple[Arg, ...]
    handler: Handler
    aliases: tuple[str, ...] = ()
    needs_login: bool = True
    secret: bool = False  # its arguments (passwords) must never be logged
    #: values the help text's template names (the options' defaults for /option)
    help_params: Mapping[str, Any] = field(default_factory=dict)
    #: the least role that may use it ("moderator", "admin"; None: everybody); /help lists it
    #: only for users with that role (lobby/world/moderation.py checks the role when it is used)
    role: str | None = None
    #: what it costs in the connection's and the address group's budget of work, in ordinary
    #: commands (1: paid by the line's flood-control token alone; more: an archive query, a
    #: replay -- protocol.connection.guard ``ConnectionGuard.command_cost``, docs/operations.md);
    #: a listing whose answer grows with the world declares its price by size instead
    #: (``ByOnline``: /who and /wwho, so that their output has a price too)
    cost: int | ByOnline = 1
    #: whether it tells a table's people something about its user (a table command's own
    #: declaration, lobby/tables/commands.py ``Notices``): such commands spend the budget of
    #: table changes (protocol.connection.guard ``ConnectionGuard.table_change``)
    notices: Notices = False

    def price(self, world: Any) -> int:
        """What running it costs now (``cost``, or its price by the world's size)."""
        cost = self.cost
        return cost if isinstance(cost, int) else cost.price(world)

    def tells_table(self, args: Mapping[str, str]) -> bool:
        """Whether running it with ``args`` tells the table's people about its user."""
        notices = self.notices
        return notices if isinstance(notices, bool) else notices(args)
    #: what follows the help text, made in the reader's language from a declaration (/option:
    #: one line per table option, lobby/tables/options.py ``help_lines``)
    help_more: Callable[[str], str] | None = None

    def summary_text(self, lang: str = "en") -> str:
        return text(self.summary_key, lang, **self.help_params)

    def help_text(self, lang: str = "en") -> str:
        more = "" if self.help_more is None else "\n" + self.help_more(lang)
        return text(self.help_key, lang, **self.help_params) + more

    @property
    def summary(self) -> str:
        return self.summary_text()

    @property
    def help(self) -> str:
        return self.help_text()

    def bind(self, rest: str) -> dict[str, str]:
        """Split the text after the command word into arguments (LobbyError 'bad-arguments')."""
        return bind(self.args, rest, self.usage)


@dataclass(frozen=True)
class ByOnline:
    """The price of a listing of the users online: one ordinary command for every ``per`` of
    them (their names and tables are its output), at least 1 and at most ``most`` (a budget's
    burst can always pay it)."""

    per: int
    most: int = 10

    def price(self, world: Any) -> int:
        online = len(getattr(world, "users", ()))
        return max(1, min(self.most, 1 + online // self.per))


@dataclass
class CommandTable:
    commands: dict[str, Command] = field(default_factory=dict)
    #: what the arguments of a command must be when it is typed without the slash (the name ->
    #: a check, or "always"; protocol/commands/bare.py ``BARE_CHECKS`` for THE table): a command
    #: with arguments and no check is a command whenever its arguments bind
    bare_checks: Mapping[str, Any] = field(default_factory=dict)
    #: commands that need their whole name or an alias when typed without the slash
    bare_whole_word: frozenset[str] = frozenset()
    #: every name and alias -> its command (lookup_exact runs for every line: a dict, not a
    #: walk over the commands), made again when ``commands`` has changed in size
    _words: dict[str, Command] = field(default_factory=dict, init=False, repr=False,
                                       compare=False)
    _indexed: int = field(default=-1, init=False, repr=False, compare=False)

    def add(self, cmd: Command) -> Command:
        for word in (cmd.name, *cmd.aliases):
            if self.lookup_exact(word) is not None:
                raise ValueError(f"command word {word!r} is defined twice")
        self.commands[cmd.name] = cmd
        self._indexed = -1
        return cmd

    def add_group(self, group: CommandGroup) -> None:
        for cmd in group:
            self.add(cmd)

    def command(self, name: str, args: str = "", **declared: Any) -> Callable[[Handler], Handler]:
        """Decorator: as ``CommandGroup.command``, straight into this table (a table made by hand,
        as a test makes one; THE table is built from groups)."""
        def register(handler: Handler) -> Handler:
            group = CommandGroup()
            group.command(name, args, **declared)(handler)
            self.add_group(group)
            return handler
        return register

    def __iter__(self) -> Iterator[Command]:
        return iter(sorted(self.commands.values(), key=lambda c: c.name))

    def lookup_exact(self, word: str) -> Command | None:
        """The command whose name or alias is ``word`` (any case), or None."""
        if self._indexed != len(self.commands):
            words: dict[str, Command] = {}
            for cmd in self.commands.values():      # (the first command that has the word)
                for w in (cmd.name, *cmd.aliases):
                    words.setdefault(w, cmd)
            self._words, self._indexed = words, len(self.commands)
        return self._words.get(word.lower())

    def resolve(self, word: str) -> Command:
        """The command ``word`` names: exact name or alias, else a unique prefix.
        LobbyError 'unknown-command' / 'ambiguous-command' otherwise."""
        exact = self.lookup_exact(word)
        if exact is not None:
            return exact
        w = word.lower()
        matches: dict[str, Command] = {}
        for cmd in self.commands.values():
            for candidate in (cmd.name, *cmd.aliases):
                if candidate.startswith(w):
                    matches.setdefault(cmd.name, cmd)
        if len(matches) == 1:
            return next(iter(matches.values()))
        if not matches:
            # a typo (``/plya``): the nearest command anybody may use, if one is near enough
            words = [c for cmd in self.commands.values() if cmd.role is None
                     for c in (cmd.name, *cmd.aliases)]
            near = difflib.get_close_matches(w, words, n=1, cutoff=0.7) if len(w) >= 3 else []
            if near:
                raise LobbyError("did-you-mean", name=word, command=near[0])
            raise LobbyError("unknown-command", name=word)
        raise LobbyError("ambiguous-command", name=word,
                         candidates=", ".join("/" + n for n in sorted(matches)))


@dataclass
class CommandGroup:
    """The commands one module declares, in the order declared (``@GROUP.command(...)`` at each
    handler). Declaring registers nothing: THE table is built from the groups in one place
    (protocol/commands/__init__.py ``build_commands``)."""

    commands: list[Command] = field(default_factory=list)

    def command(self, name: str, args: str = "", *, aliases: tuple[str, ...] = (),
                needs_login: bool = True, secret: bool = False,
                help_params: Mapping[str, Any] | None = None,
                role: str | None = None,
                cost: int | ByOnline = 1) -> Callable[[Handler], Handler]:
        """Decorator: the decorated function is the handler of a new command of this group (its
        summary and help are the catalog's ``cmd-NAME`` and ``cmd-NAME-help``; ``help_params``
        fill the fields the help's template names)."""
        def declare(handler: Handler) -> Handler:
            self.commands.append(Command(name, parse_spec(args), handler, tuple(aliases),
                                         needs_login, secret, dict(help_params or {}), role, cost))
            return handler
        return declare

    def __iter__(self) -> Iterator[Command]:
        return iter(self.commands)


#: without a slash, a command word that is only a prefix needs this many letters (short words
#: such as "hi" or "ja" are speech); with a slash any unique prefix works
MIN_BARE_PREFIX = 3
#: a line beginning with one of these whispers: ;NAME TEXT (BSW's), @NAME TEXT (for tintin++,
#: which reads ; as its own command separator), \;NAME TEXT (tintin++'s escaped ;)
WHISPER_PREFIXES = (";", "\\;", "@")


# ---- parsing ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Parsed:
    """One input line: a command with bound arguments, or speech (``command`` None)."""

    command: Command | None
    args: dict[str, str]
    text: str = ""


def parse_command_line(line: str, table: CommandTable, ctx: Any = None) -> Parsed | None:
    """Interpret a line typed by a logged-in user against ``table``; None for a blank line.
    Raises LobbyError. (``protocol.commands.parse_line`` is this against THE table.) ``ctx``,
    the session of the user who typed it, lets a line without the slash be checked for valid
    arguments (``bare_valid``) and against the commands that need the slash; without it, and
    in machine mode (a program, not a person: old bots send `nogrand` without the slash), such
    a line is a command when its arguments bind."""
    stripped = line.strip()
    if not stripped:
        return None
    if stripped.startswith(WHISPER_PREFIXES):
        # @NAME: the whisper for tintin++ users, since tintin++ reads ; as its own command
        # separator (\;NAME works there too: tintin++ sends the line without the backslash)
        prefix = stripped[0]
        name, _, message = stripped.lstrip("\\")[1:].partition(" ")
        message = message.strip()
        if not name or not message:
            raise LobbyError("bad-arguments", usage=("@" if prefix == "@" else ";") + "NAME TEXT...")
        tell = table.lookup_exact("tell")
        assert tell is not None
        return Parsed(tell, {"name": name, "text": message})
    slash = stripped.startswith("/")
    word, _, rest = stripped.lstrip("/").partition(" ")
    if not word:
        raise LobbyError("unknown-command", name="")
    try:
        cmd = table.resolve(word)
    except LobbyError:
        if slash:
            raise
        return Parsed(None, {}, stripped)
    if not slash and table.lookup_exact(word) is None and (
            len(word) < MIN_BARE_PREFIX or cmd.name in table.bare_whole_word):
        return Parsed(None, {}, stripped)  # "hi again" is speech, not /history again
    if not slash:
        # without the slash a line is a command only when its arguments fit the command:
        # "grand merci" and "tichu ?" are speech
        try:
            args = cmd.bind(rest)
        except LobbyError:
            return Parsed(None, {}, stripped)
        if ctx is not None and not ctx.output.checks_bare_words:
            # machine mode: a program's line is a command when its arguments bind, as it has
            # always been (bots send `#a nogrand`, `#a play R5`): the checks below are for people
            return Parsed(cmd, args)
        if table.bare_checks.get(cmd.name) == "never" or (
                ctx is not None and not bare_valid(cmd, args, ctx, table)):
            return Parsed(None, {}, stripped)  # "help me", "join us", "play nice": speech
        return Parsed(cmd, args)
    return Parsed(cmd, cmd.bind(rest))


#: the roles, least first (lobby/world/moderation.py's ranks)
ROLE_ORDER: tuple[str | None, ...] = (None, "moderator", "admin")


def bare_valid(cmd: Command, args: dict[str, str], ctx: Any, table: CommandTable) -> bool:
    """Whether a command typed without the slash, its arguments bound, is one: a moderation
    command only for a user with its role, and arguments valid by the table's ``bare_checks``
    (protocol/commands/bare.py). Reads memory only (the world, the user's table)."""
    if cmd.role is not None:
        user = getattr(ctx, "user", None)
        role = ctx.world.staff_role(user.name) if user is not None else None
        if ROLE_ORDER.index(role if role in ROLE_ORDER else None) < ROLE_ORDER.index(cmd.role):
            return False
    check = table.bare_checks.get(cmd.name)
    if check == "never":
        return False                   # /grand, /tichu, /start...: the slash, never a chat word
    if check is None or check == "always" or not cmd.args:
        return True
    return bool(check(args, ctx, table))


# ---- what the handlers of every group share ---------------------------------------------------
def user_of(ctx: CommandContext) -> User:
    """The user who typed the command (commands run only for logged-in users)."""
    assert ctx.user is not None, "commands run only for logged-in users"
    return ctx.user


def table_sent(ctx: CommandContext, number: int) -> Any:
    """The events table ``number`` holds back for their journal commit have been sent: a
    Deferred (or None at once). A command that made the table speak is done only then."""
    recorder = ctx.world.recorder
    return recorder.when_sent(number) if recorder is not None else None


def on_off(value: str, lang: str) -> str | None:
    """``on`` or ``off`` for a word of ``lang`` (or English) that says so (the catalog's
    ``words-on``/``words-off``: an, aus, oui, non, til, fra), else None."""
    low = value.strip().lower()
    if low in words_for("words-on", lang):
        return "on"
    if low in words_for("words-off", lang):
        return "off"
    return None
