"""THE command table: one entry per command drives parsing, /help, /help COMMAND and the command
reference in docs/protocol.md.

Adding a command is one decorated handler::

    @COMMANDS.command("finger", "NAME", "Account facts about NAME.", help="...")
    async def finger(ctx: CommandContext, args: dict[str, str]) -> None: ...

Argument specs are words separated by spaces: ``NAME`` is one word, ``TEXT...`` takes the rest of
the line, ``[X]`` is optional. A handler gets the session (``CommandContext``) and a dict of
argument name (lower case) -> string; it answers with ``ctx.send(event)`` and refuses with
``raise LobbyError(code, ...)``. It may be ``async`` (password work, database queries).

Parsing (BSW conventions): a leading ``/`` is optional; ``;NAME text`` whispers; a command word
may be any unique prefix of a command name or alias. With a ``/``, an unknown word is the error
``unknown-command`` and an ambiguous prefix ``ambiguous-command``; without one, such a line is
speech to your room.

``python -m protocol.commands --markdown`` prints the reference; ``--write-docs [FILE]``
regenerates the generated sections of docs/protocol.md (a test fails when they are stale).
"""
from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator, Protocol

from lobby.accounts import Accounts, check_password, is_reserved
from lobby.events import Event
from lobby.messages import ERRORS, LobbyError
from lobby.store import Store
from lobby.world import User, World

__all__ = ["Arg", "Command", "CommandContext", "CommandTable", "COMMANDS", "Parsed", "parse_line",
           "commands_markdown", "errors_markdown", "update_docs"]


class CommandContext(Protocol):
    """What a handler may use: the session of the user who typed the command."""

    user: User | None
    world: World
    store: Store
    accounts: Accounts

    #: per-connection settings (/set), e.g. {"color": "on"}
    settings: dict[str, str]

    def send(self, event: Event) -> None: ...

    def quit(self, event: Event) -> None: ...

    def password_attempt(self, account: str | None, kind: str) -> Any:
        """protocol.guard's count of password work (before any hash); LobbyError when
        refused."""

    def registration_attempt(self) -> Any:
        """protocol.guard's count of new accounts per address; LobbyError when refused."""

    def failure_delay(self) -> Any:
        """A Deferred that fires after the pause that follows a wrong password."""


Handler = Callable[[CommandContext, dict[str, str]], "Awaitable[None] | None"]


@dataclass(frozen=True, slots=True)
class Arg:
    name: str  # the placeholder as shown: NAME, TEXT
    rest: bool = False  # takes the rest of the line
    optional: bool = False

    @property
    def key(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        s = self.name + ("..." if self.rest else "")
        return f"[{s}]" if self.optional else s


def parse_spec(spec: str) -> tuple[Arg, ...]:
    """``"NAME TEXT..."`` -> Args. Only the last argument may take the rest of the line."""
    args: list[Arg] = []
    words = spec.split()
    for i, word in enumerate(words):
        optional = word.startswith("[") and word.endswith("]")
        word = word.strip("[]")
        rest = word.endswith("...")
        word = word.rstrip(".")
        if rest and i != len(words) - 1:
            raise ValueError(f"only the last argument may take the rest of the line: {spec!r}")
        if args and args[-1].optional and not optional:
            raise ValueError(f"a required argument follows an optional one: {spec!r}")
        args.append(Arg(word, rest, optional))
    return tuple(args)


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    args: tuple[Arg, ...]
    summary: str
    handler: Handler
    help: str = ""
    aliases: tuple[str, ...] = ()
    needs_login: bool = True
    secret: bool = False  # its arguments (passwords) must never be logged

    @property
    def usage(self) -> str:
        return " ".join(["/" + self.name, *(str(a) for a in self.args)])

    def bind(self, rest: str) -> dict[str, str]:
        """Split the text after the command word into arguments (LobbyError 'bad-arguments')."""
        values: dict[str, str] = {}
        remaining = rest.strip()
        for arg in self.args:
            if not remaining:
                if arg.optional:
                    continue
                raise LobbyError("bad-arguments", usage=self.usage)
            if arg.rest:
                values[arg.key], remaining = remaining, ""
            else:
                word, _, remaining = remaining.partition(" ")
                values[arg.key] = word
                remaining = remaining.strip()
        if remaining:
            raise LobbyError("bad-arguments", usage=self.usage)
        return values


@dataclass
class CommandTable:
    commands: dict[str, Command] = field(default_factory=dict)

    def add(self, cmd: Command) -> Command:
        for word in (cmd.name, *cmd.aliases):
            if self.lookup_exact(word) is not None:
                raise ValueError(f"command word {word!r} is defined twice")
        self.commands[cmd.name] = cmd
        return cmd

    def command(self, name: str, args: str, summary: str, *, help: str = "",
                aliases: tuple[str, ...] = (), needs_login: bool = True,
                secret: bool = False) -> Callable[[Handler], Handler]:
        """Decorator: register the decorated function as the handler of a new command."""
        def register(handler: Handler) -> Handler:
            self.add(Command(name, parse_spec(args), summary, handler, help.strip(),
                             tuple(aliases), needs_login, secret))
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

#: without a slash, a command word that is only a prefix needs this many letters (short words
#: such as "hi" or "ja" are speech); with a slash any unique prefix works
MIN_BARE_PREFIX = 3


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
    if stripped.startswith(";"):
        name, _, message = stripped[1:].partition(" ")
        message = message.strip()
        if not name or not message:
            raise LobbyError("bad-arguments", usage=";NAME TEXT...")
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
    return Parsed(cmd, cmd.bind(rest))


# ---- the commands of the lobby ----------------------------------------------------------------
def _me(ctx: CommandContext) -> User:
    assert ctx.user is not None, "commands run only for logged-in users"
    return ctx.user


@COMMANDS.command("help", "[COMMAND]", "List the commands, or explain one.", help="""
Without an argument, lists every command with a one-line summary. /help COMMAND shows the
command's usage, aliases and a longer explanation; unique prefixes work here too.
""")
def _help(ctx: CommandContext, args: dict[str, str]) -> None:
    name = args.get("command")
    if name:
        cmd = COMMANDS.resolve(name.lstrip("/"))
        ctx.send(Event("help-command", usage=cmd.usage, aliases=list(cmd.aliases),
                       summary=cmd.summary, help=cmd.help or cmd.summary))
        return
    ctx.send(Event("help", commands=[{"name": c.name, "usage": c.usage, "summary": c.summary}
                                     for c in COMMANDS]))


@COMMANDS.command("who", "", "Who is in your room.", help="""
Lists the people in the room you are in (at first the lobby, room 0).
""")
def _who(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.who(_me(ctx)))


@COMMANDS.command("wwho", "", "Everybody online, and where they are.", help="""
Lists everybody who is online, with the room each one is in; guests are marked.
""")
def _wwho(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.wwho())


@COMMANDS.command("tell", "NAME TEXT...", "Whisper TEXT to NAME (also: ;NAME TEXT).", help="""
Sends a private message to one person who is online, wherever they are. Only NAME sees it; you
see a confirmation. ;NAME TEXT is the short form.
""", aliases=("whisper",))
def _tell(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.world.tell(_me(ctx), args["name"], args["text"])


@COMMANDS.command("finger", "NAME", "Account facts, statistics and rating of NAME.", help="""
Shows whether NAME is registered and since when, when NAME was last seen, and whether NAME is
online now (and in which room); for a registered player also the statistics (games, wins,
rounds, Tichu and Grand Tichu calls and successes, double victories) and the Team Elo rating.
""")
async def _finger(ctx: CommandContext, args: dict[str, str]) -> None:
    name = args["name"]
    account = await ctx.store.get_account(name)
    online = ctx.world.online(name)
    if account is None and online is None:
        raise LobbyError("no-such-user", name=name)
    shown = account.name if account is not None else online.name  # type: ignore[union-attr]
    statistics = None
    if account is not None:
        from protocol.record_commands import finger_statistics
        statistics = await finger_statistics(ctx, account.name)
    ctx.send(Event(
        "finger", name=shown, registered=account is not None,
        registered_at=account.registered_at if account else None,
        last_seen=account.last_seen if account else None,
        online=online is not None, statistics=statistics,
        room=online.room.name if online is not None and online.room is not None else None))


@COMMANDS.command("register", "PASSWORD", "Register the name you are using.", help="""
Registers your current name with PASSWORD (4 to 128 characters, no spaces). From then on
logging in with this name asks for the password, and nobody else can use it. Guest names
(Guest1234) cannot be registered: log in with a name of your own first.
""", secret=True)
async def _register(ctx: CommandContext, args: dict[str, str]) -> None:
    me = _me(ctx)
    if me.registered:
        raise LobbyError("already-registered")
    if is_reserved(me.name):
        raise LobbyError("reserved-name", name=me.name)
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
    ctx.send(Event("registered", name=me.name))


@COMMANDS.command("password", "OLD NEW", "Change your password.", help="""
Changes the password of your registered name from OLD to NEW.
""", secret=True)
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


@COMMANDS.command("quit", "", "Leave the server.", help="""
Closes your connection. Your account (if registered) stays.
""", aliases=("exit",))
def _quit(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.quit(Event("bye", name=_me(ctx).name))


# ---- rooms and tables ----------------------------------------------------------------------------
@COMMANDS.command("newroom", "[GAME]", "Open a new table (GAME: tichu) and go there.", help="""
Opens a new table room for GAME (only tichu for now, the default) with you as its host, and
moves you there. The table gets the smallest free number; /listroom shows it. Then /join sits
down, /option sets the options, /start begins when four sit.
""")
def _newroom(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.world.open_table(_me(ctx), args.get("game") or "tichu")


@COMMANDS.command("room", "NUMBER", "Go to room NUMBER (0 is the lobby; a table: watch it).", help="""
Moves you to room NUMBER: 0 is the lobby, every other room belongs to the table with that
number. Entering a table room means watching the table (you see only public information); /join
takes a seat there. A player who left a running game comes back to it this way. /room N for
the room you are in shows the table's /spielinfo.
""")
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
    recorder = getattr(ctx.world, "recorder", None)
    return recorder.when_sent(number) if recorder is not None else None


@COMMANDS.command("manager", "", "Return to the lobby (room 0).", help="""
Takes you back to the lobby (room 0, BSW's village). Before a game starts this frees your seat;
leaving a running game makes you vanish for the other players (/room N takes you back).
""", aliases=("lobby",))
def _manager(ctx: CommandContext, args: dict[str, str]) -> None:
    me = _me(ctx)
    ctx.world.enter(me, ctx.world.lobby)
    ctx.send(ctx.world.who(me))


@COMMANDS.command("listroom", "", "List the open tables.", help="""
Lists every open table: its number, game, state (waiting, playing, finished), the players by
seat, the options that differ from the defaults, and how many watch.
""")
def _listroom(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.listroom())


@COMMANDS.command("whereis", "NAME", "Which room NAME is in.", help="""
Tells which room (the lobby or a table's room, with its number) NAME is in.
""")
def _whereis(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.send(ctx.world.whereis(args["name"]))


#: per-connection settings: name -> accepted values (the session keeps them; never saved)
SETTINGS: dict[str, tuple[str, ...]] = {"color": ("on", "off")}


@COMMANDS.command("set", "NAME VALUE", "Change a setting of this connection (color on|off).", help="""
Settings of this connection only (they are not saved): /set color on shows the cards of hands
and tricks in ANSI colours per suit (Schwert bold, Pagode blue, Jade green, Stern red, the
specials yellow); /set color off turns it off again.
""")
def _set(ctx: CommandContext, args: dict[str, str]) -> None:
    name, value = args["name"].lower(), args["value"].lower()
    if name in ("colour", "farbe"):
        name = "color"
    if name not in SETTINGS:
        raise LobbyError("unknown-setting", name=args["name"])
    if value not in SETTINGS[name]:
        raise LobbyError("bad-setting-value", name=name, value=args["value"],
                         expected=" or ".join(SETTINGS[name]))
    ctx.settings[name] = value
    ctx.send(Event("setting", name=name, value=value))


@COMMANDS.command("iset", "NAME VALUE", "Interface setting of this connection: /iset json 1|0.", help="""
/iset json 1 switches this connection to machine mode: from then on every line the server sends
is one JSON object with a type field, and a command line may start with #ID (1 to 32 letters,
digits, - or _) that its reply repeats as "id". /iset json 0 switches back to text. A first line
%json before the login does the same from the start. Never saved to the account; docs/protocol.md
("Machine mode") describes every object.
""")
def _iset(ctx: CommandContext, args: dict[str, str]) -> None:
    name, value = args["name"].lower(), args["value"].lower()
    if name != "json":
        raise LobbyError("unknown-setting", name=args["name"])
    if value not in ("1", "0", "on", "off"):
        raise LobbyError("bad-setting-value", name=name, value=args["value"], expected="1 or 0")
    ctx.set_json_mode(value in ("1", "on"))  # type: ignore[attr-defined]


# ---- the table commands, generated from lobby.table.TABLE_COMMANDS ----------------------------
#: command -> (argument spec, summary, help) of the table commands; a command of the table that is
#: missing here still gets an entry (from the table's own usage and help, or its argument keys)
TABLE_HELP: dict[str, tuple[str, str, str]] = {
    "join": ("[SEAT]", "Take a seat at this table (first free, or seat 1..4).", """
Sits you down in seat SEAT (1 to 4) or, without SEAT, the first free seat, before the start.
Seats 1 and 3 play together against seats 2 and 4; play goes 1, 2, 3, 4. With the option
tichujoin the first two to join are partners; with drawseat the seats are drawn at the start.
"""),
    "leave": ("", "Give up your seat before the start.", """
Frees your seat again; you stay in the room and watch. Not possible while the game runs.
"""),
    "start": ("", "Start the game when four players sit.", """
Starts the game once all four seats are taken. Any seated player may start, or only the host
with the option host. The seating, the options and the seed are fixed from here on.
"""),
    "startnosave": ("", "Start an unrated game that counts in no statistics.", """
Starts the game like /start, but it is unrated and counts in nobody's statistics (it is still
stored: /history and /replay show it). Games with bots or guests, and games with a fixed seed
(/option seed), are unrated anyway.
"""),
    "spielinfo": ("", "The table's options, seats, scores and state.", """
Shows the state of the table (waiting, playing, finished), its host, the players by seat, the
score and round, the options that differ from the defaults, who watches, and after the end the
outcome.
"""),
    "reset": ("", "Clear a finished table for a new game.", """
After a game has ended, clears the table for the next game: the players who are still here keep
their seats, the options stay. Then /start again.
"""),
    "option": ("[NAME] [VALUE...]", "Set a table option before the start; /option help lists them.", """
/option help lists the options with their current values. Before the start the host (or, without
the option host, any seated player) sets them: round X (at most X rounds, off), tichujoin (the
first two to join are partners), turnier (9 rounds with rotating partners, victory points),
target N (the score that ends the game, default 1000), drawseat (random seats), host (only the
host starts and sets options), dragon fixed (the Dragon trick goes to the next opponent),
bombwindow SECONDS (time to bomb a won trick before it goes on), seed N (same seed, same cards;
off for random deals; a seeded game is unrated), log (keep the finished game also as a BSW .tch
log, on), grace SECONDS (how long a player who vanished may come back before the others may
/remove them, default 120). A flag without VALUE toggles; on/off set it.
"""),
    "remove": ("NAME", "Propose to remove a player who vanished during the game.", """
When a player has vanished (disconnected or left the room) during a game, another player may
propose to remove them; the other seated players vote with /accept or /refuse, and a majority
decides. A removed player's seat is taken over by a bot that plays on with their cards.
"""),
    "accept": ("", "Vote yes on the running /remove.", """
Votes for removing the vanished player named by the running /remove proposal.
"""),
    "refuse": ("", "Vote no on the running /remove.", """
Votes against removing the vanished player named by the running /remove proposal.
"""),
    "grand": ("", "Call Grand Tichu (after your first 8 cards).", """
After the first 8 cards, before the last 6 are dealt, every player answers /grand (call Grand
Tichu: 200 points if you go out first, minus 200 otherwise) or /nogrand.
"""),
    "nogrand": ("", "Call no Grand Tichu (after your first 8 cards).", """
Declines Grand Tichu. When all four have answered, the last 6 cards are dealt.
"""),
    "tichu": ("", "Call Tichu (before your first card).", """
Calls Tichu: 100 points if you go out first, minus 100 otherwise. Possible any time before you
play your first card (also during the exchange), once per round.
"""),
    "schupf": ("NEXT PARTNER PREVIOUS", "Exchange: one card each to next player, partner, previous player.", """
Gives three cards at the start of each round, in this order: to the next player in turn order
(the opponent after you), to your partner, to the previous player (the opponent before you), as
in BSW's logs. Example: /schupf R2 SA Hu. Rank-only shorthand works (/schupf 2 A 3).
"""),
    "play": ("CARDS...", "Play cards (BSW notation), e.g. /play R10 G10 or /play 7 7.", """
Plays CARDS in BSW notation: suit S (Schwert), B (Pagode), G (Jade), R (Stern) and rank 2-10, B
(Bube, jack), D (Dame), K (Koenig), A (As), or Ma (Mah Jong), Hu (Dog), Ph (Phoenix), Dr (Dragon).
Ph=7 names the rank the Phoenix stands for where it is not clear. With the Mah Jong add a wish:
/play Ma wish 8 (or /wish RANK right after). Rank-only shorthand (/play 7 7) is accepted where it
is unambiguous; it picks cards that do not break a bomb. A bomb may be played out of turn with
/play too.
"""),
    "pass": ("", "Pass (do not play on the current trick).", """
Passes on the current trick. Not possible when you lead, nor when the open wish binds you.
"""),
    "bomb": ("CARDS...", "Bomb, also out of turn: /bomb S5 B5 G5 R5.", """
Plays a bomb (four of a kind, or a straight of five or more cards in one suit) at any time while
a trick is on the table, also when it is not your turn.
"""),
    "wish": ("RANK", "Wish a rank after playing the Mah Jong (/wish none: no wish).", """
Right after you played the Mah Jong without a wish: /wish RANK (2 to A) or /wish none. The
next player who holds a card of that rank and can play it must do so until it is played.
"""),
    "dragon": ("TO", "Give away a trick won with the Dragon: /dragon left|right.", """
Who wins a trick with the Dragon gives it to an opponent: /dragon right (the next player in turn
order) or /dragon left (the previous one); a seat number or a name works too. With the option
dragon fixed it goes to the next opponent automatically.
"""),
}


def _table_command(name: str, spec: tuple[Arg, ...], keys: tuple[str, ...]) -> Handler:
    """The handler of table command ``name``: routed to the table of the user's room."""
    as_mapping = tuple(a.key for a in spec) == keys

    def handler(ctx: CommandContext, args: dict[str, str]) -> None:
        me = _me(ctx)
        table = ctx.world.table_of(me)
        if as_mapping:
            payload: Any = {k: args[k] for k in keys if k in args}
        else:
            payload = " ".join(args[a.key] for a in spec if a.key in args)
        if name in ("start", "startnosave") and getattr(ctx.world, "closing", False):
            raise LobbyError("shutting-down")
        table.submit(me.name, name, payload)
        # the table's events wait for their journal commit: the command is done (its reply, the
        # next line) once they are out, so nobody sees an answer before what it caused
        return _table_sent(ctx, table.number)
    return handler


def _add_table_commands(table: CommandTable) -> None:
    from lobby import table as tables
    aliases: dict[str, list[str]] = {}
    for alias, target in tables.COMMAND_ALIASES.items():
        aliases.setdefault(target, []).append(alias)
    usages: dict[str, str] = getattr(tables, "BOT_USAGE", {})
    helps: dict[str, str] = getattr(tables, "BOT_HELP", {})
    for name, keys in tables.TABLE_COMMANDS.items():
        if name in TABLE_HELP:
            spec_text, summary, long_help = TABLE_HELP[name]
        else:
            usage = usages.get(name, "")
            spec_text = usage.split(None, 1)[1] if " " in usage else \
                " ".join(f"[{k.upper()}]" for k in keys)
            summary = helps.get(name, f"The table command /{name}.").split(". ")[0]
            summary = summary.split(";")[0].rstrip(".") + "."
            long_help = helps.get(name, summary)
        spec = parse_spec(spec_text)
        table.add(Command(name, spec, summary, _table_command(name, spec, keys),
                          textwrap.fill(" ".join(long_help.split()), 92),
                          tuple(aliases.get(name, ()))))


_add_table_commands(COMMANDS)

# mute lists and moderation (/add /sub /showlist /kick /ban /unban /bmute /announce /shutdown /role)
from protocol.moderation_commands import register as _register_moderation  # noqa: E402

_register_moderation(COMMANDS)

# game records: /history /replay /rangliste
from protocol.record_commands import register as _register_records  # noqa: E402

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
        out += ["", " ".join((c.help or c.summary).split())]
    return "\n".join(out) + "\n"


def errors_markdown() -> str:
    """Every error code of the catalog with its English text (Markdown), generated."""
    out = ["| code | message |", "| --- | --- |"]
    for code in sorted(ERRORS):
        message = ERRORS[code].replace("|", "\\|")
        out.append(f"| `{code}` | {message} |")
    return "\n".join(out) + "\n"


SECTIONS: dict[str, Callable[[], str]] = {"commands": commands_markdown, "errors": errors_markdown}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


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
    group.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="FILE",
                       help="regenerate the generated sections of docs/protocol.md")
    opts = parser.parse_args(argv)
    if opts.markdown:
        sys.stdout.write(commands_markdown())
    elif opts.errors:
        sys.stdout.write(errors_markdown())
    else:
        changed = update_docs(Path(opts.write_docs))
        sys.stdout.write(f"{opts.write_docs}: {'updated' if changed else 'up to date'}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
