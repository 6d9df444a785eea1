"""The metrics/web port (protocol/process/metrics.py, ``--metrics ENDPOINT``) with a real HTTP client
(twisted.web.client.Agent) against a real server on port 0: /metrics parses as the Prometheus
text format and its values follow a log-in, commands, errors, a game action and flood control;
/healthz; /games/GAME.tch of a stored game is what /tchlog prints; everything else is 404."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from prometheus_client.parser import text_string_to_metric_families
from twisted.internet.threads import deferToThread
from twisted.web.client import Agent, readBody
from twisted.web.http_headers import Headers

from conftest import RunningServer, server_fixture, started, within
from lobby.storage.bswlog import bsw_log, tch_lines
from lobby.storage.records import finished_game
from web_support import statuses

# Twisted's readBody warns about the plain TCP transport of its own Agent (not our code)
pytestmark = pytest.mark.filterwarnings("ignore:Using readBody:DeprecationWarning")


class MetricsServer(RunningServer):
    endpoints = ["tcp:0:interface=127.0.0.1"]

    def __init__(self, db: Path, **options: Any) -> None:
        super().__init__(db)
        self.server_options = {"motd": "Test server.",
                               "metrics": "tcp:0:interface=127.0.0.1", **options}

    #: /healthz's verdict stands this long (--health-cache): 0 here, so each request of a test
    #: sees a fresh test write (tests/process/test_health.py); the cache has its own test
    health_cache = 0.0

    async def start(self) -> None:
        await super().start()
        self.server.health_cache = self.health_cache

    @property
    def web_port(self) -> int:
        return int(self.server.metrics_port.getHost().port)

    async def get(self, path: str, accept: str | None = None) -> tuple[int, dict[str, list[str]],
                                                                     bytes]:
        from twisted.internet import reactor
        headers = Headers({b"Accept": [accept.encode()]}) if accept else None
        response = await within(Agent(reactor).request(
            b"GET", f"http://127.0.0.1:{self.web_port}{path}".encode(), headers))
        body = await within(readBody(response))
        found = {k.decode().lower(): [v.decode() for v in vs]
                 for k, vs in response.headers.getAllRawHeaders()}
        return response.code, found, body

    async def scrape(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        code, headers, body = await self.get("/metrics")
        assert code == 200 and headers["content-type"][0].startswith("text/plain")
        samples = {}
        for family in text_string_to_metric_families(body.decode("utf-8")):
            for s in family.samples:
                samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
        return samples


web = server_fixture(MetricsServer, "web")


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest_twisted.ensureDeferred
async def test_metrics_follow_logins_commands_errors_and_actions(web: MetricsServer) -> None:
    before = await web.scrape()
    assert value(before, "tichu_users_online", kind="guest") == 0
    assert value(before, "tichu_users_online", kind="registered") == 0
    assert value(before, "tichu_connections") == 0
    assert value(before, "tichu_commands_total", command="who") == 0
    assert value(before, "tichu_tables", status="waiting") == 0
    assert value(before, "tichu_start_time_seconds") > 0

    c = await web.client()
    await c.login("Anna")
    c.send("/who")
    await c.expect("Anna\r\n")
    c.send("/room 42")
    await c.expect("no-such-room")
    after = await web.scrape()
    assert value(after, "tichu_users_online", kind="guest") == 1
    assert value(after, "tichu_users_online", kind="bot") == 0
    assert value(after, "tichu_connections") == 1
    assert value(after, "tichu_connections_accepted_total") == 1
    assert value(after, "tichu_logins_total", kind="guest") == 1
    assert value(after, "tichu_commands_total", command="who") == 1
    assert value(after, "tichu_command_duration_seconds_count", command="who") == 1
    assert value(after, "tichu_command_duration_seconds_bucket", command="who", le="+Inf") == 1
    assert value(after, "tichu_errors_total", code="no-such-room") == 1

    # a table, a game and one action: the journal commits before the events leave
    for line in ("/newroom", "/join 1", "/addbot random", "/addbot random", "/addbot random"):
        c.send(line)
    await c.expect("4 Bot3~random\r\n")
    tables = await web.scrape()
    assert value(tables, "tichu_tables", status="waiting") == 1
    assert value(tables, "tichu_table_bots") == 3
    actions_before = value(tables, "tichu_actions_total")
    commits_before = value(tables, "tichu_journal_commit_duration_seconds_count")
    c.send("/start")
    await c.expect("Grand Tichu? /grand or /nogrand\r\n")
    c.send("/nogrand")
    await c.expect("You do not call Grand Tichu.\r\n")
    playing = await web.scrape()
    assert value(playing, "tichu_tables", status="playing") == 1
    assert value(playing, "tichu_actions_total") >= actions_before + 1
    assert value(playing, "tichu_journal_commit_duration_seconds_count") > commits_before
    assert value(playing, "tichu_journal_backlog", kind="writes") >= 0
    assert value(playing, "tichu_journal_transactions_total", path="inline") >= 1   # default
    assert value(playing, "tichu_commands_total", command="start") == 1

    m = await web.client()
    m.send("%json")
    await m.expect('"prompt"')
    m.send("Robo")
    await m.expect('"logged-in-guest"')
    bots = await web.scrape()
    assert value(bots, "tichu_users_online", kind="bot") == 1
    assert value(bots, "tichu_users_online", kind="guest") == 1


@pytest_twisted.ensureDeferred
async def test_openmetrics_when_the_scraper_asks(web: MetricsServer) -> None:
    code, headers, body = await web.get("/metrics", accept="application/openmetrics-text")
    assert code == 200 and headers["content-type"][0].startswith("application/openmetrics-text")
    assert body.rstrip().endswith(b"# EOF")


def _flooded(db: Path) -> MetricsServer:
    from protocol.connection.guard import Limits
    return MetricsServer(db, limits=Limits(flood_burst=3, flood_rate=0.001, flood_kick=0))


flooded = server_fixture(_flooded, "flooded")


@pytest_twisted.ensureDeferred
async def test_flood_control_drops_are_counted(flooded: MetricsServer) -> None:
    c = await flooded.client()
    await c.expect("login: ")
    c.transport.write(b"".join(b"line %d\r\n" % i for i in range(10)))
    await c.expect("flooding")
    samples = await flooded.scrape()
    assert value(samples, "tichu_flood_drops_total", kind="line") >= 1
    assert value(samples, "tichu_errors_total", code="flooding") == 1


@pytest_twisted.ensureDeferred
async def test_healthz(web: MetricsServer) -> None:
    import json
    code, headers, body = await web.get("/healthz")
    assert code == 200 and headers["content-type"] == ["application/json"]
    reply = json.loads(body)
    assert reply["status"] == "ok" and reply["store"] == "ok" and reply["reactor"] == "running"


@pytest_twisted.ensureDeferred
async def test_healthz_with_the_database_closed(web: MetricsServer) -> None:
    import json
    await within(web.server.store.close())
    code, _, body = await web.get("/healthz")
    assert code == 503 and json.loads(body)["status"] == "error"


@pytest_twisted.ensureDeferred
async def test_games_tch_is_the_tchlog_of_a_stored_game(web: MetricsServer) -> None:
    from game_support import random_game
    names = ["Alice", "Bob Two", "Carol", "Bot1~random"]
    archive = web.server.persistence.archive
    match = random_game(11, rounds=2)
    await within(archive.save(finished_game(match, names, table_no=1)))
    await within(archive.save(finished_game(random_game(12, rounds=1), names, log=False)))

    code, headers, body = await web.get("/games/1.tch")
    assert code == 200
    assert headers["content-type"] == ["text/plain; charset=utf-8"]
    text = body.decode("utf-8")
    assert text == bsw_log(match.record(), names)
    assert "Bob\u00a0Two" in text                     # BSW's no-break space, in UTF-8

    c = await web.client()
    await c.login("Reader")
    want = tch_lines(text)
    c.send("/tchlog 1")
    assert [await c.read_line() for _ in want] == want

    for path in ("/games/2.tch", "/games/3.tch", "/games/1", "/games/x.tch", "/games/",
                 "/games/1.tch/more", "/nothing"):
        code, headers, _ = await web.get(path)
        assert code == 404, path


@pytest_twisted.ensureDeferred
async def test_a_running_game_is_never_served(web: MetricsServer) -> None:
    c = await web.client()
    await c.login("Anna")
    for line in ("/newroom", "/join 1", "/addbot random", "/addbot random", "/addbot random",
                 "/start"):
        c.send(line)
    await c.expect("Grand Tichu? /grand or /nogrand\r\n")
    code, _, _ = await web.get("/games/1.tch")       # the game that would be #1: not stored
    assert code == 404


def test_each_server_has_its_own_registry() -> None:
    from protocol.process.metrics import ServerMetrics
    a, b = ServerMetrics(), ServerMetrics()
    a.command("who", 0.001)
    assert b"tichu_commands_total{command=\"who\"} 1.0" in a.text()
    assert b"command=\"who\"" not in b.text()


def test_the_metrics_option() -> None:
    from protocol.process.options import parse_args
    assert parse_args([]).metrics is None
    assert parse_args(["--metrics", "tcp:4001:interface=127.0.0.1"]).metrics == \
        "tcp:4001:interface=127.0.0.1"


def test_command_latency_histogram_buckets() -> None:
    """A time equal to a bucket's bound counts in that bucket (Prometheus' le), above every
    bound only in +Inf; the counter, _count and _sum agree."""
    from protocol.process.metrics import LATENCY_BUCKETS, ServerMetrics
    m = ServerMetrics()
    for seconds in (0.0001, 0.0005, 0.003, 20.0):
        m.command("who", seconds)
    samples = {(s.name, s.labels.get("le")): s.value
               for family in text_string_to_metric_families(m.text().decode())
               for s in family.samples if s.labels.get("command") == "who"}
    assert samples[("tichu_commands_total", None)] == 4
    assert samples[("tichu_command_duration_seconds_count", None)] == 4
    assert samples[("tichu_command_duration_seconds_sum", None)] == pytest.approx(20.0036)
    assert samples[("tichu_command_duration_seconds_bucket", "0.0005")] == 2
    assert samples[("tichu_command_duration_seconds_bucket", "0.0025")] == 2
    assert samples[("tichu_command_duration_seconds_bucket", "0.005")] == 3
    assert samples[("tichu_command_duration_seconds_bucket", "10.0")] == 3
    assert samples[("tichu_command_duration_seconds_bucket", "+Inf")] == 4
    assert len([k for k in samples if k[0].endswith("_bucket")]) == len(LATENCY_BUCKETS) + 1


def test_the_servers_metrics_settings_default_to_the_declared_options(web: MetricsServer) -> None:
    """LobbyServer's metrics settings take their defaults from MetricsOptions (one place, no
    copy of a default in the server), and the service passes them whole from the command line."""
    from dataclasses import fields

    from protocol.process.options import MetricsOptions, parse_args
    names = [f.name for f in fields(MetricsOptions) if f.name != "metrics"]   # (the endpoint)
    assert len(names) == 8
    opts, declared = parse_args([]), MetricsOptions()
    for name in names:
        if name != "health_cache":                  # (the fixture's own: 0, see MetricsServer)
            assert getattr(web.server, name) == getattr(opts, name) == getattr(declared, name)


def test_a_half_request_is_closed_after_the_metrics_timeout(web: MetricsServer) -> None:
    from twisted.internet.address import IPv4Address
    from twisted.internet.task import Clock
    from twisted.internet.testing import StringTransport

    from protocol.process.metrics_site import MetricsSite
    from protocol.process.options import parse_args
    assert parse_args([]).metrics_timeout == 30.0
    assert parse_args(["--metrics-timeout", "5"]).metrics_timeout == 5.0
    clock = Clock()
    assert web.server.metrics_timeout == 30.0       # what the web port of the fixture uses
    site = MetricsSite(web.server, web.server.metrics_timeout, reactor=clock, request_timeout=0)
    channel = site.buildProtocol(IPv4Address("TCP", "127.0.0.1", 50000))
    transport = StringTransport()
    channel.makeConnection(transport)
    channel.dataReceived(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")    # and never the blank line
    clock.advance(29)
    assert not transport.disconnecting
    clock.advance(2)
    assert transport.disconnecting


@pytest_twisted.ensureDeferred
async def test_process_python_and_build_info_metrics(web: MetricsServer) -> None:
    """Issue 27: the usual process_* and python_* collectors and tichu_build_info{version}."""
    import lobby
    samples = await web.scrape()
    names = {name for name, _ in samples}
    assert {"process_cpu_seconds_total", "process_resident_memory_bytes",
            "process_open_fds", "process_start_time_seconds", "python_info",
            "python_gc_collections_total"} <= names, sorted(names)
    (labels,) = [dict(lb) for name, lb in samples if name == "tichu_build_info"]
    assert labels["version"] == lobby.__version__
    assert value(samples, "tichu_build_info", **labels) == 1


@pytest_twisted.ensureDeferred
async def test_gzip_when_the_scraper_asks_for_it(web: MetricsServer) -> None:
    """Prometheus sends Accept-Encoding: gzip; the body is then gzip, and parses the same."""
    import gzip

    from twisted.internet import reactor
    for encoding, zipped in (("gzip", True), ("gzip;q=0, identity", False), ("", False)):
        headers = Headers({b"Accept-Encoding": [encoding.encode()]}) if encoding else None
        response = await within(Agent(reactor).request(
            b"GET", f"http://127.0.0.1:{web.web_port}/metrics".encode(), headers))
        body = await within(readBody(response))
        got = response.headers.getRawHeaders(b"content-encoding") or []
        assert (got == [b"gzip"]) is zipped, (encoding, got)
        text = gzip.decompress(body) if zipped else body
        families = {f.name for f in text_string_to_metric_families(text.decode("utf-8"))}
        assert "tichu_build" in families or "tichu_build_info" in families


@pytest_twisted.ensureDeferred
async def test_tchlog_is_raw_at_a_narrow_width(web: MetricsServer) -> None:
    """/tchlog GAME in text mode at /set width 40 is byte for byte /games/GAME.tch (each LF a
    CR LF, the telnet line end): no header line before it (outside finding, issue 27), no line
    wrapped, trailing spaces kept."""
    from game_support import random_game
    names = ["Alice", "Bob Two", "Carol", "Bot1~random"]
    match = random_game(11, rounds=2)
    await within(web.server.persistence.archive.save(finished_game(match, names, table_no=1)))
    code, _, body = await web.get("/games/1.tch")
    assert code == 200
    lines = tch_lines(body.decode("utf-8"))
    assert any(len(line) > 40 and " " in line for line in lines)   # would be wrapped at 40

    c = await web.client()
    await c.login("Reader")
    c.send("/set width 40")
    await c.read_line()
    c.send("/tchlog 1")
    got = "".join([await c.read_line() + "\r\n" for _ in lines])
    assert got.encode("utf-8") == body.replace(b"\n", b"\r\n")
    c.send("/tchlog 9")                               # nothing more of game 1 came before this
    assert (await c.read_line()).startswith("! [")


@pytest_twisted.ensureDeferred
async def test_healthz_when_the_database_file_is_deleted(web: MetricsServer) -> None:
    import json
    import os
    assert (await web.get("/healthz"))[0] == 200
    os.unlink(web.db)                     # the server's open connection still works: SELECT 1 did
    code, _, body = await web.get("/healthz")
    reply = json.loads(body)
    assert code == 503 and reply["status"] == "error"
    assert "no longer the one opened" in reply["store"]


@pytest_twisted.ensureDeferred
async def test_healthz_while_journal_commits_fail_then_ok_again(web: MetricsServer) -> None:
    import json
    store = web.server.store

    def query_only(on: bool) -> None:     # SQLite refuses every write on both connections
        sql = f"PRAGMA query_only = {'ON' if on else 'OFF'}"
        here = getattr(store, "reactor_connection", None)
        if here is not None and here() is not None:
            here().execute(sql)

    await within(store.run_query(lambda conn: conn.execute("PRAGMA query_only = ON")))
    query_only(True)
    c = await web.client()
    await c.login("Anna")
    for line in ("/newroom", "/join 1", "/addbot random", "/addbot random", "/addbot random",
                 "/start"):
        c.send(line)
    await c.expect("[game-not-saved]")
    assert web.server.persistence.journal.failures >= 1
    code, _, body = await web.get("/healthz")
    assert code == 503 and json.loads(body)["store"] == "journal commits fail"

    await within(store.run_query(lambda conn: conn.execute("PRAGMA query_only = OFF")))
    query_only(False)
    c.send("/nogrand")                    # a journal commit that works
    await within(web.server.persistence.journal.flush())
    code, _, body = await web.get("/healthz")
    assert code == 200 and json.loads(body)["status"] == "ok", body


@pytest_twisted.ensureDeferred
async def test_the_metrics_port_answers_429_and_healthz_writes_once_a_while(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Outside finding W5: the metrics port answered 296 /metrics a second to one address, and
    /healthz made 1013 test writes on the database a second. Past
    --metrics-requests-per-second an address group gets 429; /healthz's verdict stands for
    --health-cache seconds, so its test write runs once however fast it is asked."""
    from protocol.process import metrics_site as metrics
    writes = [0]
    test_write = metrics._test_write

    def counted(conn: Any) -> None:
        writes[0] += 1
        test_write(conn)

    monkeypatch.setattr(metrics, "_test_write", counted)
    from protocol.process.options import MetricsOptions
    running = MetricsServer(tmp_path / "lobby.sqlite3",            # ten at once
                            metrics_options=MetricsOptions(metrics_requests_per_second=2.0))
    running.health_cache = 60.0
    async with started(running):
        port = running.web_port
        codes = await within(deferToThread(statuses, port, "/healthz", 14))
        assert codes.count(200) == 10 and codes.count(429) == 4, codes
        assert writes[0] == 1
        assert await within(deferToThread(statuses, port, "/metrics", 1, "127.0.0.2")) == [200]
