"""Crash safety of the real server process: SIGKILL in the middle of a game, start again, the four
players log back in and finish it; a graceful stop keeps running tables too; a database that
cannot be used is a clear start-up error.

The server runs as ``python -m protocol`` on a temporary database and a free port; the players
are plain blocking sockets. The test keeps its own Match with the same seed and applies every
action the server accepted, so it knows the hands, what to play next, and the score an
uninterrupted game with the same seed and actions ends with.
"""
from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import strip_telnet, unwrap
from lobby.tichu.actions import CallTichu, Exchange, GrandTichu, Play
from lobby.tichu.cards import parse_cards
from lobby.tichu.match import Match, MatchOptions
from server_process import run_server
from table_support import command_for

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Anna", "Bert", "Cleo", "Dirk"]
SEED = 4711
TARGET = 200
LISTENING = re.compile(r"listening on \S+ \(([\d.]+):(\d+)\)")


class Server:
    """``python -m protocol`` on ``db``; ``port`` read from its log."""

    def __init__(self, db: Path, *extra: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "protocol", "--db", str(db),
             "--port", "tcp:0:interface=127.0.0.1", "--flood-rate", "0",   # scripted players
             *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=db.parent)
        self.log: list[str] = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line)
            found = LISTENING.search(line)
            if found:
                self.port = int(found.group(2))
                break
        else:
            raise AssertionError("the server did not start:\n" + "".join(self.log))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        assert self.proc.returncode == -signal.SIGKILL

    def terminate(self) -> str:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0, out
        return "".join(self.log) + out

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class Client:
    """A blocking line client (telnet negotiation stripped)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buffer = ""

    def expect(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited for {text!r}; got {self.buffer[-2000:]!r}")
            self.sock.settimeout(left)
            data = self.sock.recv(65536)
            if not data:
                raise AssertionError(f"closed while waiting for {text!r}: {self.buffer[-2000:]!r}")
            self.buffer += strip_telnet(data).decode("utf-8", "replace")
        at = self.buffer.index(text) + len(text)
        got, self.buffer = self.buffer[:at], self.buffer[at:]
        return got

    def send(self, line: str) -> None:
        self.sock.sendall((line + "\r\n").encode("utf-8"))

    def command(self, name: str, line: str | None) -> str:
        """Send ``line``; everything up to the answer of a /whereis sent right after it (the
        session answers lines in order, and a table command only after what it caused)."""
        if line is not None:
            self.send(line)
        self.send(f"/whereis {name}")
        got = self.expect(f"{name} is in the ")
        self.expect("\r\n")
        return got

    def close(self) -> None:
        self.sock.close()


def log_in(port: int, name: str, *, register: bool) -> tuple[Client, str]:
    c = Client(port)
    c.expect("login: ")
    c.send(name)
    if register:
        c.expect("or type another name: ")   # not registered yet: Enter plays as the guest
        c.send("")
        c.expect("/help for the commands.\r\n")
        c.send(f"/register pw-{name}")
        c.expect("is registered now")
        return c, ""
    c.expect("password: ")
    c.send(f"pw-{name}")
    return c, c.expect("/help for the commands.\r\n")


def next_command(match: Match, rng: random.Random) -> tuple[int, Any, str]:
    """A legal action of some player and the command line that says it."""
    choices = []
    for player in range(4):
        seat = match.seat_of(player)
        for a in match.legal_actions(player):
            if isinstance(a, (CallTichu, Exchange)) or (isinstance(a, GrandTichu) and a.call):
                continue
            choices.append((player, a))
        rnd = match.round
        if rnd.phase == "exchange" and "given" not in rnd.view(seat):
            hand = sorted(parse_cards(rnd.view(seat)["hand"]))
            choices.append((player, Exchange(tuple(rng.sample(hand, 3)))))
    plays = [c for c in choices if isinstance(c[1], Play)]
    if plays and rng.random() < 0.4:
        choices = plays
    player, action = rng.choice(choices)
    seat = match.seat_of(player)
    name, args = command_for(action, seat, rng, in_turn=match.round.turn == seat)
    if isinstance(args, dict):
        args = args["cards"]
    if isinstance(action, Play):       # a wish the action does not name would change the game
        args = str(args).split(" wish ")[0]
    return player, action, f"/{name} {args or ''}".strip()


def play(clients: dict[str, Client], match: Match, rng: random.Random, *,
         until: Any = None) -> None:
    """Send legal commands, apply each to ``match`` once the server has answered it."""
    while not match.finished and (until is None or not until(match)):
        player, action, line = next_command(match, rng)
        name = PLAYERS[player]
        answer = clients[name].command(name, line)
        assert "! [" not in answer, (line, answer)
        match.apply(player, action)


@pytest.mark.slow   # a server process started and stopped (or killed): seconds of wall time
@pytest.mark.parametrize("journal", [(), ("--journal-fsync", "--journal-checkpoint-pages", "1")],
                         ids=["default", "fsync"])
def test_sigkill_in_the_middle_of_a_game_then_the_players_finish_it(
        tmp_path: Path, journal: tuple[str, ...]) -> None:
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(SEED)
    match = Match(MatchOptions(target=TARGET), seed=SEED)
    server = Server(db, *journal)
    try:
        clients = {name: log_in(server.port, name, register=True)[0] for name in PLAYERS}
        anna = clients["Anna"]
        anna.command("Anna", "/newroom")
        for name in PLAYERS[1:]:
            clients[name].command(name, "/room 1")
        for name in PLAYERS:
            clients[name].command(name, "/join")
        anna.command("Anna", f"/option seed {SEED}")
        anna.command("Anna", f"/option target {TARGET}")
        anna.command("Anna", "/start")
        play(clients, match, rng, until=lambda m: len(m.actions) >= 40
             and m.round.phase == "play")
        server.kill()                                  # no shutdown, no flush: SIGKILL
        for c in clients.values():
            c.close()
    finally:
        server.close()

    server = Server(db, *journal)
    try:
        assert any("restored" in line for line in server.log[-3:] + server.log), server.log
        clients = {}
        for name in PLAYERS:
            c, text = log_in(server.port, name, register=False)
            text += c.command(name, None)                   # what the log-in brought
            assert "You are back in your seat at table 1; the game goes on." in text
            hand = match.view(PLAYERS.index(name))["hand"]
            assert f"Your hand: {hand}" in text, text
            clients[name] = c
        play(clients, match, rng)                      # to the end
        assert match.finished
        history = clients["Anna"].command("Anna", "/history")
        line = [l for l in unwrap(history, 2).splitlines() if l.startswith("  #1 ")]
        assert line, history
        # the stored final score is that of the same seed and actions played without a crash
        uninterrupted = Match.replay(match.record())
        assert uninterrupted.finished and uninterrupted.scores == match.scores
        assert f"{match.scores[0]} : {match.scores[1]}" in line[0], (line, match.scores)
        assert "(unrated)" in line[0]                   # /option seed: unrated
        replay = clients["Cleo"].command("Cleo", "/replay 1 1")
        assert "Game #1, table 1" in replay and "! [" not in replay
        finger = clients["Dirk"].command("Dirk", "/finger Anna")
        assert "  games 1 (won " in finger
        for c in clients.values():
            c.close()
        server.terminate()
    finally:
        server.close()


@pytest.mark.slow   # a server process started and stopped (or killed): seconds of wall time
def test_a_graceful_stop_keeps_the_running_table_for_the_next_start(tmp_path: Path) -> None:
    db = tmp_path / "stop.sqlite3"
    rng = random.Random(5)
    match = Match(MatchOptions(), seed=77)
    server = Server(db)
    try:
        clients = {name: log_in(server.port, name, register=True)[0] for name in PLAYERS}
        clients["Anna"].command("Anna", "/newroom")
        for name in PLAYERS[1:]:
            clients[name].command(name, "/room 1")
        for name in PLAYERS:
            clients[name].command(name, "/join")
        clients["Anna"].command("Anna", "/option seed 77")
        clients["Anna"].command("Anna", "/start")
        play(clients, match, rng, until=lambda m: len(m.actions) >= 12)
        out = server.terminate()                        # SIGTERM: the graceful stop
        assert "closed" in out
    finally:
        server.close()
    server = Server(db)
    try:
        c, text = log_in(server.port, "Bert", register=False)
        text += c.command("Bert", None)
        assert "You are back in your seat at table 1" in text
        spielinfo = c.command("Bert", "/spielinfo")
        assert "playing" in spielinfo
        c.close()
        server.terminate()
    finally:
        server.close()


@pytest.mark.parametrize("case", ["missing directory", "a directory", "read-only file"])
def test_an_unusable_database_file_is_a_clear_start_up_error(tmp_path: Path, case: str) -> None:
    if case == "missing directory":
        db = tmp_path / "no" / "such" / "dir" / "t.sqlite3"
    elif case == "a directory":
        db = tmp_path / "adir"
        db.mkdir()
    else:
        if os.geteuid() == 0:
            pytest.skip("root may write a read-only file")
        db = tmp_path / "ro.sqlite3"
        db.write_bytes(b"")
        db.chmod(0o444)
        tmp_path.chmod(0o555)
    try:
        done = run_server("--db", str(db), "--port", "tcp:0:interface=127.0.0.1")
    finally:
        tmp_path.chmod(0o755)
    assert done.returncode == 1
    assert str(db) in done.stderr and "Traceback" not in done.stderr + done.stdout
