"""The web port serves the layout of BSW's public Tichu log archive (issue 27; protocol/metrics.py,
docs/operations.md "Metrics"): ``/`` links the months that have logs, ``/YYYYMM`` is a month's
index with one ``<a href="/N.tch">`` line per game, ascending, and ``/N.tch`` the log itself. An
archive tool that mirrors BSW reads it the way the public BSW-log downloader reads BSW: the
index's link lines, the first and last number, then every log between them."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import pytest_twisted

from conftest import within
from lobby.storage.bswlog import bsw_log
from lobby.storage.records import finished_game
from test_metrics import MetricsServer, web  # noqa: F401  (the fixture)

pytestmark = pytest.mark.filterwarnings("ignore:Using readBody:DeprecationWarning")

NAMES = ["Alice", "Bob", "Carol", "Bot1~random"]


def utc(year: int, month: int, day: int, hour: int = 12) -> float:
    return datetime(year, month, day, hour, tzinfo=UTC).timestamp()


def links(page: str) -> list[str]:
    """The index's link lines as BSW's downloader finds them: stripped lines that start with
    ``<a href=``, the number between ``<a href="/`` and ``.tch``."""
    return [line.strip() for line in page.splitlines() if line.strip().startswith("<a href=")]


@pytest_twisted.ensureDeferred
async def test_the_archive_layout_months_and_logs(web: MetricsServer) -> None:  # noqa: F811
    from game_support import random_game
    archive = web.server.persistence.archive
    ends = [utc(2026, 10, 31, 23), utc(2026, 11, 1, 0), utc(2026, 11, 15), utc(2026, 11, 30, 23),
            utc(2026, 12, 1, 0)]
    matches = []
    for seed, ended in enumerate(ends, start=30):
        match = random_game(seed, rounds=1)
        matches.append(match)
        await within(archive.save(finished_game(match, NAMES, table_no=1, ended_at=ended)))
    # a game played with the option log off is in no index
    await within(archive.save(finished_game(random_game(40, rounds=1), NAMES, log=False,
                                            ended_at=utc(2026, 11, 20))))

    code, headers, body = await web.get("/")
    assert code == 200 and headers["content-type"] == ["text/html; charset=utf-8"]
    assert [line.split('"')[1] for line in links(body.decode())] == ["/202612", "/202611", "/202610"]
    assert '<a href="/202611">2026-11</a> 3 games' in body.decode()

    code, headers, body = await web.get("/202611")
    assert code == 200 and headers["content-type"] == ["text/html; charset=utf-8"]
    lines = links(body.decode())
    assert lines == ['<a href="/2.tch">2.tch</a>', '<a href="/3.tch">3.tch</a>',
                     '<a href="/4.tch">4.tch</a>']
    # the downloader's reading: the first and the last number, then every log between them
    numbers = [int(line[10:line.find(".tch")]) for line in lines]
    for n in range(numbers[0], numbers[-1] + 1):
        code, headers, body = await web.get(f"/{n}.tch")
        assert code == 200 and headers["content-type"] == ["text/plain; charset=utf-8"]
        assert body.decode("utf-8") == bsw_log(matches[n - 1].record(), NAMES)
        assert body == (await web.get(f"/games/{n}.tch"))[2]
    assert links((await web.get("/202610"))[2].decode()) == ['<a href="/1.tch">1.tch</a>']
    assert links((await web.get("/202612"))[2].decode()) == ['<a href="/5.tch">5.tch</a>']

    for path in ("/202609", "/202613", "/202600", "/20261", "/2026111", "/6.tch", "/7.tch",
                 "/202611/1.tch", "/x.tch", "/index.html"):
        code, _, _ = await web.get(path)
        assert code == 404, path


@pytest_twisted.ensureDeferred
async def test_an_empty_archive(web: MetricsServer) -> None:  # noqa: F811
    code, _, body = await web.get("/")
    assert code == 200 and links(body.decode()) == []
    assert (await web.get("/202612"))[0] == 404


class WebPortServer(MetricsServer):
    """A real server with a web port (``--web``) beside the metrics port; ``get`` asks the web
    port."""

    def __init__(self, db: Any) -> None:
        super().__init__(db, web=("tcp:0:interface=127.0.0.1",))

    @property
    def web_port(self) -> int:
        return int(self.server.web_ports[0].getHost().port)


@pytest_twisted.ensureDeferred
async def test_the_web_port_serves_the_archive_too(tmp_path: Any) -> None:
    """Outside finding (issue 27 review, item 4): the archive was served only on the metrics
    port, which stays on loopback. The web port serves the same layout, with that port's
    security headers: the months at ``/archive/`` (its ``/`` stays the web client's page), and
    ``/YYYYMM``, ``/N.tch``, ``/games/N.tch`` at its root, where BSW's downloaders read them."""
    from game_support import random_game
    site = WebPortServer(tmp_path / "lobby.sqlite3")
    await site.start()
    try:
        archive = site.server.persistence.archive
        matches = []
        for seed, ended in enumerate([utc(2026, 11, 2), utc(2026, 11, 3), utc(2026, 12, 1)],
                                     start=50):
            match = random_game(seed, rounds=1)
            matches.append(match)
            await within(archive.save(finished_game(match, NAMES, table_no=1, ended_at=ended)))
        for months in ("/archive/", "/archive"):
            code, headers, body = await site.get(months)
            assert code == 200 and headers["content-type"] == ["text/html; charset=utf-8"]
            assert headers["x-content-type-options"] == ["nosniff"]
            assert "content-security-policy" in headers
            assert [line.split('"')[1] for line in links(body.decode())] == ["/202612", "/202611"]
        code, headers, body = await site.get("/202611")
        assert code == 200 and headers["x-content-type-options"] == ["nosniff"]
        lines = links(body.decode())
        assert lines == ['<a href="/1.tch">1.tch</a>', '<a href="/2.tch">2.tch</a>']
        # the downloader's reading: the first and the last number, then every log between them
        numbers = [int(line[10:line.find(".tch")]) for line in lines]
        for n in range(numbers[0], numbers[-1] + 1):
            code, headers, body = await site.get(f"/{n}.tch")
            assert code == 200 and headers["content-type"] == ["text/plain; charset=utf-8"]
            assert headers["x-content-type-options"] == ["nosniff"]
            assert body.decode("utf-8") == bsw_log(matches[n - 1].record(), NAMES)
            assert body == (await site.get(f"/games/{n}.tch"))[2]
        code, headers, body = await site.get("/")             # still the web client
        assert code == 200 and b"Tichu logs" not in body and b"<html" in body.lower()
        for path in ("/202609", "/4.tch", "/archive/x", "/games", "/202611/1.tch"):
            assert (await site.get(path))[0] == 404, path
    finally:
        await site.stop()
