"""Game records (lobby/storage/records.py): storing a finished game, statistics, ratings, and the
queries behind /history, /replay, /rangliste and /finger, as data; their text for people
(protocol/render/records.py) from that data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_twisted
from twisted.python.threadable import isInIOThread

from conftest import fired, within
from game_support import random_game
from lobby.storage.records import GameArchive, GameRecord, Participant, analyse, finished_game, replay_game
from lobby.storage.store import Store
from lobby.text.messages import LobbyError
from lobby.tichu.match import Match
from protocol.render.records import history_lines, ranking_lines, replay_lines, stats_lines

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def replay_text(rec: GameRecord, round_no: int | None = None) -> list[str]:
    """The lines of /replay: the record replayed (lobby), then rendered (protocol)."""
    return replay_lines(replay_game(rec, round_no).to_json())


@pytest.fixture
def archive(sqlite_store: Store) -> GameArchive:
    return GameArchive(sqlite_store)


def expected_stats(match: Match, player: int) -> dict[str, int]:
    """Count the player's calls and successes from the engine's own events."""
    counts = dict.fromkeys(("rounds", "tichu_calls", "tichu_made", "grand_calls", "grand_made",
                            "double_victories"), 0)
    m = Match(match.options, seed=match.seed)
    for p, action in match.actions:
        seat = m.seat_of(player)
        for ev in m.apply(p, action):
            if ev.kind == "round-over":
                res = ev.data
                counts["rounds"] += 1
                call = res["calls"][seat]
                if call:
                    counts[call + "_calls"] += 1
                    counts[call + "_made"] += res["order"][0] == seat
                counts["double_victories"] += res["double_victory"] == seat % 2
    return counts


def test_a_finished_game_is_stored_with_everything_needed_to_replay_it(archive) -> None:
    match = random_game(31, rounds=3, tichu_rate=0.2)
    game = finished_game(match, NAMES, options={"round": "3"}, table_no=4, started_at=10.0,
                         ended_at=20.0)
    rec = fired(archive.save(game))
    assert rec.game_id == 1 and rec.game.rated
    stored = fired(archive.load(rec.game_id))
    assert stored.game.record == json.loads(json.dumps(match.record()))
    assert [p.name for p in stored.players] == NAMES
    assert (stored.game.table_no, stored.game.started_at, stored.game.ended_at) == (4, 10.0, 20.0)
    assert stored.game.options == {"round": "3"}
    assert stored.game.result == json.loads(json.dumps(match.result))
    assert [r["credited"] for r in stored.round_results] == match.round_scores
    assert stored.round_results[-1]["totals"] == match.scores
    assert Match.replay(stored.game.record).result == match.result
    assert stored.bswlog is not None and stored.bswlog.count("Ergebnis: ") == 3
    assert fired(archive.load(99)) is None


def test_statistics_follow_the_round_results(archive) -> None:
    total = {n: dict.fromkeys(("games", "wins", "rounds", "tichu_calls", "tichu_made",
                               "grand_calls", "grand_made", "double_victories"), 0)
             for n in NAMES}
    for seed in (40, 41, 42):
        match = random_game(seed, rounds=3, tichu_rate=0.3, grand_rate=0.3)
        fired(archive.save(finished_game(match, NAMES, ended_at=float(seed))))
        for p, name in enumerate(NAMES):
            for key, value in expected_stats(match, p).items():
                total[name][key] += value
            total[name]["games"] += 1
            total[name]["wins"] += p in match.result["winners"] and not match.result["shared"]
    calls = 0
    for name in NAMES:
        stats = fired(archive.player_stats(name.upper()))
        got = {k: getattr(stats, k) for k in total[name]}
        assert got == total[name]
        assert stats.rated_games == 3 and stats.rated_wins == stats.wins
        calls += stats.tichu_calls + stats.grand_calls
    assert calls > 0, "the seeds should include some calls"
    assert fired(archive.player_stats("nobody")) is None


def test_bots_guests_and_nosave_games_are_unrated(archive) -> None:
    match = random_game(50, rounds=1)
    with_bot = finished_game(match, ["Alice", "Bob", ("Bot1~heuristic", "bot"), "Dave"])
    with_guest = finished_game(match, ["Alice", ("Guest7", "guest"), "Carol", "Dave"])
    nosave = finished_game(match, NAMES, nosave=True)
    assert [g.unrated_reason for g in (with_bot, with_guest, nosave)] == ["bots", "guests",
                                                                          "nosave"]
    for g in (with_bot, with_guest, nosave):
        rec = fired(archive.save(g))
        assert rec.ratings == [None] * 4
    assert fired(archive.top_players()) == []
    # registered humans of bot/guest games still get statistics; nosave games count nowhere
    alice = fired(archive.player_stats("alice"))
    assert (alice.games, alice.rated_games, alice.rating) == (2, 0, None)
    assert alice.rounds == 2 * match.round_no
    assert fired(archive.player_stats("Bot1~heuristic")) is None
    assert fired(archive.player_stats("Guest7")) is None
    # every game is in the history, marked unrated
    hist = fired(archive.recent_games("Alice"))
    assert [g.game_id for g in hist] == [3, 2, 1] and not any(g.rated for g in hist)
    lines = history_lines("Alice", [g.to_json() for g in hist])
    assert all("(unrated)" in line for line in lines[1:])


def test_ratings_change_after_rated_games_and_rank_the_players(archive) -> None:
    for seed in (60, 61, 62, 63):
        fired(archive.save(finished_game(random_game(seed, rounds=2), NAMES)))
    rows = fired(archive.top_players(3))
    assert len(rows) == 3 and [r.place for r in rows] == [1, 2, 3]
    assert rows[0].rating >= rows[1].rating >= rows[2].rating
    assert {r.games for r in rows} == {4}
    everyone = fired(archive.top_players(10))
    assert sum(r.rating for r in everyone) == pytest.approx(4 * 1500.0)   # equal K: zero-sum
    lines = ranking_lines([r.to_json() for r in everyone])
    assert lines[0].startswith("Rangliste") and rows[0].name in lines[1]
    stats = fired(archive.player_stats(rows[0].name))
    assert round(stats.rating) == round(rows[0].rating)
    assert any("rating" in line for line in stats_lines(stats.to_json()))
    assert ranking_lines([]) == ["Nobody has played a rated game yet."]


def test_history_lists_a_players_recent_games_newest_first(archive) -> None:
    for seed in range(70, 74):
        fired(archive.save(finished_game(random_game(seed, rounds=1), NAMES,
                                          table_no=seed, ended_at=1_700_000_000.0 + seed)))
    other = ["Erin", "Bob", "Frank", "Gina"]
    fired(archive.save(finished_game(random_game(80, rounds=1), other, table_no=9)))
    hist = fired(archive.recent_games("alice", limit=3))
    assert [g.table_no for g in hist] == [73, 72, 71]
    assert all(g.names == tuple(NAMES) and g.player == 0 for g in hist)
    assert len(fired(archive.recent_games("BOB"))) == 5
    assert fired(archive.recent_games("Erin"))[0].player == 0
    lines = history_lines("Alice", [g.to_json() for g in hist])
    assert lines[0] == "Recent games of Alice:" and len(lines) == 4
    assert "#4" in lines[1] and "Alice+Carol" in lines[1] and "Bob+Dave" in lines[1]
    assert history_lines("Zed", []) == ["Zed has no finished games."]


def test_replay_prints_the_game_round_by_round(archive) -> None:
    match = random_game(90, rounds=2, tichu_rate=0.3)
    rec = fired(archive.save(finished_game(match, NAMES, table_no=2)))
    stored = fired(archive.load(rec.game_id))
    lines = replay_text(stored)
    assert lines[0].startswith(f"Game #{rec.game_id}, table 2")
    assert sum(1 for line in lines if line.startswith("Round ") and "seats" in line) == 2
    plays = sum(1 for _, a in match.actions if type(a).__name__ == "Play")
    assert sum(1 for line in lines if " plays " in line or " BOMBS " in line) == plays
    assert lines[-1].startswith("Game over after 2 rounds")
    one = replay_text(stored, 2)
    assert one[0] == lines[0] and one[1].startswith("Round 2: seats")
    assert not any(line.startswith("Round 1") for line in one)
    assert set(one[1:]) <= set(lines)
    with pytest.raises(LobbyError) as err:
        replay_game(stored, 3)
    assert err.value.code == "no-such-round"


def test_analyse_refuses_an_unfinished_record() -> None:
    match = random_game(3, until_actions=30)
    game = finished_game(random_game(3, rounds=1), NAMES)
    broken = type(game)(match.record(), game.players, game.result, {})
    with pytest.raises(ValueError):
        analyse(broken)
    with pytest.raises(ValueError):
        finished_game(match, NAMES)
    with pytest.raises(ValueError):
        Participant("x", "alien")


@pytest_twisted.ensureDeferred
async def test_saving_runs_on_the_worker_thread(tmp_path: Path) -> None:
    from twisted.internet import reactor
    store = Store.threaded(str(tmp_path / "t.sqlite3"), reactor)
    seen = []

    def spy(conn, game):
        seen.append(isInIOThread())
        from lobby.storage.records import insert_game
        return insert_game(conn, game)

    try:
        await within(store.open())
        game = finished_game(random_game(5, rounds=1), NAMES)
        rec = await within(store.run_transaction(spy, game))
        assert seen == [False] and rec.game_id == 1
        assert (await within(GameArchive(store).load(1))).game.record == game.record
    finally:
        await within(store.close())


def test_replay_of_a_turnier_game_follows_the_changing_seats(archive) -> None:
    match = random_game(8, turnier=True)
    assert match.finished and match.round_no == 9
    rec = fired(archive.save(finished_game(match, NAMES)))
    stored = fired(archive.load(rec.game_id))
    fourth = replay_text(stored, 4)
    # rounds 4-6: partners 1+2 / 3+4 by join order -> seats Alice, Carol, Bob, Dave
    assert fourth[1] == "Round 4: seats 1\u00a0Alice, 2\u00a0Carol, 3\u00a0Bob, 4\u00a0Dave"
    third = replay_text(stored, 3)
    assert third[1] == "Round 3: seats 1\u00a0Alice, 2\u00a0Bob, 3\u00a0Carol, 4\u00a0Dave"
    # the end of round 3 still names round 3's seats: whoever went out is a round-3 name
    m = Match(match.options, seed=match.seed)
    for p, a in match.actions:
        before = m.round_no
        for ev in m.apply(p, a):
            if ev.kind == "round-over" and before == 3:
                order = ", ".join(NAMES[s] for s in ev.data["order"])   # round 3: seat = player
    assert any(line.endswith(f"Order: {order}.") for line in third)
    # a rated turnier game moves the ratings by the pairwise duels (zero-sum)
    assert sum(b - a for a, b in rec.ratings) == pytest.approx(0.0, abs=1e-9)
    stats = [fired(archive.player_stats(n)) for n in NAMES]
    assert [s.wins for s in stats] == [int(p in match.result["winners"]) for p in range(4)]


def test_the_archive_answers_with_data(archive) -> None:
    match = random_game(9, rounds=1)
    rec = fired(archive.save(finished_game(match, NAMES, table_no=1, ended_at=1_800_000_000.0)))
    stored = fired(archive.load(rec.game_id))
    whole = fired(archive.replay(rec.game_id))
    assert whole.to_json() == replay_game(stored).to_json()
    assert json.loads(json.dumps(whole.to_json())) == whole.to_json()      # JSON-safe
    assert [r.round for r in whole.rounds] == [1] and whole.total_rounds == 1
    assert fired(archive.replay(rec.game_id, 1)).to_json() == dict(whole.to_json(), round=1)
    for bad, code in (((42,), "no-such-game"), ((rec.game_id, 2), "no-such-round")):
        with pytest.raises(LobbyError) as err:
            fired(archive.replay(*bad))
        assert err.value.code == code
    (game,) = fired(archive.recent_games("alice"))
    assert game.to_json() == {
        "game": rec.game_id, "ended_at": 1_800_000_000.0, "table": 1, "players": NAMES,
        "scores": match.scores, "rounds": 1, "rated": True, "player": 0,
        "won": match.result["winner"] == 0, "shared": bool(match.result.get("shared"))}
    (row, *_) = fired(archive.top_players())
    assert set(row.to_json()) == {"place", "name", "rating", "games"} and row.place == 1
    dave = fired(archive.player_stats("Dave")).to_json()
    assert dave["games"] == 1 and "name_key" not in dave
    assert stats_lines(dave)[0].startswith("  games 1")
    assert stats_lines(None) == ["  no finished games yet"]
    assert fired(archive.bswlog(rec.game_id)) == stored.bswlog
    assert fired(archive.bswlog(42)) is None


@pytest.mark.parametrize("options", [{"round": "2"}, {"turnier": "on"}])
def test_a_replay_is_the_table_events_a_spectator_got(options: dict[str, str]) -> None:
    """The events of a replay are the very game events a spectator of the live table got (in
    order, with the same data), grouped by round, with the exchange's cards added; the hands
    are the cards dealt."""
    import random as _random

    from table_support import new_table, play_to_end
    table, rec, _ = new_table(spectator="zed", options=options)
    table.submit("ann", "start")
    play_to_end(table, rec, _random.Random(3))
    assert table.state == "finished"
    live = [e for e in rec.to("zed") if e.type.startswith("game-") and not e.is_error]
    replay = replay_game(analyse(finished_game(table.match, table.players,
                                               table_no=table.number)))
    events = [e for r in replay.rounds for e in r.events]
    gifts = [e.pop("given") for e in events if e["type"] == "game-exchange-given"]
    assert events == [{"type": e.type, **e.data} for e in live if e.type != "game-round-start"]
    assert len(gifts) == 4 * len(replay.rounds) and all(len(g.split()) == 3 for g in gifts)
    starts = [e.data for e in live if e.type == "game-round-start"]
    assert [r.round for r in replay.rounds] == [d["round"] for d in starts] == list(
        range(1, table.match.round_no + 1))
    again = Match(table.match.options, table.match.seed)
    actions = iter(table.match.actions)
    for r in replay.rounds:
        assert again.round_no == r.round
        assert list(r.seats) == [table.players[again.player_at(s)] for s in range(4)]
        assert [set(h.split()) for h in r.hands] == [
            {str(c) for c in again.round.deal[s]} for s in range(4)]
        while again.round_no == r.round and not again.finished:
            again.apply(*next(actions))


def test_replay_lines_are_indented_alike(archive) -> None:
    """The header, each round's heading and the end of the game at the margin; every line of
    a round two spaces in; only an event's own further lines (the round summary) deeper."""
    match = random_game(90, rounds=2, tichu_rate=0.3)
    rec = fired(archive.save(finished_game(match, NAMES, table_no=2)))
    lines = replay_text(fired(archive.load(rec.game_id)))
    end = next(i for i, line in enumerate(lines) if line.startswith("Game over"))
    margin = [i for i, line in enumerate(lines) if not line.startswith(" ")]
    heads = [i for i, line in enumerate(lines) if line.startswith("Round ") and "seats" in line]
    assert margin == [0, *heads, *range(end, len(lines))]
    inside = [line for i, line in enumerate(lines) if i not in margin]
    assert all(line.startswith("  ") for line in inside)
    deeper = [line for line in inside if line.startswith("   ")]
    assert deeper and all(line.startswith("    ") and line[4] != " " for line in deeper)
    assert all(any(w in line for w in ("Card points", "Tichu", "This round")) for line in deeper)
    calls = [line for line in inside if "calls TICHU" in line or "Round over" in line]
    assert calls and all(line.startswith("  ") and line[2] != " " for line in calls)
