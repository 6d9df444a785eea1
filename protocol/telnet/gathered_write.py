"""Gathered writes: one `send` per connection and reactor turn, whatever it was written.

On a plain TCP connection whose output buffer is empty, a write is kept in Twisted's buffer
without registering the socket for writing, and so are the connection's further writes of the
same reactor turn; at the end of the turn (`callLater(0)`) each such connection's output goes
out in one `send`, exactly as the reactor does when a socket is writable (what the kernel does
not take stays buffered and Twisted goes on as usual; `loseConnection` sends the buffer first,
as always). This saves Twisted's register-for-writing / send / unregister cycle (two
`epoll_ctl` calls) per connection and turn and gives a connection one segment per turn however
many lines it got: a fan-out to 2,000 listeners costs 2,000 sends per turn, not per line.
`write_shared(protos, data)` does the same for the same bytes to many connections in one loop
(a crowded room's speech).

Twisted has no public interface for this, so this module (and only this module) uses private
names of `twisted.internet.tcp.Connection` and of the asyncio reactor: `TRANSPORT_NAMES` and
`REACTOR_NAMES`. `available(reactor)` probes every one of them once per process (the server
calls it at start-up, the first connection otherwise); when one is missing or of another kind
(a Twisted release changed its internals) it logs one warning and every connection uses
Twisted's own write path (`transport.write`). setup.cfg bounds Twisted to the major version this
was measured with. The server's `--twisted-writes` (`TelnetLineProtocol.GATHER_WRITES = False`)
chooses Twisted's path without a probe; TLS and other wrapped transports always take it.

The protocol side of the seam (`protocol.telnet.transport.TelnetLineProtocol`, see `Gatherer`): a
connection is gathering this turn's output while its `_gathering` flag is set (set here; pausing,
closing and a lost connection clear it); `_may_gather` says it may gather at all.
"""
from __future__ import annotations

import socket
from typing import Any, Protocol

from twisted.internet import tcp
from twisted.logger import Logger

__all__ = ["GATHER_LIMIT", "REACTOR_NAMES", "TRANSPORT_NAMES", "Gatherer", "available",
           "gather", "probe", "reset", "start", "usable", "write_shared"]

_log = Logger(namespace="protocol.gathered_write")

#: The names of a `tcp.Connection` read or written here, with the kind of value each must be
#: (None: present, any value). Private ones (leading underscore) are Twisted's internals.
TRANSPORT_NAMES: dict[str, type | tuple[type, ...] | None] = {
    "_tempDataBuffer": list,          # the writes not yet joined into dataBuffer
    "_tempDataLen": int,              # their total length
    "dataBuffer": bytes,              # what a previous doWrite left unsent ...
    "offset": int,                    # ... and how much of it went out
    "_writeDisconnected": bool,
    "_aborting": bool,
    "connected": (int, bool),
    "disconnecting": (int, bool),
    "socket": socket.socket,
    "reactor": None,
    "startWriting": None,
}
#: The reactor's handler of a writable socket (the asyncio reactor's): runs doWrite and closes
#: the connection properly on an error or a finished close.
REACTOR_NAMES: tuple[str, ...] = ("_readOrWrite",)

#: A turn's output kept back per connection at most (Twisted's FileDescriptor.bufferSize, past
#: which it pauses the producer); more goes through transport.write.
GATHER_LIMIT = 2 ** 16


class Gatherer(Protocol):
    """What this module needs of a protocol (TelnetLineProtocol)."""

    transport: Any
    _gathering: bool       # gathering this turn's output
    _may_gather: bool      # may gather at all (a plain TCP transport, the probe passed)
    _paused: bool
    _closed: bool
    _closing: bool
    _compress: Any         # a transform of every write (MCCP2), or None

    def _write(self, data: bytes) -> None: ...


# Connections whose output of this reactor turn waits in Twisted's buffer.
_pending: list[Gatherer] = []
# The probe's answer once asked (None: not yet).
_available: bool | None = None


def probe(reactor: Any) -> list[str]:
    """The names of `TRANSPORT_NAMES` / `REACTOR_NAMES` that a TCP connection made now (on a
    socket pair, never registered with the reactor) or `reactor` lacks or has of another kind;
    [] when the gathered writes can work. Logs nothing and keeps nothing."""
    missing: list[str] = []
    a, b = socket.socketpair()
    try:
        # (Twisted declares the protocol an IProtocol; the probe's connection never reads)
        conn = tcp.Connection(a, None, reactor)  # type: ignore[arg-type]
        for name, kind in TRANSPORT_NAMES.items():
            try:
                value = getattr(conn, name)
            except AttributeError:
                missing.append(name)
                continue
            if kind is not None and not isinstance(value, kind):
                missing.append(name)
    finally:
        a.close()
        b.close()
    for name in REACTOR_NAMES:
        if not callable(getattr(reactor, name, None)):
            missing.append(name)
    return missing


def available(reactor: Any) -> bool:
    """Whether gathered writes can be used with `reactor` and this Twisted: the probe, run once
    per process; a missing name is logged once, as a warning, and the answer is False."""
    global _available
    if _available is None:
        missing = probe(reactor)
        if missing:
            import twisted
            _log.warn(
                "Twisted {version} lacks {names} (private names the gathered writes use); "
                "every connection uses Twisted's own write path",
                version=twisted.__version__, names=", ".join(missing))
        _available = not missing
    return _available


def reset() -> None:
    """Forget the probe's answer (tests: the next `available` probes again)."""
    global _available
    _available = None


def usable(transport: Any) -> bool:
    """Whether a connection on `transport` may gather its writes: a plain TCP connection (not
    TLS or another wrapper) and `available` for its reactor."""
    return isinstance(transport, tcp.Connection) and hasattr(transport, "_tempDataLen") \
        and available(transport.reactor)


def start(proto: Gatherer, data: bytes) -> bool:
    """Keep `data` as the first write of this turn if `proto`'s transport has nothing buffered
    and is open (True); False: write it through the transport."""
    t = proto.transport
    if not t._tempDataLen and t.offset == len(t.dataBuffer) and t.connected \
            and not t.disconnecting and not t._writeDisconnected:
        t._tempDataBuffer.append(data)
        t._tempDataLen += len(data)
        proto._gathering = True
        _pending.append(proto)
        if len(_pending) == 1:
            t.reactor.callLater(0, _send_gathered)
        return True
    return False


def gather(proto: Gatherer, data: bytes) -> None:
    """More output of this turn for a gathering connection (`proto._gathering`); past GATHER_LIMIT
    through Twisted's write (and its pause)."""
    t = proto.transport
    if t._tempDataLen + len(data) <= GATHER_LIMIT:
        t._tempDataBuffer.append(data)
        t._tempDataLen += len(data)
    else:
        t.write(data)


def write_shared(protos: list[Any], data: bytes) -> None:
    """`proto._write(data)` for each of `protos` (the same bytes to many: a room's speech), with
    the two gathering cases done in this loop instead of a call per connection (a connection
    that compresses, MCCP2, takes its own `_write`). One connection's exception is logged; the
    others still get the bytes."""
    size = len(data)
    schedule = not _pending
    for p in protos:
        try:
            if p._compress is not None:
                pass                    # MCCP2: these bytes go through its compressor
            elif p._gathering:
                t = p.transport
                if t._tempDataLen + size <= GATHER_LIMIT:
                    t._tempDataBuffer.append(data)
                    t._tempDataLen += size
                    continue
            elif p._may_gather and not (p._paused or p._closed or p._closing):
                t = p.transport
                if t is not None and not t._tempDataLen and t.offset == len(t.dataBuffer) \
                        and t.connected and not t.disconnecting and not t._writeDisconnected:
                    t._tempDataBuffer.append(data)
                    t._tempDataLen = size
                    p._gathering = True
                    _pending.append(p)
                    continue
            p._write(data)
        except Exception:
            _log.failure("writing to {peer} failed", peer=repr(p))
    if schedule and _pending:
        _pending[0].transport.reactor.callLater(0, _send_gathered)


def _send_gathered() -> None:
    """End of a turn: send each gathering connection's output in one system call.

    What the kernel does not take (or an error) is left to Twisted exactly as if the reactor had
    found the socket writable: `_readOrWrite`, the asyncio reactor's own handler, runs `doWrite`
    (the rest stays buffered, the socket is registered for writing) and closes the connection
    properly on an error or a finished close. An aborted connection sends nothing (its buffer
    is dropped, as `abortConnection` promises). An exception of one connection (a protocol's
    `connectionLost` run by a close in here) is logged, as the reactor logs it, and the other
    connections are still sent.
    """
    pending = _pending[:]
    del _pending[:]
    for proto in pending:
        proto._gathering = False
        try:
            t = proto.transport
            if t is None or not t.connected or not t._tempDataLen or t._aborting:
                continue
            if t.offset == len(t.dataBuffer) and not t.disconnecting:
                buf = t._tempDataBuffer
                data = buf[0] if len(buf) == 1 else b"".join(buf)
                try:
                    sent = t.socket.send(data)
                except (BlockingIOError, InterruptedError):
                    sent = 0
                except OSError:
                    sent = -1                          # Twisted's doWrite meets it and closes
                if sent == len(data):
                    buf.clear()                        # (no new list per connection and turn)
                    t._tempDataLen = 0
                    continue
                if sent > 0:
                    t._tempDataBuffer = [data[sent:]]
                    t._tempDataLen = len(data) - sent
            t.reactor._readOrWrite(t, False)
            if t.connected and (t._tempDataLen or t.offset < len(t.dataBuffer)):
                t.startWriting()                       # the kernel took part: Twisted goes on
        except Exception:
            _log.failure("sending to {peer} failed", peer=repr(proto))
