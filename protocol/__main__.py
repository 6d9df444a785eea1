"""``python -m protocol``: run the lobby server (see protocol.process.server.main); the first thing
it does is hold SIGHUP (protocol/process/entry.py), so one during the start-up never ends it."""
from protocol.process.entry import main

raise SystemExit(main())
