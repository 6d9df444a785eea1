"""Text for people: the message catalog and its translations.

- `messages.py`: the catalog (English: ``ERRORS``, ``INFO``, ``HELP_TEXTS``, the engine's refusals
  ``ENGINE_ERRORS``), ``LobbyError``, the formatter of templates, the list of languages;
- `translations.py`: the gettext catalogs of `locales/` (PO/MO package data, read with Babel);
- `catalog_extract.py`: Babel's extractor of the English catalog (babel.cfg, scripts/catalogs.py);
- `numbers.py`: reading numbers people type (ASCII digits only, bounded).

May import: lobby.text, lobby.tichu (its facade); Babel; no Twisted. Everything else in lobby and
protocol may import it; it imports nothing of theirs.
"""
