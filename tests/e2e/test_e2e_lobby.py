"""End to end over real loopback sockets (port 0) with pytest-twisted, and the server process."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_twisted

from conftest import RunningServer, within
from server_process import run_server

ROOT = Path(__file__).resolve().parents[2]


@pytest_twisted.ensureDeferred
async def test_two_clients_chat_and_tell_and_a_wrong_password_is_refused(server: RunningServer) -> None:
    alice = await server.client()
    greeting = await alice.expect("login: ")
    assert "Welcome to the Tichu lobby." in greeting and "Test server." in greeting
    alice.send("Alice")
    assert await alice.expect("or type another name: ") == \
        '"Alice" is not a registered name. Press Enter to play as the guest Alice,\r\n' \
        '  or type another name: '
    alice.send("")
    assert "Hello Alice! You are a guest" in await alice.expect("/help for the commands.\r\n")
    alice.send("/register sesame1")
    assert await alice.read_line() == ("Alice is registered now. Next time log in with this name "
                                       "and your password.")
    alice.send("quit")
    assert await alice.read_line() == "Goodbye, Alice."
    await within(alice.lost)

    intruder = await server.client()
    await intruder.expect("login: ")
    intruder.send("alice")
    await intruder.expect("password: ")
    intruder.send("guessed")
    assert "! [wrong-password] Wrong password." in await intruder.expect("login: ")

    alice = await server.client()
    assert "Welcome back, Alice!" in await alice.login("alice", "sesame1")
    guest = await server.client()
    hello = await guest.login("guest")
    guest_name = hello.split("Hello ", 1)[1].split("!", 1)[0]
    assert guest_name.startswith("Guest")
    assert await alice.read_line() == f"{guest_name} enters the lobby."

    for c in (alice, guest):
        c.send("/who")
        assert await c.read_line() == f"In the lobby (2): Alice, {guest_name}"

    alice.send("hello everybody")
    assert await alice.read_line() == "<Alice> hello everybody"
    assert await guest.read_line() == "<Alice> hello everybody"
    guest.send("/tell alice just for you")
    assert await alice.read_line() == f"{guest_name} tells you: just for you"
    assert await guest.read_line() == "You tell Alice: just for you"
    alice.send(f";{guest_name} back at you")
    assert await guest.read_line() == "Alice tells you: back at you"
    assert await alice.read_line() == f"You tell {guest_name}: back at you"
    # nothing else arrived at either client: the next reply is the next line
    intruder.send("Bystander")
    await intruder.expect("or type another name: ")
    intruder.send("")
    await intruder.expect("/help for the commands.\r\n")
    assert await alice.read_line() == "Bystander enters the lobby."
    intruder.send("/who")
    assert await intruder.read_line() == f"In the lobby (3): Alice, Bystander, {guest_name}"
    assert intruder.buffer == ""


@pytest_twisted.ensureDeferred
async def test_a_restart_keeps_the_account(server: RunningServer) -> None:
    c = await server.client()
    await c.login("Keeper")
    c.send("register keepme1")
    await c.expect("is registered now")
    await server.restart()
    c = await server.client()
    await c.expect("login: ")
    c.send("keeper")
    await c.expect("password: ")
    c.send("keepme1")
    assert "Welcome back, Keeper!" in await c.expect("/help for the commands.\r\n")
    c.send("finger keeper")
    assert await c.read_line() == "Keeper:"
    assert (await c.read_line()).startswith("  registered since ")
    assert await c.read_line() == "  online now, in the lobby"


@pytest_twisted.ensureDeferred
async def test_shutdown_tells_the_users(server: RunningServer) -> None:
    c = await server.client()
    await c.login("Leaver")
    await within(server.server.stop())
    assert "The server is shutting down. Goodbye." in c.buffer + await c.expect("Goodbye.")
    await within(c.lost)
    await server.start()  # so the fixture can stop it again


def test_help_lists_the_options() -> None:
    out = run_server("--help").stdout
    for option in ("--port", "--db", "--motd", "tcp:4000:interface=127.0.0.1", "tichu.sqlite3"):
        assert option in out


def test_a_corrupt_database_is_a_clear_start_up_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.sqlite3"
    bad.write_bytes(b"garbage, not SQLite " * 100)
    done = run_server("--db", str(bad), "--port", "tcp:0:interface=127.0.0.1")
    assert done.returncode == 1
    assert str(bad) in done.stderr and "Traceback" not in done.stderr + done.stdout


def test_the_server_starts_logs_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    motd = tmp_path / "motd.txt"
    motd.write_text("Hello from the motd\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "protocol", "--db", str(tmp_path / "s.sqlite3"), "--motd", str(motd),
         "--port", "tcp:0:interface=127.0.0.1", "--port", "tcp:0:interface=127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        listening = []
        for line in proc.stdout:  # one log line per event
            if "listening on" in line:
                listening.append(line)
            if len(listening) == 2:
                break
        assert len(listening) == 2
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "database" in out and "closed" in out
    assert (tmp_path / "s.sqlite3").exists()


def test_a_port_in_use_is_a_clear_start_up_error(tmp_path: Path) -> None:
    import socket
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        done = run_server("--db", str(tmp_path / "p.sqlite3"),
                          "--port", f"tcp:{port}:interface=127.0.0.1")
    finally:
        taken.close()
    assert done.returncode == 1
    assert "cannot start" in done.stderr and "Traceback" not in done.stderr + done.stdout


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "tichu-lobby"
    if not script.exists():
        pytest.skip("not run from the project's virtual environment")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--motd" in done.stdout
