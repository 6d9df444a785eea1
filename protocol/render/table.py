"""Table events -> compact readable text for a person (BSW style), through the message catalog.

`render_table(event, lang="en", color=False)` turns one event of `lobby.tables.table.TableActor` (types
`table-*` and `game-*`) into a few lines, or returns None for an event it does not know (the
caller then falls back to protocol/render/text.py). A `table-view` is what a person sees after
every change: the seats with cards left, Tichu calls and who is out, the score, the current trick
and who played it, the open wish, their own hand (sorted, BSW notation, optionally in ANSI colour
per suit) and, when it is their move, the exact command(s) that answer.

Seats are numbered 1..4 for people; play goes 1 -> 2 -> 3 -> 4, so "right" (the next player in
turn order) of seat 1 is seat 2 and "left" is seat 4.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from lobby.events import Event
from lobby.tables import options as table_options
from lobby.tables.options import RATED_TIMER
from lobby.text.messages import CATALOGS, NOTATION_LANGUAGE, text
from lobby.tichu import (
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    SUITS,
    Rejected,
    parse_cards,
    parse_rank,
    rank_name,
    readings,
    sort_cards,
)
from lobby.tichu import memo as _memo
from protocol.render.context import DEFAULT_WIDTH
from protocol.render.wrap import (
    ELLIPSIS,
    HANGING_INDENT,
    LINE_BREAK,
    break_seats,
    columns,
    name_forms,
    seats_packed,
    visible_width,
    wrap_column,
)

__all__ = ["render_table", "TableFeed", "TABLE_FORMATTERS", "card_legend", "color_cards",
           "status_prompt"]

RESET = "\x1b[0m"
# Schwert (black: shown bold, readable on dark and light terminals), Pagode blue, Jade green,
# Stern red; the four specials yellow.
SUIT_COLORS = {"S": "\x1b[1m", "B": "\x1b[34m", "G": "\x1b[32m", "R": "\x1b[31m"}
SPECIAL_COLOR = "\x1b[33m"

#: the states of a table (lobby/tables/table.py), each a catalog word ``table-state-STATE``
TABLE_STATES = ("waiting", "playing", "finished")
TRICK_WIDTH = 64          # the plays shown of the current trick, newest first, fit this width
#                           (at 80 columns; the width less 16 on a narrower screen)


def color_card(token: str) -> str:
    """One card in BSW notation wrapped in its suit's ANSI colour."""
    if token[:1] in SUIT_COLORS and token[:2] not in ("Ph",):
        return SUIT_COLORS[token[0]] + token + RESET
    return SPECIAL_COLOR + token + RESET


def color_cards(cards: str, color: bool) -> str:
    """BSW card text (space-separated), coloured per suit when `color` is on."""
    if not color or not cards:
        return cards
    return " ".join(color_card(t) for t in cards.split())


#: every memo of this module is one of lobby.tichu.memo's, bypassed while the one switch is off
#: (the reference the tests compare the memoised output with, byte for byte)
#: the most entries a bounded memo holds; a full memo is emptied and fills again
MEMO_SIZE = 4096
#: card text -> the same cards sorted (keyed by the exact text: what any view or deal with
#: these very cards shows)
_SORTED_TEXT: _memo.BoundedMemo[str] = _memo.BoundedMemo(MEMO_SIZE)


def _sorted_text(cards: str) -> str:
    if not cards:
        return ""
    out = _SORTED_TEXT.find(cards) if _memo.ON else None
    if out is None:
        out = " ".join(str(c) for c in sort_cards(parse_cards(cards)))
        if out == cards:
            out = cards          # sorted already (a view's hand): one string, not two
        _SORTED_TEXT.put(cards, out)
    return out


def _hand_line(cards: str, lang: str, color: bool) -> str:
    """``Your hand: ...``: ``cards`` sorted (in colour), in ``lang``."""
    return text("view-hand", lang, cards=color_cards(_sorted_text(cards), color))


def _template(key: str, lang: str) -> str | None:
    """The catalog's template of ``key`` that ``text(key, lang)`` uses."""
    return CATALOGS.get(lang, _NO_CATALOG).get(key) or CATALOGS["en"].get(key)


_NO_CATALOG: dict[str, str] = {}


def _name(names: Sequence[Any], seat: Any, lang: str = "en") -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        name = names[seat]
        if name:
            return str(name)
    if seat is None:
        return "-"
    return text("seat-unnamed", lang, seat=seat + 1) if isinstance(seat, int) else str(seat)


def _seat_name(d: dict[str, Any], lang: str = "en") -> str:
    """The name of the seat an event is about (its ``seat``), from the event's ``names``."""
    return _name(d.get("names") or [], d.get("seat"), lang)


def _teams(names: list[Any], lang: str = "en") -> tuple[str, str]:
    """Team names by seat team: seats 1+3 (team 0) and 2+4 (team 1)."""
    return (f"{_name(names, 0, lang)}+{_name(names, 2, lang)}",
            f"{_name(names, 1, lang)}+{_name(names, 3, lang)}")


def _score(names: list[Any], score: list[int], lang: str = "en") -> str:
    a, b = _teams(names, lang)
    return f"{a} {score[0]} : {score[1]} {b}"


def _place(n: int, lang: str = "en") -> str:
    """1st, 2nd, 3rd, 4th: a finishing place as a word of the catalog."""
    return text(f"place-{n}" if 1 <= n <= 4 else "place-n", lang, place=n)


def state_word(state: Any, lang: str = "en") -> str:
    """A table's state (``waiting``, ``playing``, ``finished``) as a word for people."""
    return text("table-state-" + str(state), lang) if state in TABLE_STATES else str(state)


def _joined(items: list[str], key: str, lang: str) -> str:
    """``A, B and C`` (``key`` is the catalog's ``names-and`` or ``names-or``)."""
    if len(items) < 2:
        return items[0] if items else ""
    return text(key, lang, names=", ".join(items[:-1]), name=items[-1])


# ---- the card legend --------------------------------------------------------------------------
#: a space inside one entry of the legend (``S Schwert (Sword)``): no break, so the wrap never
#: parts a card's notation from its name (protocol/render/wrap.py breaks at U+0020 only)
NO_BREAK = "\u00a0"


def _legend_entry(card: str, word: str, german: str | None, lang: str) -> str:
    """``S Schwert (Sword)`` (the catalog's ``card-legend-card``; ``card-legend-card-same``,
    ``G Jade``, where the reader's word is BSW's own name or there is no German name), as one
    unbreakable unit. The reader's word is capitalised as the name of a card (as BSW's German
    names are, and the special cards' words): one case in every language's legend, whatever
    case the word takes in the catalog's sentences (Spanish ``reina``, Danish ``dame``)."""
    word = word[:1].upper() + word[1:]
    if german is None or german.casefold() == word.casefold():
        entry = text("card-legend-card-same", lang, card=card, word=word)
    else:
        entry = text("card-legend-card", lang, card=card, german=german, word=word)
    return entry.replace(" ", NO_BREAK)


def card_legend(lang: str) -> list[str]:
    """The card legend shown once per account at the first deal (issue 26): paragraphs (each
    wrapped by protocol/render/wrap.py at any width) for the suits, the ranks, the specials and
    the marks of the players line; each card's notation stays with its name (``NO_BREAK``).
    The notation comes from lobby.tichu, the German names from the German catalog, the
    reader's words from theirs."""
    def names(letters: list[str], key: str) -> str:
        return _joined([_legend_entry(c, text(key + c, lang), text(key + c, NOTATION_LANGUAGE),
                                      lang) for c in letters], "names-and", lang)
    suits = names(list(SUITS), "suit-")
    ranks = names([rank_name(r) for r in (11, 12, 13, 14)], "rank-")
    specials = _joined([_legend_entry(str(c), text("special-" + str(c), lang), None, lang)
                        for c in (MAHJONG, DOG, PHOENIX, DRAGON)], "names-and", lang)
    return [text("card-legend", lang, suits=suits),
            text("card-legend-ranks", lang, ranks=ranks),
            text("card-legend-specials", lang, specials=specials),
            text("card-legend-marks", lang)]


# ---- the view ---------------------------------------------------------------------------------
#: (the names of a table's seats, language, width) -> the form of those names on that screen
_FORMS: _memo.BoundedMemo[list[Any]] = _memo.BoundedMemo(MEMO_SIZE)


def screen_names(names: list[Any], lang: str, width: int) -> list[Any]:
    """The one form of a table's names on a screen ``width`` columns wide (outside finding
    U13: the seats line, the players line, the score, the trick, the prompts and the lines of
    the moves all name a player alike): the longest form of ``name_forms`` (the names, bots
    without their strategy, then the longest names abbreviated) in which the players line
    (with a call and the partner's mark) fits one line and the score line fits; where no form
    fits the players line on one line (about 50 columns and less), the longest in which each
    seat fits a line of its own and the score line fits, the players line then broken
    between two seats. The full names are in ``/who``, ``/spielinfo`` and the game's start
    line. ``names`` itself when it is its own form."""
    key = (tuple(names), lang, width)
    form = _FORMS.find(key) if _memo.ON else None
    if form is None:
        form = _FORMS.put(key, _choose_form(names, lang, width))
    return form


def _choose_form(names: list[Any], lang: str, width: int) -> list[Any]:
    room = columns(width)
    call = max((text("view-call-" + c, lang) for c in ("tichu", "grand")), key=len)
    mark = text("view-partner-short", lang)

    def piece(s: int, n: Any) -> str:
        return f"{s + 1} {n or '-'} 14" + (f" {call}" if s == 0 else "") + (
            f" {mark}" if s == 2 else "")

    def score_fits(shown: list[Any], whole: bool | None) -> bool:
        # the score line on one line (``whole``), or (narrow) its score on a line of its own:
        # the wrap keeps ``A+C 0 : 0 B+D`` together (protocol/render/wrap.py); or (None:
        # narrower still) ``A+C 0 : 0`` and the second team on lines of their own
        if whole:
            return visible_width(text("view-score", lang, round_no=10,
                                      score=_score(shown, [100, 100], lang))) <= room
        if whole is False:
            return visible_width(HANGING_INDENT + _score(shown, [0, 0], lang)) <= room
        a, b = _teams(shown, lang)
        return visible_width(HANGING_INDENT + f"{a} 0 : 0") <= room \
            and visible_width(HANGING_INDENT + b) <= room

    def pieces_fit(shown: list[Any], whole: bool | None) -> bool:
        return all(visible_width(f"  >{piece(s, n)} |") <= room
                   for s, n in enumerate(shown[:4])) and score_fits(shown, whole)
    forms = name_forms(list(names))
    for shown in forms:
        line = " | ".join(piece(s, n) for s, n in enumerate(shown[:4]))
        if visible_width(">" + line) <= room and score_fits(shown, True):
            return names if shown == names else shown
    # a name is cut only where a seat does not fit a line of its own (issue 26 review, item 4):
    # the forms without a cut name (the bots' without their strategy first) with the score
    # parted between its teams before any cut form
    whole = [f for f in forms
             if not any(isinstance(n, str) and n.endswith(ELLIPSIS) and n not in names for n in f)]
    tries = [*((f, False) for f in whole), *((f, None) for f in reversed(whole)),
             *((f, False) for f in forms[len(whole):]), *((f, None) for f in forms[len(whole):])]
    for shown, fits in tries:
        if pieces_fit(shown, fits):
            return names if shown == names else shown
    return names if forms[-1] == names else forms[-1]




def _render_view(event: Event, lang: str, color: bool, show_score: bool = True,
                 width: int = DEFAULT_WIDTH, hand: str | None = None) -> list[str]:
    """The view's lines; the seats line fits ``width`` (long names abbreviated: fit_names).
    ``hand``: the hand line of the view when the caller has it already (TableFeed)."""
    d = event.data
    names: list[Any] = screen_names(d.get("seats") or [None] * 4, lang, width)
    state = d.get("state")
    game = d.get("game")
    if game is None or state == "waiting":
        def seats_line(shown: list[Any]) -> str:
            return text("view-seats", lang,
                        seating=" | ".join(f"{i + 1} {n or '-'}" for i, n in enumerate(shown)))
        lines = [text("table-view", lang, table=d.get("table"), state=state_word(state, lang)),
                 break_seats(names, seats_line, width, " | ")]
        if state == "waiting":      # how to fill the table, or (full) how to start it
            full = len(names) >= 4 and all(names[:4])
            lines.append(text("view-waiting-full" if full else "view-waiting", lang))
        return lines
    lines = list(_table_lines(d, game, names, lang, color, show_score or state == "finished",
                              width))
    me = d.get("seat")
    if me is not None and game.get("hand"):
        lines.append(hand if hand is not None else _hand_line(game["hand"], lang, color))
    if state == "finished":
        lines.append(_outcome_line(d, names, lang))
        return lines
    lines.extend(_prompt(d, game, names, me, lang, width))
    return lines


#: the last lines `_table_lines` rendered: the objects it read, its scalar inputs, the lines
_TABLE_LINES: _memo.LastMemo[tuple[str, ...]] = _memo.LastMemo()


def _table_lines(d: dict[str, Any], game: dict[str, Any], names: list[Any], lang: str,
                 color: bool, show_score: bool, width: int) -> tuple[str, ...]:
    """The lines of a game's view that read the same for every seat: the seats line, the score
    (with ``show_score``), the trick and the wish. The views of one change share the objects
    they are made of (the players' and the spectators' alike: lobby/tables/views.py), so these
    lines are rendered once per change for the connections of one language, colour and width:
    compared by identity with what the last lines were rendered from (kept alive here;
    delivered data is never changed) and by value for the rest."""
    # (the views are frozen dicts: a method bound once reads them faster than `.get` each
    # time, which a dict subclass makes the interpreter look up and check per call)
    get, game_get = d.get, game.get
    key = (lang, color, width, show_score, game_get("phase"), game_get("turn"),
           game_get("trick_won"), game_get("holder"), game_get("wish"), get("round_no"),
           game_get("round_no"), get("seat"))
    objs = (names, get("gone"), game_get("calls"), game_get("cards_left"), game_get("out"),
            game_get("trick"), get("scores"), game_get("scores"))
    lines = _TABLE_LINES.get(objs, key)
    if lines is _memo.MISSING:
        lines = _TABLE_LINES.put(
            objs, tuple(_render_table_lines(d, game, names, lang, color, show_score, width)), key)
    return lines


def _render_table_lines(d: dict[str, Any], game: dict[str, Any], names: list[Any], lang: str,
                        color: bool, show_score: bool, width: int) -> list[str]:
    get, game_get = d.get, game.get     # (bound once: see _table_lines)
    gone = get("gone") or ()
    phase = game_get("phase")
    turn = game_get("turn") if phase in ("play", "wish", "dragon") else None   # marked ">"
    calls = game_get("calls") or [None] * 4
    left = game_get("cards_left") or [0] * 4
    out = game_get("out") or ()
    me = get("seat")
    partner = (me + 2) % 4 if isinstance(me, int) else None
    seated = get("seats") or names          # the names as they are (``names``: as shown)

    def players_line(shown: list[Any], mark: str = "view-partner") -> str:
        # each seat's part but the partner's mark: the same for every reader of the change
        parts_key = (lang, turn)
        parts_of = (shown, game_get("out"), game_get("cards_left"), game_get("calls"),
                    get("gone"), get("seats"))
        players = _PLAYER_PARTS.get(parts_of, parts_key)
        if players is _memo.MISSING:
            players = _PLAYER_PARTS.put(parts_of, _player_parts(
                shown, turn, out, left, calls, gone, seated, lang), parts_key)
        if partner is not None:
            mine = list(players)
            mine[partner] += " " + text(mark, lang)
            players = tuple(mine)
        return text("view-players", lang, players=" |".join(players)).strip()
    # the players line: one logical line however many lines it takes (break_seats), so that
    # the update that shows only the lines that changed shows all of it or none of it
    # (the names in the screen's one form: screen_names)
    seats = break_seats(names, players_line, width, " |")
    if partner is not None and LINE_BREAK in seats:
        # too narrow for the word (break_seats broke the line): the partner's short mark
        seats = break_seats(names, lambda shown: players_line(shown, "view-partner-short"),
                            width, " |")
    lines = [seats]
    if show_score:
        scores = get("scores") or game_get("scores") or [0, 0]
        lines.append(text("view-score", lang, round_no=get("round_no", game_get("round_no")),
                          score=_score(names, scores, lang)))
    trick = game_get("trick")
    if trick:
        lines.append(_trick_line(game, trick, names, lang, color, width, me))
    elif phase == "play":
        lines.append(text("view-trick-empty", lang))
    wish = game_get("wish")
    if wish is not None and phase != "finished":    # (a wish still open when the round ended)
        lines[-1] = text("view-with-wish", lang, line=lines[-1],
                         wish=text("view-wish", lang, rank=wish))
    return lines


#: the last seats' parts of a players line (`_player_parts`): the objects they were made of,
#: the language and whose turn it is
_PLAYER_PARTS: _memo.LastMemo[tuple[str, ...]] = _memo.LastMemo()


def _player_parts(shown: Sequence[Any], turn: Any, out: Any, left: Any, calls: Any, gone: Any,
                  seated: list[Any], lang: str) -> tuple[str, ...]:
    """The four seats' parts of the players line (``>1 Ann 5 Tichu``) without the partner's
    mark, which is the reader's own."""
    players = []
    # (as tuples: an item of a frozen list, a list subclass, is read through a slower path)
    shown, left, calls = tuple(shown), tuple(left), tuple(calls)
    for s in range(4):
        part = f"{'>' if turn == s else ' '}{s + 1} {_name(shown, s, lang)}"
        if s in out:
            part += " " + text("view-player-out", lang, place=_place(out.index(s) + 1, lang))
        else:
            part += f" {left[s]}"
        if calls[s] is not None:
            part += " " + text("view-call-" + calls[s], lang)
        if gone and seated[s] in gone:
            part += " " + text("view-gone", lang)
        players.append(part)
    return tuple(players)


#: the last trick line: (the trick and names it was made of, its scalar inputs, the line); the
#: views after a pass hold the very trick object of the view before (lobby/tichu/round.py), so
#: it is made again only after a play, unless another table's views came in between
_TRICK_LINE: _memo.LastMemo[str] = _memo.LastMemo()


def _trick_line(game: dict[str, Any], trick: list[dict[str, Any]], names: list[Any], lang: str,
                color: bool, width: int, me: int | None = None) -> str:
    """``Trick: ann R5, bob R7``: the newest plays of the trick that fit (``TRICK_WIDTH`` at 80
    columns), and who won it (``won by you`` to the seat ``me`` that won it)."""
    game_get = game.get             # (bound once: see _table_lines)
    key = (lang, color, width, game_get("trick_won"), game_get("holder"),
           me if game_get("trick_won") and game_get("holder") == me else None)
    line = _TRICK_LINE.get((trick, names), key)
    if line is not _memo.MISSING:
        return line
    shown: list[tuple[str, str]] = []
    used = 0
    budget = min(TRICK_WIDTH, width - (DEFAULT_WIDTH - TRICK_WIDTH))
    for p in reversed(trick):
        name = _name(names, p["seat"], lang)
        cards = play_cards(p)           # in rank order, the Phoenix in its place (as a play line)
        w = len(name) + len(cards) + 3
        if shown and used + w > budget:
            break
        shown.append((name, cards))
        used += w
    plays = ", ".join(f"{name} {color_cards(cards, color)}" for name, cards in reversed(shown))
    if len(shown) < len(trick):
        plays = text("view-trick-more", lang, plays=plays)
    if game_get("trick_won") and me is not None and game_get("holder") == me:
        line = text("view-trick-won-you", lang, plays=plays)
    elif game_get("trick_won"):
        line = text("view-trick-won", lang, plays=plays,
                    name=_name(names, game_get("holder"), lang))
    else:
        line = text("view-trick", lang, plays=plays)
    return _TRICK_LINE.put((trick, names), line, key)


def _outcome_line(d: dict[str, Any], names: list[Any], lang: str) -> str:
    result = d.get("result") or {}
    if result.get("abandoned"):
        return text("view-abandoned", lang, name=result.get("removed"))
    return text("view-finished", lang, outcome=_outcome(result, names, lang))


def _outcome(result: dict[str, Any], names: list[Any], lang: str) -> str:
    scores = result.get("scores") or [0, 0]
    if "victory_points" in result:
        players = result.get("players") or names
        winners = _joined([str(players[p]) for p in result.get("winners", [])], "names-and", lang)
        return text("game-turnier-winner", lang, names=winners)
    if result.get("winner") is None:
        return text("game-shared", lang, score=_score(names, scores, lang))
    w = result["winner"]
    return text("game-winner", lang, names=_teams(names, lang)[w],
                score=f"{scores[w]} : {scores[1 - w]}")


def _prompt(d: dict[str, Any], game: dict[str, Any], names: list[Any], me: int | None,
            lang: str, width: int = DEFAULT_WIDTH) -> list[str]:
    """Whose move it is, and for the person whose move it is the exact command(s) (with the
    Tichu hint where a call is open: on the prompt's line where it fits ``width``, else on a
    line of its own of the same logical line, ``LINE_BREAK``)."""
    game_get = game.get             # (bound once: see _table_lines)
    phase = game_get("phase")
    turn = game_get("turn")
    lines: list[str] = []
    if phase == "grand":
        waiting = [s for s, done in enumerate(game_get("grand_decided") or []) if not done]
        if me is not None and me in waiting:
            lines.append(text("view-grand", lang))
        elif waiting:
            lines.append(text("view-grand-wait", lang,
                              names=", ".join(_name(names, s, lang) for s in waiting)))
    elif phase == "exchange":
        waiting = [s for s, done in enumerate(game_get("exchanged") or []) if not done]
        if me is not None and me in waiting:
            lines.append(text("view-exchange", lang, next=_name(names, (me + 1) % 4, lang),
                              partner=_name(names, (me + 2) % 4, lang),
                              previous=_name(names, (me + 3) % 4, lang)))
        elif waiting:
            lines.append(text("view-exchange-wait", lang,
                              names=", ".join(_name(names, s, lang) for s in waiting)))
    elif phase == "wish":
        wisher = game_get("wish_pending")
        if me is not None and me == wisher:
            lines.append(text("view-wish-prompt", lang))
        else:
            lines.append(text("view-wish-wait", lang, name=_name(names, wisher, lang)))
    elif phase == "dragon":
        holder = game_get("holder")
        if d.get("bombwindow_left"):
            # the gift waits for the bomb window: its prompt comes when the window closes
            lines.append(_window_line(d, names, holder, me, lang))
        elif me is not None and me == holder:
            lines.append(text("view-dragon", lang, left=_name(names, (me + 3) % 4, lang),
                              right=_name(names, (me + 1) % 4, lang)))
        else:
            lines.append(text("view-dragon-wait", lang, name=_name(names, holder, lang)))
    elif phase == "play":
        if d.get("bombwindow_left"):
            # the lead waits for the bomb window: no "Your lead" before it closes (the view
            # after table-window-closed gives the prompt)
            lines.append(_window_line(d, names, turn, me, lang))
        elif me is not None and me == turn:
            leading = not game_get("trick") or game_get("trick_won")
            wish = game_get("wish")
            # the wish binds when some legal play holds a real card of the wished rank (RULES 20)
            bound = wish is not None and any(
                any(t[1:] == wish for t in p.split()) for p in game_get("legal") or [])
            if leading:
                key = "view-your-lead-wish" if bound else "view-your-lead"
            else:
                key = "view-your-turn-wish" if bound else "view-your-turn"
            lines.append(text(key, lang, rank=wish))
        elif turn is not None:
            lines.append(text("view-turn", lang, name=_name(names, turn, lang)))
    own_move = (phase == "exchange" and me is not None
                and not (game_get("exchanged") or [True] * 4)[me]) or (
                    phase == "play" and me is not None and me == turn
                    and not d.get("bombwindow_left"))
    if own_move and lines and me is not None and _may_call_tichu(game, me):
        # always, in every language: a length test here hid it where the prompt is longer
        # than English's (German, French, Spanish)
        hint = text("view-tichu-hint", lang)
        fits = visible_width(lines[-1]) + 1 + visible_width(hint) <= columns(width)
        lines[-1] += (" " if fits else LINE_BREAK) + hint
    if me is not None and phase in ("play", "dragon") and game_get("bombs"):
        lines.append(_bomb_line(game, lang))
    return lines


def _bomb_line(game: dict[str, Any], lang: str) -> str:
    """``You may bomb: /bomb S5 B5 G5 R5``: the first two of the reader's bombs."""
    return text("view-bombs", lang, cards=_joined(game["bombs"][:2], "names-or", lang))


def _window_line(d: dict[str, Any], names: list[Any], seat: Any, me: int | None,
                 lang: str) -> str:
    """`bob may go on in 3 seconds: time to bomb.` (`You may go on in ...` to bob himself): the
    bomb window's seconds left, rounded up."""
    seconds = max(1, math.ceil(float(d.get("bombwindow_left") or 0)))
    if me is not None and me == seat:
        return text("view-bomb-window-you", lang, seconds=seconds)
    return text("view-bomb-window", lang, name=_name(names, seat, lang), seconds=seconds)


def status_prompt(d: dict[str, Any], lang: str, width: int = DEFAULT_WIDTH) -> str | None:
    """``/set prompt on``: the status prompt after a view of a game being played, for a MUD
    client's prompt line: ``[11 cards | your move | us 120 : 80 them] `` (a spectator: whose
    turn and the score by seats, the names in the screen's form: ``screen_names``); None
    outside a game."""
    game = d.get("game")
    if game is None or d.get("state") != "playing":
        return None
    me = d.get("seat")
    names: list[Any] = screen_names(d.get("seats") or [None] * 4, lang, width)
    scores = d.get("scores") or game.get("scores") or [0, 0]
    phase = game.get("phase")
    if awaits_you(d):
        turn = text("prompt-your-move", lang)
    elif phase == "play" and game.get("turn") is not None:
        turn = text("prompt-turn", lang, name=_name(names, game.get("turn"), lang))
    else:
        turn = text("prompt-phase-" + str(phase), lang) if phase in (
            "grand", "exchange", "wish", "dragon") else "-"
    if me is None:
        return text("prompt-watching", lang, turn=turn, score=_score(names, scores, lang))
    left = (game.get("cards_left") or [0] * 4)[me]
    ours, theirs = scores[me % 2], scores[1 - me % 2]
    return text("prompt-status", lang, cards=left, turn=turn, ours=ours, theirs=theirs)


def awaits_you(d: dict[str, Any]) -> bool:
    """Whether a table view (its data) waits for the seated person who gets it: their turn in
    the play (after any bomb window), or their Grand Tichu decision, exchange, wish or Dragon
    gift."""
    get = d.get                 # (bound once: see _table_lines)
    game = get("game")
    me = get("seat")
    if game is None or me is None or get("state") != "playing":
        return False
    phase = game.get("phase")
    if phase == "grand":
        return not (game.get("grand_decided") or [True] * 4)[me]
    if phase == "exchange":
        return not (game.get("exchanged") or [True] * 4)[me]
    if get("bombwindow_left"):
        return False
    if phase == "play":
        return bool(game.get("turn") == me)
    if phase == "wish":
        return bool(game.get("wish_pending") == me)
    if phase == "dragon":
        return bool(game.get("holder") == me)
    return False


def _may_call_tichu(game: dict[str, Any], me: int) -> bool:
    """Small Tichu is open until one's first card (docs/rules.md 3): no call yet, and all 14 cards
    still in hand (or, in the Grand Tichu phase, the Grand Tichu declined)."""
    if (game.get("calls") or [None] * 4)[me] is not None:
        return False
    phase = game.get("phase")
    if phase == "grand":
        return bool((game.get("grand_decided") or [False] * 4)[me])
    if phase == "exchange":
        return True
    return phase in ("play", "wish", "dragon") and (game.get("cards_left") or [0] * 4)[me] == 14


# ---- table notices ----------------------------------------------------------------------------
def _seating(names: list[Any]) -> str:
    return ", ".join(f"{i + 1} {n or '-'}" for i, n in enumerate(names))


def _started(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    a, b = _teams(d.get("seats") or [], lang)
    return [text("table-started", lang, table=d.get("table"), team0=a, team1=b)]


def _options(event: Event, lang: str, color: bool, width: int | None = None) -> list[str]:
    """``/option help``: one option a line; at ``width`` (a connection's: TableFeed) a
    description too long for the line is continued under the description column (not under
    the option's name)."""
    d = event.data
    lines = [text("table-options", lang, table=d.get("table"))]
    for option, value in d.get("options", []):
        line = text("table-option-line", lang, option=option, value=value,
                    about=table_options.about(option, lang)).rstrip()
        if width is None:
            lines.append(line)
            continue
        column = len(text("table-option-line", lang, option=option, value=value, about=""))
        lines.extend(wrap_column(line, width, column))
    return lines


#: what /spielinfo's seats line holds in place of the seats, to be split there
_SEATS_AT = "\x00"


def _info(event: Event, lang: str, color: bool, width: int | None = None) -> list[str]:
    d = event.data
    names = d.get("seats") or [None] * 4
    head, _, tail = text("table-info-seats", lang, seating=_SEATS_AT).partition(_SEATS_AT)
    # the full names, broken between two seats only (the rule of /listroom: seats_packed)
    seating = (head + _seating(names) + tail if width is None else
               seats_packed(head, names, width, " " * (len(head) - len(head.lstrip())) + HANGING_INDENT,
                            ", ", tail, cut=False))
    lines = [text("table-info", lang, table=d.get("table"), state=state_word(d.get("state"), lang),
                  host=d.get("host") or "-"), seating]
    if d.get("scores") is not None:
        # the rounds finished (during round 3: after 2 rounds), not the round being played
        done = d.get("rounds_done") or 0
        lines.append(text("table-info-score" if done else "table-info-score-none", lang,
                          rounds=done, score=_score(names, d["scores"], lang)))
    opts = d.get("options") or {}
    changed = [f"{k} {v}" for k, v in table_options.changed(opts)]
    lines.append(text("table-info-options", lang,
                      options=", ".join(changed) or text("options-defaults", lang)))
    # (indented as the lines above: the catalog's templates of these have no indent)
    if "timer" in d:
        seconds = d["timer"]
        lines.append("  " + (text("table-info-timer-auto", lang, seconds=RATED_TIMER)
                             if seconds is None else
                             text("table-info-timer", lang, seconds=seconds) if seconds
                             else text("table-info-timer-off", lang)))
    if "rated" in d:
        lines.append("  " + (text("table-info-rated", lang) if d["rated"] else
                             text("table-unrated", lang, reason=d.get("unrated") or "guests")))
    if d.get("left"):
        lines.append("  " + text("table-info-left", lang, names=", ".join(d["left"])))
    if d.get("spectators"):
        lines.append(text("table-info-watching", lang, names=", ".join(d["spectators"])))
    if d.get("state") == "finished" and d.get("result"):
        lines.append(_outcome_line(d, names, lang))
    return lines


def _vote(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    return [text("table-vote", lang, name=d.get("name"), target=d.get("target"),
                 vote=text("vote-yes" if d.get("yes") else "vote-no", lang))]


def _abandoned(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    return [text("table-abandoned", lang, target=d.get("target"),
                 score=_score(d.get("seats") or [None] * 4, d.get("scores") or [0, 0], lang))]


# ---- game events ------------------------------------------------------------------------------
def _g(key: str) -> Callable[[Event, str, bool], list[str]]:
    """A game event whose template needs only the name of its `seat`."""
    def fmt(event: Event, lang: str, color: bool) -> list[str]:
        d = event.data
        return [text(key, lang, name=_seat_name(d, lang), **{
            k: v for k, v in d.items() if k not in ("name", "names", "seat")})]
    return fmt


def _deal(event: Event, lang: str, color: bool) -> list[str]:
    cards = _sorted_text(event.data.get("cards", ""))
    key = "game-deal" if len(cards.split()) == 8 else "game-deal-all"
    return [text(key, lang, cards=color_cards(cards, color))]


def _deal_rest(event: Event, lang: str, color: bool) -> list[str]:
    cards = _sorted_text(event.data.get("cards", ""))
    return [text("game-deal-rest", lang, cards=color_cards(cards, color))]


def _grand(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    key = "game-grand" if d.get("call") else "game-grand-no"
    return [text(key, lang, name=_seat_name(d, lang))]


def _received(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    names = d.get("names") or []
    gifts = ", ".join(text("game-gift-from", lang, card=color_cards(str(card), color),
                           name=_name(names, int(giver), lang))
                      for giver, card in (d.get("cards") or {}).items())
    return [text("game-exchange-received", lang, gifts=gifts)]


def _play_phase(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    return [text("game-play-phase", lang, name=_name(d.get("names") or [], d.get("turn"), lang))]


def _play(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    key = "game-play-bomb" if d.get("combo") == "bomb" else "game-play"
    return [text(key, lang, name=_seat_name(d, lang),
                 cards=color_cards(play_cards(d), color))]


def play_cards(d: Any) -> str:
    """A play's cards as a play line shows them: the Phoenix of a longer play with its reading,
    in its place in the combination (``R7 B8 R9 Ph=10 RB``, ``R8 Ph=8 B9 R9``). The play event
    names the Phoenix bare (machine mode's shape); its reading is the trick's (``Ph=N``, put in
    by ``TableFeed`` from the view that follows) or, where no trick follows (the player went
    out), the combination's reading as the engine takes it without one named (the highest of
    its kind)."""
    cards = str(d.get("cards") or "")
    if "Ph" not in cards:
        return cards                    # (no Phoenix: the commonest play, as it is)
    tokens = cards.split()
    phoenix = next((t for t in tokens if t == "Ph" or t.startswith("Ph=")), None)
    if phoenix is None or len(tokens) < 2:
        return cards
    rest = [t for t in tokens if t is not phoenix]
    try:
        ranks = [parse_cards(t)[0].rank for t in rest]
        if phoenix == "Ph":
            combo = d.get("combo")
            found = [c for c in readings(parse_cards(cards))
                     if c.phoenix_as and (combo is None or c.kind == combo)]
            if not found:
                return cards
            rank = int(found[0].phoenix_as or 0)
        else:
            rank = parse_rank(phoenix[3:])
    except (Rejected, ValueError, KeyError):
        return cards
    at = sum(1 for r in ranks if r <= rank)      # after the cards of its rank and below
    order = sorted(range(len(rest)), key=lambda k: ranks[k])
    shown = [rest[k] for k in order]
    return " ".join([*shown[:at], "Ph=" + rank_name(rank), *shown[at:]])


def _wish(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    key = "game-wish" if d.get("rank") else "game-wish-none"
    return [text(key, lang, name=_seat_name(d, lang), rank=d.get("rank"))]


def _trick_won(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    key = "game-trick-won-dragon" if d.get("dragon") else "game-trick-won"
    return [text(key, lang, name=_seat_name(d, lang))]


def _dragon_given(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    names = d.get("names") or []
    return [text("game-dragon-given", lang, name=_name(names, d.get("seat"), lang),
                 to_name=_name(names, d.get("to"), lang))]


def _trick_taken(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    names = d.get("names") or []
    if d.get("lead") is not None:            # the Dog (its trick is taken at once, by its player)
        return [text("game-dog", lang, name=_name(names, d.get("lead"), lang))]
    return []                                  # "wins the trick" / the Dragon gift said it


def _out(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    return [text("game-out", lang, name=_seat_name(d, lang),
                 place=_place(int(d.get("place", 0)), lang))]


def _round_over(event: Event, lang: str, color: bool, me: str | None = None) -> list[str]:
    d = event.data
    names = d.get("names") or []
    order = ", ".join(_name(names, s, lang) for s in d.get("order") or [])
    dv = d.get("double_victory")
    if dv is not None:
        lines = [text("game-round-over-double", lang, team=_teams(names, lang)[dv], order=order)]
    else:
        lines = [text("game-round-over", lang, order=order),
                 text("game-round-cards", lang,
                      score=_score(names, d.get("card_points") or [0, 0], lang))]
    first = (d.get("order") or [None])[0]
    for seat, call in enumerate(d.get("calls") or []):
        if call is None:
            continue
        points = 200 if call == "grand" else 100
        key = "game-round-call-won" if seat == first else "game-round-call-lost"
        if me is not None and seat < len(names) and names[seat] == me:
            key += "-you"                    # "Your Tichu succeeded" to its caller
        lines.append(text(key, lang, name=_name(names, seat, lang), points=points,
                          call=text("call-" + call, lang)))
    lines.append(text("game-round-total", lang,
                      score=_score(names, d.get("score") or [0, 0], lang)))
    return lines


def _round_score(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    names = d.get("names") or []
    lines = [text("game-round-score", lang, round=d.get("round"),
                  score=_score(names, d.get("scores") or [0, 0], lang))]
    vp = d.get("victory_points")
    if vp:
        players = d.get("players") or names
        lines.append(text("game-victory-points", lang,
                          points=", ".join(f"{players[p]} {vp[p]}" for p in range(4))))
    return lines


def _match_over(event: Event, lang: str, color: bool) -> list[str]:
    d = event.data
    names = d.get("names") or []
    lines = [text("game-match-over", lang, rounds=d.get("rounds"),
                  outcome=_outcome(d, names, lang))]
    if "victory_points" in d:
        lines.append(_turnier_points(d, names, lang))
    return lines


def _turnier_points(d: dict[str, Any], names: list[Any], lang: str) -> str:
    players = d.get("players") or names
    vp = d["victory_points"]
    tp = d.get("tichu_points") or [0] * 4
    return text("game-turnier-points", lang,
                points=", ".join(f"{players[p]} {vp[p]}/{tp[p]}" for p in range(4)))


def _plain(key: str) -> Callable[[Event, str, bool], list[str]]:
    def fmt(event: Event, lang: str, color: bool) -> list[str]:
        return [text(key, lang, **event.data)]
    return fmt


def _look(event: Event, lang: str, color: bool, width: int = DEFAULT_WIDTH) -> list[str]:
    """`/look`: the whole view (seats with cards left and calls, score, trick, wish, hand,
    whose turn and what to type), whatever was shown before; a game's view under a heading."""
    d = event.data
    if d.get("game") is None or d.get("state") == "waiting":
        return _render_view(event, lang, color, width=width)
    return [text("table-look", lang, table=d.get("table")), *_render_view(event, lang, color, width=width)]


def _bot_added(event: Event, lang: str, color: bool) -> list[str]:
    """A bot seated: its name is its one form (``Bot1~expert``, the strategy after the ~), so
    the line does not name the strategy again; an expert's own thinking time (``/addbot
    expert:2``), which the name does not say, is told."""
    d = event.data
    level = str(d.get("strategy") or "").partition(":")[2]
    try:
        seconds = float(level) if level else None
    except ValueError:
        seconds = None
    if seconds is None:
        return [text("table-bot-added", lang, **d)]
    return [text("table-bot-added-level", lang, **d,
                 seconds=int(seconds) if seconds.is_integer() else seconds)]


TABLE_FORMATTERS: dict[str, Callable[[Event, str, bool], list[str]]] = {
    "table-view": _render_view,
    "table-bot-added": _bot_added,
    "table-look": _look,
    "table-started": _started,
    "table-options": _options,
    "table-info": _info,
    "table-vote": _vote,
    "table-abandoned": _abandoned,
    "game-round-start": _plain("game-round-start"),
    "game-deal": _deal,
    "game-deal-rest": _deal_rest,
    "game-grand": _grand,
    "game-tichu": _g("game-tichu"),
    "game-exchange-phase": _plain("game-exchange-phase"),
    "game-exchange-given": _g("game-exchange-given"),
    "game-exchange-received": _received,
    "game-play-phase": _play_phase,
    "game-play": _play,
    "game-wish": _wish,
    "game-wish-fulfilled": _g("game-wish-fulfilled"),
    "game-pass": _g("game-pass"),
    "game-trick-won": _trick_won,
    "game-dragon-given": _dragon_given,
    "game-trick-taken": _trick_taken,
    "game-out": _out,
    "game-round-over": _round_over,
    "game-round-score": _round_score,
    "game-match-over": _match_over,
}
for _key in ("table-joined", "table-left", "table-option-set", "table-reset", "table-vanished",
             "table-back", "table-remove-proposed", "table-remove-refused", "table-vote-ended",
             "table-window-closed", "table-new-host", "table-seeded",
             "table-bot-removed", "table-bot-takes-over", "table-rated", "table-unrated",
             "table-timer-warning", "table-timed-out", "table-unseated", "table-barred",
             "table-unbarred"):
    TABLE_FORMATTERS[_key] = _plain(_key)


#: the events about one seat (their ``seat``) whose line has a form said to that seat's player
#: (the catalog's KEY-you): "You pass." rather than "Ann passes." to Ann
_YOU_EVENTS = {"game-pass": "game-pass", "game-tichu": "game-tichu",
               "game-exchange-given": "game-exchange-given", "game-out": "game-out",
               "game-wish-fulfilled": "game-wish-fulfilled"}


def _is_seat_of(names: list[Any], seat: Any, me: str) -> bool:
    """Whether ``seat`` is ``me``'s in ``names`` (an event's names by seat)."""
    return isinstance(seat, int) and 0 <= seat < len(names) and names[seat] == me


def render_for(event: Event, lang: str, color: bool, me: str) -> list[str] | None:
    """The lines of ``event`` said to ``me`` when the event is about ``me`` (their move, their
    call, the trick they win, the Dragon trick given to them...): "You pass.", "Bob gives you
    the Dragon trick."; None when the event is not about ``me`` (render_table's lines are the
    same for every reader then)."""
    d = event.data
    names = d.get("names") or []
    t = event.type

    def named(seat: Any) -> bool:
        return _is_seat_of(names, seat, me)
    if t in ("table-joined", "table-left"):
        return [text(t + "-you", lang, seat=d.get("seat"))] if d.get("name") == me else None
    if t == "game-round-over":
        if not any(named(s) and c is not None for s, c in enumerate(d.get("calls") or [])):
            return None
        return _round_over(event, lang, color, me)
    if t == "game-dragon-given":
        if named(d.get("to")):
            return [text("game-dragon-given-to-you", lang, name=_name(names, d.get("seat"), lang))]
        if named(d.get("seat")):
            return [text("game-dragon-given-you", lang, to_name=_name(names, d.get("to"), lang))]
        return None
    if t == "game-trick-taken":
        if d.get("lead") is not None and named(d.get("lead")):
            return [text("game-dog-you", lang)]
        return None
    if not named(d.get("seat")):
        return None
    if t in _YOU_EVENTS:
        return [text(_YOU_EVENTS[t] + "-you", lang, **{
            k: (_place(int(v), lang) if k == "place" else v)
            for k, v in d.items() if k not in ("name", "names", "seat")})]
    if t == "game-grand":
        return [text("game-grand-you" if d.get("call") else "game-grand-no-you", lang)]
    if t == "game-play":
        key = "game-play-bomb-you" if d.get("combo") == "bomb" else "game-play-you"
        return [text(key, lang, cards=color_cards(play_cards(d), color))]
    if t == "game-wish":
        key = "game-wish-you" if d.get("rank") else "game-wish-none-you"
        return [text(key, lang, rank=d.get("rank"))]
    if t == "game-trick-won":
        key = "game-trick-won-dragon-you" if d.get("dragon") else "game-trick-won-you"
        return [text(key, lang)]
    return None


def render_table(event: Event, lang: str = "en", color: bool = False) -> list[str] | None:
    """The lines for one table event, or None if `event` is no table event."""
    if event.is_error:                 # `game-running` is an error code, not a game event
        return None
    fmt = TABLE_FORMATTERS.get(event.type)
    if fmt is None:
        if event.type.startswith("game-"):
            return [text(event.type, lang, **event.data)]
        return None
    return fmt(event, lang, color)


# ---- one connection's stream of table events ----------------------------------------------------
#: events whose line a spectator gets merged with the turn that follows (one line per move)
_MOVES = ("game-play", "game-pass", "game-wish")
#: `TableFeed._mine`'s marker of names not read yet
_UNREAD: Any = object()
#: the other events whose line may be about the reader (render_for)
_ABOUT_YOU = frozenset({"table-joined", "table-left", "game-grand", "game-tichu",
                        "game-exchange-given", "game-wish-fulfilled", "game-trick-won",
                        "game-dragon-given", "game-trick-taken", "game-out", "game-round-over"})

#: the last event rendered by `_event_lines` with its language and colour, and its lines: the
#: world hands one Event object to every listener of a table in a row, so the players and
#: spectators who read the same language (and colour) share one rendering of it (events are
#: never changed once delivered; the lines are only read)
_EVENT_LINES: _memo.LastMemo[list[str] | None] = _memo.LastMemo()
#: the same for a whole view: (event, lang, color, show_score, width) -> its lines; spectators
#: of a table share one view event (a seat's view has one reader: not kept)
_VIEW_LINES: _memo.LastMemo[list[str]] = _memo.LastMemo()


def _event_lines(event: Event, lang: str, color: bool) -> list[str] | None:
    lines = _EVENT_LINES.one(event, (lang, color))
    if lines is _memo.MISSING:
        lines = _EVENT_LINES.put_one(event, render_table(event, lang, color), (lang, color))
    return lines


def _view_lines(event: Event, lang: str, color: bool, show_score: bool = True,
                width: int = DEFAULT_WIDTH, hand: str | None = None) -> list[str]:
    if event.data.get("seat") is not None:
        # a seat's own view (its hand, its prompt): read by that player alone, not kept
        return _render_view(event, lang, color, show_score, width, hand)
    key = (lang, color, show_score, width)
    lines = _VIEW_LINES.one(event, key)
    if lines is _memo.MISSING:
        lines = _VIEW_LINES.put_one(event, _render_view(event, lang, color, show_score, width,
                                                       hand), key)
    return lines


#: the last game event given the names of a screen's form: (event, language and width) -> the
#: event as that screen names its players (the event itself, or its copy), shared by the
#: connections of one form
_RENAMED: _memo.LastMemo[Event] = _memo.LastMemo()


def _in_form(event: Event, lang: str, width: int) -> Event:
    """``event`` with its ``names`` in the form the screen shows them (``screen_names``): a
    copy where the form differs, shared by the connections of one form; else ``event``."""
    renamed = _RENAMED.one(event, (lang, width))
    if renamed is not _memo.MISSING:
        return renamed
    names = event.data.get("names")
    renamed = event
    if names:
        shown = screen_names(names, lang, width)
        if shown is not names and shown != names:
            renamed = Event(event.type, {**event.data, "names": shown})
    return _RENAMED.put_one(event, renamed, (lang, width))


#: the last one-line summary of moves (`TableFeed._one_line`): the names, cards left, move events
#: and their lines it was made of, the language, whose turn and (with a wish) the reader
_ONE_LINE: _memo.LastMemo[str] = _memo.LastMemo()


class TableFeed:
    """The table events of one connection, rendered with less noise than event by event:

    - the score line of a view (`Round N | A+C 120 : 80 B+D`) only when it changed since the
      last view this connection saw (new round, new score, another table);
    - a waiting table's view in full once, then only its seats line when the seats change;
    - during the Grand Tichu decisions and the exchange, after the first view of the phase,
      only the line saying who is still awaited (or your prompt), and your hand when it changed;
    - no view right after the end of the game was told (it would repeat the outcome);
    - a spectator gets a play, a pass or a wish and the turn that follows as ONE line
      (`bob passes; cat's turn.`, `bob plays R7 R7 (5 left); cat's turn.`) instead of the
      event line and a whole view; when a trick ends, a round ends or anything else happens,
      the whole (compact) view follows as usual.

    - in the play (and wish, Dragon) phase, a view shows only the lines that changed since the
      last view this connection saw of the same table: the seats line (cards left, whose turn),
      the trick, the hand, the prompt, each only when it reads differently now (the hand after
      the player's own play, the trick after a play, not after a pass). `/look` (or entering
      the table again) shows the whole view. Your turn's prompt always comes with the trick
      and your hand, whatever was shown before (they may have scrolled away);
    - the bomb hint (`You may bomb: ...`) once per trick, and not while your side holds it;
    - the lines about the reader's own moves and calls say "you" (`render_for`);
    - a spectator gets the Grand Tichu decisions of a deal as one line (`No Grand Tichu from
      ann, bob and cat.`) when the phase ends; a call has its own line at once;
    - a finished table's view once: not again when someone leaves it or sits down.
    """

    def __init__(self, name: str | None = None) -> None:
        #: the connection's user: the lines about them say "you"
        self._name = name
        #: the same as the event being rendered names them (the screen's form: _in_form)
        self._me = name
        self._moves: list[tuple[Event, list[str]]] = []
        self._score: tuple[Any, ...] | None = None
        self._waiting: tuple[Any, ...] | None = None
        self._phase: tuple[Any, ...] | None = None
        self._hand: str | None = None
        #: the last hand line rendered (`_seat_hand`) and what it was rendered from
        self._hand_key: tuple[Any, ...] | None = None
        self._hand_shown: str | None = None
        self._prompt: str | None = None      # the last prompt line of the Grand Tichu / exchange
        self._dealt: str | None = None       # the cards the last deal line showed (sorted)
        self._match_over: Any = None
        #: whether the last view waited for this connection's player; and whether it began to
        #: (`ring`: the terminal bell of /set bell on)
        self._due: tuple[Any, ...] | None = None
        self._ring = False
        #: whether the view being rendered waits for this connection's player (`awaits_you`)
        self._awaits = False
        #: (table, round) and the lines of the last view shown in the play phase
        self._shown: tuple[Any, frozenset[str]] | None = None
        #: whether the last view was a spectator's (no seat), and the names of the Grand
        #: Tichu decisions (declined) a spectator has not been told yet
        self._watching = False
        self._grand_no: list[Any] = []                    # their seats
        #: a spectator's table whose exchange is under way (its gives not told one by one)
        self._exchanged: Any = None
        self._grand_names: list[Any] = []
        self._grand_lang = "en"
        #: (table, round, the trick's first cards) of the last bomb hint given
        self._bomb_hint: tuple[Any, ...] | None = None
        #: the finished table whose view was shown (or whose end was told)
        self._finished: Any = None
        #: a connection's own memos of a table's names (one frozen list while the seats do not
        #: change: lobby/tables/views.py `names`), kept while memos are on: the names last found
        #: in this screen's form as they are (`_in_form` gave the event itself) with the
        #: language and width, and the seats of this connection's user in the names last read
        self._form_names: Any = None
        self._form_lang: str | None = None
        self._form_width: int | None = None
        self._seat_names: Any = None
        self._seat_me: Any = None
        self._my_seats: tuple[int, ...] = ()

    def forget(self) -> None:
        """The next view is shown whole (`/look`, coming back to the table's room), the
        pending prompt of the Grand Tichu decision or the exchange with it."""
        self._shown = None
        self._score = None
        self._finished = None
        self._phase = None
        self._prompt = None
        self._hand = None
        self._waiting = None

    def render(self, event: Event, lang: str = "en", color: bool = False,
               width: int = DEFAULT_WIDTH) -> list[str] | None:
        """The lines for `event` now (possibly none: a move waits for the view after it), or
        None for an event that is not a table event (after any pending lines were flushed:
        `flush()`). A view's seats line fits `width` columns (the session wraps the rest)."""
        self._me = self._name
        kind = event.type
        if kind == "table-view":
            return self._view(event, lang, color, width)
        if kind[:5] == "game-":
            names = event.data.get("names")
            if names is not self._form_names or lang != self._form_lang \
                    or width != self._form_width:
                original, event = event, _in_form(event, lang, width)   # the names as shown
                if event is original:
                    if names and _memo.ON:      # (these names are shown as they are)
                        self._form_names, self._form_lang, self._form_width = names, lang, width
                else:
                    names = event.data["names"]
                    if self._name in original.data["names"]:
                        # this connection's user as the event now names them
                        self._me = names[original.data["names"].index(self._name)]
            if kind in _MOVES:
                moved = self._mine(event, lang, color, names) or _event_lines(event, lang, color) \
                    or []
                self._moves.append((event, moved))
                return []
            if self._exchanged is not None and kind == "game-play-phase":
                self._exchange_done(event, event.data.get("table"), lang)  # (the lead after it)
            if kind == "game-exchange-given" and self._watching:
                self._exchanged = event.data.get("table")  # a spectator: one line when complete
                return self.flush()
            if kind == "game-grand" and self._watching and not event.data.get("call"):
                self._grand_no.append(event.data.get("seat"))        # told when the phase ends
                self._grand_names = event.data.get("names") or []
                return []
        lines = self._about_you(event, lang)
        if kind == "table-remove-proposed" and self._watching:
            # a spectator has no vote: the proposal without "/accept or /refuse"
            lines = [text("table-remove-proposed-watching", lang, **event.data)]
        if lines is None:
            lines = (self._look(event, lang, color, width) if kind == "table-look"
                     else _options(event, lang, color, width) if kind == "table-options"
                     else _info(event, lang, color, width) if kind == "table-info"
                     else _event_lines(event, lang, color))
        if lines is None:
            return None
        if kind == "game-grand":
            return self.flush(grand=False) + lines
        if kind == "game-match-over":
            self._match_over = event.data.get("table")
        elif kind in ("game-deal", "game-deal-all"):
            self._dealt = _sorted_text(event.data.get("cards", ""))
        elif kind == "table-look":
            lines = lines + self._play_again(event.data, lang)
        return self.flush() + lines

    def _about_you(self, event: Event, lang: str) -> list[str] | None:
        """The lines of an event about whose move it is, when that is this connection's user:
        "You may go on now." rather than "ann may go on now."; None for any other event."""
        me = self._me
        if me is None:
            return None
        d = event.data
        if event.type == "table-window-closed" and d.get("name") == me:
            return [text("table-window-closed-you", lang)]
        if event.type == "game-play-phase" and _name(d.get("names") or [], d.get("turn"),
                                                     lang) == me:
            return [text("game-play-phase-you", lang)]
        return render_for(event, lang, False, me) if event.type in _ABOUT_YOU else None

    def _mine(self, event: Event, lang: str, color: bool, names: Any = _UNREAD) -> list[str] | None:
        """A move's line said to its own player ("You pass."), or None (``names``: the event's,
        when the caller has read them)."""
        me = self._me
        if me is None:
            return None
        d = event.data
        if names is _UNREAD:
            names = d.get("names")
        if names is not self._seat_names or me != self._seat_me or not _memo.ON:
            # the seats ``me`` has in these names (`_is_seat_of`), found once per names object
            self._seat_names, self._seat_me = names, me
            self._my_seats = tuple(s for s, n in enumerate(names or ()) if n == me)
        # (a move is about its seat: render_for answers None unless the seat is ``me``)
        seat = d.get("seat")
        if not (isinstance(seat, int) and seat in self._my_seats):
            return None
        return render_for(event, lang, color, me)

    def _play_again(self, d: dict[str, Any], lang: str) -> list[str]:
        """After the end of the game, the host is told how to play again."""
        if d.get("state") == "finished" and self._name is not None \
                and d.get("host") == self._name:
            return [text("view-play-again", lang)]
        return []

    def flush(self, grand: bool = True) -> list[str]:
        """The lines of moves still waiting for their view (with ``grand``, and a spectator's
        Grand Tichu decisions not told yet, first)."""
        out = [line for _, lines in self._moves for line in lines]
        self._moves = []
        if grand and self._grand_no:
            lang = self._grand_lang
            seats = sorted(s for s in set(self._grand_no) if isinstance(s, int))
            if len(seats) == 4:
                out.insert(0, text("game-grand-no-nobody", lang))
            else:                                   # in seat order
                out.insert(0, text("game-grand-no-all", lang, names=_joined(
                    [_name(self._grand_names, s, lang) for s in seats], "names-and", lang)))
            self._grand_no = []
        return out

    def ring(self) -> bool:
        """Whether the view just rendered is the first one that waits for this connection's
        player (their turn, or their Grand Tichu, exchange, wish or Dragon decision); once."""
        ring, self._ring = self._ring, False
        return ring

    def _exchange_done(self, event: Event, table: Any, lang: str) -> None:
        """A spectator's exchange (its gives and waits condensed) ends (``event``): one line says
        so, first of what is shown next (not when the table is another one now)."""
        if table == self._exchanged:
            self._moves.insert(0, (event, [text("game-exchange-done", lang)]))
        self._exchanged = None

    def _view(self, event: Event, lang: str, color: bool, width: int) -> list[str]:
        d = event.data
        get = d.get                     # (each field read once: this runs per reader and view)
        game = get("game")
        table, state, round_no = get("table"), get("state"), get("round_no")
        phase_now = game.get("phase") if game else None
        if self._moves and game:
            self._moves = [self._phoenix_read(ev, lines, game, lang, color)
                           for ev, lines in self._moves]
        self._watching = get("seat") is None
        self._grand_lang = lang
        if self._exchanged is not None and phase_now != "exchange":
            self._exchange_done(event, table if game else None, lang)
        # the wait: for which table, round and phase (a new decision right after another, the
        # exchange after one's Grand Tichu decision, rings again)
        self._awaits = awaits_you(d)       # (asked once per view: _first_view reads it)
        due = (table, round_no, phase_now) if self._awaits else None
        self._ring, self._due = due is not None and due != self._due, due
        if state == "waiting":
            # a waiting table: the whole view once, then only the seats when they change
            seen = (table, tuple(get("seats") or ()))
            last, self._waiting = self._waiting, seen
            lines = _view_lines(event, lang, color, width=width)
            if last is None or last[0] != seen[0]:
                return self.flush() + self._waiting_for_reader(d, lines, lang)
            return self.flush() + ([lines[1]] if last != seen else [])
        self._waiting = None
        if state == "finished":
            if self._finished == table:
                return self.flush()            # shown already: not again when someone leaves
            self._finished = table
            if self._match_over == table:
                self._match_over = None        # the end was just told: no view repeating it
                return self.flush() + self._play_again(d, lang)
        else:
            self._finished = None
        phase = (table, round_no, phase_now)
        if game is not None and phase_now in ("grand", "exchange") and self._phase == phase:
            # during the Grand Tichu decisions and the exchange, after the first view: who is
            # still awaited (your prompt), and your hand when it changed
            if self._watching:
                # a spectator: one line when the phase ends (the Grand Tichu decisions not
                # called; the exchange complete), not who is still awaited after each decision
                return self.flush(grand=False)
            hand = self._seat_hand(d, game, lang, color)
            lines = _view_lines(event, lang, color, False, width, hand)
            out = [hand] if hand is not None and hand != self._hand else []
            self._hand = hand
            # the prompt (or who is still awaited) only when it changed: not the same Grand
            # Tichu question again after each of the others' decisions
            prompt = [l for l in lines[-1:] if l != hand and l != self._prompt]
            if lines[-1:] and lines[-1] != hand:
                self._prompt = lines[-1]
            return self.flush() + out + prompt
        self._phase = phase
        self._hand = self._seat_hand(d, game, lang, color) if game is not None else None
        lines = self._first_view(event, lang, color, width, game, state, phase_now)
        self._prompt = lines[-1] if lines and phase_now in ("grand", "exchange") else None
        return lines

    def _phoenix_read(self, event: Event, lines: list[str], game: dict[str, Any], lang: str,
                      color: bool) -> tuple[Event, list[str]]:
        """A play with the Phoenix in it, told as the trick shows it (``R5 G5 Ph=5``, not
        ``R5 G5 Ph``): the play event names the cards only, its reading is in the view that
        follows it (the trick's entry of these cards), so text mode needs no new field."""
        if event.type != "game-play":
            return event, lines
        cards = str(event.data.get("cards") or "")
        tokens = cards.split() if "Ph" in cards else []
        if "Ph" not in tokens or len(tokens) < 2:
            return event, lines
        played = sorted(tokens)
        for entry in reversed(game.get("trick") or ()):
            shown = str(entry.get("cards") or "")
            if entry.get("seat") == event.data.get("seat") and "Ph=" in shown and sorted(
                    t.partition("=")[0] for t in shown.split()) == played:
                read = Event(event.type, {**event.data, "cards": shown})
                return event, (self._mine(read, lang, color) or _event_lines(read, lang, color)
                               or lines)
        return event, lines

    def _seat_hand(self, d: dict[str, Any], game: dict[str, Any], lang: str,
                   color: bool) -> str | None:
        """The hand line of a seated player's view (None: no hand): rendered again only when
        the cards, the language, the colour or the catalog's template are not those of the
        last one (a connection's own memo: it holds only its own hand)."""
        cards = game.get("hand")
        if d.get("seat") is None or not cards:
            return None
        key = (cards, lang, color, _template("view-hand", lang))
        if key != self._hand_key or not _memo.ON:
            self._hand_key, self._hand_shown = key, _hand_line(cards, lang, color)
        return self._hand_shown

    def _first_view(self, event: Event, lang: str, color: bool, width: int,
                    game: dict[str, Any] | None, state: Any, phase: Any) -> list[str]:
        """The view's lines after its first one of the phase (`_view` read ``game``, ``state``
        and ``phase`` of it)."""
        d = event.data
        get = d.get                     # (bound once: see _table_lines)
        dealt, self._dealt = self._dealt, None
        # (the scores and seats compared as they are: the views share the objects while they
        # do not change, and a frozen list equals the list it was made from)
        key = (get("table"), state, get("round_no"), get("scores") or (), get("seats") or ())
        show_score = key != self._score
        self._score = key
        playing = state == "playing"
        # a spectator's whole picture (coming to the table, a new round) says so at its head
        head = [text("view-watching", lang, table=get("table"))] if (
            show_score and game is not None and playing and self._watches(d)) else []
        if (game is not None and playing and not self._awaits and self._moves
                and phase == "play" and not game.get("trick_won")
                and not get("bombwindow_left") and game.get("turn") is not None):
            # a move and the next turn, not yours: one line (and the bomb hint when due)
            if show_score:
                return self.flush() + head + _view_lines(event, lang, color, show_score, width)
            hint = [_bomb_line(game, lang)] if get("seat") is not None and \
                game.get("bombs") else []
            return [self._one_line(self._moves, d, game, lang, width),
                    *self._bomb_once(d, game, hint, lang)]
        lines = _view_lines(event, lang, color, show_score, width, self._hand)
        if dealt and game is not None and _sorted_text(game.get("hand") or "") == dealt:
            # the deal's line just showed these very cards: not "Your hand" again
            lines = [l for l in lines if l != self._hand]
        if game is not None and playing and phase in ("play", "wish", "dragon"):
            lines = self._bomb_once(d, game, lines, lang)
            # the play: only the lines that read differently from the last view shown; your
            # turn's prompt with the trick and your hand always
            where = (get("table"), get("round_no"), get("seat"))
            last, self._shown = self._shown, (where, frozenset(lines))
            if last is not None and last[0] == where:
                keep: set[str] = set()
                if self._awaits:
                    # the hand and the prompt (after the table's lines), the players line
                    # (the lead after a trick won by a player who is out, or after the Dragon
                    # gift, leaves it as it was: issue 26 #14), and the trick
                    table = _table_lines(d, game, screen_names(get("seats") or [None] * 4,
                                                               lang, width), lang, color,
                                         show_score, width)
                    keep = set(lines[len(table):])
                    keep.add(table[0])
                    if game.get("phase") == "play" and not game.get("trick_won"):
                        keep.add(table[-1])
                lines = [line for line in lines if line not in last[1] or line in keep]
        else:
            self._shown = None
        return self.flush() + head + lines

    def _waiting_for_reader(self, d: dict[str, Any], lines: list[str],
                            lang: str) -> list[str]:
        """A waiting table's view for this reader: one who does not sit there reads that they
        watch (not ``Table 1: waiting.``), and the hint how to fill and start the table names
        only what the reader may do: /addbot and /start are the host's (issue 24), so anybody
        but the host reads that the host starts the game (issue 26, telnet review #12)."""
        host = d.get("host")
        out = list(lines)
        if self._watches(d):
            out[0] = text("view-watching", lang, table=d.get("table"))
        if host is not None and host != self._name and len(out) > 2:
            key = ("view-waiting-full-guest" if out[2] == text("view-waiting-full", lang)
                   else "view-waiting-guest")
            out[2] = text(key, lang, host=host)
        return out

    def _watches(self, d: dict[str, Any]) -> bool:
        """Whether this connection's user watches the table of view ``d``: sits in no seat (and,
        at a waiting table, is not its host, who fills it)."""
        return self._name is not None and d.get("seat") is None \
            and self._name not in (d.get("seats") or ()) \
            and not (d.get("state") == "waiting" and d.get("host") == self._name)

    def _look(self, event: Event, lang: str, color: bool, width: int) -> list[str]:
        """``/look`` for this reader: a waiting table as ``_waiting_for_reader`` shows it, a
        game watched under the header that says so."""
        d = event.data
        lines = _look(event, lang, color, width)
        if d.get("game") is None or d.get("state") == "waiting":
            return self._waiting_for_reader(d, lines, lang)
        if self._watches(d):
            lines = [text("view-watching", lang, table=d.get("table")), *lines[1:]]
        return lines

    def _bomb_once(self, d: dict[str, Any], game: dict[str, Any], lines: list[str],
                   lang: str) -> list[str]:
        """``lines`` without the bomb hint where it is not due: given once per trick, and not
        while the reader's side holds the trick (nor on an empty one)."""
        me = d.get("seat")
        if me is None or not game.get("bombs"):
            return lines
        game_get = game.get             # (bound once: see _table_lines)
        trick = game_get("trick") or []
        holder = game_get("holder")
        trick_key = (d.get("table"), d.get("round_no"), trick[0].get("cards") if trick else None)
        due = bool(trick) and not game_get("trick_won") and trick_key != self._bomb_hint \
            and holder not in (me, (me + 2) % 4)
        hint = _bomb_line(game, lang)
        if due:
            self._bomb_hint = trick_key
            return lines
        return [line for line in lines if line != hint]

    def _one_line(self, moves: list[tuple[Event, list[str]]], d: dict[str, Any],
                  game: dict[str, Any], lang: str, width: int) -> str:
        names = screen_names(d.get("seats") or [None] * 4, lang, width)
        left = game.get("cards_left") or [0] * 4
        # the same moves told with the same lines (the other readers of the change, but the
        # mover, whose own lines say "you") make the same line: made once
        objs: tuple[Any, ...] = (names, left)
        wished = False
        for ev, lines in moves:
            objs += (ev, lines)
            wished = wished or ev.type == "game-wish"
        key = (lang, game.get("turn"), self._name if wished else None)
        line = _ONE_LINE.get(objs, key)
        if line is _memo.MISSING:
            line = _ONE_LINE.put(objs, self._moves_line(moves, names, left, game, lang), key)
        self._moves = []
        return line

    def _moves_line(self, moves: list[tuple[Event, list[str]]], names: list[Any], left: Any,
                    game: dict[str, Any], lang: str) -> str:
        parts: list[str] = []
        last: Event | None = None
        for ev, lines in moves:
            if ev.type == "game-wish" and ev.data.get("rank") and last is not None \
                    and last.type == "game-play" and last.data.get("seat") == ev.data.get("seat"):
                # the Mah Jong and its wish: one clause ("Cat plays Ma (1 left) and wishes
                # for an Ace"), not the subject again after a semicolon
                mine = _name(names, ev.data.get("seat"), lang) == self._name
                parts[-1] = text("view-and-wish-you" if mine else "view-and-wish", lang,
                                 play=parts[-1], rank=ev.data.get("rank"))
                last = ev
                continue
            line = " ".join(lines).rstrip(".")
            if ev.type == "game-play" and isinstance(ev.data.get("seat"), int):
                seat = ev.data["seat"]
                count = text("view-cards-left", lang, count=left[seat])
                if line.endswith("!"):     # a bomb's "!" (and Spanish "¡"): not in mid-line
                    line = line[:-1].rstrip().removeprefix("¡")
                line += " " + count
            parts.append(line)
            last = ev
        return text("view-moves", lang, moves=text("view-moves-sep", lang).join(parts),
                    turn=text("view-turn-next", lang, name=_name(names, game.get("turn"), lang)))
