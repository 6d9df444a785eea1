"""Recognise the first bytes of a connection that speaks another protocol.

A public telnet port is found by scanners and misdirected clients: web browsers and HTTP probes
(``GET / HTTP/1.1``), TLS clients (a ClientHello record starts with 0x16 0x03), SSH clients (their
banner starts with ``SSH-``), and a proxy that sends a PROXY protocol header (``PROXY TCP4 ...``)
to a port that is not a ``haproxy:`` one (a misconfiguration the operator should see in the log).
Such a connection gets one short answer in its own protocol where that is possible (an HTTP 400
response, a TLS alert record, one text line for SSH and the proxy) and is closed; one log line
says what it was. Nothing of it reaches the login state machine. The session holds its greeting
back until the first bytes came (or ``--greeting-delay``), so the answer is the first thing
such a client receives. A PROXY v2 header is recognised too, but only whole in the first bytes
(``WHOLE_SIGNATURES``: a proxy writes its header at once): its signature begins with CR LF, the
empty line a person types to log in as a guest, so a first CR LF is never held back for it.

``classify(prefix)`` looks at the first bytes only: it returns the name of the foreign protocol,
``MAYBE`` while ``prefix`` is still the beginning of some signature (wait for more bytes), or None
when the bytes cannot be another protocol (a telnet client, a person typing a name). Only the very
beginning of a connection is checked, and at most ``MAX_PREFIX`` bytes are held back for it.
"""
from __future__ import annotations

__all__ = ["MAYBE", "MAX_PREFIX", "SIGNATURES", "WHOLE_SIGNATURES", "ANSWERS", "classify",
           "answer"]

MAYBE = "maybe"

#: HTTP methods (RFC 9110 plus WebDAV's PROPFIND and the HTTP/2 preface ``PRI * HTTP/2.0``)
_HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
                 "PROPFIND", "PRI")

#: byte signature -> protocol; a method needs its space, so a person typing "GET" at the login
#: prompt (or "Getty") is not mistaken for a web client
SIGNATURES: dict[bytes, str] = {
    **{method.encode("ascii") + b" ": "http" for method in _HTTP_METHODS},
    b"\x16\x03": "tls",        # TLS record: handshake (22), protocol version 3.x
    b"SSH-": "ssh",
    b"PROXY ": "proxy",        # PROXY protocol v1 (haproxy send-proxy, stunnel protocol = proxy)
}

#: signatures recognised only when they arrived whole (their beginning is something a person
#: types): the binary PROXY protocol v2 header (haproxy send-proxy-v2), answered like v1
WHOLE_SIGNATURES: dict[bytes, str] = {
    b"\r\n\r\n\x00\r\nQUIT\n": "proxy",
}

MAX_PREFIX = max(len(s) for s in (*SIGNATURES, *WHOLE_SIGNATURES))

_HTTP_BODY = b"This is a Tichu lobby speaking telnet, not a web server: telnet HOST PORT.\r\n"

#: protocol -> the one answer it gets before the connection is closed
ANSWERS: dict[str, bytes] = {
    "http": (b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
             b"Content-Length: " + str(len(_HTTP_BODY)).encode("ascii") + b"\r\n"
             b"Connection: close\r\n\r\n" + _HTTP_BODY),
    # a TLS alert record: level fatal (2), description handshake_failure (40)
    "tls": bytes((0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x28)),
    "ssh": b"This is a Tichu lobby speaking telnet, not an SSH server.\r\n",
    "proxy": b"This port takes no PROXY protocol header; the server listens behind a proxy with "
             b"--port haproxy:ENDPOINT.\r\n",
}


def classify(prefix: bytes) -> str | None:
    """``prefix`` (the first bytes of a connection) -> "http", "tls", "ssh", "proxy", MAYBE or
    None."""
    undecided = False
    for signature, protocol in WHOLE_SIGNATURES.items():
        if prefix.startswith(signature):
            return protocol
    for signature, protocol in SIGNATURES.items():
        if prefix.startswith(signature):
            return protocol
        if signature.startswith(prefix):
            undecided = True
    return MAYBE if undecided and prefix else None


def answer(protocol: str) -> bytes:
    """The one reply a connection of ``protocol`` gets (raw bytes, sent as they are)."""
    return ANSWERS[protocol]
