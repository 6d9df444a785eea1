"""``python -m protocol``: run the lobby server (see protocol.process.server.main)."""
from protocol.process.logs import hold_sighup

hold_sighup()       # before the server's imports: a SIGHUP during the start-up never ends it

from protocol.process.server import main  # noqa: E402

raise SystemExit(main())
