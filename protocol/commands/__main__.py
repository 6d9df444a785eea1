"""``python -m protocol.commands --write-docs``: regenerate docs/protocol.md's generated sections."""
import sys

from protocol.commands.docs import main

sys.exit(main())
