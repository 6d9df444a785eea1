"""The configuration file and the environment (issue 27; protocol/process/config.py, docs/operations.md
"Configuration"): TOML keys named as the options, TICHU_LOBBY_* variables, precedence flags >
environment > file > defaults, --print-config with each value's source, usage errors naming the
key; and a real server process started from a file and the environment only."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from protocol.process.config import configure, env_name
from protocol.process.options import build_parser, parse_args
from server_process import ROOT, ServerProcess, json_port


def parsed(argv: list[str], env: dict[str, str]) -> tuple[object, dict[str, str]]:
    parser = build_parser()
    configured = configure(parser, argv, env)
    return parser.parse_args(argv), configured.sources


def test_precedence_flags_then_environment_then_file_then_defaults(tmp_path: Path) -> None:
    conf = tmp_path / "lobby.toml"
    conf.write_text('db = "from-file.sqlite3"\nlang = "de"\nflood_rate = 7\n'
                    'port = ["tcp:4100", "tcp:4101"]\njournal-fsync = true\n', encoding="utf-8")
    opts, sources = parsed(["--config", str(conf), "--lang", "fr"],
                           {"TICHU_LOBBY_LANG": "es", "TICHU_LOBBY_FLOOD_RATE": "9",
                            "PATH": "/bin"})
    assert opts.lang == "fr" and sources["lang"] == "flag"                  # flag > env > file
    assert opts.flood_rate == 9.0 and sources["flood_rate"] == "env TICHU_LOBBY_FLOOD_RATE"
    assert opts.db == "from-file.sqlite3" and sources["db"] == f"file {conf}"
    assert opts.port == ["tcp:4100", "tcp:4101"] and opts.journal_fsync is True
    assert sources["motd"] == "default" and opts.motd is None
    # a flag that may repeat replaces the file's list, it is not added to it
    opts, _ = parsed(["--config", str(conf), "--port", "tcp:4200"], {})
    assert opts.port == ["tcp:4200"]
    opts, _ = parsed([], {"TICHU_LOBBY_PORT": "tcp:1 tcp:2,tcp:3", "TICHU_LOBBY_UVLOOP": "on",
                          "TICHU_LOBBY_CONFIG": str(conf)})
    assert opts.port == ["tcp:1", "tcp:2", "tcp:3"] and opts.uvloop is True
    assert opts.db == "from-file.sqlite3"                # the file named by the environment


@pytest.mark.parametrize("text, env, message", [
    ("colour = true\n", {}, "there is no option --colour"),
    ('lang = "xx"\n', {}, "key lang (--lang): one of en, da, de, es, fr, not 'xx'"),
    ("flood-rate = [1, 2]\n", {}, "one value, not [1, 2]: a number"),
    ("uvloop = 3\n", {}, "a switch takes true or false"),
    ("", {"TICHU_LOBBY_NO_SUCH": "1"}, "TICHU_LOBBY_NO_SUCH names no option"),
    ("", {"TICHU_LOBBY_FLOOD_RATE": "fast"},
     "the environment variable TICHU_LOBBY_FLOOD_RATE (--flood-rate): a number, not 'fast'"),
    ("", {"TICHU_LOBBY_MAX_PER_IP": "lots"},
     "the environment variable TICHU_LOBBY_MAX_PER_IP (--max-per-ip): a whole number, not 'lots'"),
    ("", {"TICHU_LOBBY_FLOD_RATE": "1"}, "names no option (did you mean --flood-rate?)"),
    ("not toml = = \n", {}, "is not TOML"),
])
def test_a_wrong_key_or_value_is_a_usage_error_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, env: dict[str, str],
        message: str) -> None:
    conf = tmp_path / "bad.toml"
    conf.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        parsed(["--config", str(conf)], env)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    # our own words, and no usage summary of every option before them
    assert "invalid literal" not in err and "usage:" not in err
    assert err.endswith("tichu-lobby --help lists every option (docs/operations.md)\n")
    assert len(err.splitlines()) == 2, err


def test_a_bad_file_names_every_wrong_key(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    conf = tmp_path / "bad.toml"
    conf.write_text('max-per-ip = "lots"\ncolur = 3\nflood_rat = 1\nlang = "xx"\ndb = "ok"\n',
                    encoding="utf-8")
    with pytest.raises(SystemExit):
        parsed(["--config", str(conf)], {"TICHU_LOBBY_GC_THRESHOLD": "many"})
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"tichu-lobby: error: the configuration file {conf}, key max-per-ip (--max-per-ip): "
        "a whole number, not 'lots'",
        f"tichu-lobby: error: the configuration file {conf}, key colur: there is no option --colur",
        f"tichu-lobby: error: the configuration file {conf}, key flood_rat: there is no option "
        "--flood-rat (did you mean --flood-rate?)",
        f"tichu-lobby: error: the configuration file {conf}, key lang (--lang): one of en, da, "
        "de, es, fr, not 'xx'",
        "tichu-lobby: error: the environment variable TICHU_LOBBY_GC_THRESHOLD (--gc-threshold): "
        "a whole number, not 'many'",
        "tichu-lobby --help lists every option (docs/operations.md)"]


@pytest.mark.parametrize("argv, words", [
    (["--max-per-ip", "abc"], "--max-per-ip: a whole number, not 'abc'"),
    (["--bot-slack", "soon"], "--bot-slack: a number, not 'soon'"),
    (["--lang", "xx"], "--lang: one of 'en', 'da', 'de', 'es', 'fr', not 'xx'"),
    (["--db"], "--db needs a value"),
    (["--no-such"], "unrecognized arguments: --no-such"),
])
def test_a_bad_flag_is_two_lines_without_the_usage(argv: list[str], words: str) -> None:
    """The console script itself: one error line in our words, one pointer to --help."""
    from server_process import command
    done = subprocess.run([command("tichu-lobby"), *argv], capture_output=True, text=True,
                          timeout=60, env={k: v for k, v in os.environ.items()
                                           if not k.startswith("TICHU_LOBBY_")})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"tichu-lobby: error: {words}",
                                        "tichu-lobby --help lists every option (docs/operations.md)"]


def test_the_limits_line_is_short() -> None:
    """The start-up line names only the limits that differ from the defaults, as options."""
    from dataclasses import fields, replace

    from protocol.connection.guard import PUBLIC_LIMITS
    count = len(fields(PUBLIC_LIMITS))
    assert PUBLIC_LIMITS.describe() == f"the {count} defaults (--print-config lists them)"
    names = [f.name for f in fields(PUBLIC_LIMITS)]
    assert names.index("max_connections") < names.index("flood_rate")
    changed = replace(PUBLIC_LIMITS, flood_rate=3.0, max_connections=19900)
    assert changed.describe() == (f"the defaults (--print-config lists all {count}) except "
                                  "--max-connections 19900, --flood-rate 3")
    everything = replace(PUBLIC_LIMITS, **{name: 12345 for name in names[:10]})
    line = everything.describe()
    assert line.endswith(" and 2 more") and line.count("12345") == 8 and len(line) < 400, line


def test_every_option_has_its_environment_name() -> None:
    assert env_name("--log-level") == "TICHU_LOBBY_LOG_LEVEL"
    assert env_name("--journal-checkpoint-pages") == "TICHU_LOBBY_JOURNAL_CHECKPOINT_PAGES"


def test_print_config_shows_each_source_and_reads_back(tmp_path: Path) -> None:
    conf = tmp_path / "lobby.toml"
    conf.write_text('db = "f.sqlite3"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TICHU_LOBBY_")}
    env["TICHU_LOBBY_LOG_LEVEL"] = "warn"
    done = subprocess.run([sys.executable, "-m", "protocol", "--config", str(conf),
                           "--lang", "da", "--print-config"], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert 'lang = "da"  # flag' in lines
    assert 'log-level = "warn"  # env TICHU_LOBBY_LOG_LEVEL' in lines
    assert f'db = "f.sqlite3"  # file {conf}' in lines
    assert "flood-rate = 20.0  # default" in lines or any(
        x.startswith("flood-rate = ") and x.endswith("# default") for x in lines)
    again = tomllib.loads(done.stdout)          # the output is itself a configuration file
    assert again["lang"] == "da" and again["db"] == "f.sqlite3"
    (tmp_path / "again.toml").write_text(done.stdout, encoding="utf-8")
    assert parse_args(["--config", str(tmp_path / "again.toml")]).lang == "da"


def test_a_server_runs_from_the_file_and_the_environment(tmp_path: Path) -> None:
    conf = tmp_path / "lobby.toml"
    conf.write_text(f'db = "{tmp_path / "l.sqlite3"}"\nmotd = "{tmp_path / "motd"}"\n',
                    encoding="utf-8")
    (tmp_path / "motd").write_text("Configured by a file.\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TICHU_LOBBY_")}
    env["TICHU_LOBBY_CONFIG"] = str(conf)
    env["TICHU_LOBBY_PORT"] = "tcp:0:interface=127.0.0.1"
    env["TICHU_LOBBY_LOG_FORMAT"] = "json"
    with ServerProcess([sys.executable, "-m", "protocol"], tmp_path, find_port=json_port,
                       env=env) as server:
        port = server.port
        assert port
        import socket
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.settimeout(30)
            got = b""
            while b"login:" not in got:
                got += s.recv(4096)
        assert b"Configured by a file." in got
        server.stop()
    assert (tmp_path / "l.sqlite3").exists()
