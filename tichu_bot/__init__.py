"""Tichu bots over TCP: the client library (``tichu_bot.client``) and the ``tichu-bot`` program
(``tichu_bot.runner``, ``python -m tichu_bot``). docs/bots.md, "Writing a bot" and "The client
library", shows a complete bot.

    from tichu_bot import connect, my_turn_to
"""
from lobby.bots.strategy import my_turn_to
from tichu_bot.client import Client, ClientError, CommandRefused, apply_update, connect

__all__ = ["Client", "ClientError", "CommandRefused", "apply_update", "connect", "my_turn_to"]
