"""THE command table: every command of a person or a bot, one module per group.

- `base.py`: ``Command``, ``CommandTable``, ``parse_line``, the lobby commands and the docs'
  generated sections (``python -m protocol.commands --write-docs``);
- `moderation.py`: the moderators' and admins' commands; `records.py`: /history, /rangliste,
  /replay, /tchlog, the /finger statistics.

May import: lobby (the world the commands act on), protocol.render, protocol.commands; Twisted.
Never protocol.telnet, protocol.connection, protocol.web or protocol.process
(tests/test_layers.py).
"""
