"""Options generated from dataclass fields (protocol/option_fields.py): the limits' options are
the fields of protocol.connection.guard.Limits, with the default and help declared there, and
docs/operations.md lists exactly those options with those defaults."""
from __future__ import annotations

import argparse
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from protocol.connection.guard import PUBLIC_LIMITS, Limits
from protocol.option_fields import add_options, option, option_specs, public_values, values_from
from protocol.process.options import build_parser, limits_from, parse_args

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


@dataclass(frozen=True)
class Example:
    count: int = option(0, public=3, help="how many (default {default})")
    pause: float = option(1.5, help="a pause (default {default}; 0: none)", metavar="SECS")
    loud: bool = option(False, help="make noise")
    not_an_option: str = "x"


def test_the_specs_come_from_the_fields() -> None:
    specs = {s.name: s for s in option_specs(Example)}
    assert list(specs) == ["count", "pause", "loud"]
    assert specs["count"].flag == "--count" and specs["count"].type is int
    assert specs["count"].default == 3 and specs["count"].help == "how many (default 3)"
    assert specs["pause"].help == "a pause (default 1.5; 0: none)" and specs["pause"].metavar == "SECS"
    assert specs["loud"].argparse_kwargs()["action"] == "store_true"
    assert Example().count == 0                 # the dataclass's own default: off
    assert public_values(Example) == {"count": 3, "pause": 1.5, "loud": False}


def test_a_parser_reads_them_back() -> None:
    parser = argparse.ArgumentParser()
    add_options(parser, Example)
    assert Example(**values_from(Example, parser.parse_args([]))) == Example(count=3)
    opts = parser.parse_args(["--count", "7", "--pause", "0", "--loud"])
    assert Example(**values_from(Example, opts)) == Example(count=7, pause=0.0, loud=True)
    with pytest.raises(SystemExit):
        parser.parse_args(["--count", "many"])


def test_a_field_of_another_type_is_refused() -> None:
    @dataclass
    class Bad:
        name: bytes = option(b"x", help="a name")

    with pytest.raises(TypeError):
        list(option_specs(Bad))


def test_every_limit_is_an_option() -> None:
    """Each field of Limits has its option, and a value given on the command line arrives in
    that field (nothing copies the names by hand)."""
    names = {f.name for f in dataclasses.fields(Limits)}
    assert {s.name for s in option_specs(Limits)} == names
    flags = {a.dest: a.option_strings for a in build_parser()._actions}
    argv: list[str] = []
    expected = {}
    for spec in option_specs(Limits):
        assert flags[spec.name] == [spec.flag]
        if spec.type is bool:
            argv.append(spec.flag)
            expected[spec.name] = True
        else:
            value = spec.type((spec.default or 0) + 7)
            argv += [spec.flag, str(value)]
            expected[spec.name] = value
    assert dataclasses.asdict(limits_from(parse_args(argv))) == expected


def test_the_public_defaults() -> None:
    """PUBLIC_LIMITS is the command line's defaults, the open-files rule aside."""
    assert limits_from(parse_args([]), (4096, 4096)) == dataclasses.replace(
        PUBLIC_LIMITS, max_connections=3996)
    assert PUBLIC_LIMITS.max_per_ip == 8 and PUBLIC_LIMITS.flood_burst == 20
    assert Limits().max_per_ip == 0 and Limits().max_subnegotiation == 8192


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def test_the_operations_guide_lists_every_limit_with_its_default() -> None:
    text = OPERATIONS.read_text(encoding="utf-8")
    section = text[text.index("### The defences of the public port"):]
    section = section[:section.index("\n\n", section.index("| --- |"))]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `(--[a-z0-9-]+)(?: [A-Z]+)?` \| ([^|]+) \|", line)
        if m:
            rows[m.group(1)] = m.group(2).strip()
    specs = list(option_specs(Limits))
    assert set(rows) == {s.flag for s in specs}
    for spec in specs:
        if spec.type is bool:
            assert rows[spec.flag] == "off", spec.flag
        elif spec.default is None:
            assert "open-files" in rows[spec.flag], spec.flag
        else:
            assert rows[spec.flag] == _shown(spec.default), spec.flag
    summary = next(line for line in text.splitlines() if line.startswith("| `--max-connections`"))
    assert set(re.findall(r"`(--[a-z0-9-]+)`", summary)) == {s.flag for s in specs}


@dataclass(frozen=True)
class Kinds:
    name: str | None = option(None, metavar="NAME", help="a text")
    lang: str = option("en", choices=("en", "de"), help="a choice")
    port: tuple[str, ...] | None = option(None, many=True, metavar="ENDPOINT", help="several")
    pages: int | None = option(None, parse=lambda text: int(text) * 2, metavar="PAGES", help="own parser")
    inline: bool = option(True, negatable=True, help="on, or --no-inline")
    survivors: bool = option(True, flag="--no-survivors", help="on unless --no-survivors")


def test_every_kind_of_option_is_declared_the_same_way() -> None:
    """Texts, choices, repeated options, own parsers and switches that are on by default are
    fields too: the whole command line of the server is declared so (protocol/process/options.py)."""
    parser = argparse.ArgumentParser()
    add_options(parser, Kinds)
    assert Kinds(**values_from(Kinds, parser.parse_args([]))) == Kinds()
    opts = parser.parse_args(["--name", "x", "--lang", "de", "--port", "a", "--port", "b",
                              "--pages", "3", "--no-inline", "--no-survivors"])
    assert values_from(Kinds, opts) == {"name": "x", "lang": "de", "port": ["a", "b"], "pages": 6,
                                        "inline": False, "survivors": False}
    with pytest.raises(SystemExit):
        parser.parse_args(["--lang", "fr"])

    @dataclass
    class OnWithoutWayOff:
        loud: bool = option(True, help="cannot be turned off")
    with pytest.raises(TypeError):
        list(option_specs(OnWithoutWayOff))


def test_the_server_s_options_are_its_declared_fields() -> None:
    """Every option of ``tichu-lobby`` but --help, --version, --config and --print-config is a
    declared field (protocol/process/options.py, the log options, Limits): nothing is added to
    the parser by hand beside them."""
    from protocol.process import options
    from protocol.process.logs import LogOptions
    from protocol.web import WebOptions
    groups = [options.ListenOptions, LogOptions, Limits, options.MudClientOptions,
              options.MetricsOptions, options.HealthOptions, options.WebListenerOptions,
              WebOptions, options.JournalOptions, options.BotOptions, options.AdminOptions]
    declared = [spec.name for cls in groups for spec in option_specs(cls)]
    dests = [a.dest for a in build_parser()._actions
             if a.dest not in ("help", "version", "config", "print_config")]
    assert dests == declared                    # all of them, in the order of --help
    parsed = parse_args(["--no-journal-inline", "--web", "tcp:1", "--lang", "de",
                         "--mssp", "contact=x", "--log-level", "debug"])
    assert (parsed.journal_inline, parsed.web, parsed.lang) == (False, ["tcp:1"], "de")
    assert (parsed.mssp, parsed.log_level, parsed.log_file) == ([("CONTACT", "x")], "debug", None)


def test_an_option_may_have_a_name_of_its_own() -> None:
    """``name=``: the command line (and the file, the environment) know the option by it, the
    dataclass by its field: protocol.web.WebOptions is read back with no name copied by hand."""
    @dataclass(frozen=True)
    class Named:
        timeout: float = option(5.0, name="web_timeout", help="(default {default})")

    (spec,) = option_specs(Named)
    assert (spec.name, spec.flag, spec.field) == ("web_timeout", "--web-timeout", "timeout")
    parser = argparse.ArgumentParser()
    add_options(parser, Named)
    assert Named(**values_from(Named, parser.parse_args(["--web-timeout", "2"]))) == Named(2.0)
    assert public_values(Named) == {"timeout": 5.0}

    from protocol.process.options import web_options_from
    from protocol.web import WebOptions, parse_proxies
    opts = parse_args(["--web-origin", "https://a.example/", "--web-allowed-host", " X.org",
                       "--trusted-proxy", "10.0.0.0/8", "--web-pending-per-address", "3"])
    assert web_options_from(opts) == WebOptions(
        origins=("https://a.example",), allowed_hosts=("x.org",),
        trusted_proxies=parse_proxies(["10.0.0.0/8"]), max_pending=3)
    assert web_options_from(parse_args([])) == WebOptions()
