"""Tables: ``TableActor`` (one mailbox per table) and its collaborators.

- `table.py`: ``TableActor``, the table commands' handlers, seats, votes, the move timer;
- `options.py`: every table option declared once (``OPTIONS``, ``TableOptions``);
- `commands.py`: the table commands' registry (``TABLE_COMMANDS``); `command_spec.py`: argument
  specs, parsed once (the wire's command table uses the same parser);
- `views.py`: what each seat and spectator sees (``TableViews``);
- `seats.py`: the seat policy and guests' seat keys;
- `recording.py`: what a table and the world may ask of the recorder (``typing.Protocol``s);
- `timer_wheel.py`: many deadlines behind one timer of the injected clock.

May import: lobby.tables, lobby.tichu (its facade), lobby.text, lobby.events, lobby.storage,
lobby.bots (strategies and runtime); Twisted. Never lobby.world or protocol: a table asks the world
through the ``SeatPolicy`` and recorder interfaces it is built with.
"""
