#!/usr/bin/env python3
"""The benchmark baseline: a minimal Twisted line-echo server on the asyncio reactor.

Every line a client sends (ended by LF) comes back to it unchanged with CR LF. With
``--broadcast`` a line is instead written to every connected client (the sender included): the
machine's limit for fanning one line out to many sockets, next to the lobby's chat fan-out.

It does nothing else (no telnet, no login, no logging per connection), so the load generator run
against it measures what this machine, Python, Twisted and the event loop can do at most.
``scripts/bench_server.py`` starts it as a separate process and reads the first line of standard
output, ``listening on HOST:PORT``.

    .venv/bin/python scripts/bench_echo_server.py --port tcp:0:interface=127.0.0.1 [--uvloop]
"""
from __future__ import annotations

import argparse
import resource
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", default="tcp:0:interface=127.0.0.1:backlog=4096",
                        help="a Twisted server endpoint string")
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop's event loop")
    parser.add_argument("--broadcast", action="store_true",
                        help="write every line to every connection instead of echoing it")
    parser.add_argument("--seconds", type=float, default=3600.0,
                        help="stop by itself after this many seconds (default 3600)")
    opts = parser.parse_args(argv)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    from twisted.internet import asyncioreactor
    if opts.uvloop:
        import uvloop
        asyncioreactor.install(uvloop.new_event_loop())
    else:
        asyncioreactor.install()
    from twisted.internet import reactor
    from twisted.internet.endpoints import serverFromString
    from twisted.internet.protocol import Factory, Protocol

    clients: set[Protocol] = set()

    class Echo(Protocol):
        buffer = b""

        def connectionMade(self) -> None:
            clients.add(self)

        def connectionLost(self, reason: object = None) -> None:
            clients.discard(self)

        def dataReceived(self, data: bytes) -> None:
            data = self.buffer + data
            end = data.rfind(b"\n")
            if end < 0:
                self.buffer = data
                return
            self.buffer = data[end + 1:]
            lines = data[:end].split(b"\n")
            out = b"".join(line.rstrip(b"\r") + b"\r\n" for line in lines)
            if opts.broadcast:
                for c in list(clients):
                    c.transport.write(out)
            else:
                self.transport.write(out)

    factory = Factory.forProtocol(Echo)
    factory.noisy = False

    def listening(port: object) -> None:
        host = port.getHost()  # type: ignore[attr-defined]
        sys.stdout.write(f"listening on {host.host}:{host.port}\n")
        sys.stdout.flush()

    def failed(failure: object) -> None:
        sys.stderr.write(f"bench_echo_server: cannot listen: {failure}\n")
        reactor.stop()

    serverFromString(reactor, opts.port).listen(factory).addCallbacks(listening, failed)
    reactor.callLater(opts.seconds, reactor.stop)
    reactor.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
