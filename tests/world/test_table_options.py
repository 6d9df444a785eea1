"""The table options' one declaration (lobby/tables/options.py) and what comes from it."""
from __future__ import annotations

import dataclasses

import pytest

from lobby.events import Event
from lobby.tables.options import (
    OPTIONS,
    TableOptions,
    changed,
    defaults,
    find,
    options_from_saved,
    options_markdown,
)
from lobby.text.messages import LobbyError, text
from protocol.render.table import render_table
from protocol.render.text import render


def test_the_options_object_is_made_from_the_declaration() -> None:
    opts = TableOptions()
    assert [f.name for f in dataclasses.fields(opts)] == [o.attr for o in OPTIONS]
    assert all(getattr(opts, o.attr) == o.default for o in OPTIONS)
    assert [name for name, _ in opts.listing()] == [o.name for o in OPTIONS]
    assert opts.as_dict() == defaults() and changed(opts.as_dict()) == []
    shown = opts.shown()
    assert opts.shown() is shown                       # the same object while nothing changes
    opts.target = 500
    assert opts.shown() is not shown and changed(opts.shown()) == [("target", "500")]


def test_saved_options_come_back_and_unknown_keys_are_ignored() -> None:
    opts = TableOptions()
    opts.seed, opts.dragon_fixed, opts.grace = 7, True, 30.0
    again = options_from_saved({**opts.saved(), "retired_option": 1})
    assert again == opts and again.as_dict() == opts.as_dict()
    assert options_from_saved(None) == TableOptions()


def test_find_and_parse_by_the_declaration() -> None:
    spec, value = find("Dragon", "fixed on")
    assert spec.name == "dragon fixed" and value == "on"
    assert spec.parse(value, False) is True and spec.parse(None, True) is False
    round_, _ = find("round", None)
    assert round_.parse("off", 3) is None and round_.parse("3", None) == 3
    with pytest.raises(LobbyError) as e:
        round_.parse("1001", None)
    assert e.value.code == "bad-option-value"
    with pytest.raises(LobbyError) as e:
        find("colour", "on")
    assert e.value.code == "unknown-option"


def test_listing_renderers_use_the_declared_defaults_and_help() -> None:
    opts = TableOptions()
    opts.turnier = True
    listroom = render(Event("listroom", tables=[{
        "table": 1, "state": "waiting", "seats": [None] * 4, "options": opts.as_dict(),
        "spectators": 0}]))
    assert listroom[-1] == "      turnier on; 0 watching"
    info = render_table(Event("table-info", table=1, state="waiting", host="ann",
                              seats=[None] * 4, options=opts.as_dict(), spectators=[]))
    assert "  Options: turnier on" in info
    lines = render_table(Event("table-options", table=1, options=opts.listing(),
                               state="waiting"))
    assert lines is not None and len(lines) == 1 + len(OPTIONS)
    for option, line in zip(OPTIONS, lines[1:], strict=True):
        assert line.split()[0] == option.name.split()[0]
        assert line.endswith(text(option.help_key))


def test_the_docs_table_has_one_row_per_option() -> None:
    rows = options_markdown().splitlines()[2:]
    assert [row.split("`")[1] for row in rows] == [o.name for o in OPTIONS]
    assert ("| `target` | whole numbers, 50 to 100000 (the server's `--max-target` may lower "
            "the ceiling) | `1000` |") in options_markdown()
