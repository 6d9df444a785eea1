"""A WebSocket client for the web listener's tests (autobahn's Twisted client over real
loopback): it sends one machine-mode line per message and reads the JSON objects the server
sends, one per message, with timeouts."""
from __future__ import annotations

import json
import socket
from typing import Any

from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol
from twisted.internet.defer import Deferred

from conftest import within


class WebClient(WebSocketClientProtocol):
    """Collects every message (parsed JSON where it is JSON) and the close."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[Any] = []
        self.raw: list[bytes] = []
        self.opened: Deferred = Deferred()
        self.closed: Deferred = Deferred()
        self.close_code: int | None = None
        #: autobahn's wasClean of the close: False when the client had to drop the connection
        #: itself because the server did not close it after the closing handshake
        self.clean: bool | None = None
        self._waiter: tuple[Any, Deferred] | None = None
        self._next = 0
        self._ids = 0

    def onOpen(self) -> None:
        self.opened.callback(self)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        self.raw.append(payload)
        try:
            self.messages.append(json.loads(payload))
        except ValueError:
            self.messages.append(payload)
        self._check()

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        self.close_code = code
        self.clean = wasClean
        if not self.opened.called:
            self.opened.errback(ConnectionError(f"refused: {code} {reason}"))
        if self._waiter is not None:
            _, d = self._waiter
            self._waiter = None
            d.errback(ConnectionError(f"closed ({code}); read: {self.messages[self._next:]}"))
        if not self.closed.called:
            self.closed.callback(code)

    def _check(self) -> None:
        if self._waiter is None:
            return
        test, d = self._waiter
        while self._next < len(self.messages):
            obj = self.messages[self._next]
            self._next += 1
            if test(obj):
                self._waiter = None
                d.callback(obj)
                return

    def send(self, line: str | bytes) -> None:
        self.sendMessage(line.encode("utf-8") if isinstance(line, str) else line, isBinary=False)

    def expect(self, type_: str | None = None, **fields: Any) -> Deferred:
        """The next object (after those read so far) of ``type_`` with ``fields``."""
        def test(obj: Any) -> bool:
            return isinstance(obj, dict) and (type_ is None or obj.get("type") == type_) and \
                all(obj.get(k) == v for k, v in fields.items())
        d: Deferred = Deferred()
        self._waiter = (test, d)
        self._check()
        return within(d)

    async def command(self, line: str) -> dict[str, Any]:
        """Send ``line`` with an id; the reply with that id."""
        self._ids += 1
        cid = f"t{self._ids}"
        self.send(f"#{cid} {line}")
        return await self.expect(id=cid)

    async def guest(self, name: str = "") -> str:
        """Log in as a guest (a free guest name when ``name`` is empty); the name."""
        await self.expect("prompt", prompt="login")
        self.send(name or "guest")
        obj = await self.expect("logged-in-guest")
        return str(obj["name"])


async def web_client(port: int, path: str = "/ws", origin: str | None = "own",
                     headers: dict[str, str] | None = None, host: str = "127.0.0.1",
                     switch: bool = True, tls: Any = None) -> WebClient:
    """A connected WebClient (``origin`` "own": the listener's own origin; None: no Origin);
    ``switch``: its first message is ``%json``; ``tls``: the client's TLS options (wss://)."""
    from twisted.internet import reactor
    from twisted.internet.endpoints import (
        SSL4ClientEndpoint,
        TCP4ClientEndpoint,
        connectProtocol,
    )
    scheme = "wss" if tls is not None else "ws"
    url = f"{scheme}://{host}:{port}{path}"
    factory = WebSocketClientFactory(
        url, origin=f"{'https' if tls is not None else 'http'}://{host}:{port}"
        if origin == "own" else origin, headers=headers or {})
    client = WebClient()
    client.factory = factory
    endpoint = SSL4ClientEndpoint(reactor, host, port, tls) if tls is not None \
        else TCP4ClientEndpoint(reactor, host, port)
    await within(connectProtocol(endpoint, client))
    await within(client.opened)
    if switch:
        client.send("%json")
    return client


def statuses(port: int, path: str, count: int, src: str = "127.0.0.1") -> list[int]:
    """``count`` HTTP requests of ``path`` one after another from ``src`` (blocking: run it in a
    thread): their status codes. The web port's and the metrics port's request budgets use it."""
    found = []
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port), timeout=20,
                                      source_address=(src, 0)) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                      .encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        found.append(int(data.split(b" ", 2)[1]))
    return found
