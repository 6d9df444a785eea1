"""The translations of the catalog as gettext files (docs/translating.md): the template
``messages.pot`` (made by ``pybabel extract`` from the English of lobby/text/messages.py) and, per
language, ``LANG/LC_MESSAGES/messages.po`` (the translators' file) with its compiled
``messages.mo`` (what the server reads: lobby/text/translations.py). Package data."""
