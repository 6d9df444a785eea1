"""One connection, composed of parts: the log-in state machine, the output mode (text or JSON),
settings, the declared services, and the guard it asks.

- `session.py`: ``Session``, the connection (the application of its byte layer): the log-in as
  ``State`` objects (one prompt each, a transition table), commands and delivery, ``Services``
  (what every connection of a server reads, never the factory);
- `machine.py`: the output modes ``TextOutput`` and ``JsonOutput`` (JSON lines, command ids,
  protocol versions, views as updates) and ``Connection``, what they need of a connection;
- `guard.py`: the limits and budgets of connections and address groups (``Limits``); it asks a
  connection only through ``GuardedConnection`` and the world through ``GuardWorld``.

May import: lobby (the world it calls into), protocol.telnet, protocol.render, protocol.commands,
protocol.option_fields, protocol.connection; Twisted. Never protocol.process nor protocol.web
(tests/project/test_layers.py; tests/project/test_connection_parts.py: no import circle).
"""
