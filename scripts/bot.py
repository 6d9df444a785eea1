#!/usr/bin/env python3
"""The bot program under its old name: the same as ``python -m tichu_bot`` / ``tichu-bot``
(tichu_bot.runner, docs/bots.md), with the same options.

    .venv/bin/python scripts/bot.py --port 4000 --name Robo --open --seat 1 --strategy heuristic
    .venv/bin/python scripts/bot.py --port 4000 --name Robo2 --table 1 --strategy random
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_bot.runner import main

if __name__ == "__main__":
    raise SystemExit(main())
