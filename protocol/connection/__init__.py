"""One connection: the log-in, the output mode (text or JSON), settings, and the guard.

- `session.py`: ``Session``, the connection's application protocol (log-in, commands, delivery);
- `machine.py`: machine mode (JSON lines, protocol versions, views as updates);
- `guard.py`: the limits and budgets of connections and address groups (``Limits``).

May import: lobby (the world it calls into), protocol.telnet, protocol.render, protocol.commands,
protocol.option_fields, protocol.connection; Twisted. Never protocol.process (the exceptions still
in the code are listed in tests/test_layers.py) nor protocol.web.

(Issue 25 item 1 composes this package from parts; its docstring says more when it lands.)
"""
