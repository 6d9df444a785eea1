"""The server's options from a configuration file and the environment, under the command line.

``tichu-lobby --config FILE`` reads a TOML file (``tomllib``) whose keys are the options' own
names without the two dashes (``db = "/var/lib/tichu-lobby/lobby.sqlite3"``, ``port =
["tcp:4000"]``, ``log-level = "info"``, ``flood-rate = 20``; ``_`` may stand for ``-``); every
option ``--NAME`` can also be set with the environment variable ``TICHU_LOBBY_NAME`` (upper
case, ``-`` as ``_``: ``TICHU_LOBBY_LOG_LEVEL=debug``; ``TICHU_LOBBY_CONFIG`` names the file).
Precedence: the command line, then the environment, then the file, then the defaults.

Values: a TOML string, number or boolean as the option takes it; an option given more than once
(``--port``) takes a list in the file, and in the environment words separated by spaces or
commas. A switch (``--uvloop``) is ``true``/``false`` in the file, ``1``/``0``, ``true``/``false``,
``yes``/``no`` or ``on``/``off`` in the environment. A key or a ``TICHU_LOBBY_`` variable that
names no option, or a value the option refuses, is a usage error (exit status 2): one line for
each, naming the key or variable, its option and what the option wants, in our own words (``a
whole number``, not Python's ``invalid literal for int()``); every wrong key of a file, not only
its first. ``OptionParser`` (the server's parser) prints a usage error as those lines and a pointer
to ``--help``, without the usage summary of every option before it.

``--print-config`` prints the result as TOML, each value with where it came from (``# flag``,
``# env TICHU_LOBBY_...``, ``# file PATH``, ``# default``), and exits. docs/operations.md,
"Configuration".
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

__all__ = ["ENV_PREFIX", "Configured", "OptionParser", "configure", "env_name", "render_config"]

ENV_PREFIX = "TICHU_LOBBY_"
#: options that are about the command line itself, never set from a file or the environment
_NOT_CONFIGURABLE = {"help", "version", "config", "print_config"}
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_name(option: str) -> str:
    """``--log-level`` -> ``TICHU_LOBBY_LOG_LEVEL``."""
    return ENV_PREFIX + option.lstrip("-").replace("-", "_").upper()


#: argparse's own words for a refused flag value, said as ours (OptionParser.error)
_ARGPARSE_WORDS = [
    (re.compile(r"argument (\S+?)(?:/\S+)?: invalid int value: (.*)"), r"\1: a whole number, not \2"),
    (re.compile(r"argument (\S+?)(?:/\S+)?: invalid float value: (.*)"), r"\1: a number, not \2"),
    (re.compile(r"argument (\S+?)(?:/\S+)?: invalid choice: (.*?) \(choose from (.*)\)"),
     r"\1: one of \3, not \2"),
    (re.compile(r"argument (\S+?)(?:/\S+)?: expected one argument"), r"\1 needs a value"),
    (re.compile(r"argument (\S+?)(?:/\S+)?: (.*)"), r"\1: \2"),
]


class OptionParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are short: ``PROG: error: ...`` once per problem
    (a message may hold several lines) and one line pointing to ``--help``, exit status 2; no
    usage summary of every option first (with the server's sixty-odd options it was 45 lines)."""

    def error(self, message: str) -> NoReturn:
        lines = [line for line in message.splitlines() if line.strip()]
        out = []
        for line in lines:
            for pattern, words in _ARGPARSE_WORDS:
                if pattern.fullmatch(line):
                    line = pattern.sub(words, line)
                    break
            out.append(f"{self.prog}: error: {line}\n")
        out.append(f"{self.prog} --help lists every option (docs/operations.md)\n")
        self.exit(2, "".join(out))


class _Refused(Exception):
    """A value that an option refuses; the text says what the option wants."""


def _wanted(action: argparse.Action) -> str:
    """What an option takes, in words."""
    if action.type is int:
        return "a whole number"
    if action.type is float:
        return "a number of seconds" if action.metavar == "SECONDS" else "a number"
    if action.choices is not None:
        return "one of " + ", ".join(map(str, action.choices))
    return "a value"


class Configured:
    """Where each option's value came from: dest -> ``flag``, ``env NAME``, ``file PATH`` or
    ``default``."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}
        self.file: str | None = None


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The configurable options by their long name without dashes (``log-level``)."""
    found: dict[str, argparse.Action] = {}
    for action in parser._actions:          # argparse has no public list of its actions
        if action.dest in _NOT_CONFIGURABLE or not action.option_strings:
            continue
        longs = [o for o in action.option_strings if o.startswith("--")
                 and not o.startswith("--no-")]
        if longs:
            found[longs[0][2:]] = action
    return found


def _given(parser: argparse.ArgumentParser, argv: Sequence[str]) -> set[str]:
    """The dests the command line sets (parsed with every default suppressed)."""
    saved = [(a, a.default) for a in parser._actions]
    try:
        for action in parser._actions:
            action.default = argparse.SUPPRESS
        ns, _ = parser.parse_known_args(list(argv))
    finally:
        for action, default in saved:
            action.default = default
    return set(vars(ns))


def _convert(action: argparse.Action, value: Any) -> Any:
    """`value` (from a file or the environment: text, or TOML's types) as the option's own
    parsing makes it; ``_Refused`` saying what the option wants when it refuses it."""
    def fail(why: str) -> Any:
        raise _Refused(why)

    if action.nargs == 0 or isinstance(action, (argparse.BooleanOptionalAction, argparse._StoreTrueAction,
                                                argparse._StoreFalseAction)):
        if isinstance(value, str):
            word = value.strip().lower()
            if word not in _TRUE | _FALSE:
                return fail(f"a switch takes true or false, not {value!r}")
            flag = word in _TRUE
        elif isinstance(value, bool):
            flag = value
        else:
            return fail(f"a switch takes true or false, not {value!r}")
        if isinstance(action, argparse._StoreFalseAction):
            return not flag
        return flag
    many = isinstance(action, argparse._AppendAction) or action.nargs in ("+", "*")
    if many:
        if isinstance(value, str):
            items: list[Any] = [w for w in re.split(r"[\s,]+", value) if w]
        elif isinstance(value, list):
            items = value
        else:
            items = [value]
        return [_one(action, item, fail) for item in items]
    if isinstance(value, (list, dict)):
        return fail(f"one value, not {json.dumps(value)}: {_wanted(action)}")
    return _one(action, value, fail)


def _one(action: argparse.Action, value: Any, fail: Any) -> Any:
    text = value if isinstance(value, str) else (
        str(value).lower() if isinstance(value, bool) else str(value))
    convert = action.type
    try:
        result = convert(text) if callable(convert) else text
    except argparse.ArgumentTypeError as e:      # our own types say what they want
        return fail(str(e) or f"{_wanted(action)}, not {text!r}")
    except (TypeError, ValueError):             # int(), float(): Python's words, not ours
        return fail(f"{_wanted(action)}, not {text!r}")
    if action.choices is not None and result not in action.choices:
        return fail(f"one of {', '.join(map(str, action.choices))}, not {text!r}")
    return result


def read_file(parser: argparse.ArgumentParser, path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        parser.error(f"cannot read the configuration file {path!r}: {e.strerror or e}")
    except tomllib.TOMLDecodeError as e:
        parser.error(f"the configuration file {path!r} is not TOML: {e}")
    return data


def _did_you_mean(name: str, options: Mapping[str, argparse.Action]) -> str:
    close = difflib.get_close_matches(name, list(options), n=1)
    return f" (did you mean --{close[0]}?)" if close else ""


def configure(parser: argparse.ArgumentParser, argv: Sequence[str],
              environ: Mapping[str, str] | None = None) -> Configured:
    """Set the parser's defaults from the file (``--config`` or ``TICHU_LOBBY_CONFIG``) and the
    environment, for every option the command line `argv` does not give; where each came from."""
    env = os.environ if environ is None else environ
    options = _options(parser)
    given = _given(parser, argv)
    configured = Configured()
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config", default=None)
    known, _ = pre.parse_known_args(list(argv))
    path = known.config or env.get(ENV_PREFIX + "CONFIG") or None
    values: dict[str, tuple[Any, str]] = {}     # dest -> (value, source)
    problems: list[str] = []                    # every one, not only the first
    if path:
        configured.file = path
        for key, value in read_file(parser, path).items():
            name = key.replace("_", "-")
            action = options.get(name)
            where = f"the configuration file {path}, key {key}"
            if action is None:
                problems.append(f"{where}: there is no option --{name}"
                                + _did_you_mean(name, options))
                continue
            try:
                values[action.dest] = (_convert(action, value), f"file {path}")
            except _Refused as e:
                problems.append(f"{where} (--{name}): {e}")
    by_env = {env_name(name): (name, action) for name, action in options.items()}
    for var in sorted(env):
        if not var.startswith(ENV_PREFIX) or var == ENV_PREFIX + "CONFIG":
            continue
        if var not in by_env:
            guess = _did_you_mean(var[len(ENV_PREFIX):].lower().replace("_", "-"), options)
            problems.append(f"the environment variable {var} names no option" + guess)
            continue
        name, action = by_env[var]
        try:
            values[action.dest] = (_convert(action, env[var]), f"env {var}")
        except _Refused as e:
            problems.append(f"the environment variable {var} (--{name}): {e}")
    if problems:
        parser.error("\n".join(problems))
    defaults: dict[str, Any] = {}
    for dest, (value, source) in values.items():
        if dest in given:
            continue                 # the command line wins
        defaults[dest] = value
        configured.sources[dest] = source
    parser.set_defaults(**defaults)
    for action in options.values():
        if action.dest in given:
            configured.sources[action.dest] = "flag"
        configured.sources.setdefault(action.dest, "default")
    return configured


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def render_config(parser: argparse.ArgumentParser, opts: argparse.Namespace,
                  configured: Configured) -> str:
    """``--print-config``: every option as TOML with its value and where it came from (an
    option without a value, such as an unset ``--metrics``, as a comment)."""
    lines = ["# tichu-lobby configuration: the command line, then the environment "
             f"({ENV_PREFIX}*), then the file" + (f" {configured.file}" if configured.file
                                                  else "") + ", then the defaults"]
    for name, action in sorted(_options(parser).items()):
        value = getattr(opts, action.dest, None)
        source = configured.sources.get(action.dest, "default")
        if value is None:
            lines.append(f"# {name} is not set  # {source}")
        else:
            lines.append(f"{name} = {_toml(value)}  # {source}")
    return "\n".join(lines) + "\n"
