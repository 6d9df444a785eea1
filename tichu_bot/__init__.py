"""Tichu bots over TCP: the client library (``tichu_bot.client``) and the ``tichu-bot`` program
(``tichu_bot.runner``, ``python -m tichu_bot``). docs/bots.md, "Writing a bot" and "The client
library", shows a complete bot.

    from tichu_bot import connect, my_turn_to

It depends on nothing of the server (no import of ``lobby`` or ``protocol``; a test enforces
it), so it could be a distribution of its own: the program finds its strategies among the
installed distributions (tichu_bot.strategies).
"""
from tichu_bot.client import Client, ClientError, CommandRefused, apply_update, connect
from tichu_bot.view import my_turn_to

__all__ = ["Client", "ClientError", "CommandRefused", "apply_update", "connect", "my_turn_to"]
