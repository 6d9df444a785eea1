"""The translations of the catalog: gettext PO files, compiled to .mo, one per language.

English is the base: its templates are the dicts of lobby/text/messages.py (the engine's refusals
included: ``ENGINE_ERRORS``). Every other language is the file lobby/text/locales/LANG/LC_MESSAGES/
messages.po, made and kept with Babel (``pybabel extract/update/compile``, docs/translating.md),
in which each message is

    msgctxt "KEY"            the catalog key (the error code of an error)
    msgid   "English"        the English template: when it changes, ``pybabel update`` marks the
                             translation fuzzy, and until a translator has looked at it again
    msgstr  "translation"    the language shows English for that message

The compiled lobby/text/locales/LANG/LC_MESSAGES/messages.mo files are package data, committed next to
their PO (tests/world/test_translations.py checks that each is the compilation of its PO). A language
is there when its .mo is: the list of languages, the greeting's language line and ``/set lang``'s
choices come from these files, so adding a language is adding its PO (and compiling it).

A translation is used only for the English it was made for (the msgctxt and the msgid both
match): a message whose English changed falls back to English, never to a stale translation.
A language may ship partly translated; the rest is English.

Plurals: a template writes ``{count!p:FORM0|FORM1|...}`` with the forms in the order of the
language's gettext ``Plural-Forms`` (from CLDR through Babel: English and German 2 forms, Polish
3, ...); the form is chosen by that expression.
"""
from __future__ import annotations

import gettext
import struct
from collections.abc import Callable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from lobby.tichu import memo as _memo

#: the domain of the PO/MO files
DOMAIN = "messages"
#: the package that holds LANG/LC_MESSAGES/messages.mo
LOCALES_PACKAGE = "lobby.text.locales"


def _root(root: Path | None) -> Traversable:
    return root if root is not None else resources.files(LOCALES_PACKAGE)


def available_languages(root: Path | None = None) -> tuple[str, ...]:
    """The codes of the languages that have a compiled catalog (in ``root``, else the package
    lobby.text.locales), sorted; English is not among them: it is the base and needs none."""
    found = []
    for entry in _root(root).iterdir():
        mo = entry / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if entry.is_dir() and mo.is_file():
            found.append(entry.name)
    return tuple(sorted(found))


def _read_mo(lang: str, root: Traversable) -> tuple[dict[tuple[str, str], str], str | None]:
    """The translations of ``lang``'s .mo as {(key, English): translation}, and its Plural-Forms
    expression.

    The .mo format (GNU gettext's: a header of counts and offsets, then a table of (length,
    offset) per original and per translation, sorted by original) read with ``struct``: Babel's
    ``read_mo`` made a Message object of each of the 3,500 entries and imported
    babel.messages, about 25 ms of CPU of every server start (issue 25). Kept are, as before,
    the entries with a context (the key), a translation, and neither a plural nor an empty one;
    the header (the empty original) gives the Plural-Forms and the charset."""
    data = (root / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    count, originals, translations = struct.unpack_from(order + "3I", data, 8)
    found: dict[tuple[str, str], str] = {}
    plural = None
    charset = "utf-8"
    for i in range(count):
        olen, ooff = struct.unpack_from(order + "2I", data, originals + 8 * i)
        tlen, toff = struct.unpack_from(order + "2I", data, translations + 8 * i)
        msgid = data[ooff:ooff + olen].decode(charset)
        msgstr = data[toff:toff + tlen].decode(charset)
        if not msgid:
            for line in msgstr.splitlines():
                name, _, value = line.partition(":")
                if name.strip().lower() == "plural-forms":
                    plural = value.strip()
                elif name.strip().lower() == "content-type" and "charset=" in value:
                    charset = value.split("charset=")[1].split(";")[0].strip() or charset
            continue
        context, sep, key = msgid.partition("\x04")
        if sep and context and key and msgstr and "\x00" not in key and "\x00" not in msgstr:
            found[(context, key)] = msgstr
    return found, plural


def load(english: Mapping[str, str], root: Path | None = None
         ) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """The catalog of each available language, {lang: {key: template}}, holding only the keys
    whose translation was made for today's English, and each language's Plural-Forms."""
    catalogs: dict[str, dict[str, str]] = {}
    plurals: dict[str, str] = {}
    for lang in available_languages(root):
        found, plural = _read_mo(lang, _root(root))
        catalogs[lang] = {key: found[(key, template)] for key, template in english.items()
                          if (key, template) in found}
        if plural:
            plurals[lang] = plural
    return catalogs, plurals


def _babel_plural_forms(lang: str) -> str:
    from babel.core import UnknownLocaleError
    from babel.messages.plurals import get_plural

    try:
        rule = get_plural(lang)
    except (UnknownLocaleError, ValueError):    # a code CLDR does not know: English's rule
        rule = get_plural("en")
    return f"nplurals={rule.num_plurals}; plural={rule.plural_expr};"


#: language -> its plural rule, compiled (one of lobby.tichu.memo's)
_RULES: _memo.BoundedMemo[Callable[[int], int]] = _memo.BoundedMemo(256)


def plural_index(lang: str, n: float, plural_forms: Mapping[str, str]) -> int:
    """The index of the word form for ``n`` in ``lang`` (gettext's Plural-Forms: the language's
    own header, else CLDR's rule through Babel). A fraction takes the last form (the "other" of
    the languages the server speaks)."""
    rule = _RULES.find(lang) if _memo.ON else None
    if rule is None:
        forms = plural_forms.get(lang) or _babel_plural_forms(lang)
        expression = forms.split("plural=", 1)[1].strip().rstrip(";")
        rule = _RULES.put(lang, gettext.c2py(expression))
    if n != int(n):
        return 1 << 30
    return int(rule(int(n)))


def plural_count(lang: str, plural_forms: Mapping[str, str]) -> int:
    """How many word forms ``lang`` has (nplurals)."""
    forms = plural_forms.get(lang) or _babel_plural_forms(lang)
    return int(forms.split("nplurals=", 1)[1].split(";", 1)[0])


def display_name(lang: str) -> str:
    """The language's name in itself, as CLDR writes it, capitalised ("Français")."""
    from babel import Locale
    from babel.core import UnknownLocaleError

    try:
        name = Locale.parse(lang).get_display_name(lang) or lang
    except (UnknownLocaleError, ValueError, LookupError):
        return lang
    return name[:1].upper() + name[1:]
