"""Babel's extractor for the English catalog (``pybabel extract -F babel.cfg``, docs/translating.md).

The English templates are dict literals in lobby/text/messages.py (``ERRORS``, ``INFO``,
``HELP_TEXTS``, ``ENGINE_ERRORS``: the rules engine's refusals): ``"KEY": "English"``. Each
becomes one message of the template lobby/text/locales/messages.pot with the key as ``msgctxt`` and
the English as ``msgid``, and translator comments (``#.``) made of

- the source's own comments: the section's comment (``# text`` above the section's first entry),
  the entry's own (``#. text`` lines right above it) and a comment on the entry's lines;
- every placeholder with an example value, and the English filled with those values;
- for a plural field ``{n!p:...}``, a reminder to give one form per Plural-Forms entry.

The source is read, never imported, apart from lobby.text.messages to fill the example.
"""
from __future__ import annotations

import ast
import io
import string
import tokenize
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

#: the dicts whose entries are messages
CATALOG_NAMES = frozenset({"ERRORS", "INFO", "HELP_TEXTS", "WEB_TEXTS", "ENGINE_ERRORS"})

#: an example value of each placeholder name used in the catalog (the translator comments show
#: them); a name not listed is shown as its own name in capitals
EXAMPLES: dict[str, Any] = {
    "version": 9, "versions": "1 2 3 4", "newest": 4, "protocol": 3,
    # the web client's own words (WEB_TEXTS): a round's and the match's score of your team
    # and of the other one
    "us": 140, "them": -40, "total_us": 340, "total_them": 160, "to": "Ben",
    "about": "at most X rounds", "action": "pass", "address": "192.0.2.7",
    "aliases": "/hilfe, /aide", "by": "Mira", "call": "Tichu", "candidates": "/look, /logout",
    "card": "R10", "cards": "R10 G10", "choices": "heuristic, random or expert",
    "client": "Mudlet 4.17", "code": "en", "command": "kick", "commands": "/who, /wwho, /look",
    "count": 3, "date": "2026-05-14", "default": 60, "default_width": 80,
    "double_victories": 2, "example": "/play R5", "expected": "on or off", "first": 11,
    "first_out": 4, "game": 1234, "games": 12, "gifts": "R5 from Ben, Hu from Cleo",
    "grace": 120, "grand_calls": 3, "grand_made": 2, "group": "Lobby", "guest": " (guest)",
    "high": 30, "host": "Anna", "id": "x!", "key": "k3f9", "kind": "pair",
    "language": "English", "languages": "en|de|fr", "language_names": "English, Deutsch, Français",
    "last": 20, "last_seen": "2026-05-14 20:15", "left": "Ben",
    "length": 1200, "level": "expert:99", "limit": 3, "line": "Trick: R5 - won by Ben",
    "low": 0.05, "max": 64, "max_width": 200, "min": 6, "min_width": 20, "n": 2,
    "name": "Anna", "names": "Ben, Cleo", "needed": 2, "next": "Ben", "number": 3,
    "option": "round", "options": "round 1", "order": "Anna, Ben, Cleo, Dan",
    "outcome": "Anna and Cleo win 1020:480.", "page": 2, "pages": 3, "partner": "Cleo",
    "peak": 1612, "per_page": 10, "phase": "play", "place": 2, "play": "R5 G5",
    "players": "1 Anna 5 | 2 Ben 9", "playing": 2, "plays": "Ben R5, Cleo G7", "points": 100,
    "previous": "Dan", "rank": "D", "rate": 10, "rated_games": 8, "rated_wins": 5,
    "rating": 1540, "reason": "spam", "registered_at": "2025-11-02", "request": "%status",
    "right": "Dan", "role": "moderator", "room": "Lobby", "round": 2, "round_no": 2,
    "rounds": 3, "score": "Anna+Cleo 320:180 Ben+Dan", "score0": 320, "score1": 180,
    "seat": 2, "seating": "1 Anna, 2 Ben, 3 Cleo, 4 Dan", "seconds": 90, "seed": 42,
    "spectators": 1, "state": "waiting", "strategy": "heuristic", "table": 3, "tables": 2,
    "target": 1000, "team": "Anna+Cleo", "team0": "Anna+Cleo", "team1": "Ben+Dan",
    "text": "hello", "tichu_calls": 5, "tichu_made": 3, "to_name": "Dan", "token": "X9",
    "top": "R7", "top_kind": "single", "turn": "Ben", "unrated": " (unrated)",
    "until": "2026-06-01", "usage": "/join [SEAT]", "value": "on", "vote": "yes",
    "waiting": 1, "wins": 7, "wish": "Wish: 8",
}


def fields(template: str) -> list[tuple[str, str | None, str]]:
    """The placeholders of a template in order, each use once: (name, conversion, spec)."""
    seen: dict[tuple[str, str | None], tuple[str, str | None, str]] = {}
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return []
    for _, name, spec, conversion in parsed:
        if name is not None and name and (name, conversion) not in seen:
            seen[(name, conversion)] = (name, conversion, spec or "")
    return list(seen.values())


def example(template: str) -> str | None:
    """The English template filled with the example values (None when it has no placeholder)."""
    names = list(dict.fromkeys(name for name, _, _ in fields(template)))
    if not names:
        return None
    from lobby.text.messages import format_template

    values = {name: EXAMPLES.get(name, name.upper()) for name in names}
    return format_template(template, "en", values)


def comments_for(template: str, source_comments: list[str]) -> list[str]:
    """The translator comments of one message."""
    out = list(source_comments)
    placeholders = fields(template)
    if placeholders:
        shown = []
        for name, conversion, _spec in placeholders:
            value = EXAMPLES.get(name, name.upper())
            what = {"t": " (a duration, written out)", "p": " (chooses a plural form)",
                    "w": " (a word of the catalog)", "r": " (quoted)"}.get(conversion or "", "")
            shown.append(f"{{{name}}}{what} e.g. {value}")
        out.append("Placeholders: " + "; ".join(shown) + ".")
        filled = example(template)
        if filled is not None:
            out.append("Example: " + filled.replace("\n", " / "))
    if any(conversion == "p" for _, conversion, _ in placeholders):
        out.append("Plural: {N!p:FORM|FORM...} takes one form per entry of this file's "
                   "Plural-Forms, in its order.")
    return out


def _comments_by_line(source: str) -> dict[int, str]:
    """Comment texts by line; a translator comment for the next entry only (``#. text``) keeps
    its ``.`` mark."""
    found: dict[int, str] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                body = token.string[1:]
                found[token.start[0]] = ("." + body[1:].strip()) if body.startswith(".") \
                    else body.strip()
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def entries(source: str) -> Iterator[tuple[int, str, str, list[str]]]:
    """(line, key, English, source comments) of every catalog entry of a Python source."""
    tree = ast.parse(source)
    comments = _comments_by_line(source)
    lines = source.splitlines()
    for node in ast.walk(tree):
        target: ast.expr
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id in CATALOG_NAMES
                and isinstance(value, ast.Dict)):
            continue
        section: list[str] = []
        previous_end = value.lineno
        for key, item in zip(value.keys, value.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)
                    and isinstance(item, ast.Constant) and isinstance(item.value, str)):
                continue
            block = [comments[n] for n in range(previous_end + 1, key.lineno)
                     if n in comments and lines[n - 1].lstrip().startswith("#")]
            block = [c for c in block if c and not c.startswith("----")]
            mine = [c[1:] for c in block if c.startswith(".")]     # "#. ": this entry's own
            if len(mine) < len(block):                               # "# ": a new section
                section = [c for c in block if not c.startswith(".")]
            end = item.end_lineno or key.lineno
            own = [comments[n] for n in range(key.lineno, end + 1)
                   if n in comments and not lines[n - 1].lstrip().startswith("#")]
            previous_end = end
            yield key.lineno, key.value, item.value, [*section, *mine, *own]


def extract(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extraction method (babel.cfg ``[extractors] catalog = ...``): one ``pgettext``
    message (context = the key, id = the English) per catalog entry."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, key, english, source_comments in entries(source):
        yield line, "pgettext", (key, english), comments_for(english, source_comments)
