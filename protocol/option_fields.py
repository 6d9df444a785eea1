"""Command-line options declared on a dataclass's fields: name, default and help in one place.

A field declared with ``option(...)`` is an option of the process: its flag is the field's name
with dashes (``max_per_ip`` -> ``--max-per-ip``), its type the field's type (``int``, ``float``,
``bool`` for a switch that is off by default), its command line's default ``public`` (the
dataclass's own default is what an embedder or a test gets with no argument), and its help the
``help`` text, in which ``{default}`` stands for that command line's default::

    @dataclass(frozen=True)
    class Limits:
        max_per_ip: int = option(0, public=8, help="connections from one address (default {default})")

``option_specs(cls)`` yields one ``OptionSpec`` per such field, in field order: everything a
reader of options needs (the command line here; a configuration file or environment variables
read the same declarations). ``add_options(parser, cls)`` adds them to an argparse parser or
group, ``public_values(cls)`` is the command line's defaults as a dict of field values, and
``values_from(cls, namespace)`` reads the parsed values back, one per field (nothing copies the
names by hand).
"""
from __future__ import annotations

import argparse
import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

__all__ = ["OptionSpec", "option", "option_specs", "add_options", "public_values", "values_from"]

_KEY = "option"
_SAME = object()                 # `public` not given: the command line's default is the field's
_METAVARS: dict[type, str] = {int: "N", float: "SECONDS"}


@dataclass(frozen=True, slots=True)
class _Declared:
    help: str
    public: Any
    metavar: str | None


def option(default: Any, *, help: str, public: Any = _SAME, metavar: str | None = None) -> Any:
    """A dataclass field that is also an option: ``default`` for the dataclass, ``public`` for
    the command line (``None``: the process derives it; say how in ``help``), ``help`` with
    ``{default}`` for the command line's default, ``metavar`` (else ``N`` for an int,
    ``SECONDS`` for a float)."""
    declared = _Declared(help, default if public is _SAME else public, metavar)
    return field(default=default, metadata={_KEY: declared})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One declared option: ``name`` (the field, and argparse's ``dest``), ``flag``, ``type``
    (``int``, ``float`` or ``bool``), ``default`` (the command line's), ``help`` (its text with
    the default filled in) and ``metavar`` (None for a switch)."""

    name: str
    flag: str
    type: type
    default: Any
    help: str
    metavar: str | None

    def argparse_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``add_argument(self.flag, **...)``."""
        if self.type is bool:
            return {"dest": self.name, "action": "store_true", "default": bool(self.default),
                    "help": self.help}
        return {"dest": self.name, "type": self.type, "default": self.default,
                "metavar": self.metavar, "help": self.help}


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def option_specs(cls: type) -> Iterator[OptionSpec]:
    """The options declared on the dataclass ``cls``, in the order of its fields."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        declared = f.metadata.get(_KEY)
        if declared is None:
            continue
        kind = hints[f.name]
        if kind not in (int, float, bool):
            raise TypeError(f"{cls.__name__}.{f.name}: an option is an int, float or bool")
        if kind is bool and declared.public:
            raise TypeError(f"{cls.__name__}.{f.name}: a switch is off by default")
        metavar = None if kind is bool else declared.metavar or _METAVARS[kind]
        help_text = declared.help.replace("{default}", _shown(declared.public))
        yield OptionSpec(f.name, "--" + f.name.replace("_", "-"), kind, declared.public,
                         help_text, metavar)


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, cls: type) -> None:
    """One argparse option per declared field of ``cls``."""
    for spec in option_specs(cls):
        parser.add_argument(spec.flag, **spec.argparse_kwargs())


def public_values(cls: type) -> dict[str, Any]:
    """The command line's defaults: {field name: value} of every declared option."""
    return {spec.name: spec.default for spec in option_specs(cls)}


def values_from(cls: type, namespace: argparse.Namespace,
                convert: Callable[[OptionSpec, Any], Any] | None = None) -> dict[str, Any]:
    """{field name: parsed value} of every declared option of ``cls`` (``convert(spec, value)``
    may derive a value, e.g. one whose command-line default is None)."""
    values = {}
    for spec in option_specs(cls):
        value = getattr(namespace, spec.name)
        values[spec.name] = convert(spec, value) if convert else value
    return values
