#!/usr/bin/env python3
"""Server benchmarks: the lobby under load, next to the echo baseline measured in the same run.

    .venv/bin/python scripts/bench_server.py                 # all scenarios, full size
    .venv/bin/python scripts/bench_server.py --loops asyncio,uvloop --repeat 2 --write-docs
    .venv/bin/python scripts/bench_server.py --quick         # tiny sizes (the smoke test)

What it does, for each event loop asked for (``--loops``) and each repetition (``--repeat``):

1. The baseline: ``scripts/bench_echo_server.py`` (a minimal Twisted line-echo server on the
   asyncio reactor) with closed-loop round trips, ``--idle`` idle connections (RSS, one echoed
   line), and in ``--broadcast`` mode the chat fan-out of step 5 without any lobby.
2. The lobby server's own round trip: users whispering to themselves (``;NAME text``).
3. Idle crowd: ``--idle`` connections held at the login prompt, and ``--idle-login`` logged in
   (every login is announced to everybody in the lobby, see docs/performance.md); server RSS per
   connection and in total, and ``/who`` round trips.
4. Chat fan-out: ``--listeners`` users and ``--talkers`` talkers in the lobby, ``--rate``
   messages per second; delivery latency at the listeners.
5. Login storm: ``--storm`` clients logging in with passwords (argon2id, in threads) over and over,
   and the latency of other users' commands before and during the storm.
6. Flood: one client sending lines as fast as the server reads them, next to normal users.

Every lobby scenario gets a fresh server process (``python -m protocol``) with a temporary
database (``--reuse-server``: one for all, as ``--quick`` does). The load generator
(``scripts/loadgen.py``) is a separate process too. With two or more CPUs the servers are pinned
to CPU 0 and the load generator to CPU 1 (``--no-pin`` turns that off). As root, the hard limit
of open files of the processes this script starts is raised to ``--nofile`` (default 65536) with
``setrlimit`` in the child before it runs; the lobby server then raises its soft limit to it by
itself. Everything is loopback and bounded: each load generator run has a time limit, each
server is stopped with SIGTERM (then killed) at the end.

The report goes to standard output (a table per run and the medians over the repetitions);
``--json FILE`` writes every figure, ``--write-docs`` replaces the generated part of the
"Server" section of docs/performance.md (between ``<!-- bench_server:begin -->`` and
``<!-- bench_server:end -->``).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
DOCS = ROOT / "docs" / "performance.md"
BEGIN = "<!-- bench_server:begin -->"
END = "<!-- bench_server:end -->"
STORM_PASSWORD = "bench-secret"
# The lobby servers run with the limits that would cap the benchmark's own load turned off: the
# total of connections and of guests, and flood control (which allows 20 lines/s per connection:
# the round-trip clients send far more). The flood scenario runs twice: with the command line's
# default flood control, and with none. The speech and tells budgets of an address group (every
# client of the benchmark is 127.0.0.1) and the byte budget would cap the chat and echo loads the
# same way.
CAPACITY_LIMITS = ("--max-connections", "0", "--max-guests", "0", "--flood-rate", "0",
                   "--speech-per-second", "0", "--tells-per-second", "0", "--repeat-window", "0",
                   "--input-bytes-per-second", "0", "--log-lines-per-minute", "0")
FLOOD_LIMITS = ("--max-connections", "0", "--max-guests", "0")
LOBBY_SCENARIOS = ("lobby_echo", "idle_prompt", "idle_login", "chat", "logins", "flood")

if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))
from loadgen import UVLOOP_MISSING, cpu_seconds


# ---- processes ----------------------------------------------------------------------------------
def _preexec(cpu: int | None, nofile: int) -> Callable[[], None]:
    def setup() -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if nofile > hard:
            try:  # only root may raise the hard limit
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, nofile))
            except (ValueError, OSError):
                pass
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
    return setup


class Server:
    """A server process (the lobby or the echo server) on a port chosen by the kernel."""

    def __init__(self, argv: list[str], log: Path, cpu: int | None, nofile: int,
                 cwd: Path) -> None:
        self.log = log
        self.out = open(log, "w")  # noqa: SIM115 (the child's log: open while it runs)
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(argv, stdout=self.out, stderr=subprocess.STDOUT, env=env,
                                     cwd=cwd, preexec_fn=_preexec(cpu, nofile))
        self.port = self._wait_port(30.0)

    def _wait_port(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"bench_server: the server exited: {self.log.read_text()[-2000:]}")
            for line in self.log.read_text().splitlines():
                if "listening on" in line:
                    return int(line.rstrip(")").rsplit(":", 1)[1])
            time.sleep(0.05)
        self.stop()
        raise SystemExit("bench_server: the server did not start listening in time")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.out.close()


class Bench:
    def __init__(self, opts: argparse.Namespace, workdir: Path) -> None:
        self.opts = opts
        self.workdir = workdir
        cpus = sorted(os.sched_getaffinity(0))
        pin = opts.pin and len(cpus) >= 2
        self.server_cpu = cpus[0] if pin else None
        self.load_cpu = cpus[1] if pin else None
        self.python = sys.executable
        self.accounts_file = workdir / "accounts.txt"
        self.template_db = workdir / "template.sqlite3"
        self.count = 0

    # ---- setup ----------------------------------------------------------------------------------
    def make_accounts(self) -> None:
        """A database with ``--accounts`` registered users sharing one password hash (each check
        costs the same as with its own salt), and the file the load generator reads."""
        sys.path.insert(0, str(ROOT))
        from lobby.storage.accounts import hash_password
        from lobby.storage.store import Store
        store = Store(str(self.template_db))
        store.open()
        stored = hash_password(STORM_PASSWORD)
        names = [f"Acc{i:05d}" for i in range(self.opts.accounts)]
        for name in names:
            store.create_account(name, stored, time.time())
        store.close()
        self.accounts_file.write_text("".join(f"{n} {STORM_PASSWORD}\n" for n in names))

    def lobby(self, loop: str, limits: Sequence[str] = ()) -> Server:
        self.count += 1
        db = self.workdir / f"lobby{self.count}.sqlite3"
        db.write_bytes(self.template_db.read_bytes())
        argv = [self.python, "-m", "protocol", "--db", str(db),
                "--port", "tcp:0:interface=127.0.0.1:backlog=4096"]
        if loop == "uvloop":
            argv.append("--uvloop")
        argv.extend(limits)
        argv.extend(self.opts.server_arg)
        return Server(argv, self.workdir / f"lobby{self.count}.log", self.server_cpu,
                      self.opts.nofile, self.workdir)

    def echo(self, loop: str, broadcast: bool = False) -> Server:
        self.count += 1
        argv = [self.python, str(SCRIPTS / "bench_echo_server.py"),
                "--port", "tcp:0:interface=127.0.0.1:backlog=4096",
                "--seconds", str(self.opts.time_limit * 10)]
        if loop == "uvloop":
            argv.append("--uvloop")
        if broadcast:
            argv.append("--broadcast")
        return Server(argv, self.workdir / f"echo{self.count}.log", self.server_cpu,
                      self.opts.nofile, self.workdir)

    def load(self, server: Server, scenario: str, *args: str) -> dict[str, Any]:
        argv = [self.python, str(SCRIPTS / "loadgen.py"), scenario, "--port", str(server.port),
                "--time-limit", str(self.opts.time_limit), *args]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run(argv, capture_output=True, text=True, env=env,
                              timeout=self.opts.time_limit + 60,
                              preexec_fn=_preexec(self.load_cpu, self.opts.nofile))
        if done.returncode != 0:
            raise SystemExit(f"bench_server: loadgen {scenario} failed:\n{done.stderr[-3000:]}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["server_cpu_seconds_total"] = cpu_seconds(server.pid)
        result["server_nofile"] = _nofile(server.pid)
        return result

    # ---- one run --------------------------------------------------------------------------------
    def run(self, loop: str) -> dict[str, Any]:
        o = self.opts
        r: dict[str, Any] = {"loop": loop}
        only = set(o.only.split(","))
        echo = self.echo(loop)
        try:
            r["echo"] = self.load(echo, "echo", "--conns", str(o.echo_conns),
                                  "--seconds", str(o.seconds))
            if only & {"idle_prompt", "idle_login"}:
                r["echo_idle"] = self.load(echo, "idle", "--echo", "--conns", str(o.idle),
                                           "--procs", str(o.procs), "--who", str(o.who),
                                           "--settle", str(o.settle),
                                           "--server-pid", str(echo.pid))
        finally:
            echo.stop()
        if "chat" in only:
            echo = self.echo(loop, broadcast=True)
            try:
                r["echo_fanout"] = self.load(echo, "chat", "--echo", *self._chat_args())
            finally:
                echo.stop()

        shared = self.lobby(loop, CAPACITY_LIMITS) if o.reuse_server else None

        def lobby_run(scenario: str, *args: str, server_pid: bool = False,
                      limits: Sequence[str] = CAPACITY_LIMITS) -> dict[str, Any]:
            own = shared is None or limits != CAPACITY_LIMITS
            server = self.lobby(loop, limits) if own else shared
            assert server is not None
            try:
                extra = ("--server-pid", str(server.pid)) if server_pid else ()
                return self.load(server, scenario, *args, *extra)
            finally:
                if own:
                    server.stop()

        try:
            if "lobby_echo" in only:
                r["lobby_echo"] = lobby_run("echo", "--lobby", "--conns", str(o.echo_conns),
                                        "--seconds", str(o.seconds))
            if "idle_prompt" in only:
                r["idle_prompt"] = lobby_run("idle", "--no-login", "--conns", str(o.idle),
                                         "--procs", str(o.procs), "--who", str(o.who),
                                         "--settle", str(o.settle), server_pid=True)
            if "idle_login" in only:
                r["idle_login"] = lobby_run("idle", "--conns", str(o.idle_login), "--procs",
                                        str(o.procs), "--who", str(o.who), "--settle", str(o.settle),
                                        server_pid=True)
            if "chat" in only:
                r["chat"] = lobby_run("chat", *self._chat_args())
            if "logins" in only:
                r["logins"] = lobby_run("logins", "--accounts-file", str(self.accounts_file),
                                    "--storm", str(o.storm), "--seconds", str(o.seconds),
                                    "--quiet", str(max(0.5, o.seconds / 2)),
                                    "--probes", str(o.probes))
            if "flood" in only:
                flood = ("flood", "--users", str(o.probes), "--seconds", str(o.seconds),
                         "--kind", o.flood_kind)
                r["flood"] = lobby_run(*flood, limits=FLOOD_LIMITS)
                r["flood_off"] = lobby_run(*flood)
        finally:
            if shared is not None:
                shared.stop()
        return r

    def _chat_args(self) -> list[str]:
        o = self.opts
        return ["--listeners", str(o.listeners), "--talkers", str(o.talkers), "--rate",
                str(o.rate), "--seconds", str(o.seconds), "--sampled", str(o.sampled),
                "--grace", str(min(5.0, o.seconds))]


def _nofile(pid: int) -> str:
    """The soft/hard open-files limit of a process, from /proc/PID/limits."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    soft, hard = line.split()[3:5]
                    return f"{soft}/{hard}"
    except OSError:
        pass
    return "?"


# ---- report -------------------------------------------------------------------------------------
def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


def figures(r: dict[str, Any]) -> list[tuple[str, float, str, float | None, str]]:
    """(figure, value, unit, ratio to the baseline, what the ratio compares) for one run; rows
    of scenarios that did not run are left out."""
    mib = 1024 * 1024

    def div(a: float, b: float) -> float | None:
        return round(a / b, 2) if b else None

    def rss(d: dict[str, Any]) -> float:
        return d.get("rss_per_conn", 0)

    e = r["echo"]
    rows: list[tuple[str, float, str, float | None, str]] = [
        ("echo baseline: round trips/s", e["round_trips_per_s"], "/s", 1.0, ""),
        ("echo baseline: round trip p50", e["latency"]["p50_ms"], "ms", 1.0, ""),
        ("echo baseline: round trip p99", e["latency"]["p99_ms"], "ms", 1.0, "")]
    makers: list[Callable[[], list[tuple[str, float, str, float | None, str]]]] = [
        lambda: [
            ("lobby round trips/s (whisper to oneself)", r["lobby_echo"]["round_trips_per_s"],
             "/s", div(r["lobby_echo"]["round_trips_per_s"], e["round_trips_per_s"]),
             "echo round trips/s"),
            ("lobby round trip p99", r["lobby_echo"]["latency"]["p99_ms"], "ms",
             div(r["lobby_echo"]["latency"]["p99_ms"], e["latency"]["p99_ms"]), "echo p99")],
        lambda: [
            ("idle at the login prompt: connections held", r["idle_prompt"]["held"],
             f"of {r['idle_prompt']['conns']}", None, ""),
            ("idle at the login prompt: connections/s", r["idle_prompt"]["holds_per_s"], "/s",
             div(r["idle_prompt"]["holds_per_s"], r["echo_idle"]["holds_per_s"]),
             "echo connections/s"),
            ("idle at the login prompt: RSS per connection", rss(r["idle_prompt"]), "bytes",
             div(rss(r["idle_prompt"]), rss(r["echo_idle"])), "echo RSS per connection"),
            ("idle at the login prompt: RSS total", round(r["idle_prompt"]["rss_after"] / mib, 1),
             "MiB", div(r["idle_prompt"]["rss_after"], r["echo_idle"]["rss_after"]),
             "echo RSS total"),
            ("idle at the login prompt: /who p99", r["idle_prompt"]["who"]["p99_ms"], "ms",
             div(r["idle_prompt"]["who"]["p99_ms"], r["echo_idle"]["who"]["p99_ms"]),
             "echo one-line p99 beside its idle crowd")],
        lambda: [
            ("idle logged in: connections held", r["idle_login"]["held"],
             f"of {r['idle_login']['conns']}", None, ""),
            ("idle logged in: logins/s while the crowd grows", r["idle_login"]["holds_per_s"],
             "/s", div(r["idle_login"]["holds_per_s"], r["echo_idle"]["holds_per_s"]),
             "echo connections/s"),
            ("idle logged in: RSS per connection", rss(r["idle_login"]), "bytes",
             div(rss(r["idle_login"]), rss(r["echo_idle"])), "echo RSS per connection"),
            ("idle logged in: RSS total", round(r["idle_login"]["rss_after"] / mib, 1), "MiB",
             None, ""),
            ("idle logged in: /who p99", r["idle_login"]["who"]["p99_ms"], "ms",
             div(r["idle_login"]["who"]["p99_ms"], r["echo_idle"]["who"]["p99_ms"]),
             "echo one-line p99 beside its idle crowd")],
        lambda: [
            ("chat fan-out: messages/s sent", r["chat"]["rate_sent"],
             f"/s to {r['chat']['logged_in']} users", None, ""),
            ("chat fan-out: delivery p50", r["chat"]["latency"]["p50_ms"], "ms",
             div(r["chat"]["latency"]["p50_ms"], r["echo_fanout"]["latency"]["p50_ms"]),
             "broadcasting echo server p50"),
            ("chat fan-out: delivery p99", r["chat"]["latency"]["p99_ms"], "ms",
             div(r["chat"]["latency"]["p99_ms"], r["echo_fanout"]["latency"]["p99_ms"]),
             "broadcasting echo server p99"),
            ("chat fan-out: share delivered to sampled listeners in time",
             round(r["chat"]["received_at_sampled"] / max(1, r["chat"]["expected_at_sampled"]), 3),
             "", div(r["chat"]["received_at_sampled"], r["echo_fanout"]["received_at_sampled"]),
             "the same at the echo server")],
        lambda: [
            ("logins/s with password checks", r["logins"]["logins_per_s"], "/s",
             div(r["logins"]["logins_per_s"], e["round_trips_per_s"]), "echo round trips/s"),
            ("login latency p99 during the storm", r["logins"]["login_latency"]["p99_ms"], "ms",
             None, ""),
            ("others' command p99 before the storm", r["logins"]["probe_quiet"]["p99_ms"], "ms",
             div(r["logins"]["probe_quiet"]["p99_ms"], e["latency"]["p99_ms"]), "echo p99"),
            ("others' command p99 during the storm", r["logins"]["probe_storm"]["p99_ms"], "ms",
             div(r["logins"]["probe_storm"]["p99_ms"], e["latency"]["p99_ms"]), "echo p99")],
        lambda: [
            (f"flood{label}: lines/s the flooder sent", r[key]["flood_lines_per_s"], "/s",
             div(r[key]["flood_lines_per_s"], e["round_trips_per_s"]), "echo round trips/s")
            for key, label in (("flood", " (flood control on)"), ("flood_off", " (flood control off)"))
        ] + [
            (f"flood{label}: flooder disconnected after", (r[key]["flooders_disconnected_after_s"]
                                                          or [0])[0], "s (0: never)", None, "")
            for key, label in (("flood", " (flood control on)"), ("flood_off", " (flood control off)"))
        ] + [
            (f"flood{label}: others' p99 quiet", r[key]["probe_quiet"]["p99_ms"], "ms",
             div(r[key]["probe_quiet"]["p99_ms"], e["latency"]["p99_ms"]), "echo p99")
            for key, label in (("flood", " (flood control on)"), ("flood_off", " (flood control off)"))
        ] + [
            (f"flood{label}: others' p99 during the flood", r[key]["probe_flood"]["p99_ms"], "ms",
             div(r[key]["probe_flood"]["p99_ms"], r[key]["probe_quiet"]["p99_ms"]),
             "the same without flood")
            for key, label in (("flood", " (flood control on)"), ("flood_off", " (flood control off)"))
        ],
    ]
    for make in makers:
        try:
            rows.extend(make())
        except KeyError:
            pass
    return rows


def table(runs: list[dict[str, Any]], loop: str) -> str:
    """A Markdown table for one event loop: the median over the runs, and each run."""
    mine = [r for r in runs if r["loop"] == loop]
    per_run = [figures(r) for r in mine]
    lines = [f"| figure ({loop}) | median of {len(mine)} | unit | ratio | ratio to | each run |",
             "|---|---|---|---|---|---|"]
    for i, row in enumerate(per_run[0]):
        values = [rows[i][1] for rows in per_run]
        ratios = [rows[i][3] for rows in per_run if rows[i][3] is not None]
        med = statistics.median(values)
        ratio = f"{statistics.median(ratios):.3g}" if ratios else ""
        each = ", ".join(f"{v:g}" for v in values)
        lines.append(f"| {row[0]} | {med:g} | {row[2]} | {ratio} | {row[4]} | {each} |")
    return "\n".join(lines)


def report(runs: list[dict[str, Any]], opts: argparse.Namespace, command: str) -> str:
    loops = []
    for r in runs:
        if r["loop"] not in loops:
            loops.append(r["loop"])
    head = (f"Command: `{command}`  \n"
            f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
            f"Python {sys.version.split()[0]}; sizes: idle {opts.idle} at the prompt and "
            f"{opts.idle_login} logged in, chat {opts.listeners}+{opts.talkers} at "
            f"{opts.rate:g}/s, storm {opts.storm} clients, {opts.seconds:g} s per phase; "
            f"server {'pinned to one CPU, load generator to another' if opts.pin else 'not pinned'}; "
            f"open files soft/hard of the lobby server: {runs[0]['echo'].get('server_nofile')} "
            f"(raising the hard limit to {opts.nofile} was tried as root with setrlimit).")
    return head + "\n\n" + "\n\n".join(table(runs, loop) for loop in loops) + "\n"


def write_docs(text: str) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    if BEGIN in doc and END in doc:
        before, rest = doc.split(BEGIN, 1)
        _, after = rest.split(END, 1)
        doc = before + BEGIN + "\n" + text + END + after
    else:
        doc = doc.rstrip("\n") + "\n\n## Server\n\n" + BEGIN + "\n" + text + END + "\n"
    DOCS.write_text(doc, encoding="utf-8")


# ---- command line -------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Lobby server benchmarks with the echo baseline.")
    p.add_argument("--loops", default="asyncio",
                   help="event loops to compare, comma-separated: asyncio,uvloop")
    p.add_argument("--repeat", type=int, default=1, help="runs per event loop")
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes and one server for all scenarios (the smoke test)")
    p.add_argument("--idle", type=int, default=19900,
                   help="idle connections at the prompt (20,000 minus the server's other files "
                        "when the hard limit cannot be raised above 20,000)")
    p.add_argument("--idle-login", type=int, default=3000, help="idle connections logged in")
    p.add_argument("--procs", type=int, default=2, help="load processes holding idle connections")
    p.add_argument("--who", type=int, default=20, help="/who round trips")
    p.add_argument("--settle", type=float, default=1.0,
                   help="seconds between holding the idle crowd and measuring it")
    p.add_argument("--listeners", type=int, default=2000)
    p.add_argument("--talkers", type=int, default=10)
    p.add_argument("--rate", type=float, default=100.0, help="chat messages per second")
    p.add_argument("--sampled", type=int, default=100, help="listeners measuring latency")
    p.add_argument("--echo-conns", type=int, default=50, help="closed-loop round-trip clients")
    p.add_argument("--accounts", type=int, default=200)
    p.add_argument("--storm", type=int, default=20, help="concurrent logging-in clients")
    p.add_argument("--probes", type=int, default=20, help="users measuring their commands")
    p.add_argument("--flood-kind", choices=("tell", "say", "junk"), default="tell")
    p.add_argument("--seconds", type=float, default=10.0, help="length of each measured phase")
    p.add_argument("--time-limit", type=float, default=600.0, help="per load generator run")
    p.add_argument("--nofile", type=int, default=65536,
                   help="hard open-files limit for the processes started (as root)")
    p.add_argument("--no-pin", dest="pin", action="store_false",
                   help="do not pin the server and the load generator to separate CPUs")
    p.add_argument("--command", metavar="TEXT",
                   help="the command shown in the report (with --from-json: the one that measured)")
    p.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                   help="one more option for the lobby server, e.g. --server-arg=--twisted-writes")
    p.add_argument("--reuse-server", action="store_true", help="one lobby server for all")
    p.add_argument("--only", default=",".join(LOBBY_SCENARIOS),
                   help="lobby scenarios to run, comma-separated (the echo baseline parts they "
                        "are compared with run too): " + ",".join(LOBBY_SCENARIOS))
    p.add_argument("--json", metavar="FILE", help="write every figure of every run")
    p.add_argument("--from-json", metavar="FILE",
                   help="run nothing: make the report from the figures --json wrote")
    p.add_argument("--write-docs", action="store_true",
                   help="update the generated part of the Server section of docs/performance.md")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    opts = parser.parse_args(argv)
    if "uvloop" in [loop.strip() for loop in opts.loops.split(",")] and find_spec("uvloop") is None:
        parser.error(UVLOOP_MISSING)
    if opts.quick:
        opts.idle, opts.idle_login, opts.listeners, opts.talkers = 20, 20, 20, 2
        opts.rate, opts.sampled, opts.echo_conns, opts.accounts = 20.0, 5, 5, 6
        opts.storm, opts.probes, opts.who, opts.seconds, opts.settle = 2, 3, 3, 0.5, 0.1
        opts.procs, opts.time_limit, opts.reuse_server = 1, min(opts.time_limit, 60.0), True
    runs: list[dict[str, Any]] = []
    if opts.from_json:
        runs = json.loads(Path(opts.from_json).read_text())
        opts.repeat = 0
    with tempfile.TemporaryDirectory(prefix="bench-server-") as tmp:
        bench = Bench(opts, Path(tmp))
        if opts.repeat:
            bench.make_accounts()
        for i in range(opts.repeat):
            for loop in opts.loops.split(","):
                started = time.monotonic()
                r = bench.run(loop.strip())
                r["run"] = i + 1
                r["seconds"] = round(time.monotonic() - started, 1)
                runs.append(r)
                sys.stderr.write(f"bench_server: run {i + 1} on {loop} done in {r['seconds']} s\n")
    words = list(argv if argv is not None else sys.argv[1:])
    shown: list[str] = []
    skip = False
    for w in words:          # the measuring options, not where the figures were written
        if skip:
            skip = False
        elif w in ("--json", "--from-json"):
            skip = True
        elif not (w == "--write-docs" or w.startswith(("--json=", "--from-json=", "--command"))):
            shown.append(w)
    command = opts.command or "python scripts/bench_server.py " + " ".join(shown)
    text = report(runs, opts, command.strip())
    sys.stdout.write(text)
    if opts.json:
        Path(opts.json).write_text(json.dumps(runs, indent=1))
    if opts.write_docs:
        write_docs(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
