"""Command-line options declared on a dataclass's fields: name, default and help in one place.

A field declared with ``option(...)`` is an option of the process: its flag is the field's name
with dashes (``max_per_ip`` -> ``--max-per-ip``), its type the field's type (``int``, ``float``,
``bool`` for a switch that is off by default), its command line's default ``public`` (the
dataclass's own default is what an embedder or a test gets with no argument), and its help the
``help`` text, in which ``{default}`` stands for that command line's default::

    @dataclass(frozen=True)
    class Limits:
        max_per_ip: int = option(0, public=8, help="connections from one address (default {default})")

The same declaration covers every kind of option the process has: a text (``str``, ``None``
when it is not given), a text that may be given several times (``tuple[str, ...] | None``:
``many=True``, argparse's ``append``), a choice (``choices=``), a number read by its own parser
(``parse=``), a switch that is on by default and turned off by its flag (``flag="--no-..."``), or
one that has both forms (``negatable=True``: ``--journal-inline``/``--no-journal-inline``)::

    @dataclass(frozen=True)
    class JournalOptions:
        journal_inline: bool = option(True, negatable=True, help="...")
        journal_checkpoint_pages: int | None = option(None, parse=whole_number(1), metavar="PAGES",
                                                      help="...")

``option_specs(cls)`` yields one ``OptionSpec`` per such field, in field order: everything a
reader of options needs (the command line here; a configuration file or environment variables
read the same declarations). ``add_options(parser, cls)`` adds them to an argparse parser or
group, ``public_values(cls)`` is the command line's defaults as a dict of field values, and
``values_from(cls, namespace)`` reads the parsed values back, one per field (nothing copies the
names by hand).

A field may be known to the process by another name than its own (``name="web_timeout"`` on
``protocol.web.WebOptions.timeout``: ``--web-timeout``, ``web_timeout = ...`` in the file): the
command line, the file and the environment use that name, ``values_from`` gives the field's.
"""
from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["OptionSpec", "option", "option_specs", "add_options", "public_values", "values_from"]

_KEY = "option"
_SAME = object()                 # `public` not given: the command line's default is the field's
_METAVARS: dict[type, str] = {int: "N", float: "SECONDS"}


@dataclass(frozen=True, slots=True)
class _Declared:
    help: str
    public: Any
    metavar: str | None
    flag: str | None = None
    choices: tuple[str, ...] | None = None
    parse: Callable[[str], Any] | None = None
    many: bool = False
    negatable: bool = False
    name: str | None = None


def option(default: Any, *, help: str, public: Any = _SAME, metavar: str | None = None,
           flag: str | None = None, choices: tuple[str, ...] | None = None,
           parse: Callable[[str], Any] | None = None, many: bool = False,
           negatable: bool = False, name: str | None = None) -> Any:
    """A dataclass field that is also an option: ``default`` for the dataclass, ``public`` for
    the command line (``None``: the process derives it; say how in ``help``), ``help`` with
    ``{default}`` for the command line's default, ``metavar`` (else ``N`` for an int,
    ``SECONDS`` for a float), ``flag`` (else ``--`` and the field's name with dashes; a switch
    that is on by default is turned off by it), ``choices``, ``parse`` (the value's reader, else
    the field's type), ``many`` (given once per value), ``negatable`` (a switch with a ``--no-``
    form too), ``name`` (the option's name, else the field's)."""
    declared = _Declared(help, default if public is _SAME else public, metavar, flag, choices,
                         parse, many, negatable, name)
    return field(default=default, metadata={_KEY: declared})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One declared option: ``name`` (argparse's ``dest``, the file's and the environment's
    name: the field's unless declared otherwise), ``flag``, ``type`` (``int``, ``float`` or
    ``bool``), ``default`` (the command line's), ``help`` (its text with the default filled in),
    ``metavar`` (None for a switch) and ``field`` (the dataclass field)."""

    name: str
    flag: str
    type: type
    default: Any
    help: str
    metavar: str | None
    choices: tuple[str, ...] | None = None
    parse: Callable[[str], Any] | None = None
    many: bool = False
    negatable: bool = False
    field: str = ""

    def argparse_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``add_argument(self.flag, **...)``."""
        common = {"dest": self.name, "help": self.help}
        if self.type is bool:
            if self.negatable:
                return {**common, "action": argparse.BooleanOptionalAction,
                        "default": bool(self.default)}
            if self.default:
                return {**common, "action": "store_false"}
            # (None: "not given", for a reader that tells it from an explicit off)
            return {**common, "action": "store_true", "default": self.default}
        kwargs: dict[str, Any] = {**common, "default": self.default, "metavar": self.metavar}
        if self.many:
            kwargs["action"] = "append"
            if self.parse is not None:
                kwargs["type"] = self.parse
            return kwargs
        if self.type is not str or self.parse is not None:
            kwargs["type"] = self.parse or self.type
        if self.choices is not None:
            kwargs["choices"] = self.choices
        return kwargs


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _kind(hint: Any) -> tuple[Any, bool]:
    """(the value's type, given several times) of a field's type: ``int | None`` -> (int, False),
    ``tuple[str, ...] | None`` -> (str, True)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (list, tuple):
        return typing.get_args(hint)[0], True
    return hint, False


def option_specs(cls: type) -> Iterator[OptionSpec]:
    """The options declared on the dataclass ``cls``, in the order of its fields."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        declared = f.metadata.get(_KEY)
        if declared is None:
            continue
        kind, many = _kind(hints[f.name])
        if (kind not in (int, float, bool, str) and declared.parse is None) or many != declared.many:
            raise TypeError(f"{cls.__name__}.{f.name}: an option is an int, float, bool or str, or "
                            "read by its parse=; a tuple of them with many=True")
        if kind is bool and declared.public and not (declared.flag or declared.negatable):
            raise TypeError(f"{cls.__name__}.{f.name}: a switch on by default needs its --no- "
                            "flag or negatable=True")
        metavar = None if kind is bool else declared.metavar or _METAVARS.get(kind)
        help_text = declared.help.replace("{default}", _shown(declared.public))
        name = declared.name or f.name
        yield OptionSpec(name, declared.flag or "--" + name.replace("_", "-"), kind,
                         declared.public, help_text, metavar, declared.choices, declared.parse,
                         declared.many, declared.negatable, f.name)


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, cls: type) -> None:
    """One argparse option per declared field of ``cls``."""
    for spec in option_specs(cls):
        parser.add_argument(spec.flag, **spec.argparse_kwargs())


def public_values(cls: type) -> dict[str, Any]:
    """The command line's defaults: {field name: value} of every declared option."""
    return {spec.field: spec.default for spec in option_specs(cls)}


def values_from(cls: type, namespace: argparse.Namespace,
                convert: Callable[[OptionSpec, Any], Any] | None = None) -> dict[str, Any]:
    """{field name: parsed value} of every declared option of ``cls`` (``convert(spec, value)``
    may derive a value, e.g. one whose command-line default is None)."""
    values = {}
    for spec in option_specs(cls):
        value = getattr(namespace, spec.name)
        values[spec.field] = convert(spec, value) if convert else value
    return values
