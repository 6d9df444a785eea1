"""The catalogs of the languages other than English: one module per language (``de``, ``fr``,
``es``, ``da``), each a dict ``MESSAGES`` with exactly the keys and placeholders of the English
catalog in lobby/messages.py. lobby.messages loads them; English is the fallback."""
