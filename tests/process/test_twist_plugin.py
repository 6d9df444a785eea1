"""``twist tichu-lobby [options]`` (twisted/plugins/tichu_lobby.py) runs the same server with the
same options: a real ``twist`` subprocess listens on port 0 and greets; Twisted's own logging
options (before the plugin name) and ours (after it) both work; a failed start exits with 1."""
from __future__ import annotations

import json
import signal
from pathlib import Path

from twisted.application.service import IServiceMaker
from twisted.plugin import IPlugin, getPlugins

from protocol.process.options import parse_args
from protocol.process.server import LobbyService
from server_process import ROOT, ServerProcess, command, greeting, json_port, json_record, run

PORT = ["--port", "tcp:0:interface=127.0.0.1"]


def the_plugin() -> IServiceMaker:
    makers = [p for p in getPlugins(IServiceMaker) if p.tapname == "tichu-lobby"]
    assert len(makers) == 1
    return makers[0]


def test_the_plugin_is_found_and_parses_the_same_options(tmp_path: Path) -> None:
    maker = the_plugin()
    assert IPlugin.providedBy(maker) and IServiceMaker.providedBy(maker)
    argv = ["--db", str(tmp_path / "x.sqlite3"), *PORT, "--max-per-ip", "3", "--uvloop",
            "--log-level", "warn", "--flood-rate", "0"]
    options = maker.options()
    options.parseOptions(argv)
    assert vars(options["opts"]) == vars(parse_args(argv))
    service = maker.makeService(options)
    assert isinstance(service, LobbyService) and service.opts is options["opts"]
    # the package's plugin directory has no __init__.py (it would shadow Twisted's own)
    assert not (ROOT / "twisted" / "__init__.py").exists()
    assert not (ROOT / "twisted" / "plugins" / "__init__.py").exists()


def test_twist_runs_the_server_with_text_logs(tmp_path: Path) -> None:
    argv = [command("twist"), "--log-format", "text", "tichu-lobby",
            "--db", str(tmp_path / "lobby.sqlite3"), *PORT]
    with ServerProcess(argv, tmp_path) as server:
        assert "Welcome" in greeting(server.port)
        code, out = server.stop()
    assert code == -signal.SIGTERM, out     # twist ends with the signal that stopped it
    assert "[protocol.server#info] event loop: asyncio" in out
    assert "stopped; database" in out and "Traceback" not in out


def test_twist_logs_json_by_default_to_a_pipe(tmp_path: Path) -> None:
    """twist's own JSON format (RFC 7464 records) when its output is not a terminal."""
    argv = [command("twist"), "tichu-lobby", "--db", str(tmp_path / "lobby.sqlite3"), *PORT]
    with ServerProcess(argv, tmp_path, find_port=json_port) as server:
        greeting(server.port)
        code, out = server.stop()
    assert code == -signal.SIGTERM, out
    lines = [line for line in out.split("\n") if line]    # (splitlines() splits at 0x1E too)
    assert lines and all(line.startswith("\x1e{") for line in lines)
    assert [json_record(line) for line in lines]


def test_our_log_options_after_the_plugin_name_override_twists(tmp_path: Path) -> None:
    """Ours (JSON lines, warn and above) replace twist's text at info: a start that fails (an
    --admin account that does not exist) logs its critical line and nothing below warn."""
    done = run([command("twist"), "--log-format", "text", "--log-level", "info", "tichu-lobby",
                "--log-format", "json", "--log-level", "warn",
                "--db", str(tmp_path / "lobby.sqlite3"), *PORT, "--admin", "Nobody"], tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]   # plain JSON lines: ours
    assert records
    assert {r["log_level"]["name"] for r in records} <= {"warn", "error", "critical"}
    assert any(r["log_level"]["name"] == "critical" and "Nobody" in r["message"]
               for r in records)


def test_twist_help_lists_our_options(tmp_path: Path) -> None:
    done = run([command("twist"), "tichu-lobby", "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: twist tichu-lobby")
    for option in ("--port", "--db", "--max-per-ip", "--log-rotate-bytes", "--uvloop"):
        assert option in done.stdout
    done = run([command("twist"), "tichu-lobby", "--no-such-option"], tmp_path)
    assert done.returncode == 2 and "unrecognized arguments: --no-such-option" in done.stderr


def test_a_failed_start_under_twist_exits_with_1(tmp_path: Path) -> None:
    done = run([command("twist"), "--log-format", "text", "tichu-lobby",
                "--db", str(tmp_path / "lobby.sqlite3"), *PORT, "--admin", "Nobody"], tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("tichu-lobby: ") and "Nobody" in done.stderr
    assert "listening on" not in done.stdout and "Traceback" not in done.stdout + done.stderr


def test_a_message_of_the_day_that_cannot_be_read_is_a_usage_error(tmp_path: Path) -> None:
    done = run([command("twist"), "tichu-lobby", "--motd", str(tmp_path / "missing.txt")],
               tmp_path)
    assert done.returncode == 64          # twist's EX_USAGE
    assert "cannot read the message of the day" in done.stdout + done.stderr
