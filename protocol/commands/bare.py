"""When a line without a ``/`` is a command: its arguments must be valid, not only bind.

BSW's rule (docs/protocol.md, "Commands"): the slash may be left out, but then a line is a
command only when it parses as one with valid arguments; anything else is speech to the room.
Binding alone is too loose for chat: ``help me`` bound ``me`` as a command name, ``join us`` a
seat, ``play nice`` cards, ``tell me more`` a name. So every command that takes arguments
declares here what its arguments must be when typed without the slash (``BARE_CHECKS``): a seat
number, a command name, card text, a rank, a known setting, someone online (for a tell, also
somebody you exchanged tells with: private words are never said to a room by mistake)... A check reads
only what is in memory (the command table, the world, the user's table); never the database.

- A command with a ``role`` (moderation) is a command without the slash only for a user who has
  the role: for everybody else ``announce the winner`` or ``kick off at 8`` is speech.
- ``register`` and ``password`` (secret arguments) are commands with or without the slash
  whatever their arguments: a password is never said aloud to a room.
- ``quit``, ``register``, ``password`` and ``shutdown`` need their whole name (or an alias)
  without the slash (``BARE_WHOLE_WORD``): French ``qui`` alone does not disconnect you.
- A command without arguments is a command without the slash only when it is declared harmless
  (``BARE_WITHOUT_ARGUMENTS``: it shows something or moves you, as ``who``, ``look``, ``lobby``) or
  when it is ``pass`` (what a BSW player types at their turn; it gives up one turn, never a bet)
  or ``quit`` (the MUD clients' word; in a game it warns before it disconnects). A command
  without arguments that changes a game for good (``grand``, ``nogrand``, ``tichu``: a 100- or
  200-point bet; ``start``, ``leave``, ``reset``...) needs the slash (``NEEDS_SLASH``): a single
  word is too easy to say as chat. Any word after a command without arguments fails to bind, and
  the line is speech (``who is here?``, ``look at this``, ``pass the salt``).

All of this is for people: in machine mode a line is a command whenever its arguments bind
(protocol/commands/base.py ``parse_command_line``), so that programs written to older docs, which
send ``nogrand`` or ``play R5`` without the slash, keep working.

tests/project/test_bare_checks.py checks that every command with arguments is declared here.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lobby.bots.runtime.player import is_bot_level
from lobby.bots.strategies import STRATEGY_NAMES
from lobby.tables import options as table_options
from lobby.tables.table import DRAGON_LEFT, DRAGON_RIGHT
from lobby.text.messages import LobbyError, rank_of_word
from lobby.tichu import Rejected, is_play_text, parse_wish
from protocol.commands.base import MIN_BARE_PREFIX, on_off
from protocol.commands.settings import SETTING_ALIASES, SETTINGS

__all__ = ["BARE_CHECKS", "BARE_WHOLE_WORD", "BARE_WITHOUT_ARGUMENTS", "BareCheck", "ALWAYS",
           "NEEDS_SLASH", "NEVER", "SEAT_WORDS_DRAGON"]

#: a check: (the bound arguments, the session, the command table) -> valid
BareCheck = Callable[[Mapping[str, str], Any, Any], bool]
#: arguments that are valid whenever they bind (passwords: never spoken)
ALWAYS = "always"
#: a command that is never one without the slash (``NEEDS_SLASH``)
NEVER = "never"
#: the Dragon's targets as words (lobby/tables/table.py ``cmd_dragon``)
SEAT_WORDS_DRAGON = DRAGON_RIGHT | DRAGON_LEFT


def _number(word: str | None, low: int = 0, high: int | None = None) -> bool:
    digits = (word or "").lstrip("#")
    if not (digits.isascii() and digits.isdigit()):
        return False
    return int(digits) >= low and (high is None or int(digits) <= high)


def _seat(word: str | None) -> bool:
    return _number(word, 1, 4)


def _online(ctx: Any, name: str | None) -> bool:
    return bool(name) and ctx.world.online(name) is not None


def _table(ctx: Any) -> Any:
    room = getattr(ctx.user, "room", None)
    return room.table if room is not None else None


def _at_table(ctx: Any, name: str | None) -> bool:
    """Someone online, or a name seated at (or barred from) the user's table (bots too)."""
    if _online(ctx, name):
        return True
    table = _table(ctx)
    if table is None or not name:
        return False
    low = name.lower()
    return any(n is not None and n.lower() == low for n in table.seated) or table.is_barred(name)


def _command_name(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    word = args.get("command")
    if word is None:
        return True
    word = word.lstrip("/")
    if commands.lookup_exact(word) is not None:
        return True
    if len(word) < MIN_BARE_PREFIX:
        return False
    try:
        commands.resolve(word)
    except LobbyError:
        return False
    return True


def _setting(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    name = (args.get("name") or "").lower()
    if not name:
        return True                                    # /set alone: your settings
    name = SETTING_ALIASES.get(name, name)
    value = (args.get("value") or "").lower()
    if name == "width":
        return not value or value == "auto" or _number(value)
    if name not in SETTINGS:
        return False
    if not value:
        return True
    if SETTINGS[name] == ("on", "off"):
        value = on_off(value, ctx.lang) or value
    return value in SETTINGS[name]


def _iset(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    name, value = args["name"].lower(), args["value"].lower()
    if name == "protocol":
        return _number(value)
    return name == "json" and value in ("1", "0", "on", "off")


def _option(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    name = (args.get("name") or "").lower()
    if not name or name in ("help", "?", "list"):
        return not args.get("value")
    try:
        table_options.find(name, args.get("value"))
    except LobbyError:
        return False
    return True


def _addbot(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    for word in (w for w in (args.get("seat"), args.get("strategy")) if w):
        low = word.lower()
        if not (_seat(word) or low in STRATEGY_NAMES
                or (low.startswith("expert:") and is_bot_level(word))):
            return False
    return True


def _removebot(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    word = args["seat"]
    return _seat(word) or _at_table(ctx, word)


def _wish(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    rank = args["rank"]
    if rank_of_word(rank, ctx.lang) is not None:
        return True
    try:
        parse_wish(rank)
    except Rejected:
        return False
    return True


def _dragon(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    to = args["to"].strip()
    return to.lower() in SEAT_WORDS_DRAGON or _seat(to) or _at_table(ctx, to)


def _name(key: str, optional: bool = False) -> BareCheck:
    def check(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
        name = args.get(key)
        return (optional and not name) or _online(ctx, name)
    return check


def _tell(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    """Someone online, or somebody the user exchanged tells with: a line meant for them when
    they just left is the tell's ``not-online``, never their private words said to the room."""
    name = args.get("name")
    user = getattr(ctx, "user", None)
    return _online(ctx, name) or (bool(name) and user is not None
                                  and ctx.world.talked_with(user, name))


def _lists(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
    return args["list"].lower() in ("mute", "ignore")


def _numbers(*keys: str) -> BareCheck:
    def check(args: Mapping[str, str], ctx: Any, commands: Any) -> bool:
        return all(_number(args[k]) for k in keys if args.get(k))
    return check


#: every command with arguments -> what its arguments must be without the slash (``ALWAYS``:
#: whatever binds). A moderation command is checked for the role first (base.py).
BARE_CHECKS: dict[str, BareCheck | str] = {
    # the lobby
    "help": _command_name,
    "tell": _tell,
    "whereis": _name("name"),
    "finger": _name("name", optional=True),
    "history": _name("name", optional=True),
    "notify": _name("name"),
    "unnotify": _name("name"),
    "newroom": lambda args, ctx, commands: (args.get("game") or "tichu").lower() == "tichu",
    "room": _numbers("number"),
    "spielinfo": _numbers("number"),
    "listroom": _numbers("page"),
    "replay": _numbers("game", "round"),
    "tchlog": _numbers("game"),
    "set": _setting,
    "iset": _iset,
    "register": ALWAYS,
    "password": ALWAYS,
    # mute lists
    "add": _lists,
    "sub": _lists,
    "showlist": _lists,
    # at a table
    "join": lambda args, ctx, commands: not args.get("seat") or _seat(args["seat"]),
    "addbot": _addbot,
    "removebot": _removebot,
    "option": _option,
    "unseat": lambda args, ctx, commands: _at_table(ctx, args["name"]),
    "bar": lambda args, ctx, commands: _at_table(ctx, args["name"]),
    "unbar": lambda args, ctx, commands: _at_table(ctx, args["name"]),
    "remove": lambda args, ctx, commands: _at_table(ctx, args["name"]),
    "play": lambda args, ctx, commands: is_play_text(args["cards"]),
    "bomb": lambda args, ctx, commands: is_play_text(args["cards"], allow_wish=False),
    "schupf": lambda args, ctx, commands: is_play_text(
        " ".join((args["next"], args["partner"], args["previous"])), allow_wish=False),
    "wish": _wish,
    "dragon": _dragon,
    # moderation (the role is checked first)
    "kick": _name("name"),
    "bmute": _name("name"),
    "ban": ALWAYS,
    "unban": ALWAYS,
    "role": ALWAYS,
    "announce": ALWAYS,
    "closetable": _numbers("table"),
    "shutdown": _numbers("seconds"),
}

#: commands without arguments that are commands without the slash too: they show something or
#: move you (and ``pass``, ``quit``: see the module's docstring)
BARE_WITHOUT_ARGUMENTS = frozenset({"who", "wwho", "look", "friends", "manager",
                                    "rangliste", "banlist", "pass", "quit"})
#: commands without arguments that change a game for good: only with the slash
NEEDS_SLASH = frozenset({"grand", "nogrand", "tichu", "start", "startnosave", "reset", "leave",
                         "accept", "refuse", "next"})
BARE_CHECKS.update(dict.fromkeys(NEEDS_SLASH, NEVER))


#: commands that a shortened word without the slash never names (they end your connection, make
#: an account or stop the server)
BARE_WHOLE_WORD = frozenset({"quit", "register", "password", "shutdown"})
