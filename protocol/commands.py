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

    def send(self, event: Event) -> None: ...

    def quit(self, event: Event) -> None: ...


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


@COMMANDS.command("finger", "NAME", "Account facts about NAME.", help="""
Shows whether NAME is registered and since when, when NAME was last seen, and whether NAME is
online now (and in which room).
""")
async def _finger(ctx: CommandContext, args: dict[str, str]) -> None:
    name = args["name"]
    account = await ctx.store.get_account(name)
    online = ctx.world.online(name)
    if account is None and online is None:
        raise LobbyError("no-such-user", name=name)
    shown = account.name if account is not None else online.name  # type: ignore[union-attr]
    ctx.send(Event(
        "finger", name=shown, registered=account is not None,
        registered_at=account.registered_at if account else None,
        last_seen=account.last_seen if account else None,
        online=online is not None,
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
    password_hash = await ctx.accounts.hash(args["password"])
    if not await ctx.store.create_account(me.name, password_hash, ctx.world.clock.seconds()):
        raise LobbyError("name-taken", name=me.name)
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
    account = await ctx.store.get_account(me.name)
    if account is None:
        raise LobbyError("not-registered")
    if not await ctx.accounts.verify(args["old"], account.password_hash):
        raise LobbyError("wrong-password")
    await ctx.store.set_password(me.name, await ctx.accounts.hash(args["new"]))
    ctx.send(Event("password-changed"))


@COMMANDS.command("quit", "", "Leave the server.", help="""
Closes your connection. Your account (if registered) stays.
""", aliases=("exit",))
def _quit(ctx: CommandContext, args: dict[str, str]) -> None:
    ctx.quit(Event("bye", name=_me(ctx).name))


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
