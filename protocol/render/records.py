"""The records for people: the text of ``/history``, ``/replay``, ``/rangliste`` and the
statistics of ``/finger``, made from the data objects of lobby/storage/records.py (as the events
``history``, ``replay``, ``ranking`` and ``finger`` carry them: docs/protocol.md) and the
message catalog.

A replay's game events are rendered by the very formatters of the table view
(protocol/render/table.py ``TABLE_FORMATTERS``): a replay reads like the game did to a
spectator. Its layout: the header, each round's heading and the game's end start at the left
margin; everything inside a round (the hands, the exchange, every event) is indented by
``INDENT``, and the further lines of one event (the round's summary) keep their own indent
after it.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lobby.events import Event
from lobby.text.messages import text
from lobby.tichu import memo as _memo
from protocol.render.table import TABLE_FORMATTERS

__all__ = ["INDENT", "RECORD_FORMATTERS", "history_lines", "ranking_lines", "replay_lines",
           "stats_lines"]

#: the indent of a replay's lines inside a round
INDENT = "  "

#: game events a replay does not show: the replay's own lines say them (the round's heading,
#: the exchange with its cards), or they are noise in a record (who declined Grand Tichu)
_SKIPPED = frozenset({"game-round-start", "game-exchange-phase"})
#: game events that belong to the whole game, not to a round: not indented
_GAME_LEVEL = frozenset({"game-match-over"})


def _date(ts: float | None) -> str:
    if ts is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(ts))


def _team(names: Sequence[str], team: int) -> str:
    return f"{names[team]}+{names[team + 2]}"          # as every other line writes a team


def _or_dash(value: Any) -> Any:
    return "-" if value is None else value


def history_lines(name: str, games: Sequence[Mapping[str, Any]], lang: str = "en") -> list[str]:
    """The lines of ``/history NAME`` from its games (``GameSummary.to_json()``)."""
    if not games:
        return [text("history-none", lang, name=name)]
    lines = [text("history-header", lang, name=name)]
    for g in games:
        won = g["won"]
        outcome = ("history-shared" if g["shared"] and not won else
                   "history-won" if won else "history-lost")
        players = g["players"]
        lines.append(text(
            "history-line", lang, game=g["game"], date=_date(g["ended_at"]),
            table=_or_dash(g["table"]), team0=_team(players, 0), team1=_team(players, 1),
            score0=g["scores"][0], score1=g["scores"][1], rounds=g["rounds"],
            outcome=text(outcome, lang),
            unrated=("" if g["rated"] else text("history-unrated", lang)) + _left(g, lang)))
    return lines


def _left(game: Mapping[str, Any], lang: str) -> str:
    """`` (abandoned), left: Dan``: a game whose table was closed before its end, and who left
    it (each lost it)."""
    out = text("history-abandoned", lang) if game.get("result") == "abandoned" else ""
    if game.get("left"):
        out += text("history-left", lang, names=", ".join(game["left"]))
    return out


def ranking_lines(rows: Sequence[Mapping[str, Any]], lang: str = "en") -> list[str]:
    """The lines of ``/rangliste`` from its rows (``RankingRow.to_json()``)."""
    if not rows:
        return [text("ranking-none", lang)]
    return [text("ranking-header", lang)] + [
        text("ranking-line", lang, place=r["place"], name=r["name"], rating=round(r["rating"]),
             games=r["games"])
        + (text("ranking-left", lang, left=r["games_left"]) if r.get("games_left") else "")
        for r in rows]


def stats_lines(stats: Mapping[str, Any] | None, lang: str = "en") -> list[str]:
    """The statistics lines ``/finger`` adds below its own for a registered player
    (``PlayerStats.to_json()``; None: no saved game)."""
    if stats is None or (stats["games"] == 0 and stats["rating"] is None):
        return [text("finger-no-games", lang)]
    lines = [text("finger-stats", lang, games=stats["games"], wins=stats["wins"],
                  rated_games=stats["rated_games"], rated_wins=stats["rated_wins"],
                  rounds=stats["rounds"]),
             text("finger-calls", lang, tichu_calls=stats["tichu_calls"],
                  tichu_made=stats["tichu_made"], grand_calls=stats["grand_calls"],
                  grand_made=stats["grand_made"], double_victories=stats["double_victories"],
                  first_out=stats["first_out"])]
    if stats["games"]:                     # the leaver's count: games left / games started
        lines.append(text("finger-left", lang, left=stats.get("games_left", 0),
                          games=stats["games"]))
    if stats["rating"] is not None:
        lines.append(text("finger-rating", lang, rating=round(stats["rating"]),
                          rated_games=stats["rated_games"],
                          peak=round(stats["peak"] or stats["rating"])))
    return lines


def _shown(event: Mapping[str, Any]) -> bool:
    if event["type"] in _SKIPPED:
        return False
    return not (event["type"] == "game-grand" and not event.get("call"))


def _event_lines(event: Mapping[str, Any], seats: Sequence[str], lang: str) -> list[str]:
    data = {k: v for k, v in event.items() if k != "type"}
    if event["type"] == "game-exchange-given" and data.get("given"):
        seat = data["seat"]
        gifts = ", ".join(text("replay-gift", lang, card=card, name=seats[(seat + i + 1) & 3])
                          for i, card in enumerate(data["given"].split()))
        return [text("replay-exchange", lang, name=seats[seat], gifts=gifts)]
    fmt = TABLE_FORMATTERS.get(event["type"])
    ev = Event(event["type"], data)
    if fmt is None:
        return [text(ev.type, lang, **data)]
    return fmt(ev, lang, False)


def replay_lines(replay: Mapping[str, Any], lang: str = "en") -> list[str]:
    """``/replay GAME [ROUND]``: the game (or one round) as readable lines, from its replay
    (``GameReplay.to_json()``)."""
    names = [p["name"] for p in replay["players"]]
    lines = [text("replay-header", lang, game=_or_dash(replay["game"]),
                  table=_or_dash(replay["table"]), date=_date(replay["ended_at"]),
                  team0=_team(names, 0), team1=_team(names, 1), rounds=replay["total_rounds"])]
    for rnd in replay["rounds"]:
        seats = rnd["seats"]
        # a seat's number and its name joined by a no-break space: never parted by the wrap
        seating = ", ".join(f"{s + 1}\u00a0{name}" for s, name in enumerate(seats))
        lines.append(text("replay-round", lang, round=rnd["round"], seating=seating))
        for seat, cards in enumerate(rnd["hands"]):
            lines.append(INDENT + text("replay-hand", lang, name=seats[seat], cards=cards))
        for event in rnd["events"]:
            if not _shown(event):
                continue
            indent = "" if event["type"] in _GAME_LEVEL else INDENT
            lines.extend(indent + line for line in _event_lines(event, seats, lang))
    return lines


def _history(event: Event, lang: str) -> list[str]:
    return history_lines(event.data["name"], event.data["games"], lang)


#: a stored game's replay text per (game, rounds, language): it cannot change (bounded; the
#: oldest goes first). The wrapping to a width follows in the session, as for every line.
REPLAY_TEXT_CACHE = 64
_REPLAY_TEXT: _memo.BoundedMemo[list[str]] = _memo.BoundedMemo(REPLAY_TEXT_CACHE, oldest=True)


def _replay(event: Event, lang: str) -> list[str]:
    data = event.data
    game = data.get("game")
    if game is None:
        return replay_lines(data, lang)
    # (the end time and the players too: two databases of one process have a game 1 each)
    key = (game, data.get("ended_at"), tuple(p["name"] for p in data["players"]),
           tuple(r["round"] for r in data["rounds"]), lang)
    lines = _REPLAY_TEXT.get(key)
    if lines is _memo.MISSING:
        lines = _REPLAY_TEXT.put(key, replay_lines(data, lang))
    return list(lines)


def _tchlog(event: Event, lang: str) -> list[str]:
    """The .tch file's lines and nothing else: byte for byte /games/GAME.tch (no header, which
    the tools that read BSW logs would take for a broken file)."""
    return list(event.data["lines"])


def _ranking(event: Event, lang: str) -> list[str]:
    return ranking_lines(event.data["players"], lang)


#: the formatters of the records' events (protocol/render/text.py uses them)
RECORD_FORMATTERS: dict[str, Callable[[Event, str], list[str]]] = {
    "history": _history,
    "replay": _replay,
    "tchlog": _tchlog,
    "ranking": _ranking,
}
