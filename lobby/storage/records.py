"""Game records: every finished game stored, statistics and ratings updated from it, and the
queries behind ``/history``, ``/replay``, ``/rangliste`` and the statistics of ``/finger``.

This module stores and returns data, and renders nothing: a ``GameSummary`` (one game of
``/history``), a ``RankingRow`` (``/rangliste``), ``PlayerStats`` (``/finger``) and a
``GameReplay`` (``/replay``: the stored game replayed into the table events a spectator got).
Each has ``to_json()``, the JSON-safe data of the machine-mode objects (docs/protocol.md); the
text for people is made from the same data by protocol/render/records.py.

Two steps, so the reactor thread does no real work:

1. When a game ends, the table calls ``finished_game(match, players, ...)``: a cheap snapshot
   (``FinishedGame``: ``match.record()``, the result, who played) taken on the reactor thread.
2. ``GameArchive(store).save(game)`` -- or ``Journal.finish_table(table_no, game)``, which also
   closes the table's journal in the same transaction -- runs ``insert_game`` on the store's
   worker thread: it replays the record once (round results, the BSW log), then inserts the game,
   its players, the statistics of registered players and, for a rated game, the new ratings, all
   in one transaction.

What counts (docs/rating.md):

- A game is *rated* when it was not started with ``/startnosave``, its deals were not fixed
  with ``/option seed`` (anyone who knows the seed can compute every hand) and all four players
  are registered humans. Games with a bot or a guest are unrated; so is every ``/startnosave`` game.
- Ratings (lobby/storage/rating.py, Team Elo) change only in rated games.
- Statistics (games, wins, rounds, Tichu and Grand Tichu calls and successes, double victories,
  first out) count every saved game of a registered player, rated or not, so a player who mostly
  plays with bots still sees their figures; ``rated_games`` / ``rated_wins`` count the rated ones
  apart (BSW's own statistics counted rated games only: those two columns are that figure).
  ``/startnosave`` games are stored (``/replay`` shows them) but count nowhere.
- A win: the player's team won (``Match.result["winners"]``); in ``turnier`` every player with
  the best standing wins (a shared first place is a win for each); a drawn partnership game
  (equal totals after the last round) is a win for nobody.
"""
from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from twisted.internet.defer import Deferred, succeed

from lobby.events import game_event
from lobby.storage.accounts import name_key
from lobby.storage.bswlog import bsw_log
from lobby.storage.rating import INITIAL, rate_game
from lobby.text.messages import LobbyError
from lobby.tichu import Exchange, Match, MatchOptions, action_from_json, format_cards, parse_cards, sort_cards

__all__ = ["KINDS", "Participant", "FinishedGame", "GameRecord", "GameSummary", "PlayerStats",
           "RankingRow", "ReplayRound", "GameReplay", "GameArchive", "finished_game", "analyse",
           "insert_game", "replay_game"]

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from lobby.storage.store import Store

KINDS = ("registered", "guest", "bot")
#: entries of each of the archive's caches (the oldest goes first)
ARCHIVE_CACHE_SIZE = 256


@dataclass(frozen=True, slots=True)
class Participant:
    """One of the four players: their name and whether they are a registered human, a guest or
    a bot."""

    name: str
    kind: str = "registered"
    #: the round a player who left the game left it in (the seat stays theirs in the record;
    #: docs/rating.md "Leaving a game"), else None
    left_round: int | None = None
    #: the bot that took over the seat of a player who left (None: nobody took it over)
    replaced_by: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a player is one of {KINDS}, not {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.left_round is not None:              # (only for a leaver: the old shape else)
            out["left_round"] = self.left_round
            out["replaced_by"] = self.replaced_by
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Participant:
        left = d.get("left_round")
        bot = d.get("replaced_by")
        return cls(str(d["name"]), str(d.get("kind", "registered")),
                   int(left) if isinstance(left, int) else None,
                   str(bot) if isinstance(bot, str) else None)


@dataclass(frozen=True)
class FinishedGame:
    """The snapshot of a finished game the table hands over (JSON-safe fields only)."""

    record: dict[str, Any]                # Match.record()
    players: tuple[Participant, ...]      # by player index (= seat at the start)
    result: dict[str, Any]                # Match.result
    options: dict[str, Any]               # the table options (TableOptions.as_dict())
    table_no: int | None = None
    started_at: float | None = None
    ended_at: float = 0.0
    nosave: bool = False                  # /startnosave
    log: bool = True                      # /option log: also keep the BSW .tch text
    seeded: bool = False                  # /option seed: anyone could compute the deals
    #: N: `record` has no actions yet, they are the table's journal entries 1..N, which the
    #: journal's finishing transaction puts in (lobby/storage/journal.py: each action is encoded once,
    #: for the journal, and its text serves the record); None: `record` is complete
    journal_actions: int | None = None
    #: True: whether the game is rated was decided at /start (``start_unrated``, kept in the
    #: record from then on); False: decided from ``players`` (a journal of an older version)
    decided: bool = False
    start_unrated: str | None = None

    @property
    def abandoned(self) -> bool:
        """The table was closed before the game's end (``result["abandoned"]``)."""
        return bool(self.result.get("abandoned"))

    @property
    def leavers(self) -> list[int]:
        """The players (indexes) who left the game (``Participant.left_round``)."""
        return [p for p, person in enumerate(self.players) if person.left_round is not None]

    @property
    def losing_leavers(self) -> list[int]:
        """The leavers who take the game's loss: the one who left first (the record's
        ``left_first``); a record without it (an older version, one leaver): every leaver.
        The others left later: a leave is counted for them, not a loss (docs/rating.md)."""
        first = self.record.get("left_first")
        leavers = self.leavers
        if isinstance(first, int) and first in leavers:
            return [first]
        return leavers

    @property
    def unrated_reason(self) -> str | None:
        """Why the game is not rated (``nosave``, ``seed``, ``bots``, ``guests``), or None. A
        game counts from its start: what was decided at /start holds, whoever left later."""
        if self.decided:
            return self.start_unrated
        if self.nosave:
            return "nosave"
        if self.seeded:
            return "seed"
        kinds = {p.kind for p in self.players}
        if "bot" in kinds:
            return "bots"
        if "guest" in kinds:
            return "guests"
        return None

    @property
    def rated(self) -> bool:
        return self.unrated_reason is None


def finished_game(match: Match, players: Sequence[Participant | tuple[str, str] | str], *,
                  options: dict[str, Any] | None = None, table_no: int | None = None,
                  started_at: float | None = None, ended_at: float | None = None,
                  nosave: bool = False, log: bool = True, seeded: bool = False,
                  from_journal: bool = False, unrated: str | bool | None = False,
                  abandoned: dict[str, Any] | None = None,
                  left_first: int | None = None) -> FinishedGame:
    """Snapshot a finished Match for ``GameArchive.save`` / ``Journal.finish_table``.

    ``players[p]`` is player p: a Participant, a ``(name, kind)`` pair, or a bare name (a
    registered player). Cheap: call it on the reactor thread when the match ends.
    ``from_journal``: the actions are not copied; ``Journal.finish_table`` takes them from the
    table's journal entries (every one of them committed). ``unrated``: what /start decided
    (None: rated, a reason: unrated; False: not decided, the players' kinds decide).
    ``abandoned``: the result of a game whose table was closed before its end (``abandoned``,
    ``left``, ``scores``, ``round_no``): what was played is stored with it. ``left_first``:
    the player who left first (their side takes the loss; the record keeps it)."""
    if abandoned is None and (not match.finished or match.result is None):
        raise ValueError("only a finished match can be recorded")
    if len(players) != 4:
        raise ValueError("a Tichu game has four players")
    people = tuple(p if isinstance(p, Participant) else
                   Participant(p) if isinstance(p, str) else Participant(p[0], p[1])
                   for p in players)
    record = match.record_head() if from_journal else match.record()
    decided = unrated is not False
    if decided:                              # the game's record says it from its start
        record = dict(record, rated=unrated is None, unrated=unrated)
    if left_first is not None and people[left_first].left_round is not None:
        record = dict(record, left_first=left_first)
    result = abandoned if abandoned is not None else match.result
    return FinishedGame(record, people, json.loads(json.dumps(result)),
                        dict(options or {}), table_no, started_at,
                        time.time() if ended_at is None else ended_at, nosave, log, seeded,
                        len(match.actions) if from_journal else None, decided,
                        unrated if isinstance(unrated, str) else None)


@dataclass
class GameRecord:
    """A stored game: the snapshot plus what a replay of it gives (round results, BSW log)."""

    game: FinishedGame
    round_results: list[dict[str, Any]]
    bswlog: str | None
    game_id: int | None = None
    ratings: list[tuple[float, float] | None] = field(default_factory=lambda: [None] * 4)

    @property
    def players(self) -> tuple[Participant, ...]:
        return self.game.players


def analyse(game: FinishedGame) -> GameRecord:
    """Replay ``game.record`` once: the per-round results and (option log) the BSW log.

    Each round result: ``round``, ``seats`` (seat of each player), ``order`` (seats, finishing
    order), ``double_victory`` (team or None), ``calls`` (per seat), ``card_points``, ``tichu``,
    ``score`` (the round's own score by team) and ``credited`` (what the match added: differs in
    turnier), ``totals`` (after the round)."""
    record = game.record
    deals = record.get("deals")
    if deals is not None:
        deals = [[parse_cards(h) if isinstance(h, str) else h for h in d] for d in deals]
    match = Match(MatchOptions.from_json(record.get("options", {})), record.get("seed"), deals)
    results: list[dict[str, Any]] = []
    for player, data in record.get("actions", []):
        rnd = match.round
        seats = [match.seat_of(p) for p in range(4)]
        match.apply(int(player), action_from_json(data))
        if (match.round is not rnd or match.finished) and rnd.result is not None:
            res = rnd.result
            results.append({
                "round": len(results) + 1, "seats": seats, "order": list(res["order"]),
                "double_victory": res["double_victory"], "calls": list(res["calls"]),
                "card_points": list(res["card_points"]), "tichu": list(res["tichu"]),
                "score": list(res["score"]), "credited": list(match.round_scores[len(results)]),
                "totals": [sum(s[t] for s in match.round_scores[:len(results) + 1])
                           for t in (0, 1)],
            })
    if not match.finished and not game.abandoned:
        raise ValueError("the record does not replay to a finished game")
    names = [p.name for p in game.players]
    log_text = bsw_log(record, names) if game.log else None
    return GameRecord(game, results, log_text)


def _partner_left(game: FinishedGame, player: int) -> bool:
    """Whether ``player`` stayed in a partnership whose player who left takes the loss."""
    if game.record.get("options", {}).get("turnier") or player in game.leavers:
        return False
    return any((q & 1) == (player & 1) for q in game.losing_leavers)


def _won(game: FinishedGame, player: int) -> bool:
    leavers = game.leavers
    if leavers:          # a leaver loses, and so (without being punished) does their partner;
        # a later leaver wins nothing either
        return not (player in leavers or _partner_left(game, player))
    if game.abandoned:
        return False
    res = game.result
    if res.get("winner") is None and not game.record.get("options", {}).get("turnier"):
        return False
    return player in res.get("winners", [])


# ---- SQL (runs on the store's worker thread) ------------------------------------------------
def insert_game(conn: sqlite3.Connection, game: FinishedGame,
                record_text: str | None = None) -> GameRecord:
    """Store ``game`` with its players, statistics and ratings. Call inside a transaction
    (``Store.run_transaction``); fires with the GameRecord (``game_id`` set). ``record_text``:
    ``json.dumps(game.record)`` when the caller has it already."""
    if game.journal_actions is not None:
        raise ValueError("the record's actions are still in the journal")
    rec = analyse(game)
    rated = game.rated
    reason = game.unrated_reason
    res = game.result
    scores = res.get("scores", [0, 0])
    cur = conn.execute(
        "INSERT INTO games (table_no, started_at, ended_at, options, seed, record, rounds, "
        "round_results, score0, score1, result, rated, unrated, bswlog) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game.table_no, game.started_at, game.ended_at, json.dumps(game.options),
         game.record.get("seed"),
         json.dumps(game.record) if record_text is None else record_text, len(rec.round_results),
         json.dumps(rec.round_results), int(scores[0]), int(scores[1]), json.dumps(res),
         int(rated), reason, rec.bswlog))
    assert cur.lastrowid is not None            # (a row was inserted)
    game_id = int(cur.lastrowid)
    rec.game_id = game_id
    keys = [name_key(p.name) for p in game.players]
    if rated and (game.leavers or not game.abandoned):
        rows = [conn.execute("SELECT rating, games, peak FROM player_ratings WHERE name_key = ?",
                             (k,)).fetchone() for k in keys]
        before = [r[0] if r else INITIAL for r in rows]
        played = [r[1] if r else 0 for r in rows]
        turnier = bool(game.record.get("options", {}).get("turnier"))
        losing = game.losing_leavers
        later = [p for p in game.leavers if p not in losing]
        updates = rate_game(before, played, res, turnier=turnier, leavers=losing,
                            absent=later)
        for k, r, u, n in zip(keys, rows, updates, played, strict=False):
            if u.games == n:         # the partner of a leaver: their rating does not move
                continue
            peak = max(u.after, r[2]) if r else u.after
            conn.execute(
                "INSERT INTO player_ratings (name_key, rating, games, peak, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (name_key) DO UPDATE SET rating = "
                "excluded.rating, games = excluded.games, peak = excluded.peak, "
                "updated_at = excluded.updated_at", (k, u.after, u.games, peak, game.ended_at))
        rec.ratings = [(u.before, u.after) for u in updates]
    for p, person in enumerate(game.players):
        won = _won(game, p)
        rb = rec.ratings[p]
        conn.execute(
            "INSERT INTO game_players (game_id, player, name, name_key, kind, won, "
            "rating_before, rating_after, left_round, replaced_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, p, person.name, keys[p], person.kind, int(won),
             rb[0] if rb else None, rb[1] if rb else None, person.left_round,
             person.replaced_by))
        if person.kind != "registered" or game.nosave:
            continue
        st = _round_stats(rec.round_results, p)
        left = int(person.left_round is not None)
        # the partner of a leaver, or a later leaver: the game is no rated game of theirs
        # (docs/rating.md)
        left_later = p in game.leavers and p not in game.losing_leavers
        counted = int(rated and not _partner_left(game, p) and rb is not None and not left_later)
        conn.execute(
            "INSERT INTO player_stats (name_key, games, wins, rated_games, rated_wins, rounds, "
            "tichu_calls, tichu_made, grand_calls, grand_made, double_victories, first_out, "
            "last_game, games_left) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (name_key) DO UPDATE SET games = games + 1, wins = wins + excluded.wins, "
            "games_left = games_left + excluded.games_left, "
            "rated_games = rated_games + excluded.rated_games, "
            "rated_wins = rated_wins + excluded.rated_wins, rounds = rounds + excluded.rounds, "
            "tichu_calls = tichu_calls + excluded.tichu_calls, "
            "tichu_made = tichu_made + excluded.tichu_made, "
            "grand_calls = grand_calls + excluded.grand_calls, "
            "grand_made = grand_made + excluded.grand_made, "
            "double_victories = double_victories + excluded.double_victories, "
            "first_out = first_out + excluded.first_out, last_game = excluded.last_game",
            (keys[p], int(won), counted, int(counted and won), st["rounds"], st["tichu_calls"],
             st["tichu_made"], st["grand_calls"], st["grand_made"], st["double_victories"],
             st["first_out"], game_id, left))
    return rec


def _round_stats(round_results: list[dict[str, Any]], player: int) -> dict[str, int]:
    st = dict.fromkeys(("rounds", "tichu_calls", "tichu_made", "grand_calls", "grand_made",
                        "double_victories", "first_out"), 0)
    for r in round_results:
        seat = r["seats"][player]
        st["rounds"] += 1
        first = r["order"][0] == seat
        call = r["calls"][seat]
        if call == "tichu":
            st["tichu_calls"] += 1
            st["tichu_made"] += first
        elif call == "grand":
            st["grand_calls"] += 1
            st["grand_made"] += first
        st["double_victories"] += r["double_victory"] == (seat & 1)
        st["first_out"] += first
    return st


# ---- queries ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSummary:
    """One line of ``/history``: a game seen from one player."""

    game_id: int
    ended_at: float
    table_no: int | None
    names: tuple[str, ...]       # by player
    scores: tuple[int, int]      # final totals, team 0 (players 0+2) first
    rounds: int
    rated: bool
    player: int                  # which of the four the asked-for player was
    won: bool
    shared: bool
    #: the table was closed before the game's end (the result ``abandoned``)
    abandoned: bool = False
    #: the names of the players who left the game (each lost it)
    left: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game_id, "ended_at": self.ended_at, "table": self.table_no,
               "players": list(self.names), "scores": list(self.scores), "rounds": self.rounds,
               "rated": self.rated, "player": self.player, "won": self.won,
               "shared": self.shared}
        if self.abandoned or self.left:          # (only then: the old shape else)
            out["result"] = "abandoned" if self.abandoned else "left"
            out["left"] = list(self.left)
        return out


@dataclass(frozen=True)
class PlayerStats:
    """The statistics ``/finger`` shows, with the rating (None before a rated game)."""

    name_key: str
    games: int
    wins: int
    rated_games: int
    rated_wins: int
    rounds: int
    tichu_calls: int
    tichu_made: int
    grand_calls: int
    grand_made: int
    double_victories: int
    first_out: int
    rating: float | None
    peak: float | None
    #: the games the player left (of ``games``, the games they started)
    games_left: int = 0

    @classmethod
    def empty(cls, name: str) -> PlayerStats:
        """The figures of a registered player without a saved game."""
        return cls(name_key(name), *(0,) * 11, None, None, 0)

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__
               if k not in ("name_key", "games_left")}
        if self.games_left:                      # (only then: the old shape else)
            out["games_left"] = self.games_left
        return out


@dataclass(frozen=True)
class RankingRow:
    """One line of ``/rangliste``."""

    place: int
    name: str
    rating: float
    games: int
    #: the games the player left (of all the games they started)
    games_left: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"place": self.place, "name": self.name, "rating": self.rating,
                               "games": self.games}
        if self.games_left:                      # (only then: the old shape else)
            out["games_left"] = self.games_left
        return out


@dataclass(frozen=True)
class ReplayRound:
    """One round of a replay: who sat where, the hands as dealt, and the round's public table
    events in order -- the very objects a spectator got (``{"type": "game-play", "seat": 0,
    "cards": "R7", ..., "table": 4, "names": [...]}``), except that an ``game-exchange-given``
    also says what was given (``given``: the three cards to the next player, the partner, the
    previous player), which the game's end makes public."""

    round: int
    seats: tuple[str, ...]                 # names by seat
    hands: tuple[str, ...]                 # by seat: the 14 cards dealt (sorted, BSW notation)
    events: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "seats": list(self.seats), "hands": list(self.hands),
                "events": [dict(e) for e in self.events]}


@dataclass(frozen=True)
class GameReplay:
    """``/replay GAME [ROUND]``: a stored game replayed from its record (all its rounds, or the
    one asked for)."""

    game_id: int | None
    table_no: int | None
    started_at: float | None
    ended_at: float
    players: tuple[Participant, ...]
    unrated: str | None                    # FinishedGame.unrated_reason
    total_rounds: int
    round_no: int | None                   # the round asked for, None for the whole game
    rounds: tuple[ReplayRound, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "round": self.round_no, "table": self.table_no,
                "started_at": self.started_at, "ended_at": self.ended_at,
                "players": [p.to_json() for p in self.players], "rated": self.unrated is None,
                "unrated": self.unrated, "total_rounds": self.total_rounds,
                "rounds": [r.to_json() for r in self.rounds]}


def replay_game(rec: GameRecord, round_no: int | None = None) -> GameReplay:
    """Replay a stored game into its rounds (all, or round ``round_no``). Raises
    ``LobbyError("no-such-round")`` for a round the game did not have."""
    game = rec.game
    names = [p.name for p in game.players]
    total = len(rec.round_results)
    if round_no is not None and not 1 <= round_no <= total:
        raise LobbyError("no-such-round", game=rec.game_id, round=round_no, rounds=total)
    record = game.record
    deals = record.get("deals")
    if deals is not None:
        deals = [[parse_cards(h) if isinstance(h, str) else h for h in d] for d in deals]
    match = Match(MatchOptions.from_json(record.get("options", {})), record.get("seed"), deals)
    built: list[tuple[int, list[str], tuple[str, ...], list[dict[str, Any]]]] = []

    def begin() -> None:
        seating = [names[match.player_at(s)] for s in range(4)]
        hands = tuple(format_cards(sort_cards(match.round.deal[s])) for s in range(4))
        built.append((match.round_no, seating, hands, []))

    def add(evs: list[Any], action: Any = None) -> None:
        for ev in evs:
            if ev.to is not None:
                continue                          # hands, gifts received: the hands say it
            if ev.kind == "round-start":          # turnier: new seats from here on
                begin()
                continue
            _, seating, _, events = built[-1]
            table_event = game_event(ev, game.table_no, seating, names)
            obj = {"type": table_event.type, **table_event.data}
            if ev.kind == "exchange-given" and isinstance(action, Exchange):
                obj["given"] = format_cards(action.cards)
            events.append(obj)

    add(match.opening_events())                  # round 1's start, as the table sends it
    for player, data in record.get("actions", []):
        action = action_from_json(data)
        add(match.apply(int(player), action), action)
    rounds = tuple(ReplayRound(n, tuple(seating), hands, tuple(events))
                   for n, seating, hands, events in built if round_no in (None, n))
    return GameReplay(rec.game_id, game.table_no, game.started_at, game.ended_at, game.players,
                      game.unrated_reason, total, round_no, rounds)


def _recent_games(conn: sqlite3.Connection, name: str, limit: int) -> list[GameSummary]:
    rows = conn.execute(
        "SELECT g.id, g.ended_at, g.table_no, g.score0, g.score1, g.rounds, g.rated, gp.player, "
        "gp.won, g.result FROM game_players gp JOIN games g ON g.id = gp.game_id "
        "WHERE gp.name_key = ? ORDER BY g.id DESC LIMIT ?", (name_key(name), limit)).fetchall()
    out = []
    for gid, ended, table_no, s0, s1, rounds, rated, player, won, result in rows:
        names = tuple(n for (n,) in conn.execute(
            "SELECT name FROM game_players WHERE game_id = ? ORDER BY player", (gid,)))
        res = json.loads(result)
        shared = bool(res.get("shared"))
        left = tuple(n for (n,) in conn.execute(
            "SELECT name FROM game_players WHERE game_id = ? AND left_round IS NOT NULL "
            "ORDER BY player", (gid,)))
        out.append(GameSummary(gid, ended, table_no, names, (s0, s1), rounds, bool(rated),
                               player, bool(won), shared, bool(res.get("abandoned")), left))
    return out


def _load_game(conn: sqlite3.Connection, game_id: int) -> GameRecord | None:
    row = conn.execute(
        "SELECT table_no, started_at, ended_at, options, record, round_results, result, "
        "unrated, bswlog FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    table_no, started, ended, options, record, rounds, result, unrated, log = row
    players = []
    ratings: list[tuple[float, float] | None] = []
    for name, kind, rb, ra, left, bot in conn.execute(
            "SELECT name, kind, rating_before, rating_after, left_round, replaced_by "
            "FROM game_players WHERE game_id = ? ORDER BY player", (game_id,)):
        players.append(Participant(name, kind, left, bot))
        ratings.append(None if rb is None else (rb, ra))
    game = FinishedGame(json.loads(record), tuple(players), json.loads(result),
                        json.loads(options), table_no, started, ended, unrated == "nosave",
                        log is not None, unrated == "seed", None, True, unrated)
    return GameRecord(game, json.loads(rounds), log, game_id, ratings)


def _player_stats(conn: sqlite3.Connection, name: str) -> PlayerStats | None:
    key = name_key(name)
    row = conn.execute(
        "SELECT games, wins, rated_games, rated_wins, rounds, tichu_calls, tichu_made, "
        "grand_calls, grand_made, double_victories, first_out, games_left FROM player_stats "
        "WHERE name_key = ?", (key,)).fetchone()
    rating = conn.execute("SELECT rating, peak FROM player_ratings WHERE name_key = ?",
                          (key,)).fetchone()
    if row is None and rating is None:
        return None
    row = row or (0,) * 12
    fields: tuple[Any, ...] = (key, *row[:11], *(rating or (None, None)), row[11])
    return PlayerStats(*fields)


def _top_players(conn: sqlite3.Connection, limit: int) -> list[RankingRow]:
    rows = conn.execute(
        "SELECT COALESCE(a.name, (SELECT gp.name FROM game_players gp WHERE gp.name_key = "
        "r.name_key ORDER BY gp.game_id DESC LIMIT 1), r.name_key), r.rating, r.games, "
        "COALESCE(s.games_left, 0) FROM player_ratings r "
        "LEFT JOIN accounts a ON a.name_key = r.name_key "
        "LEFT JOIN player_stats s ON s.name_key = r.name_key "
        "ORDER BY r.rating DESC, r.games DESC, r.name_key LIMIT ?", (limit,)).fetchall()
    return [RankingRow(i + 1, n, rating, games, left)
            for i, (n, rating, games, left) in enumerate(rows)]


class GameArchive:
    """Finished games in the store: saving, and the queries of the commands. Every method
    returns a Deferred and runs on the store's worker thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: answers that cannot change: a stored game's replay and .tch text, kept per game (and
        #: round); the others (history, statistics, ranking) until the next game is saved.
        #: Bounded: the oldest entry goes first (docs/operations.md, "Abuse budgets")
        self._final: dict[Any, Any] = {}
        self._until_next_game: dict[Any, Any] = {}
        #: counts for the operator and the tests: answers from the cache, and from the database
        self.cache_hits = 0
        self.cache_misses = 0

    def _cached(self, cache: dict[Any, Any], key: Any,
                query: Callable[[], Deferred[Any]]) -> Deferred[Any]:
        if key in cache:
            self.cache_hits += 1
            return succeed(cache[key])
        self.cache_misses += 1

        def keep(result: Any) -> Any:
            if len(cache) >= ARCHIVE_CACHE_SIZE:
                cache.pop(next(iter(cache)))
            cache[key] = result
            return result
        return query().addCallback(keep)

    def save(self, game: FinishedGame) -> Deferred[GameRecord]:
        """Store a finished game (one transaction); fires with its GameRecord (``game_id``).
        The cached history, statistics and ranking are forgotten (they change with it)."""
        return self.store.run_transaction(insert_game, game).addBoth(self.game_saved)

    def game_saved(self, result: Any = None) -> Any:
        """A game was stored (here or by the journal's finishing transaction): the cached
        answers that change with it (history, statistics, ranking) are forgotten."""
        self._until_next_game.clear()
        return result

    def recent_games(self, name: str, limit: int = 10) -> Deferred[list[GameSummary]]:
        """``/history NAME``: the player's last ``limit`` games, newest first."""
        return self._cached(self._until_next_game, ("history", name.lower(), limit),
                            lambda: self.store.run_archive(_recent_games, name, limit))

    def load(self, game_id: int) -> Deferred[GameRecord | None]:
        """``/replay GAME``: the stored game (a GameRecord) or None."""
        return self.store.run_archive(_load_game, int(game_id))

    def player_stats(self, name: str) -> Deferred[PlayerStats | None]:
        """``/finger NAME``: PlayerStats, or None for a player without saved games."""
        return self._cached(self._until_next_game, ("stats", name.lower()),
                            lambda: self.store.run_archive(_player_stats, name))

    def top_players(self, limit: int = 10) -> Deferred[list[RankingRow]]:
        """``/rangliste``: the best ``limit`` ratings (RankingRow list)."""
        return self._cached(self._until_next_game, ("ranking", limit),
                            lambda: self.store.run_archive(_top_players, limit))

    def replay(self, game_id: int, round_no: int | None = None) -> Deferred[GameReplay]:
        """``/replay GAME [ROUND]``: the game replayed (a whole replay of its record, on the
        archive's thread, once: a stored game never changes, so its replay is cached); fails
        with ``LobbyError`` ``no-such-game`` or ``no-such-round``."""
        def replay(conn: sqlite3.Connection) -> GameReplay:
            rec = _load_game(conn, int(game_id))
            if rec is None:
                raise LobbyError("no-such-game", game=game_id)
            return replay_game(rec, round_no)
        return self._cached(self._final, ("replay", int(game_id), round_no),
                            lambda: self.store.run_archive(replay))

    def tch_log(self, game_id: int) -> Deferred[str]:
        """The BSW ``.tch`` text of a stored game, for ``/tchlog GAME`` (and for a web view of
        the same file). Every stored game may be seen by everyone, as with /history and
        /replay; fails with ``LobbyError`` ``no-such-game``, or ``no-tch-log`` for a game
        played with the option log off."""
        def load(conn: sqlite3.Connection) -> str:
            row = conn.execute("SELECT bswlog FROM games WHERE id = ?", (int(game_id),)).fetchone()
            if row is None:
                raise LobbyError("no-such-game", game=game_id)
            if row[0] is None:
                raise LobbyError("no-tch-log", game=game_id)
            return str(row[0])
        return self._cached(self._final, ("tch", int(game_id)),
                            lambda: self.store.run_archive(load))

    def tch_months(self) -> Deferred[list[tuple[int, int, int]]]:
        """Each month (UTC, by the game's end) that has stored ``.tch`` logs, newest first, as
        (year, month, number of logs): the archive's front page on the web port."""
        def load(conn: sqlite3.Connection) -> list[tuple[int, int, int]]:
            rows = conn.execute(
                "SELECT strftime('%Y%m', ended_at, 'unixepoch') AS month, COUNT(*) FROM games "
                "WHERE bswlog IS NOT NULL GROUP BY month ORDER BY month DESC").fetchall()
            return [(int(m[:4]), int(m[4:]), int(n)) for m, n in rows if m]
        return self.store.run_archive(load)

    def tch_month(self, year: int, month: int) -> Deferred[list[int]]:
        """The numbers of the games with a ``.tch`` log that ended in ``year``-``month`` (UTC),
        ascending: one month's index page of the archive."""
        start = datetime(year, month, 1, tzinfo=UTC)
        end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)

        def load(conn: sqlite3.Connection) -> list[int]:
            return [int(r[0]) for r in conn.execute(
                "SELECT id FROM games WHERE bswlog IS NOT NULL AND ended_at >= ? AND ended_at < ? "
                "ORDER BY id", (start.timestamp(), end.timestamp()))]
        return self.store.run_archive(load)

    def bswlog(self, game_id: int) -> Deferred[str | None]:
        """The stored BSW ``.tch`` text of a game (None: no such game, or option log off)."""
        return self.store.run_query(lambda conn: (conn.execute(
            "SELECT bswlog FROM games WHERE id = ?", (int(game_id),)).fetchone() or (None,))[0])
