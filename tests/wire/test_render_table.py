"""protocol/render/table.py: table events as compact text for people (80 columns), with prompts
that name the exact commands, hands sorted in BSW notation, optional ANSI colour per suit."""
from __future__ import annotations

import random
import re

from twisted.internet.task import Clock

from lobby.events import Event, error_event
from lobby.tables.table import TableActor
from lobby.tichu.cards import parse_cards, sort_cards
from protocol.render.table import color_cards, render_table
from table_support import ANSI, Recorder, play_to_end, step

PLAYERS = ["alice", "bobby", "carol", "dave"]


def game(seed: int = 13, options: dict[str, str] | None = None, *, spectator: str = "eve",
         finish: bool = True) -> tuple[TableActor, Recorder]:
    rec = Recorder()
    table = TableActor(12, Clock(), rec.deliver, host="alice")
    rec.table = table
    table.add_member(spectator)
    for name, value in {"seed": str(seed), "target": "300", **(options or {})}.items():
        table.submit("alice", "option", {"name": name, "value": value})
    for n in PLAYERS:
        table.submit(n, "join")
    table.submit("alice", "start")
    if finish:
        play_to_end(table, rec, random.Random(seed))
    return table, rec


_FINISHED: dict[int, tuple[TableActor, Recorder]] = {}


def finished_game(seed: int = 13) -> tuple[TableActor, Recorder]:
    """One complete game per seed, shared by the tests that only read its events."""
    if seed not in _FINISHED:
        _FINISHED[seed] = game(seed)
    return _FINISHED[seed]


def lines_for(rec: Recorder, name: str, color: bool = False) -> list[list[str]]:
    out = []
    for e in rec.to(name):
        lines = render_table(e, color=color)
        if lines is not None:
            out.append(lines)
    return out


def test_every_event_of_a_game_renders_within_80_columns() -> None:
    table, rec = finished_game()
    assert table.state == "finished"
    seen_types = set()
    for name in [*PLAYERS, "eve"]:
        for e in rec.to(name):
            if e.is_error:
                continue
            lines = render_table(e)
            assert lines is not None, e.type
            seen_types.add(e.type)
            for line in (piece for whole in lines for piece in whole.split("\n")):
                assert len(line) <= 80, line                 # (a LINE_BREAK's pieces each)
                assert "{" not in line and "}" not in line, line     # every field filled
            if e.type == "table-view":
                assert 2 <= len(lines) <= 6, lines
    assert {"table-view", "game-play", "game-pass", "game-round-over", "game-match-over"} <= seen_types


def test_errors_are_left_to_the_common_renderer() -> None:
    assert render_table(error_event("too-low", play="a 5", top="a 9")) is None
    assert render_table(Event("says", name="x", text="hi")) is None


def test_prompts_name_the_exact_commands() -> None:
    table, rec = finished_game()
    alice = ["\n".join(ls) for ls in lines_for(rec, "alice")]
    assert any("Grand Tichu? /grand or /nogrand" in t for t in alice)
    # the exchange names the receivers in the order of the command: next, partner, previous
    assert any("Exchange: /schupf NEXT PARTNER PREVIOUS (bobby, carol, dave)" in t for t in alice)
    assert any("Your turn: /play CARDS or /pass" in t or "Your turn: /play CARDS with a" in t
               for t in alice)
    assert any("Your lead: /play CARDS" in t for t in alice)
    assert any(t.endswith("(/tichu calls Tichu)") for t in alice)
    everyone = ["\n".join(ls) for n in PLAYERS for ls in lines_for(rec, n)]
    assert any(t.startswith("Round over. Order:") or "double victory" in t for t in everyone)
    assert any("This round:" in t for t in everyone)
    over = [t for t in everyone if t.startswith("Game over after")]
    scores = table.result["scores"]
    assert over and f"{max(scores)} : {min(scores)}" in over[0]


def test_the_dragon_and_the_wish_prompts() -> None:
    found = {"dragon": False, "wish": False, "open": False}
    for seed in range(30):
        table, rec = game(seed=seed, options={"round": "1"})
        for name in PLAYERS:
            seat = table.seated.index(name)
            left, right = table.seated[(seat + 3) % 4], table.seated[(seat + 1) % 4]
            for ls in lines_for(rec, name):
                t = "\n".join(ls)
                if "Give the Dragon trick" in t:
                    assert f"Give the Dragon trick: /dragon left ({left}) or /dragon right ({right})" in t
                    found["dragon"] = True
                if "Your wish: /wish RANK or /wish none" in t:
                    found["wish"] = True
                if re.search(r"\| +Wish: [0-9BDKA]+", t):
                    found["open"] = True
        if all(found.values()):
            break
    assert all(found.values()), found


def test_hand_is_sorted_and_only_for_its_owner() -> None:
    _table, rec = game(seed=5, finish=False)
    for name in PLAYERS:
        views = lines_for(rec, name)
        hands = [l for ls in views for l in ls if l.startswith("Your hand: ")]
        assert hands
        for h in hands:
            cards = h[len("Your hand: "):]
            assert cards == " ".join(str(c) for c in sort_cards(parse_cards(cards)))
    eve = [l for ls in lines_for(rec, "eve") for l in ls]
    assert eve and not any(l.startswith("Your hand") for l in eve)
    assert not any(l.startswith("Your") for l in eve)


def test_colour_per_suit() -> None:
    assert color_cards("R10 GB SD BK Ma", False) == "R10 GB SD BK Ma"
    coloured = color_cards("R10 GB SD BK Ma Ph", True)
    assert "\x1b[31mR10\x1b[0m" in coloured and "\x1b[32mGB\x1b[0m" in coloured
    assert "\x1b[34mBK\x1b[0m" in coloured and "\x1b[33mPh\x1b[0m" in coloured
    assert ANSI.sub("", coloured) == "R10 GB SD BK Ma Ph"
    _table, rec = game(seed=5, finish=False)
    plain = lines_for(rec, "alice")
    colour = lines_for(rec, "alice", color=True)
    assert [[ANSI.sub("", l) for l in ls] for ls in colour] == plain
    assert any("\x1b[" in l for ls in colour for l in ls if l.startswith("Your hand"))


def test_view_of_a_spectator_in_play() -> None:
    table, rec = game(seed=7, finish=False)
    rng = random.Random(1)
    while table.match.round.phase != "play" or not table.match.round.trick:
        step(table, rec, rng)
    view = [e for e in rec.to("eve") if e.type == "table-view"][-1]
    lines = render_table(view)
    turn = table.seated[table.match.round.turn]
    assert lines[0].count("|") == 3 and ">" in lines[0]
    assert lines[1].startswith("Round 1 | alice+carol 0 : 0 bobby+dave")
    assert lines[2].startswith("Trick: ")
    assert lines[-1] == f"{turn}'s turn."


def test_waiting_table_view_options_and_info() -> None:
    rec = Recorder()
    table = TableActor(3, Clock(), rec.deliver, host="alice")
    table.submit("alice", "join", "2")
    table.submit("alice", "option", "target 500")
    view = [e for e in rec.to("alice") if e.type == "table-view"][-1]
    assert render_table(view) == [
        "Table 3: waiting.",
        "Seats: 1 - | 2 alice | 3 - | 4 -",
        "/join [SEAT] or /addbot fills a seat (1+3 against 2+4); /start when four sit.",
    ]
    table.submit("alice", "option", "help")
    from protocol.render.table import TableFeed
    lines = TableFeed().render(rec.to("alice")[-1], width=80)       # a connection's width
    assert lines[0].startswith("Options of table 3")
    options = [l for l in lines[1:] if not l.startswith("   ")]     # not a continuation
    assert [l.split()[0] for l in options] == ["round", "tichujoin", "turnier", "target",
                                               "drawseat", "host", "dragon", "bombwindow", "seed",
                                               "log", "grace", "timer"]
    assert "500" in options[3]
    # a description too long for 80 columns goes on under the description column
    column = len("  round         ") + len("off    ")
    assert all(len(l) <= 79 for l in lines)
    assert any(l.startswith(" " * column) and l[column] != " " for l in lines[1:]), lines
    table.submit("alice", "spielinfo")
    info = render_table(rec.to("alice")[-1])
    assert info == ["Table 3: waiting, host alice.",
                    "  Seats: 1 -, 2 alice, 3 -, 4 -",
                    "  Options: target 500",
                    "  Move timer: auto (1 minute per decision if the game is rated, else none)."]
    joined = next(e for e in rec.log if e[1].type == "table-joined")[1]
    assert render_table(joined) == ["alice sits down in seat 2."]


def test_round_over_with_tichu_results_and_turnier_end() -> None:
    names = PLAYERS
    over = Event("game-round-over", {
        "order": [0, 3, 1, 2], "double_victory": None, "card_points": [35, 65],
        "tichu": [100, -200], "calls": ["tichu", "grand", None, None], "score": [135, -135],
        "names": names, "table": 1})
    assert render_table(over) == [
        "Round over. Order: alice, dave, bobby, carol.",
        "  Card points: alice+carol 35 : 65 bobby+dave",
        "  alice's Tichu succeeded: +100",
        "  bobby's Grand Tichu failed: -200",
        "  This round: alice+carol 135 : -135 bobby+dave",
    ]
    double = Event("game-round-over", {
        "order": [1, 3, 0, 2], "double_victory": 1, "card_points": [0, 200], "tichu": [0, 0],
        "calls": [None] * 4, "score": [0, 200], "names": names})
    assert render_table(double)[0] == ("Round over: double victory for bobby+dave! "
                                       "Order: bobby, dave, alice, carol.")
    score = Event("game-round-score", {"round": 2, "score": [135, -135], "scores": [335, 65],
                                       "victory_points": [2, 0, 2, 0], "players": names,
                                       "names": names})
    assert render_table(score) == ["Score after round 2: alice+carol 335 : 65 bobby+dave",
                                   "Victory points: alice 2, bobby 0, carol 2, dave 0"]
    end = Event("game-match-over", {"winner": None, "winners": [2], "shared": False,
                                    "scores": [0, 0], "rounds": 9,
                                    "victory_points": [10, 8, 12, 6],
                                    "tichu_points": [400, 300, 500, 100],
                                    "players": names, "names": names})
    assert render_table(end) == ["Game over after 9 rounds: carol win.",
                                 "Victory points/Tichu points: alice 10/400, bobby 8/300, "
                                 "carol 12/500, dave 6/100"]
    shared = Event("game-match-over", {"winner": None, "winners": [0, 1, 2, 3], "shared": True,
                                       "scores": [500, 500], "rounds": 3, "names": names})
    assert render_table(shared) == [
        "Game over after 3 rounds: Shared victory at alice+carol 500 : 500 bobby+dave."]


def test_vanished_player_vote_and_bot_takeover() -> None:
    table, rec = game(seed=3, finish=False, options={"grace": "0"})
    table.member_gone("dave")
    view = [e for e in rec.to("alice") if e.type == "table-view"][-1]
    assert "4 dave 8 (gone)" in render_table(view)[0]
    vanished = [e for e in rec.to("alice") if e.type == "table-vanished"][-1]
    assert render_table(vanished) == [
        "dave has vanished; the game waits for them. After 0 seconds the other players may /remove dave."]
    table.submit("alice", "remove", "dave")
    proposed = [e for e in rec.to("bobby") if e.type == "table-remove-proposed"][-1]
    assert render_table(proposed) == [
        "alice proposes to remove dave: /accept or /refuse (2 votes needed)."]
    table.submit("carol", "accept")
    vote = [e for e in rec.to("bobby") if e.type == "table-vote"][-1]
    assert render_table(vote) == ["carol votes yes on removing dave."]
    takeover = [e for e in rec.to("eve") if e.type == "table-bot-takes-over"][-1]
    assert render_table(takeover) == [
        f"dave was removed; {takeover.data['name']} plays on in seat 4."]


def test_a_player_sees_only_the_lines_that_changed_in_the_play() -> None:
    """Text mode in the play phase: after a change a player's connection gets the lines of the
    view that read differently from the last view it saw (no redraw of the hand after somebody
    else's move, nor of the trick after a pass), except that the player's turn always comes
    with the trick and the hand (issue 26: they had scrolled off a 24-row screen); `forget()`
    (/look, entering again) shows it whole."""
    from protocol.render.table import TableFeed, awaits_you
    _table, rec = finished_game()
    feed = TableFeed()
    hand_shown: str | None = None
    trick_shown: str | None = None
    passes_seen = turns = 0
    whole: list[str] | None = None
    for e in rec.to("alice"):
        lines = feed.render(e) or []
        if e.type != "table-view":
            continue
        game_ = e.data.get("game") or {}
        if e.data.get("state") != "playing" or game_.get("phase") not in ("play", "wish", "dragon"):
            hand_shown = trick_shown = None
            continue
        hands = [l for l in lines if l.startswith("Your hand: ")]
        tricks = [l for l in lines if l.startswith("Trick")]
        if game_.get("phase") == "play" and awaits_you(e.data):
            turns += 1
            assert hands and any(l.startswith(("Your turn", "Your lead")) for l in lines), lines
            assert tricks or game_.get("trick_won"), lines
        else:
            for got, shown in ((hands, hand_shown), (tricks, trick_shown)):
                assert not got or got[0] != shown, lines        # never the same line again
        if hands:
            hand_shown = hands[0]
        if tricks:
            trick_shown = tricks[0]
        if not hands and not tricks:
            passes_seen += 1
        if whole is None and hand_shown is not None and passes_seen > 3:
            feed.forget()
            whole = feed.render(Event("table-view", e.data)) or []
            assert whole[0] in render_table(Event("table-view", e.data))
            assert any(l.startswith("Your hand: ") for l in whole), whole
    assert passes_seen > 20 and turns > 5 and whole is not None


def test_a_wish_still_open_when_the_round_ended_is_not_shown_after_it() -> None:
    """A round can end with its wish unfulfilled; the views after the end (and `/look` after
    the game) keep the wish in their data but show no `Wish:` any more."""
    for seed in range(80):
        table, rec = game(seed=seed, options={"round": "1"})
        ended = [e for e in rec.to("eve") if e.type == "table-view"
                 and (e.data.get("game") or {}).get("phase") == "finished"
                 and (e.data.get("game") or {}).get("wish") is not None]
        if ended:
            break
    else:
        raise AssertionError("no round of these seeds ended with an open wish")
    for e in ended:
        assert not any("Wish:" in line for line in render_table(e) or [])
    table.submit("eve", "look")
    look = [e for e in rec.to("eve") if e.type == "table-look"][-1]
    assert (look.data.get("game") or {}).get("wish") is not None
    assert not any("Wish:" in line for line in render_table(look) or [])


def test_a_spectator_reads_a_removal_proposal_without_a_vote_to_cast() -> None:
    """Issue 26, telnet review #12: ``/accept or /refuse`` reached the spectators too, who have
    no vote; a spectator's feed says the players vote, in every language."""
    from lobby.text.messages import LANGUAGES, text
    from protocol.render.table import TableFeed
    table, rec = game(seed=3, finish=False, options={"grace": "0"})
    table.member_gone("dave")
    table.submit("alice", "remove", "dave")
    for lang in LANGUAGES:
        feeds = {name: TableFeed(name) for name in ("eve", "bobby")}
        said: dict[str, list[str]] = {name: [] for name in feeds}
        for recipients, event in rec.log:
            for name, feed in feeds.items():
                if name in recipients:
                    said[name] += feed.render(event, lang) or []
        assert text("table-remove-proposed-watching", lang, name="alice", target="dave",
                    needed=2) in said["eve"]
        assert not any("/accept" in line for line in said["eve"])
        assert text("table-remove-proposed", lang, name="alice", target="dave",
                    needed=2) in said["bobby"]
