"""``python -m protocol``: run the lobby server (see protocol.server.main)."""
from protocol.server import main

raise SystemExit(main())
