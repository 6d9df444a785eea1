"""What is kept: SQLite off the reactor thread, accounts, the action journal, game records and
ratings as data, BSW game logs.

- `store.py`: the database (migrations, the worker thread, the reactor thread's own connection);
- `accounts.py`: names, passwords (argon2), roles;
- `journal.py`: the action journal of running tables (what a restart restores);
- `records.py`: game summaries, rankings, statistics and replays as data (``to_json``), the archive;
- `rating.py`: Team Elo; `bswlog.py`: a game as a BSW log.

May import: lobby.storage, lobby.tichu (its facade), lobby.text, lobby.events; Twisted (threads).
Never lobby.tables, lobby.world, lobby.bots or protocol: the world's glue that uses them is
lobby.world.persistence and lobby.world.restore.
"""
