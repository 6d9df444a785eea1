"""The command table: parsing, prefixes, argument specs, help, and the generated docs."""
from __future__ import annotations

from pathlib import Path

import pytest

from lobby.events import Event
from lobby.tables.options import OPTIONS, defaults
from lobby.text.messages import ERRORS, HELP_TEXTS, INFO, LobbyError, text
from protocol.commands import COMMANDS, CommandTable, docs, parse_line
from protocol.commands.base import parse_spec
from protocol.commands.docs import commands_markdown, errors_markdown, generated_sections, options_markdown
from protocol.render.text import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def code_of(line: str) -> str:
    with pytest.raises(LobbyError) as e:
        parse_line(line)
    return e.value.code


def test_leading_slash_is_optional_and_prefixes_work() -> None:
    for line in ("/who", "who", "  WHO  ", "/Who"):
        assert parse_line(line).command.name == "who"
    assert parse_line("/fi bob").command.name == "finger"
    assert parse_line("/fi bob").args == {"name": "bob"}
    assert parse_line("/whisper bob hi").command.name == "tell"


def test_ambiguous_prefix_lists_the_candidates() -> None:
    with pytest.raises(LobbyError) as e:
        parse_line("/w")
    assert e.value.code == "ambiguous-command"
    assert e.value.params["candidates"] == "/tell, /whereis, /who, /wish, /wwho"
    assert render(Event(e.value.code, e.value.params)) == [
        "! [ambiguous-command] Ambiguous command /w: could be /tell, /whereis, /who, /wish, /wwho."]


def test_unknown_command_hints_at_help_but_plain_text_is_speech() -> None:
    assert code_of("/frobnicate now") == "unknown-command"
    assert render(Event("unknown-command", name="frobnicate")) == [
        "! [unknown-command] Unknown command /frobnicate. Type /help for a list of commands."]
    speech = parse_line("frobnicate now, please")
    assert speech.command is None and speech.text == "frobnicate now, please"
    assert parse_line("w is ambiguous, so speech").command is None
    assert parse_line("   ") is None


def test_whisper_shortcut_and_rest_arguments() -> None:
    p = parse_line(";Bob  hello there  ")
    assert p.command.name == "tell" and p.args == {"name": "Bob", "text": "hello there"}
    p = parse_line("/tell Bob  hello   there")
    assert p.args == {"name": "Bob", "text": "hello   there"}
    assert code_of(";Bob") == "bad-arguments"
    assert code_of("/tell Bob") == "bad-arguments"
    assert code_of("/who extra") == "bad-arguments"
    assert code_of("/password onlyone") == "bad-arguments"
    with pytest.raises(LobbyError) as e:
        parse_line("/tell")
    assert e.value.params == {"usage": "/tell NAME TEXT..."}
    assert parse_line("/finger").args == {}            # without a name: your own (issue 26)
    p = parse_line("@Bob hello")                        # the whisper without ; (tintin++)
    assert p.command.name == "tell" and p.args == {"name": "Bob", "text": "hello"}
    assert parse_line("/help").args == {} and parse_line("/help tell").args == {"command": "tell"}


def test_tintin_users_are_told_how_to_whisper_and_backslash_semicolon_whispers() -> None:
    """tintin++ reads ; as its own separator (;Anna hi would be the speech "Anna hi"):
    /help tell says to use @NAME (or /tell), and \\;NAME TEXT still whispers in every client."""
    from twisted.internet import task

    from conftest import FakeLobby
    lobby = FakeLobby(task.Clock())
    anna, bob = lobby.connect(), lobby.connect()
    anna.login("guest")
    bob.login("guest")
    anna.raw()
    bob.send("/help tell")
    help_text = " ".join(bob.text().split())
    assert "tintin++" in help_text and "/tell NAME TEXT" in help_text and "@NAME TEXT" in help_text
    p = parse_line("\\;Bob  hello there")
    assert p.command.name == "tell" and p.args == {"name": "Bob", "text": "hello there"}
    assert code_of("\\;Bob") == "bad-arguments"
    name = anna.session.user.name
    bob.send(f"\\;{name} secret plan")
    assert anna.lines() == [f"{bob.session.user.name} tells you: secret plan"]
    assert bob.lines() == [f"You tell {name}: secret plan"]


def test_argument_specs() -> None:
    assert [str(a) for a in parse_spec("NAME [TEXT...]")] == ["NAME", "[TEXT...]"]
    with pytest.raises(ValueError):
        parse_spec("TEXT... NAME")
    with pytest.raises(ValueError):
        parse_spec("[A] B")


def test_adding_a_command_is_one_entry_and_a_handler() -> None:
    table = CommandTable()

    @table.command("join", "SEAT", aliases=("sit",))
    def join(ctx, args):  # pragma: no cover - not run
        pass

    assert table.resolve("si").name == "join" and table.resolve("j").handler is join
    with pytest.raises(ValueError):
        table.command("sit")(join)
    # the summary is the catalog's cmd-join
    assert f"| `/join SEAT` | {HELP_TEXTS['cmd-join']} |" in commands_markdown(table)


def test_every_help_text_comes_from_the_catalog() -> None:
    """Summaries and explanations of every command (lobby, moderation, records and table
    commands) and of every table option are catalog entries; none is written in code."""
    for cmd in COMMANDS:
        assert cmd.summary == text(cmd.summary_key, **cmd.help_params), cmd.name
        assert "{" not in cmd.summary, cmd.name
        more = "" if cmd.help_more is None else "\n" + cmd.help_more("en")
        assert cmd.help == text(cmd.help_key, **cmd.help_params) + more, cmd.name
        assert "{" not in cmd.help, cmd.name           # every field of the template is filled
    for option in OPTIONS:
        assert option.help_key in HELP_TEXTS, option.name
    used = {c.summary_key for c in COMMANDS} | {c.help_key for c in COMMANDS} | \
        {o.help_key for o in OPTIONS} | {o.expects_key for o in OPTIONS} | {"option-help-line"}
    assert set(HELP_TEXTS) == used                     # no stale help text either
    # /help option names the defaults of the options' declaration
    assert f"default {defaults()['target']}" in " ".join(COMMANDS.resolve("option").help.split())


def test_the_option_help_lists_every_declared_option_in_every_language() -> None:
    """/help option comes from the options' declaration (the timer too, outside attack F3):
    one line per option, with its meaning in the reader's language, values and default."""
    from lobby.text.messages import LANGUAGES
    option = COMMANDS.resolve("option")
    assert {"en", "de", "fr", "es", "da"} <= set(LANGUAGES)
    for lang in LANGUAGES:
        lines = option.help_text(lang).split("\n")
        for spec in OPTIONS:
            meaning = text(spec.help_key, lang)
            assert any(l.startswith(spec.name + ": " if lang != "fr" else spec.name + " : ")
                       and meaning in l for l in lines), (lang, spec.name)
    assert "timer: seconds per decision" in option.help_text("en")


def test_help_covers_every_command_and_every_rendered_key_exists() -> None:
    for cmd in COMMANDS:
        assert cmd.summary and cmd.usage.startswith("/" + cmd.name)
    event_types = {"greeting", "motd", "login-prompt", "password-prompt", "logged-in",
                   "logged-in-guest", "replaced", "bye", "shutdown", "registered",
                   "password-changed", "enters", "leaves", "says", "tells", "told", "who",
                   "wwho", "finger", "help", "help-command"}
    assert event_types <= set(INFO)
    assert not set(INFO) & set(ERRORS)


def test_docs_protocol_md_generated_sections_are_current() -> None:
    """Fails when docs/protocol.md is stale: run  python -m protocol.commands --write-docs"""
    sections = generated_sections(DOC.read_text(encoding="utf-8"))
    assert sections.get("commands") == commands_markdown(), \
        "docs/protocol.md is stale: python -m protocol.commands --write-docs"
    assert sections.get("errors") == errors_markdown(), \
        "docs/protocol.md is stale: python -m protocol.commands --write-docs"
    assert sections.get("options") == options_markdown(), \
        "docs/protocol.md is stale: python -m protocol.commands --write-docs"


def test_every_error_code_is_documented() -> None:
    doc = DOC.read_text(encoding="utf-8")
    missing = [code for code in ERRORS if f"`{code}`" not in doc]
    assert missing == []


def test_the_docs_generator_rewrites_only_its_sections(tmp_path: Path) -> None:
    doc = tmp_path / "p.md"
    doc.write_text("# Protocol\n\nhand written\n\n## Telnet\n\nalso hand written\n")
    assert docs.main(["--write-docs", str(doc)]) == 0
    text = doc.read_text()
    assert "hand written" in text and "also hand written" in text
    assert generated_sections(text) == {"commands": commands_markdown(),
                                        "errors": errors_markdown(),
                                        "options": options_markdown()}
    assert docs.update_docs(doc) is False
