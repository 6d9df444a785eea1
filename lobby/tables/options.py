"""Every table option declared once (docs/rules.md 17-18 and 29-32).

``OPTIONS`` is the one list: an option's name (as typed and listed), the ``TableOptions``
attribute it sets, its type and range, its default, the catalog key of what it means, whether it
may change after the start and who may set it. Everything else comes from it:

- ``TableOptions``, the options of one table (a dataclass generated from the list);
- ``find`` and ``OptionSpec.parse``: ``/option NAME VALUE`` (lobby/tables/table.py), with the error
  codes ``unknown-option`` and ``bad-option-value``;
- ``TableOptions.listing()`` / ``as_dict()``: ``/option help``, ``/listroom``, ``/spielinfo`` and
  the machine-mode ``options`` object (every value as text, in this order);
- ``changed()``: the options that differ from their defaults (``/listroom``, ``/spielinfo``);
- ``help_params()`` and each option's ``help_key``: the help texts (lobby/text/messages.py);
- ``options_markdown()``: the options table of docs/protocol.md (generated, checked fresh).

Number options take ASCII digits only (``int()`` would also read ``５００`` or ``²``).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, make_dataclass
from typing import Any

from lobby.text.messages import LobbyError, Msg, text
from lobby.tichu import MatchOptions, freeze
from lobby.tichu import memo as _memo

__all__ = ["RATED_TIMER", "OptionSpec", "OPTIONS", "TableOptions", "find", "changed", "defaults",
           "options_from_saved", "about", "help_params", "help_lines", "options_markdown",
           "ON_WORDS", "OFF_WORDS"]

ON_WORDS = frozenset({"on", "1", "yes", "ja", "true", "an"})
OFF_WORDS = frozenset({"off", "0", "no", "nein", "false", "aus", "none"})

FLAG, COUNT, SECONDS, TIMER = "flag", "count", "seconds", "timer"
#: the move timer of a rated game while ``/option timer`` is ``auto`` (its default): seconds
#: per decision (unrated games have none then)
RATED_TIMER = 60.0
#: the default of a rated game's floor for its grace time (the server's --min-rated-grace),
#: whatever ``/option grace`` says (a host, or two colluding opponents, cannot make a moment's
#: drop a rated loss: docs/rating.md "Rated games: the floors"; the timer's floor is the
#: server's --min-rated-timer)
RATED_MIN_GRACE = 30.0
AUTO_WORDS = frozenset({"auto", "default", "standard"})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option."""

    name: str                    # as typed and listed: "dragon fixed"
    attr: str                    # the TableOptions attribute
    kind: str                    # FLAG (on/off), COUNT (a whole number), SECONDS (a duration),
    #                              TIMER (a duration, `off` = 0, `auto` = None: RATED_TIMER)
    default: Any
    low: float = 0               # COUNT and SECONDS: the range, both ends included
    high: float = 0
    off: bool = False            # COUNT: "off" is a value (None), as for round and seed
    after_start: bool = False    # may change while a game runs (none may today)
    host_only: bool = False      # only the table's host may set it (whatever option host says)
    #: it changes how long the others can be kept waiting (the game's length, the time of a
    #: decision or of an absence): at a table with a host only the host sets it (without a
    #: host, e.g. when the host left and nobody was there to take over, any seated player)
    keeps_waiting: bool = False

    @property
    def help_key(self) -> str:
        """The catalog key of what the option means (/option help)."""
        return "option-" + self.name.replace(" ", "-")

    @property
    def expects_key(self) -> str:
        """The catalog key of the values it takes (the ``bad-option-value`` error)."""
        return "option-expects-" + (self.kind if self.kind != COUNT else self.attr)

    def show(self, value: Any) -> str:
        """The value as /option help, /listroom and machine mode show it."""
        if self.kind == FLAG:
            return "on" if value else "off"
        if self.kind == TIMER:
            return "auto" if value is None else "off" if not value else f"{value:g}"
        if value is None:
            return "off"
        if self.kind == SECONDS:
            return f"{value:g}"
        return str(value)

    def parse(self, value: str | None, current: Any) -> Any:
        """The new value from what was typed after the name (None: nothing). A flag without a
        value toggles. LobbyError('bad-option-value') for anything else."""
        word = (value or "").strip()
        low = word.lower()
        if self.kind == FLAG:
            if not word:
                return not current
            if low in ON_WORDS:
                return True
            if low in OFF_WORDS:
                return False
            raise self._bad(word)
        if self.kind == TIMER:
            if low in AUTO_WORDS:
                return None
            if low in OFF_WORDS:            # `0` too: no timer
                return 0.0
        elif self.off and low in OFF_WORDS and not low.isdigit():
            return None                     # (`seed 0` is the seed 0, `round 0` no round count)
        if self.kind == COUNT or self.kind == TIMER:
            # whole numbers: a count, or the move timer's seconds (its deadlines are whole
            # seconds of the timer wheel: `timer 30.5` is refused, not rounded)
            if not (word.isascii() and word.isdigit()):      # int() reads ５００ and ² too
                raise self._bad(word)
            n = int(word)
            if not self.low <= n <= self.high:
                raise self._bad(word)
            return float(n) if self.kind == TIMER else n
        if not (word.isascii() and word.replace(".", "", 1).isdigit()):
            raise self._bad(word)                            # no nan, inf, 1e3, -1, ５
        seconds = float(word)
        if not (math.isfinite(seconds) and self.low <= seconds <= self.high):
            raise self._bad(word)
        return seconds

    def _bad(self, word: str) -> LobbyError:
        return LobbyError("bad-option-value", name=self.name, value=word,
                          expected=Msg(self.expects_key, high=f"{self.high:g}"))


#: the table options, in the order /option help lists them
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("round", "max_rounds", COUNT, None, 1, 1000, off=True, keeps_waiting=True),
    OptionSpec("tichujoin", "tichujoin", FLAG, False),
    OptionSpec("turnier", "turnier", FLAG, False, keeps_waiting=True),
    OptionSpec("target", "target", COUNT, 1000, 50, 100000, keeps_waiting=True),
    OptionSpec("drawseat", "drawseat", FLAG, False),
    OptionSpec("host", "host", FLAG, False),                 # only the host starts and sets
    OptionSpec("dragon fixed", "dragon_fixed", FLAG, False),
    OptionSpec("bombwindow", "bombwindow", SECONDS, 0.0, 0, 60, keeps_waiting=True),
    # the seed deals every hand: only the host sets it, and the players are told at /start
    OptionSpec("seed", "seed", COUNT, None, 0, 2 ** 63 - 1, off=True, host_only=True),
    OptionSpec("log", "log", FLAG, True),                    # keep the game as a BSW .tch log
    # before a vanished player may go; the server may lower the ceiling (--max-grace)
    OptionSpec("grace", "grace", SECONDS, 120.0, 0, 86400, keeps_waiting=True),
    # seconds per decision; at half time a warning, at the end the decision is made for the
    # player (lobby/tables/table.py); `auto`: RATED_TIMER in a rated game, none in others
    OptionSpec("timer", "timer", TIMER, None, 5, 3600, keeps_waiting=True),
)
_BY_NAME = {o.name: o for o in OPTIONS}
_TYPES = {FLAG: bool, COUNT: "int | None", SECONDS: float, TIMER: "float | None"}


def find(name: str, value: str | None) -> tuple[OptionSpec, str | None]:
    """The option ``/option NAME VALUE`` names, and its value text: ``dragon fixed`` is one
    option with a two-word name (``dragon``/``dragonfixed`` work too). LobbyError
    'unknown-option'."""
    name = name.strip().lower()
    if name in ("dragon", "dragonfixed"):
        words = (value or "").split()
        if words[:1] == ["fixed"]:
            words = words[1:]
        name, value = "dragon fixed", (" ".join(words) or None)
    spec = _BY_NAME.get(name)
    if spec is None:
        raise LobbyError("unknown-option", name=name)
    return spec, value


def _listing(self: Any) -> list[tuple[str, str]]:
    """(option name, current value as text) in the order `/option help` shows them."""
    return [(o.name, o.show(getattr(self, o.attr))) for o in OPTIONS]


def _as_dict(self: Any) -> dict[str, str]:
    return {o.name: o.show(getattr(self, o.attr)) for o in OPTIONS}


def _setattr(self: Any, name: str, value: Any) -> None:
    object.__setattr__(self, name, value)
    if name != "_shown":
        object.__setattr__(self, "_shown", None)      # an option changed


def _shown(self: Any) -> dict[str, str]:
    """`as_dict()`, the same object while no option changes (for the views: nobody changes
    a view's values)."""
    shown: dict[str, str] | None = self.__dict__.get("_shown") if _memo.ON else None
    if shown is None:
        shown = freeze(_as_dict(self))          # (delivered in the views: frozen)
        object.__setattr__(self, "_shown", shown)
    return shown


def _match_options(self: Any) -> MatchOptions:
    return MatchOptions(target=self.target, max_rounds=self.max_rounds, turnier=self.turnier,
                        dragon_fixed=self.dragon_fixed)


def _saved(self: Any) -> dict[str, Any]:
    """The attribute form the journal keeps (``options_from_saved`` reads it back)."""
    return {k: v for k, v in asdict(self).items() if k != "_shown"}


#: the options of one table: one attribute per option (``OptionSpec.attr``) with its default
TableOptions = make_dataclass(
    "TableOptions",
    [(o.attr, _TYPES[o.kind], field(default=o.default)) for o in OPTIONS],
    namespace={"listing": _listing, "as_dict": _as_dict, "__setattr__": _setattr,
               "shown": _shown, "match_options": _match_options, "saved": _saved,
               "__doc__": "The options of one table, generated from OPTIONS.",
               "__module__": __name__})


def defaults() -> dict[str, str]:
    """Every option's default as text, by name."""
    return {o.name: o.show(o.default) for o in OPTIONS}


_DEFAULTS = defaults()


def changed(shown: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The (name, value) pairs of ``shown`` (an ``as_dict()``) that differ from the defaults
    (a name that is no option is shown as changed)."""
    return [(k, v) for k, v in shown.items() if _DEFAULTS.get(k) != v]


def options_from_saved(saved: Mapping[str, Any] | None) -> Any:
    """TableOptions from the attribute form kept in the journal (``saved()``); unknown keys are
    ignored, so a journal written by an older version still restores."""
    known = {o.attr for o in OPTIONS}
    return TableOptions(**{k: v for k, v in (saved or {}).items() if k in known})


def about(name: str, lang: str = "en") -> str:
    """What option ``name`` means (its help text; empty for a name that is no option)."""
    spec = _BY_NAME.get(name)
    return text(spec.help_key, lang) if spec is not None else ""


def help_params() -> dict[str, str]:
    """The defaults the help text of /option names (``cmd-option-help``), by option name."""
    return {o.name.replace(" ", "_"): o.show(o.default) for o in OPTIONS}


#: the server options that may lower an option's ceiling (protocol/connection/guard.py Limits; the table
#: gets them as ``TableActor.ceilings``)
SERVER_CEILINGS = {"grace": "--max-grace", "timer": "--max-timer", "target": "--max-target",
                   "round": "--max-round", "bombwindow": "--max-bombwindow"}


def _values(o: OptionSpec) -> str:
    values = _plain_values(o)
    if o.name in SERVER_CEILINGS:
        values += f" (the server's `{SERVER_CEILINGS[o.name]}` may lower the ceiling)"
    return values


def _plain_values(o: OptionSpec) -> str:
    if o.kind == FLAG:
        return "`on`, `off` (no value: toggles)"
    if o.kind == COUNT:
        values = f"whole numbers, {int(o.low)} to {int(o.high)}"
        return values + (", `off` (a number is always a number: `0` is not off)" if o.off
                         else "")
    if o.kind == TIMER:
        return (f"whole seconds, {o.low:g} to {o.high:g}, `off` (or `0`), `auto` "
                f"({RATED_TIMER:g} seconds in a rated game, off in others)")
    return f"seconds (a decimal such as 2.5 too), {o.low:g} to {o.high:g}"


def help_lines(lang: str = "en") -> str:
    """The options as ``/help option`` lists them after its introduction (``cmd-option-help``),
    one line each: name, meaning, the values it takes and its default, from OPTIONS."""
    out = []
    for o in OPTIONS:
        out.append(text("option-help-line", lang, name=o.name, meaning=text(o.help_key, lang),
                        expects=text(o.expects_key, lang, high=f"{o.high:g}"),
                        default=o.show(o.default)))
    return "\n".join(out)


def options_markdown(options: Iterable[OptionSpec] = OPTIONS) -> str:
    """The options table of docs/protocol.md (Markdown), generated from OPTIONS."""
    out = ["| option | values | default | set by | meaning |", "| --- | --- | --- | --- | --- |"]
    for o in options:
        who = ("the host" if o.host_only else
               "the host (any seated player at a table without a host)")
        when = "" if o.after_start else ", before the start"
        out.append(f"| `{o.name}` | {_values(o)} | `{o.show(o.default)}` | {who}{when} | "
                   f"{text(o.help_key)} |")
    return "\n".join(out) + "\n"
