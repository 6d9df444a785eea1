"""THE command table: one entry per command drives parsing, /help, /help COMMAND and the command
reference in docs/protocol.md.

Adding a command is one decorated handler and its two texts in the message catalog
(lobby/text/messages.py ``HELP_TEXTS``: ``cmd-NAME``, the one-line summary, and ``cmd-NAME-help``)::

    @COMMANDS.command("finger", "NAME")
    async def finger(ctx: CommandContext, args: dict[str, str]) -> None: ...

Argument specs (lobby/tables/command_spec.py) are words separated by spaces: ``NAME`` is one word,
``TEXT...`` takes the rest of the line, ``[X]`` is optional. A handler gets the session
(``CommandContext``) and a dict of argument name (lower case) -> string; it answers with
``ctx.send(event)`` and refuses with ``raise LobbyError(code, ...)``. It may be ``async``
(password work, database queries). The table commands are declared in lobby (at their handlers,
lobby/tables/commands.py) and added here from that declaration, routed to the user's table.

Parsing (BSW conventions): a leading ``/`` is optional; ``;NAME text`` whispers; a command word
may be any unique prefix of a command name or alias. With a ``/``, an unknown word is the error
``unknown-command`` and an ambiguous prefix ``ambiguous-command``; without one, such a line is
speech to your room.

``python -m protocol.commands --markdown`` prints the reference (``--options`` the table options,
``--errors`` the error codes); ``--write-docs [FILE]`` regenerates the generated sections of
docs/protocol.md (a test fails when they are stale).
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator, Mapping, Protocol

from twisted.logger import Logger

from lobby.bots.strategies.expert import DEFAULT_SECONDS as EXPERT_DEFAULT_SECONDS
from lobby.bots.strategies.expert import MAX_SECONDS as EXPERT_MAX_SECONDS
from lobby.bots.strategies.expert import MIN_SECONDS as EXPERT_MIN_SECONDS
from lobby.events import Event
from lobby.storage.accounts import Accounts, check_password, is_reserved
from lobby.storage.store import Store
from lobby.tables import options as table_options
from lobby.tables.command_spec import Arg, CommandKeys, bind, parse_spec
from lobby.text.messages import (
    ERRORS,
    LANGUAGES,
    LobbyError,
    language_name,
    one_of,
    rank_of_word,
    text,
    words_for,
)
from lobby.world.world import LISTROOM_PAGE, User, World
from protocol.render.context import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH

__all__ = ["Arg", "Command", "CommandContext", "CommandTable", "COMMANDS", "Parsed", "parse_line",
           "parse_spec", "commands_markdown", "errors_markdown", "options_markdown", "update_docs"]


class CommandContext(Protocol):
    """What a handler may use: the session of the user who typed the command."""

    user: User | None
    world: World
    store: Store
    accounts: Accounts

    #: per-connection settings (/set), e.g. {"color": "on"}
    settings: dict[str, str]

    #: the language of everything this connection is told (/set lang, the account's, --lang)
    lang: str

    #: the version of machine mode's objects (/iset protocol, %json N)
    protocol: int

    @property
    def json_mode(self) -> bool:
        """Machine mode (/iset json, %json)."""

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
    cost: "int | ByOnline" = 1

    def price(self, world: Any) -> int:
        """What running it costs now (``cost``, or its price by the world's size)."""
        cost = self.cost
        return cost if isinstance(cost, int) else cost.price(world)
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

    def add(self, cmd: Command) -> Command:
        for word in (cmd.name, *cmd.aliases):
            if self.lookup_exact(word) is not None:
                raise ValueError(f"command word {word!r} is defined twice")
        self.commands[cmd.name] = cmd
        return cmd

    def command(self, name: str, args: str = "", *, aliases: tuple[str, ...] = (),
                needs_login: bool = True, secret: bool = False,
                help_params: Mapping[str, Any] | None = None,
                role: str | None = None,
                cost: "int | ByOnline" = 1) -> Callable[[Handler], Handler]:
        """Decorator: register the decorated function as the handler of a new command (its
        summary and help are the catalog's ``cmd-NAME`` and ``cmd-NAME-help``; ``help_params``
        fill the fields the help's template names)."""
        def register(handler: Handler) -> Handler:
            self.add(Command(name, parse_spec(args), handler, tuple(aliases), needs_login,
                             secret, dict(help_params or {}), role, cost))
            return handler
        return register

    def __iter__(self) -> Iterator[Command]:
        return iter(sorted(self.commands.values(), key=lambda c: c.name))

    def lookup_exact(self, word: str) -> Command | None:
        word = word.lower()
        for cmd in self.commands.values():
            if word == cmd.name or word in cmd.aliases:
                return cmd
        return None

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
            raise LobbyError("unknown-command", name=word)
        raise LobbyError("ambiguous-command", name=word,
                         candidates=", ".join("/" + n for n in sorted(matches)))


COMMANDS = CommandTable()
log = Logger(namespace="protocol.commands")

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


def parse_line(line: str, table: CommandTable = COMMANDS) -> Parsed | None:
    """Interpret a line typed by a logged-in user; None for a blank line. Raises LobbyError."""
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
    if not slash and len(word) < MIN_BARE_PREFIX and table.lookup_exact(word) is None:
        return Parsed(None, {}, stripped)  # "hi again" is speech, not /history again
    if not slash:
        # without the slash a line is a command only when its arguments fit the command:
        # "grand merci" and "tichu ?" are speech
        try:
            return Parsed(cmd, cmd.bind(rest))
        except LobbyError:
            return Parsed(None, {}, stripped)
    return Parsed(cmd, cmd.bind(rest))


# ---- the commands of the lobby ----------------------------------------------------------------
def _me(ctx: CommandContext) -> User:
    assert ctx.user is not None, "commands run only for logged-in users"
    return ctx.user


#: /help's groups in their order, each with its commands in the order listed (the group's title
#: is the catalog's ``help-group-GROUP``); a command named in no group is listed under "other"
HELP_GROUPS: dict[str, tuple[str, ...]] = {
    "lobby": ("who", "wwho", "whereis", "finger", "manager", "help", "quit"),
    "chat": ("tell", "add", "sub", "showlist", "notify", "unnotify", "friends"),
    "tables": ("listroom", "newroom", "room", "look", "join", "leave", "addbot", "removebot",
               "option", "start", "startnosave", "spielinfo", "reset", "remove", "accept",
               "refuse", "unseat", "bar", "unbar"),
    "play": ("play", "pass", "bomb", "tichu", "grand", "nogrand", "schupf", "wish", "dragon"),
    "records": ("history", "replay", "tchlog", "rangliste"),
    "account": ("register", "password", "set", "iset"),
    "moderation": ("kick", "ban", "unban", "banlist", "bmute", "announce", "closetable", "role",
                   "shutdown"),
}
#: the roles, least first (lobby/world/moderation.py's ranks)
ROLE_ORDER: tuple[str | None, ...] = (None, "moderator", "admin")


def help_listing(table: "CommandTable", role: str | None,
                 lang: str = "en") -> list[dict[str, str]]:
    """The commands a user with ``role`` may use, grouped (HELP_GROUPS' order): /help's list."""
    rank = ROLE_ORDER.index(role) if role in ROLE_ORDER else 0
    listed: list[dict[str, str]] = []
    seen: set[str] = set()
    groups = list(HELP_GROUPS.items()) + [("other", tuple(c.name for c in table))]
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


@COMMANDS.command("help", "[COMMAND]", aliases=("hilfe", "aide", "ayuda", "hjælp", "hjaelp"))
def _help(ctx: CommandContext, args: dict[str, str]) -> Any:
    name = args.get("command")
    lang = ctx.lang
    if name:
        cmd = COMMANDS.resolve(name.lstrip("/"))
        summary = cmd.summary_text(lang)
        ctx.send(Event("help-command", usage=cmd.usage, aliases=list(cmd.aliases),
                       summary=summary, help=cmd.help_text(lang) or summary))
        return None
    me = _me(ctx)
    moderation = ctx.world.moderation
    if not me.registered or moderation is None:    # guests have no role
        ctx.send(Event("help", commands=help_listing(COMMANDS, None, lang)))
        return None

    async def with_role() -> None:
        role = await moderation.role_of(me)
        ctx.send(Event("help", commands=help_listing(COMMANDS, role, lang)))
    return with_role()


#: /who and /wwho: one more ordinary command per WHO_PER users online (F6 of issue 23: 64 guests
#: asking /wwho 18 times a second made 30 MB in 15 s)
WHO_PER = 25


@COMMANDS.command("who", cost=ByOnline(WHO_PER))
def _who(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.who(_me(ctx)))


@COMMANDS.command("wwho", cost=ByOnline(WHO_PER))
def _wwho(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.wwho())


@COMMANDS.command("tell", "NAME TEXT...", aliases=("whisper",))
def _tell(ctx: CommandContext, args: dict[str, str]) -> None:
    if ctx.world.online(args["name"]) is not None \
            and not ctx.speech_allowed("tell " + args["name"].lower(), args["text"]):
        return          # (the speech budget of the tells to that recipient: protocol.connection.guard)
    ctx.world.tell(_me(ctx), args["name"], args["text"])


#: the machine-mode version whose objects answer the friends commands (render_json.TYPES_SINCE)
FRIENDS_PROTOCOL = 4


def _needs_protocol(ctx: CommandContext, command: str, version: int) -> None:
    """LobbyError('needs-protocol') in machine mode below `version`: the answer would be an
    object that version does not have (text mode and newer versions: nothing)."""
    if ctx.json_mode and ctx.protocol < version:
        raise LobbyError("needs-protocol", command=command, version=version,
                         protocol=ctx.protocol)


@COMMANDS.command("notify", "NAME")
async def _notify(ctx: CommandContext, args: dict[str, str]) -> None:
    _needs_protocol(ctx, "notify", FRIENDS_PROTOCOL)
    await _friends_of(ctx).notify(_me(ctx), args["name"])


@COMMANDS.command("unnotify", "NAME")
async def _unnotify(ctx: CommandContext, args: dict[str, str]) -> None:
    _needs_protocol(ctx, "unnotify", FRIENDS_PROTOCOL)
    await _friends_of(ctx).unnotify(_me(ctx), args["name"])


@COMMANDS.command("friends")
def _friends(ctx: CommandContext, args: dict[str, str]) -> None:
    _needs_protocol(ctx, "friends", FRIENDS_PROTOCOL)
    ctx.send(_friends_of(ctx).listing(_me(ctx)))


def _friends_of(ctx: CommandContext) -> Any:
    from lobby.world.friends import Friends
    if ctx.world.friends is None:            # (a world without a server: in memory only)
        Friends(None, ctx.world)
    return ctx.world.friends


@COMMANDS.command("finger", "[NAME]", cost=2)
async def _finger(ctx: CommandContext, args: dict[str, str]) -> None:
    name = args.get("name") or _me(ctx).name      # without a name: your own
    account = await ctx.store.get_account(name)
    online = ctx.world.online(name)
    if account is None and online is None:
        raise LobbyError("no-such-user", name=name)
    shown = account.name if account is not None else online.name  # type: ignore[union-attr]
    statistics = None
    if account is not None:
        from protocol.commands.records import finger_statistics
        statistics = await finger_statistics(ctx, account.name)
    ctx.send(Event(
        "finger", name=shown, registered=account is not None,
        registered_at=account.registered_at if account else None,
        last_seen=account.last_seen if account else None,
        online=online is not None, statistics=statistics,
        room=online.room.name if online is not None and online.room is not None else None,
        # your own /finger: what your connection's client told (TTYPE/MTTS), to you alone
        **_own_client(ctx, online)))


def _own_client(ctx: CommandContext, online: Any) -> dict[str, str]:
    """``{"client": ...}`` for /finger of yourself when your client told its name (TTYPE)."""
    if online is None or online is not ctx.user:
        return {}
    describe = getattr(ctx, "client_description", None)
    client = describe() if describe is not None else None
    return {"client": client} if client else {}


@COMMANDS.command("register", "PASSWORD", secret=True)
async def _register(ctx: CommandContext, args: dict[str, str]) -> None:
    me = _me(ctx)
    if me.registered:
        raise LobbyError("already-registered")
    if is_reserved(me.name):
        raise LobbyError("reserved-name", name=me.name)
    if ctx.world.moderation is not None:      # (a guest before the staff name was given)
        ctx.world.moderation.check_new_name(me.name)
    held = ctx.world.guest_seats(me.name)
    if held:    # only the seat's key proves its guest: an account must not take the name over
        raise LobbyError("name-held-for-guest", name=me.name, table=held[0].table)
    check_password(args["password"])
    registration = ctx.registration_attempt()       # too-many-registrations
    attempt = ctx.password_attempt(me.name, "register")  # rate limits, before the hash
    try:
        password_hash = await ctx.accounts.hash(args["password"])
        created = await ctx.store.create_account(me.name, password_hash,
                                                 ctx.world.clock.seconds())
    except BaseException:
        registration.cancel()
        attempt.failed()
        raise
    if not created:
        registration.cancel()
        attempt.failed()
        raise LobbyError("name-taken", name=me.name)
    attempt.succeeded()
    me.registered = True
    if "lang" in ctx.settings:      # a language chosen as a guest is the account's from now on
        lang = ctx.settings["lang"]
        ctx.store.set_language(me.name, lang).addErrback(
            lambda f: log.failure("saving the language of {user}", f, user=me.name))
    ctx.send(Event("registered", name=me.name))


@COMMANDS.command("password", "OLD NEW", secret=True)
async def _password(ctx: CommandContext, args: dict[str, str]) -> None:
    me = _me(ctx)
    if not me.registered:
        raise LobbyError("not-registered")
    check_password(args["new"])
    attempt = ctx.password_attempt(me.name, "password")  # rate limits, before any hash
    account = await ctx.store.get_account(me.name)
    if account is None:
        attempt.failed()
        raise LobbyError("not-registered")
    if not await ctx.accounts.verify(args["old"], account.password_hash):
        attempt.failed()
        await ctx.failure_delay()
        raise LobbyError("wrong-password")
    attempt.succeeded()
    await ctx.store.set_password(me.name, await ctx.accounts.hash(args["new"]))
    ctx.send(Event("password-changed"))


@COMMANDS.command("quit", "", aliases=("exit",))
def _quit(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.quit(Event("bye", name=_me(ctx).name))


# ---- rooms and tables ----------------------------------------------------------------------------
@COMMANDS.command("newroom", "[GAME]")
def _newroom(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.world.open_table(_me(ctx), args.get("game") or "tichu")


@COMMANDS.command("room", "NUMBER")
def _room(ctx: CommandContext, args: dict[str, str]) -> Any:
    raw = args["number"].lstrip("#")
    if not (raw.isascii() and raw.isdigit()):  # int() refuses other digits such as ²
        raise LobbyError("no-such-room", number=args["number"])
    me = _me(ctx)
    room = ctx.world.room(int(raw))
    if me.room is room and room.table is not None:
        room.table.submit(me.name, "spielinfo")  # already there: show the table again
        return _table_sent(ctx, room.table.number)
    ctx.world.enter(me, room)
    if int(raw) == 0:
        ctx.send(ctx.world.who(me))
        return None
    return _table_sent(ctx, room.table.number) if room.table is not None else None


def _table_sent(ctx: CommandContext, number: int) -> Any:
    """The events table ``number`` holds back for their journal commit have been sent: a
    Deferred (or None at once). A command that made the table speak is done only then."""
    recorder = ctx.world.recorder
    return recorder.when_sent(number) if recorder is not None else None


@COMMANDS.command("manager", "", aliases=("lobby",))
def _manager(ctx: CommandContext, args: dict[str, str]) -> None:
    me = _me(ctx)
    ctx.world.enter(me, ctx.world.lobby)
    ctx.send(ctx.world.who(me))


@COMMANDS.command("listroom", "[PAGE]", help_params={"per_page": LISTROOM_PAGE})
def _listroom(ctx: CommandContext, args: dict[str, str]) -> None:
    raw = args.get("page") or "1"
    if not (raw.isascii() and raw.isdigit()):  # int() would take other digits such as ５
        raise LobbyError("no-such-page", page=raw, pages=ctx.world.listroom().data["pages"])
    ctx.send(ctx.world.listroom(int(raw)))


@COMMANDS.command("whereis", "NAME")
def _whereis(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.whereis(args["name"]))


#: per-connection settings: name -> accepted values (the session keeps them; only ``lang`` is
#: saved, for a registered name: lobby.storage.store ``set_language``)
SETTINGS: dict[str, tuple[str, ...]] = {"color": ("on", "off"), "lang": LANGUAGES,
                                        "bell": ("on", "off")}
#: other words for the settings' names (BSW's German, British English)
SETTING_ALIASES = {"colour": "color", "farbe": "color", "language": "lang", "sprache": "lang"}


@COMMANDS.command("set", "NAME VALUE", help_params={
    "min_width": MIN_WIDTH, "max_width": MAX_WIDTH, "default_width": DEFAULT_WIDTH,
    "languages": "|".join(LANGUAGES), "language_names": ", ".join(map(language_name, LANGUAGES))})
def _set(ctx: CommandContext, args: dict[str, str]) -> None:
    name, value = args["name"].lower(), args["value"].lower()
    name = SETTING_ALIASES.get(name, name)
    if name == "width":
        _set_width(ctx, args["value"])
        return
    if name not in SETTINGS:
        raise LobbyError("unknown-setting", name=args["name"])
    if SETTINGS[name] == ("on", "off"):
        value = on_off(value, ctx.lang) or value      # /set color an, /set bell oui
    if value not in SETTINGS[name]:
        if name == "lang":
            raise LobbyError("unknown-language", value=args["value"],
                             choices=one_of(SETTINGS[name]))
        raise LobbyError("bad-setting-value", name=name, value=args["value"],
                         expected=one_of(SETTINGS[name]))
    ctx.settings[name] = value
    me = ctx.user
    if name == "lang" and me is not None and me.registered:   # the account keeps it
        ctx.store.set_language(me.name, value).addErrback(
            lambda f: log.failure("saving the language of {user}", f, user=me.name))
    ctx.send(Event("setting", name=name, value=value))


def _set_width(ctx: CommandContext, raw: str) -> None:
    """``/set width N`` (MIN_WIDTH..MAX_WIDTH columns) or ``/set width auto`` (the client's NAWS
    width again, or 80)."""
    if raw.lower() == "auto":
        ctx.settings.pop("width", None)
        ctx.send(Event("setting", name="width", value="auto"))
        return
    if not (raw.isascii() and raw.isdigit()) or not MIN_WIDTH <= int(raw) <= MAX_WIDTH:
        raise LobbyError("bad-width", value=raw, min=MIN_WIDTH, max=MAX_WIDTH)
    ctx.settings["width"] = str(int(raw))
    ctx.send(Event("setting", name="width", value=str(int(raw))))


@COMMANDS.command("iset", "NAME VALUE")
def _iset(ctx: CommandContext, args: dict[str, str]) -> None:
    name, value = args["name"].lower(), args["value"].lower()
    if name == "protocol":
        from protocol.render.json_lines import PROTOCOL_VERSIONS, parse_protocol
        version = parse_protocol(value)
        if version is None:
            raise LobbyError("unknown-protocol", version=args["value"][:20],
                             versions=" ".join(map(str, PROTOCOL_VERSIONS)),
                             newest=PROTOCOL_VERSIONS[-1])
        ctx.set_protocol(version)  # type: ignore[attr-defined]
        return
    if name != "json":
        raise LobbyError("unknown-setting", name=args["name"])
    if value not in ("1", "0", "on", "off"):
        raise LobbyError("bad-setting-value", name=name, value=args["value"],
                         expected=one_of(("1", "0")))
    ctx.set_json_mode(value in ("1", "on"))  # type: ignore[attr-defined]


# ---- the table commands, from their declaration in lobby (lobby/tables/commands.py) -------------
def _table_command(name: str) -> Handler:
    """The handler of table command ``name``: the parsed arguments go to the table of the
    user's room."""
    def handler(ctx: CommandContext, args: dict[str, str]) -> Any:
        me = _me(ctx)
        if name == "look" and (me.room is None or me.room.table is None):
            ctx.send(_lobby_look(ctx, me))     # outside a table: where you are
            return None
        table = ctx.world.table_of(me)
        if name in ("start", "startnosave") and ctx.world.closing:
            raise LobbyError("shutting-down")
        table.submit(me.name, name, natural_words(name, args, ctx.lang))
        # the table's events wait for their journal commit: the command is done (its reply, the
        # next line) once they are out, so nobody sees an answer before what it caused
        return _table_sent(ctx, table.number)
    return handler


def natural_words(command: str, args: dict[str, str], lang: str) -> dict[str, str]:
    """A table command's arguments with the reader's own words read as the table takes them:
    a rank word (``/wish Dame``, ``/wish queen``) as its notation, an on or off word
    (``/option drawseat an``, ``oui``, ``til``) as on or off."""
    if command == "wish" and args.get("rank"):
        rank = rank_of_word(args["rank"], lang)
        if rank is not None:
            return {**args, "rank": rank}
    if command == "option" and args.get("value"):
        flag = on_off(args["value"], lang)
        if flag is not None:
            return {**args, "value": flag}
    return args


def on_off(value: str, lang: str) -> str | None:
    """``on`` or ``off`` for a word of ``lang`` (or English) that says so (the catalog's
    ``words-on``/``words-off``: an, aus, oui, non, til, fra), else None."""
    low = value.strip().lower()
    if low in words_for("words-on", lang):
        return "on"
    if low in words_for("words-off", lang):
        return "off"
    return None


def _lobby_look(ctx: CommandContext, me: User) -> Event:
    """``/look`` outside a table: the room you are in, who else is there, the open tables."""
    room = me.room or ctx.world.lobby
    return Event("look", room=room.name, number=room.number,
                 names=[n for n in room.names() if n != me.name], tables=len(ctx.world.tables))


#: the figures the help of a table command names, from their constants
TABLE_HELP_PARAMS: dict[str, dict[str, Any]] = {
    "addbot": {"default": EXPERT_DEFAULT_SECONDS, "low": EXPERT_MIN_SECONDS,
               "high": EXPERT_MAX_SECONDS}}


def _add_table_commands(table: CommandTable) -> None:
    from lobby.tables.table import TABLE_COMMANDS  # the table module declares them at its handlers
    for tc in TABLE_COMMANDS:
        params = table_options.help_params() if tc.name == "option" else TABLE_HELP_PARAMS.get(
            tc.name, {})
        more = table_options.help_lines if tc.name == "option" else None
        table.add(Command(tc.name, tc.args, _table_command(tc.name), tc.aliases,
                          help_params=params, help_more=more))


_add_table_commands(COMMANDS)

# mute lists and moderation (/add /sub /showlist /kick /ban /unban /bmute /announce /shutdown /role)
from protocol.commands.moderation import register as _register_moderation  # noqa: E402

_register_moderation(COMMANDS)

# game records: /history /replay /rangliste
from protocol.commands.records import register as _register_records  # noqa: E402

_register_records(COMMANDS)


# ---- the generated reference ------------------------------------------------------------------
def commands_markdown(table: CommandTable = COMMANDS) -> str:
    """The command reference (Markdown), generated from the table."""
    out = ["| command | summary |", "| --- | --- |"]
    out += [f"| `{c.usage}` | {c.summary} |" for c in table]
    for c in table:
        out += ["", f"### /{c.name}", "", f"Usage: `{c.usage}`"]
        if c.aliases:
            out += ["", "Aliases: " + ", ".join(f"`/{a}`" for a in c.aliases)]
        # (a backslash of the plain help text stays one in Markdown: \\; is shown as \;)
        out += ["", " ".join((c.help or c.summary).split()).replace("\\", "\\\\")]
    return "\n".join(out) + "\n"


def errors_markdown() -> str:
    """Every error code of the catalog with its English text (Markdown), generated."""
    out = ["| code | message |", "| --- | --- |"]
    for code in sorted(ERRORS):
        message = ERRORS[code].replace("|", "\\|")
        out.append(f"| `{code}` | {message} |")
    return "\n".join(out) + "\n"


def options_markdown() -> str:
    """The table options (Markdown), generated from their declaration (lobby/tables/options.py)."""
    return table_options.options_markdown()


SECTIONS: dict[str, Callable[[], str]] = {"options": options_markdown,
                                          "commands": commands_markdown, "errors": errors_markdown}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _markers(section: str) -> tuple[str, str]:
    return (f"<!-- BEGIN GENERATED {section}: python -m protocol.commands --write-docs -->",
            f"<!-- END GENERATED {section} -->")


def generated_sections(doc: str) -> dict[str, str]:
    """The current contents of the generated sections of a document."""
    found = {}
    for section in SECTIONS:
        begin, end = _markers(section)
        if begin in doc and end in doc:
            found[section] = doc.split(begin, 1)[1].split(end, 1)[0].strip("\n") + "\n"
    return found


def regenerate(doc: str) -> str:
    """``doc`` with every generated section rewritten (appended at the end if missing)."""
    for section, make in SECTIONS.items():
        begin, end = _markers(section)
        block = f"{begin}\n{make()}{end}"
        if begin in doc and end in doc:
            head, tail = doc.split(begin, 1)
            doc = head + block + tail.split(end, 1)[1]
        else:
            doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    return doc


def update_docs(path: Path = DOCS) -> bool:
    """Rewrite the generated sections of ``path``; True if the file changed."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Protocol\n"
    new = regenerate(old)
    if new != old:
        path.write_text(new, encoding="utf-8")
    return new != old


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m protocol.commands",
                                     description="The command reference, generated from the table.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--markdown", action="store_true", help="print the command reference")
    group.add_argument("--errors", action="store_true", help="print the error code list")
    group.add_argument("--options", action="store_true", help="print the table options")
    group.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="FILE",
                       help="regenerate the generated sections of docs/protocol.md")
    opts = parser.parse_args(argv)
    if opts.markdown:
        sys.stdout.write(commands_markdown())
    elif opts.errors:
        sys.stdout.write(errors_markdown())
    elif opts.options:
        sys.stdout.write(options_markdown())
    else:
        changed = update_docs(Path(opts.write_docs))
        sys.stdout.write(f"{opts.write_docs}: {'updated' if changed else 'up to date'}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
