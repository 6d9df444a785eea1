"""Argument specs of commands: declared once, parsed once (lobby and table commands alike).

A spec is words separated by spaces: ``NAME`` is one word, ``TEXT...`` takes the rest of the
line, ``[X]`` is optional; ``[random|heuristic:strategy]`` shows ``random|heuristic`` and binds
the key ``strategy`` (the key is the lower-case name unless given after the last colon).
``bind(args, rest, usage)`` splits the text after a command word into ``{key: text}`` or raises
``LobbyError("bad-arguments", usage=...)``.

This module is in ``lobby`` so that a table can parse the text of a command it is given
directly (bots, tests) with the very spec the wire layer's command table (protocol/commands/)
uses for people: a command's arguments are parsed once, by one parser.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lobby.text.messages import LobbyError, Usage

__all__ = ["Arg", "CommandKeys", "parse_spec", "bind", "keyed", "usage"]


@dataclass(frozen=True, slots=True)
class Arg:
    name: str  # the placeholder as shown: NAME, TEXT
    rest: bool = False  # takes the rest of the line
    optional: bool = False
    bound: str = ""  # the key of the bound value when it is not name.lower()

    @property
    def key(self) -> str:
        return self.bound or self.name.lower()

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
        word, _, key = word.rpartition(":") if ":" in word else (word, "", "")
        rest = word.endswith("...")
        word = word.rstrip(".")
        if rest and i != len(words) - 1:
            raise ValueError(f"only the last argument may take the rest of the line: {spec!r}")
        if args and args[-1].optional and not optional:
            raise ValueError(f"a required argument follows an optional one: {spec!r}")
        args.append(Arg(word, rest, optional, key))
    return tuple(args)


def usage(name: str, args: tuple[Arg, ...]) -> Usage:
    """``/name ARG [ARG]...`` as /help and the ``bad-arguments`` error show it (its placeholders
    in the reader's language: lobby.text.messages.Usage)."""
    return Usage(" ".join(["/" + name, *(str(a) for a in args)]))


def bind(args: tuple[Arg, ...], rest: str, usage_text: str) -> dict[str, str]:
    """Split the text after the command word into arguments (LobbyError 'bad-arguments')."""
    values: dict[str, str] = {}
    remaining = rest.strip()
    for arg in args:
        if not remaining:
            if arg.optional:
                continue
            raise LobbyError("bad-arguments", usage=usage_text)
        if arg.rest:
            values[arg.key], remaining = remaining, ""
        else:
            word, _, remaining = remaining.partition(" ")
            values[arg.key] = word
            remaining = remaining.strip()
    if remaining:
        raise LobbyError("bad-arguments", usage=usage_text)
    return values


def keyed(args: tuple[Arg, ...], given: Mapping[str, object], usage_text: str) -> dict[str, str]:
    """Arguments parsed already (a mapping) as ``bind`` returns them: each value as text (a list
    of words joined), None left out; LobbyError 'bad-arguments' for a key the spec does not
    have or a required argument that is missing."""
    keys = {a.key for a in args}
    out: dict[str, str] = {}
    for key, value in given.items():
        if key not in keys:
            raise LobbyError("bad-arguments", usage=usage_text)
        if value is None:
            continue
        out[key] = " ".join(str(v) for v in value) if isinstance(value, (list, tuple)) \
            else str(value)
    if any(not a.optional and a.key not in out for a in args):
        raise LobbyError("bad-arguments", usage=usage_text)
    return out


class CommandKeys:
    """What every declared command (lobby's table commands, protocol's command table) derives
    from its ``name`` and ``args``: the usage line and the catalog keys of its help texts."""

    __slots__ = ()
    name: str
    args: tuple[Arg, ...]

    @property
    def usage(self) -> str:
        return usage(self.name, self.args)

    @property
    def summary_key(self) -> str:
        """The catalog key of the one-line summary (/help)."""
        return f"cmd-{self.name}"

    @property
    def help_key(self) -> str:
        """The catalog key of the explanation (/help NAME)."""
        return f"cmd-{self.name}-help"
