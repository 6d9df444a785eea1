"""The layout of BSW's public Tichu log archive, served on the metrics port and on the web port
(issue 27; docs/operations.md, "The log archive").

Archive tools that mirror BSW (the public BSW-log downloaders) read a host's root: ``/YYYYMM``
is a month's index, one line ``<a href="/N.tch">N.tch</a>`` per game, ascending (UTC, by the
game's end; they take the number between ``<a href="/`` and ``.tch`` of the first and the last
line), and ``/N.tch`` the log itself, byte for byte what ``/tchlog N`` prints. So both ports
serve ``/YYYYMM``, ``/N.tch`` and ``/games/N.tch`` at their root; the page that links every
month with logs (newest first, ``<a href="/YYYYMM">``) is ``/`` on the metrics port and
``/archive/`` on the web port, whose ``/`` is the web client. A month without logs, a game that
is not stored (running, never played) or was played with ``/option log off`` are ``404``; no
running game is ever served.

May import: lobby and Twisted (a part of protocol.web; protocol.process's metrics port uses it).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.web.resource import Resource
from twisted.web.server import NOT_DONE_YET

from lobby.text.messages import LobbyError

if TYPE_CHECKING:
    from twisted.web.server import Request

__all__ = ["Archive", "archive_child", "finish", "TCH_PATH", "MONTH_PATH"]

log = Logger(namespace="protocol.archive")

#: a log's name, BSW's ``N.tch``
TCH_PATH = re.compile(rb"([0-9]{1,12})\.tch")
#: a month's index page of the archive, BSW's ``/YYYYMM``
MONTH_PATH = re.compile(rb"([0-9]{4})(0[1-9]|1[0-2])")


class Archive(Protocol):
    """What the archive pages read (lobby.storage.records' archive)."""

    def tch_log(self, game_id: int) -> Deferred[str]: ...

    def tch_months(self) -> Deferred[list[tuple[int, int, int]]]: ...

    def tch_month(self, year: int, month: int) -> Deferred[list[int]]: ...


#: the archive, looked up when a request comes (the server's storage may come later)
Source = Callable[[], Archive]


def finish(request: Request, code: int, body: bytes, content_type: bytes) -> None:
    """Answer ``request`` now (unless it is gone): code, type, length and body."""
    if request.finished or getattr(request, "_disconnected", False):
        return
    request.setResponseCode(code)
    request.setHeader(b"Content-Type", content_type)
    request.setHeader(b"Content-Length", str(len(body)).encode("ascii"))
    if request.method != b"HEAD":
        request.write(body)
    request.finish()


def _unavailable(request: Request, failure: Any, what: str) -> None:
    log.failure(what, failure)
    finish(request, 503, b"The archive is not available.\n", b"text/plain; charset=utf-8")


def _page(title: str, lines: list[str]) -> bytes:
    """A small HTML page whose links each stand alone on a line (as BSW's archive pages did:
    the downloaders read them line by line)."""
    head = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\">",
            f"<title>{title}</title></head><body>", f"<h1>{title}</h1>", "<pre>"]
    return ("\n".join(head + lines + ["</pre>", "</body></html>"]) + "\n").encode("utf-8")


class _Game(Resource):
    """``/N.tch``, ``/games/N.tch``: one stored game's BSW log."""
    isLeaf = True

    def __init__(self, source: Source, game: int) -> None:
        Resource.__init__(self)
        self.source = source
        self.game = game

    def render_GET(self, request: Request) -> Any:
        def found(text: str) -> None:
            request.setHeader(b"Content-Disposition",
                              f'inline; filename="{self.game}.tch"'.encode("ascii"))
            finish(request, 200, text.encode("utf-8"), b"text/plain; charset=utf-8")

        def failed(failure: Any) -> None:
            if failure.check(LobbyError):        # no-such-game, no-tch-log
                finish(request, 404, b"No such game log.\n", b"text/plain; charset=utf-8")
                return
            log.failure("serving the log of game {game}", failure, game=self.game)
            finish(request, 503, b"The archive is not available.\n",
                   b"text/plain; charset=utf-8")

        self.source().tch_log(self.game).addCallbacks(found, failed)
        return NOT_DONE_YET

    render_HEAD = render_GET


class _Months(Resource):
    """Every month with logs, newest first."""
    isLeaf = True

    def __init__(self, source: Source) -> None:
        Resource.__init__(self)
        self.source = source

    def render_GET(self, request: Request) -> Any:
        def found(months: list[tuple[int, int, int]]) -> None:
            lines = [f'<a href="/{y:04d}{m:02d}">{y:04d}-{m:02d}</a> {n} games'
                     for y, m, n in months]
            finish(request, 200, _page("Tichu logs", lines), b"text/html; charset=utf-8")

        self.source().tch_months().addCallbacks(
            found, lambda f: _unavailable(request, f, "listing the archive's months"))
        return NOT_DONE_YET

    render_HEAD = render_GET


class _Month(Resource):
    """``/YYYYMM``: the games of one month, ascending."""
    isLeaf = True

    def __init__(self, source: Source, year: int, month: int) -> None:
        Resource.__init__(self)
        self.source = source
        self.year = year
        self.month = month

    def render_GET(self, request: Request) -> Any:
        def found(games: list[int]) -> None:
            if not games:
                finish(request, 404, b"No logs in this month.\n", b"text/plain; charset=utf-8")
                return
            lines = [f'<a href="/{n}.tch">{n}.tch</a>' for n in games]
            finish(request, 200, _page(f"Tichu logs {self.year:04d}-{self.month:02d}", lines),
                   b"text/html; charset=utf-8")

        self.source().tch_month(self.year, self.month).addCallbacks(
            found, lambda f: _unavailable(request, f, "listing a month of the archive"))
        return NOT_DONE_YET

    render_HEAD = render_GET


def archive_child(source: Source, path: bytes, rest: list[bytes],
                  months_at: bytes) -> Resource | None:
    """The archive's page for the first path segment ``path`` and the segments after it
    (``rest``), or None when it is none of the archive's: ``months_at`` (``b""``: ``/``;
    ``b"archive"``: ``/archive`` and ``/archive/``) lists the months; ``/YYYYMM``, ``/N.tch``,
    ``/games/N.tch``."""
    if path == months_at and rest in ([], [b""]):
        return _Months(source)
    if path == b"games" and len(rest) == 1:
        game = TCH_PATH.fullmatch(rest[0])
        return _Game(source, int(game.group(1))) if game is not None else None
    if rest:
        return None
    month = MONTH_PATH.fullmatch(path)
    if month is not None:
        return _Month(source, int(month.group(1)), int(month.group(2)))
    game = TCH_PATH.fullmatch(path)
    if game is not None:
        return _Game(source, int(game.group(1)))
    return None
