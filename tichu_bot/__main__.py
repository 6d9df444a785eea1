"""``python -m tichu_bot``: the bot program (tichu_bot.runner.main, also ``tichu-bot``)."""
from tichu_bot.runner import main

raise SystemExit(main())
