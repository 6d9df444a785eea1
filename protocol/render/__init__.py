"""Events and records -> what a connection receives: text in its language and width, or JSON.

- `text.py`: an event as text lines (``render``, ``error_line``), from the catalog;
- `table.py`: the table's lines and views as text (``TableFeed``, ``TABLE_FORMATTERS``);
- `records.py`: history, ranking, statistics and replays as text;
- `json_lines.py`: an event as one machine-mode JSON object (``PROTOCOL_VERSIONS``);
- `context.py`: ``RenderContext`` (language, colour, width; interned);
- `wrap.py`: the one wrap rule of every text line.

May import: lobby (events, the catalog, table options, the engine's facade), protocol.render.
Never protocol.connection, protocol.commands, protocol.telnet, protocol.web or protocol.process:
rendering knows no connection.
"""
