"""The world: who is online, rooms, chat routing, friends, moderation, the table registry.

- `world.py`: ``World`` (users, rooms, tables, speech, log-in and log-out), ``TableLimits``;
- `friends.py`: /notify lists and their news; `moderation.py`: mute lists, bans, roles;
- `addresses.py`: address groups (pure); `log_budget.py`: log lines a client cannot flood;
- `persistence.py`: the glue between tables, the action journal and the game records (the
  recorder); `restore.py`: tables rebuilt from the journal after a restart.

May import: anything of lobby (the world is its top); Twisted. Never protocol: the wire calls into
the world, the world answers with events.
"""
