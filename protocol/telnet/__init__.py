"""The byte layer: telnet framing, IAC, charset, and the telnet options.

- `transport.py`: ``TelnetLineProtocol``: bytes -> lines (IAC taken out, LF or CRLF, UTF-8 per
  line), lines -> bytes (IAC doubled), handing lines to its application (``TelnetApp``); the
  option handler interface ``TelnetOption`` and the handlers of GMCP, NAWS, ECHO and SGA;
- `options.py`: the handlers of the MUD options (MSSP, MCCP2, CHARSET, TTYPE/MTTS);
- `sniff.py`: the first bytes of a connection that speaks another protocol (HTTP, TLS, SSH);
- `proxy.py`: the PROXY protocol in front of a listener (``haproxy:ENDPOINT``);
- `gathered_write.py`: one ``send`` per connection and reactor turn (the one place that knows
  Twisted's private names).

May import: protocol.telnet; Twisted; the standard library. Nothing of lobby (the declared
exception is in tests/project/test_layers.py: options.py reads ``lobby.__version__`` for MSSP), nothing
of the other protocol layers.
"""
