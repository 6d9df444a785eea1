"""``python -m protocol``: run the lobby server (see protocol.process.server.main)."""
from protocol.process.server import main

raise SystemExit(main())
