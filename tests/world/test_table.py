"""TableActor: complete games through submit(), options, information hiding, bad input, the
mailbox, the bomb window and the removal vote. Time comes from task.Clock only."""
from __future__ import annotations

import random

import pytest
from twisted.logger import globalLogPublisher

from lobby.events import Event
from lobby.tables.table import TableActor
from lobby.text.messages import ERRORS
from lobby.tichu.actions import UNSET
from lobby.tichu.cards import parse_cards, parse_play
from lobby.tichu.errors import Rejected
from table_support import NAMES, Recorder, new_table, play_to_end, step


def codes(rec: Recorder, name: str) -> list[str]:
    return [e.type for e in rec.errors(name)]


# ---- complete games ---------------------------------------------------------------------------
def test_complete_game_with_fixed_seed_and_a_spectator() -> None:
    table, rec, _clock = new_table(options={"target": "300", "seed": "11"}, spectator="eve")
    table.submit("ann", "start")
    assert table.state == "playing"
    steps = play_to_end(table, rec, random.Random(3))
    assert table.state == "finished", steps
    result = table.result
    assert result is not None and not result.get("abandoned")
    assert max(result["scores"]) >= 300
    assert result["players"] == NAMES and result["seed"] == 11
    # everybody, the spectator included, was told the end with the winner and the final score
    for name in [*NAMES, "eve"]:
        over = [e for e in rec.to(name) if e.type == "game-match-over"]
        assert len(over) == 1 and over[0].data["scores"] == result["scores"]
    # information hiding held over the whole game, and it was really checked
    assert rec.leaks == []
    assert rec.checked > 1000
    # views: each seated player saw their own hand, the spectator never any hand
    assert all("hand" not in e.data["game"] for e in rec.to("eve")
               if e.type == "table-view" and "game" in e.data)
    ann_views = [e for e in rec.to("ann") if e.type == "table-view" and "game" in e.data]
    assert any(e.data["game"].get("hand") for e in ann_views)


def test_same_seed_same_cards() -> None:
    deals = []
    for _ in range(2):
        table, rec, _ = new_table(options={"seed": "99"})
        table.submit("ann", "start")
        deals.append([e.data["cards"] for _, e in rec.log if e.type == "game-deal"])
    assert deals[0] == deals[1] and len(deals[0]) == 4
    table, rec, _ = new_table(options={"seed": "100"})
    table.submit("ann", "start")
    assert [e.data["cards"] for _, e in rec.log if e.type == "game-deal"] != deals[0]


def test_hidden_cards_go_to_their_owner_only() -> None:
    table, rec, _ = new_table(options={"seed": "5"}, spectator="eve")
    table.submit("ann", "start")
    for r, e in rec.log:
        if e.type in ("game-deal", "game-deal-rest", "game-exchange-received"):
            assert len(r) == 1 and r[0] in NAMES
    deals = {r[0]: e.data["cards"] for r, e in rec.log if e.type == "game-deal"}
    assert sorted(deals) == sorted(NAMES)
    assert all(len(c.split()) == 8 for c in deals.values())
    assert not any(e.type == "game-deal" for e in rec.to("eve"))


def test_round_option_ends_after_two_rounds() -> None:
    table, rec, _ = new_table(options={"round": "2", "target": "10000", "seed": "21"})
    table.submit("ann", "start")
    play_to_end(table, rec, random.Random(8))
    assert table.state == "finished"
    assert table.result is not None and table.result["rounds"] == 2
    assert sum(1 for e in rec.to("ann") if e.type == "game-round-score") == 2
    assert rec.leaks == []


def test_turnier_victory_points_after_a_round() -> None:
    table, rec, _ = new_table(options={"turnier": "on", "seed": "4"})
    table.submit("ann", "start")
    # no Grand Tichu in turnier: all 14 cards at once, straight to the exchange
    table.submit("ann", "grand")
    assert codes(rec, "ann") == ["no-grand-tichu"]
    deals = [e for e in rec.to("bob") if e.type == "game-deal"]
    assert len(deals[0].data["cards"].split()) == 14
    rng = random.Random(2)
    play_to_end(table, rec, rng, stop=lambda: any(e.type == "game-round-score" for _, e in rec.log))
    score = next(e for e in rec.to("dan") if e.type == "game-round-score").data
    vp = score["victory_points"]
    assert score["players"] == NAMES
    # per round: 2 each for the winners, 1 each on a tie, 3 (or 2) for a double victory
    assert vp[0] == vp[2] and vp[1] == vp[3]
    assert sorted([vp[0], vp[1]]) in ([0, 2], [1, 1], [0, 3])
    assert table.match is not None and table.match.round_no == 2 and table.state == "playing"
    assert rec.leaks == []


def test_tichujoin_seats_the_first_two_joiners_together() -> None:
    table, rec, _ = new_table(options={"tichujoin": "on"})
    assert table.seated == NAMES            # before the start: in the seats they took
    table.submit("ann", "start")
    # ann and bob joined first: bob moves opposite ann
    assert table.seated == ["ann", "cat", "bob", "dan"]
    started = next(e for _, e in rec.log if e.type == "table-started")
    assert started.data["seats"] == ["ann", "cat", "bob", "dan"]


def test_drawseat_is_reproducible_with_a_seed() -> None:
    seatings = []
    for _ in range(2):
        table, _rec, _ = new_table(options={"drawseat": "on", "seed": "31"})
        table.submit("ann", "start")
        seatings.append(table.seated)
    assert seatings[0] == seatings[1] and sorted(seatings[0]) == sorted(NAMES)


def test_host_option() -> None:
    table, rec, _ = new_table(options={"host": "on"})
    table.submit("bob", "start")
    table.submit("bob", "option", {"name": "target", "value": "500"})
    assert codes(rec, "bob") == ["host-command", "host-only-option"]
    assert table.state == "waiting" and table.options.target == 1000
    table.submit("ann", "start")
    assert table.state == "playing"


def test_option_help_and_values() -> None:
    table, rec, _ = new_table(join=False)
    table.submit("ann", "option", "help")
    listing = next(e for e in rec.to("ann") if e.type == "table-options").data["options"]
    assert [name for name, _ in listing] == ["round", "tichujoin", "turnier", "target", "drawseat",
                                             "host", "dragon fixed", "bombwindow", "seed", "log",
                                             "grace", "timer"]
    table.submit("ann", "option", "dragon fixed")
    table.submit("ann", "option", {"name": "tichujoin"})
    table.submit("ann", "option", "round 3")
    table.submit("ann", "option", "bombwindow 2.5")
    table.submit("ann", "option", "tichujoin")        # a toggle: back off
    assert table.options.dragon_fixed and not table.options.tichujoin
    assert table.options.max_rounds == 3 and table.options.bombwindow == 2.5
    table.submit("ann", "option", "round off")
    assert table.options.max_rounds is None
    for bad in ("target x", "bombwindow 99", "round many", "seed -3", "tichujoin maybe"):
        table.submit("ann", "option", bad)
    table.submit("ann", "option", "colour on")
    assert codes(rec, "ann") == ["bad-option-value"] * 5 + ["unknown-option"]
    assert not rec.errors("bob")
    table.submit("zed", "option", "target 500")       # a spectator may not change options
    assert codes(rec, "zed") == ["host-only-option"]


def test_number_options_take_ascii_digits_only() -> None:
    """int() and float() read other digits too (５００, ², ٣): an option takes 0-9 only."""
    table, rec, _ = new_table(join=False)
    for bad in ("target ５００", "round ３", "seed ²", "grace ١٢٠", "bombwindow ５",
                "target +500", "target 1_000", "grace 1e3", "grace nan", "grace inf",
                "bombwindow -0"):
        table.submit("ann", "option", bad)
    assert codes(rec, "ann") == ["bad-option-value"] * 11
    err = rec.errors("ann")[0]
    assert err.data == {"name": "target", "value": "５００",
                        "expected": "a score such as 500 or 1000"}
    assert table.options.target == 1000 and table.options.max_rounds is None
    assert table.options.seed is None and table.options.grace == 120.0
    table.submit("ann", "option", "target 500")
    table.submit("ann", "option", "grace 2.5")
    assert table.options.target == 500 and table.options.grace == 2.5
    assert not rec.errors("ann")[11:]


def test_seat_numbers_take_ascii_digits_only() -> None:
    """Found by an external review: /join ３ and /join ٣ (int() reads them) seated the player in
    seat 3 while /option refused such digits; every number a person types is 0-9 only."""
    table, rec, _ = new_table(join=False)
    for bad in ("３", "٣", "²", "+3", "03x"):
        table.submit("ann", "join", bad)
    assert codes(rec, "ann") == ["no-such-seat"] * 5 and "ann" not in table.seats
    table.submit("ann", "join", "3")
    assert table.seats[2] == "ann"
    table.submit("ann", "addbot", "2")
    table.submit("ann", "removebot", "２")
    assert codes(rec, "ann")[5:] == ["no-such-seat"]
    table.submit("ann", "removebot", "2")
    assert not rec.errors("ann")[6:] and table.seats[1] is None


def test_table_commands_parse_text_by_their_declared_spec() -> None:
    """The text given to a table is bound by the same spec the command table shows: too many or
    too few words are bad-arguments with the declared usage."""
    table, rec, _ = new_table(options={"seed": "5"})
    table.submit("ann", "start")
    table.submit("ann", "grand", "now")                # /grand takes nothing
    table.submit("ann", "join", "1 2")
    assert [e.data["usage"] for e in rec.errors("ann")] == ["/grand", "/join [SEAT]"]
    for name in NAMES:
        table.submit(name, "nogrand")
    table.submit("ann", "kartentausch", "S2 SA")       # an alias, two cards of three
    assert rec.errors("ann")[-1].data == {"usage": "/schupf NEXT PARTNER PREVIOUS"}
    table.submit("ann", "schupf", {"next": "S2"})      # parsed arguments: all three needed
    assert rec.errors("ann")[-1].data == {"usage": "/schupf NEXT PARTNER PREVIOUS"}
    table.submit("ann", "frobnicate")
    assert rec.errors("ann")[-1].type == "unknown-command"


# ---- bad input --------------------------------------------------------------------------------
def test_start_needs_four_players() -> None:
    table, rec, _ = new_table(join=False)
    for n in NAMES[:3]:
        table.submit(n, "join")
    table.submit("ann", "start")
    assert codes(rec, "ann") == ["need-four"] and table.state == "waiting"
    table.submit("dan", "join", {"seat": "4"})
    table.submit("ann", "start")
    assert table.state == "playing"


def test_join_and_leave_rules() -> None:
    table, rec, _ = new_table(join=False)
    table.submit("ann", "join", {"seat": 3})
    table.submit("bob", "join", "3")
    table.submit("bob", "join", "7")
    table.submit("bob", "join", "x")
    table.submit("ann", "join")
    assert codes(rec, "bob") == ["seat-taken", "no-such-seat", "no-such-seat"]
    assert codes(rec, "ann") == ["already-seated"]
    table.submit("bob", "leave")
    assert codes(rec, "bob")[-1] == "not-seated"
    table.submit("ann", "leave")
    assert table.seated == [None] * 4
    for n in NAMES:
        table.submit(n, "join")
    table.submit("eve", "join")
    assert codes(rec, "eve") == ["table-full"]


def test_every_bad_input_gets_its_code_and_the_game_goes_on() -> None:
    table, rec, _ = new_table(options={"seed": "17", "target": "200"}, spectator="eve")
    table.submit("ann", "start")
    rec.clear()

    def refused(name: str, command: str, args: object, code: str) -> None:
        before = (table.match.round.view(None), [table.match.view(p) for p in range(4)])
        n = len(rec.log)
        table.submit(name, command, args)
        new = rec.log[n:]
        assert [(r, e.type) for r, e in new] == [([name], code)], new
        assert code in ERRORS                         # a documented catalog key
        after = (table.match.round.view(None), [table.match.view(p) for p in range(4)])
        assert after == before                        # nothing changed

    # the Grand Tichu phase
    refused("ann", "play", "Ma", "wrong-phase")
    refused("ann", "schupf", "S2 S3 S4", "wrong-phase")
    refused("ann", "pass", None, "wrong-phase")
    refused("ann", "tichu", None, "grand-undecided")
    refused("ann", "join", None, "game-running")
    refused("ann", "leave", None, "leave-in-game")
    refused("ann", "option", "target 500", "game-running")
    refused("ann", "reset", None, "not-finished")
    refused("ann", "accept", None, "no-vote")
    refused("ann", "remove", "bob", "not-vanished")
    refused("ann", "wish", "7", "no-wish-pending")
    refused("ann", "dragon", "left", "no-dragon-pending")
    # no Dragon trick to give: said first, whatever the target (issue 26, #8)
    refused("ann", "dragon", "up", "no-dragon-pending")
    refused("ann", "dragon", "\u00b2", "no-dragon-pending")
    refused("eve", "play", "S2", "not-a-player")
    refused("eve", "grand", None, "not-a-player")
    refused("ann", "frobnicate", None, "unknown-command")
    for n in NAMES:
        table.submit(n, "nogrand")
    refused("ann", "nogrand", None, "grand-already-decided")
    # the exchange
    hand = table.match.view(0)["hand"].split()
    others = [c for c in table.match.view(1)["hand"].split()]
    refused("ann", "schupf", " ".join(hand[:2]), "bad-arguments")
    refused("ann", "schupf", f"{hand[0]} {hand[1]} {others[0]}", "cards-not-in-hand")
    refused("ann", "schupf", f"{hand[0]} {hand[1]} X9", "bad-card")
    refused("ann", "schupf", f"{hand[0]} {hand[0]} {hand[1]}", "duplicate-card")
    # ann has not given her cards: the refusal says so (not that others are awaited)
    refused("ann", "play", hand[0], "give-cards-first")
    table.submit("ann", "schupf", " ".join(hand[:3]))
    refused("ann", "play", hand[3], "exchange-incomplete")
    rng = random.Random(1)
    n = len(rec.errors())
    while table.match.round.phase == "exchange":
        step(table, rec, rng)
    assert len(rec.errors()) == n
    # the play
    rnd = table.match.round
    turn = rnd.turn
    leader = table.seated[turn]
    other = table.seated[(turn + 1) % 4]
    lead_hand = table.match.view(table.players.index(leader))["hand"].split()
    other_hand = table.match.view(table.players.index(other))["hand"].split()
    single = next(c for c in other_hand if c not in ("Hu",))
    refused(other, "play", single, "not-your-turn")
    refused(leader, "pass", None, "must-lead")
    refused(leader, "play", other_hand[0], "cards-not-in-hand")
    refused(leader, "play", "R11", "bad-card")
    refused(leader, "play", "", "bad-arguments")
    refused(leader, "play", "Ph=Z", "bad-rank")
    refused(leader, "bomb", lead_hand[0], "not-a-bomb")
    refused(leader, "wish", "none", "no-wish-pending")
    not_ma = next(c for c in lead_hand if c != "Ma")
    refused(leader, "play", not_ma + " wish 7", "wish-without-mahjong")
    refused(leader, "grand", None, "grand-already-decided")
    # and the game goes on to its end
    play_to_end(table, rec, rng)
    assert table.state == "finished"
    assert rec.leaks == []


def test_rejected_play_that_does_not_beat() -> None:
    table, rec, _ = new_table(options={"seed": "3"})
    table.submit("ann", "start")
    rng = random.Random(4)
    # play until a single lies on the table and it is someone's turn to answer it
    for _ in range(500):
        rnd = table.match.round
        if (rnd.phase == "play" and rnd.trick and not rnd.trick_won
                and rnd.trick[-1][1].kind == "single" and rnd.trick[-1][1].rank >= 3):
            seat = rnd.turn
            top = rnd.trick[-1][1].rank
            low = [c for c in rnd.hand(seat) if not c.is_special and c.rank < top]
            if low:
                name = table.seated[seat]
                table.submit(name, "play", str(low[0]))
                assert codes(rec, name)[-1] == "too-low"
                return
        step(table, rec, rng)
    pytest.fail("no position found")


# ---- the mailbox ------------------------------------------------------------------------------
def test_commands_submitted_during_handling_wait_their_turn() -> None:
    table, rec, _ = new_table(join=False)
    order: list[str] = []

    def react(recipients: list[str], event: Event) -> None:
        order.append(event.type + ":" + str(event.data.get("name")))
        if event.type == "table-joined" and event.data["name"] == "ann":
            table.submit("bob", "join")           # from inside a delivery
            order.append("submitted")
    rec.on_deliver = react
    table.submit("ann", "join")
    # ann's join is delivered completely (notice and views) before bob's join is handled
    i = order.index("submitted")
    j = order.index("table-joined:bob")
    assert all(not o.startswith("table-joined:bob") for o in order[:i]) and j > i
    assert any(o.startswith("table-view") for o in order[i:j])
    assert table.seated[:2] == ["ann", "bob"]


def test_an_exception_in_a_handler_is_logged_and_the_table_goes_on() -> None:
    table, rec, _ = new_table(options={"seed": "8", "target": "200"})
    table.submit("ann", "start")
    seen: list[dict] = []
    globalLogPublisher.addObserver(seen.append)
    real_apply = table.match.apply

    def broken(player: int, action: object) -> list:
        raise RuntimeError("boom")
    table.match.apply = broken                # type: ignore[method-assign]
    try:
        table.submit("bob", "nogrand")
    finally:
        table.match.apply = real_apply        # type: ignore[method-assign]
        globalLogPublisher.removeObserver(seen.append)
    assert codes(rec, "bob") == ["internal-error"]
    failures = [e for e in seen if e.get("log_failure") is not None]
    assert failures and failures[0]["table"] == 5
    # a failing delivery is logged too, and does not stop the table either
    calls = {"n": 0}

    def flaky(recipients: list[str], event: Event) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("connection gone")
    rec.on_deliver = flaky
    globalLogPublisher.addObserver(seen.append)
    try:
        table.submit("bob", "nogrand")
    finally:
        globalLogPublisher.removeObserver(seen.append)
    rec.on_deliver = None
    assert table.match.round.grand[1] is False
    play_to_end(table, rec, random.Random(6))
    assert table.state == "finished"


# ---- bomb window ------------------------------------------------------------------------------
def test_bomb_window_holds_the_next_lead() -> None:
    table, rec, clock = new_table(options={"seed": "12", "bombwindow": "5"})
    table.submit("ann", "start")
    rng = random.Random(5)
    for _ in range(3000):
        rnd = table.match.round
        if rnd.phase == "play" and rnd.trick_won and table._window_until is not None:
            break
        step(table, rec, rng)
        assert not rec.errors()
    else:
        pytest.fail("no trick won")
    leader = table.seated[rnd.turn]
    hand = table.match.view(table.players.index(leader))["hand"].split()
    lead = next(c for c in hand if c != "Hu") if hand != ["Hu"] else "Hu"
    table.submit(leader, "play", lead)
    err = rec.errors(leader)[-1]
    assert err.type == "bomb-window" and err.data["seconds"] == 5
    clock.advance(2)
    table.submit(leader, "play", lead)
    assert rec.errors(leader)[-1].data["seconds"] == 3
    assert len(rec.errors(leader)) == 2
    views = [e for e in rec.to(leader) if e.type == "table-view"]
    assert views[-1].data["bombwindow_left"] == 5
    clock.advance(3)
    assert any(e.type == "table-window-closed" and e.data["name"] == leader for _, e in rec.log)
    n = len(rec.errors(leader))
    table.submit(leader, "play", lead)
    assert len(rec.errors(leader)) == n
    assert any(e.type == "game-play" and e.data["cards"] == lead for _, e in rec.log[-20:])
    assert not clock.getDelayedCalls()


def test_without_bomb_window_the_lead_is_immediate() -> None:
    table, rec, clock = new_table(options={"seed": "12", "round": "2"})
    table.submit("ann", "start")
    play_to_end(table, rec, random.Random(5))
    assert not any(e.type == "bomb-window" for e in rec.errors())
    assert not clock.getDelayedCalls()


# ---- members, vanishing, the removal vote, reset ----------------------------------------------
def test_a_vanished_player_is_removed_by_majority_and_a_bot_takes_the_seat() -> None:
    table, rec, clock = new_table(options={"seed": "2"}, spectator="eve")
    table.submit("ann", "start")
    table.member_gone("dan")
    assert any(e.type == "table-vanished" and e.data["name"] == "dan" for e in rec.to("eve"))
    table.submit("ann", "remove", "DAN")                  # within the grace time: too early
    assert codes(rec, "ann") == ["remove-too-early"]
    clock.advance(table.options.grace)
    table.submit("ann", "remove", "DAN")
    assert any(e.type == "table-remove-proposed" for e in rec.to("bob"))
    table.submit("ann", "accept")                         # voting twice counts once
    assert table.state == "playing"
    table.submit("dan", "accept")
    assert codes(rec, "dan") == ["not-a-voter"]
    table.submit("bob", "accept")
    assert table.state == "playing" and table.result is None
    bot = table.seated[3]
    assert bot is not None and bot != "dan" and bot in table.bots and not table.gone
    for name in ("ann", "bob", "cat", "eve"):
        assert any(e.type == "table-bot-takes-over" and e.data["target"] == "dan"
                   and e.data["name"] == bot for e in rec.to(name))
    table.submit("dan", "pass")
    assert codes(rec, "dan")[-1] == "not-a-player"
    # the game goes on without dan (tests/world/test_bots.py plays such games to the end)


def test_removal_refused_or_ended_by_return() -> None:
    table, rec, _ = new_table(options={"seed": "2", "grace": "0"})
    table.submit("ann", "start")
    table.member_gone("bob")
    table.submit("cat", "remove", {"name": "bob"})
    table.submit("ann", "remove", "bob")
    assert codes(rec, "ann") == ["vote-running"]
    table.submit("ann", "refuse")
    table.submit("dan", "refuse")
    assert table.state == "playing"
    assert any(e.type == "table-remove-refused" for _, e in rec.log)
    table.submit("cat", "remove", "bob")
    table.member_back("bob")
    # his grace time is used up: coming back does not end the vote (issue 24)
    assert not any(e.type == "table-vote-ended" for _, e in rec.log)
    assert rec.to("bob")[-1].type == "table-view"          # bob got his view back
    table.submit("dan", "refuse")
    table.submit("ann", "refuse")
    assert any(e.type == "table-remove-refused" for _, e in rec.log)
    assert table.state == "playing" and "bob" in table.players


def test_a_return_with_grace_left_ends_a_vote_on_a_timed_out_player() -> None:
    table, rec, clock = new_table(options={"seed": "2", "grace": "60", "timer": "10"})
    table.submit("ann", "start")
    waited = sorted(table.waiting_for())
    for name in waited[1:]:
        table.submit(name, "nogrand")
    slow = waited[0]
    clock.advance(11)                                 # the timer decides for the slow one
    assert slow in table.timed_out
    other = next(n for n in table.players if n != slow)
    table.submit(other, "remove", slow)
    table.member_gone(slow)
    clock.advance(1)
    table.member_back(slow)                          # 1 s of 60 used: the vote ends
    assert any(e.type == "table-vote-ended" for _, e in rec.log)


def test_leaving_the_room_before_the_start_frees_the_seat() -> None:
    table, rec, _ = new_table()
    table.remove_member("cat")
    assert table.seated == ["ann", "bob", None, "dan"]
    table.member_gone("dan")
    assert table.seated == ["ann", "bob", None, None]
    table.add_member("zoe")
    assert "zoe" in table.spectators
    assert rec.to("zoe")[-1].type == "table-view"
    table.remove_member("zoe")
    table.remove_member("ann")
    table.remove_member("bob")
    assert table.is_empty


def test_reset_after_a_finished_game_keeps_the_players() -> None:
    table, rec, _ = new_table(options={"round": "1", "seed": "6"})
    table.submit("ann", "start")
    table.submit("ann", "reset")
    assert codes(rec, "ann") == ["not-finished"]
    play_to_end(table, rec, random.Random(1))
    assert table.state == "finished"
    table.submit("eve", "reset")
    assert codes(rec, "eve") == ["not-a-player"]    # watching: no /join hint (U9)
    table.submit("bob", "reset")
    assert table.state == "waiting" and table.seated == NAMES and table.match is None
    table.submit("bob", "start")                  # not the host (issue 24)
    assert codes(rec, "bob")[-1] == "host-command"
    table.submit("ann", "start")
    assert table.state == "playing" and table.games_started == 2


def test_spielinfo() -> None:
    table, rec, _ = new_table(options={"seed": "1"}, spectator="eve")
    table.submit("eve", "spielinfo")
    info = [e for e in rec.to("eve") if e.type == "table-info"][-1].data
    assert info["state"] == "waiting" and info["seats"] == NAMES and info["spectators"] == ["eve"]
    assert info["options"]["seed"] == "1" and info["host"] == "ann"
    table.submit("ann", "start")
    table.submit("eve", "spielinfo")
    info = [e for e in rec.to("eve") if e.type == "table-info"][-1].data
    assert info["state"] == "playing" and info["scores"] == [0, 0] and info["round_no"] == 1


def test_summary_for_listroom() -> None:
    table, _rec, _ = new_table(spectator="eve")
    s = table.summary()
    assert s == {"table": 5, "game": "tichu", "state": "waiting", "seats": NAMES,
                 "options": table.options.as_dict(), "spectators": 1, "host": "ann", "bots": {}}


# ---- /play arguments --------------------------------------------------------------------------
def hand(text: str) -> list:
    return list(parse_cards(text))


def test_parse_play_cards_phoenix_and_wish() -> None:
    h = hand("Ma S5 B5 Ph R9")
    assert parse_play("S5 ph=5 B5", h) == (hand("S5 Ph B5"), 5, UNSET)
    assert parse_play("Ma wish 8", h) == (hand("Ma"), None, "8")
    assert parse_play("Ma wish none", h) == (hand("Ma"), None, None)
    assert parse_play("Ma wish J", h)[2] == "B"
    with pytest.raises(Rejected) as bad:
        parse_play("S5 Q5", h)
    assert bad.value.code == "bad-card"
    with pytest.raises(Rejected) as dup:
        parse_play("S5 S5", h)
    assert dup.value.code == "duplicate-card"
    with pytest.raises(Rejected) as wish:
        parse_play("Ma wish 1", h)
    assert wish.value.code == "bad-rank"


def test_rank_only_shorthand_keeps_bombs() -> None:
    # G3..G7 is a straight bomb; S7 and B7 are free
    h = hand("G3 G4 G5 G6 G7 S7 B7 R2")
    assert sorted(parse_play("7 7", h)[0]) == sorted(hand("S7 B7"))
    assert parse_play("7", h)[0] == hand("S7")
    # three 7s: the third one must come from the bomb, and there is only one
    assert sorted(parse_play("7 7 7", h)[0]) == sorted(hand("S7 B7 G7"))
    # mixing named cards and ranks
    assert sorted(parse_play("G7 7", h)[0]) == sorted(hand("G7 S7"))
    # only bomb cards, and a choice between two bombs: ambiguous
    h2 = hand("G3 G4 G5 G6 G7 R3 R4 R5 R6 R7")
    with pytest.raises(Rejected) as amb:
        parse_play("7", h2)
    assert amb.value.code == "ambiguous-cards"
    with pytest.raises(Rejected) as missing:
        parse_play("K", h2)
    assert missing.value.code == "missing-rank"
    # a four of a kind of the named rank is the player's own choice to break
    h3 = hand("S9 B9 G9 R9 R2")
    assert len(parse_play("9 9", h3)[0]) == 2


def test_rank_shorthand_at_the_table() -> None:
    table, rec, _ = new_table(options={"seed": "23"})
    table.submit("ann", "start")
    rng = random.Random(9)
    while table.match.round.phase != "play":
        step(table, rec, rng)
    rnd = table.match.round
    seat = rnd.turn
    name = table.seated[seat]
    normal = sorted(c for c in rnd.hand(seat) if not c.is_special)
    card = normal[0]
    same = [c for c in rnd.hand(seat) if not c.is_special and c.rank == card.rank]
    table.submit(name, "play", " ".join([str(card.rank) if card.rank <= 10 else "JQKA"[card.rank - 11]]
                                         * len(same)))
    plays = [e for _, e in rec.log if e.type == "game-play"]
    if not rec.errors(name):
        assert sorted(parse_cards(plays[-1].data["cards"])) == sorted(same)
    else:                                     # the wish or the Mah Jong rule may forbid it
        assert codes(rec, name)[-1] in ERRORS


def test_dragon_directions() -> None:
    """"right" is the next player in turn order, "left" the previous one."""
    found = False
    for seed in range(40):
        table, rec, _ = new_table(options={"seed": str(seed), "round": "1"})
        table.submit("ann", "start")
        rng = random.Random(seed)
        while table.state == "playing":
            rnd = table.match.round
            if rnd.phase == "dragon":
                holder = rnd.holder
                name = table.seated[holder]
                word = rng.choice(["left", "right"])
                table.submit(name, "dragon", word)
                given = [e for _, e in rec.log if e.type == "game-dragon-given"][-1].data
                assert given["to"] == (holder + (1 if word == "right" else 3)) % 4
                found = True
                break
            step(table, rec, rng)
        if found:
            break
    assert found


def test_turnier_rotates_seats_and_hidden_cards_follow_their_player() -> None:
    table, rec, _ = new_table(options={"turnier": "on", "seed": "9"}, spectator="eve")
    table.submit("ann", "start")
    first = table.seated
    rng = random.Random(4)
    play_to_end(table, rec, rng, stop=lambda: table.match.round_no == 4)
    assert table.state == "playing" and table.match.round_no == 4
    assert table.seated != first and sorted(table.seated) == sorted(NAMES)
    # partners after round 3: ann with bob (docs/rules.md 32)
    seats = table.seated
    assert (seats.index("ann") - seats.index("bob")) % 2 == 0
    # the last play of round 3 is told with round 3's seating, round 4's events with the new one
    r3 = [e for _, e in rec.log if e.type == "game-round-over"][-1]
    assert r3.data["names"] == first
    r4 = [e for _, e in rec.log if e.type == "game-round-start"][-1]
    assert r4.data["names"] == table.seated
    # each player's new 14 cards went to that player, nobody else
    for name in NAMES:
        deal = [e for e in rec.to(name) if e.type == "game-deal"][-1]
        hand = table.match.view(table.players.index(name))["hand"]
        assert sorted(parse_cards(deal.data["cards"])) == sorted(parse_cards(hand))
    assert rec.leaks == []


def window_deal() -> list[list]:
    """ann: Mah Jong and Dragon; bob: the four 9s (a bomb); the rest shuffled."""
    from lobby.tichu.cards import DECK
    ann = list(parse_cards("Ma Dr S2 B2"))
    bob = list(parse_cards("S9 B9 G9 R9 S3 B3"))
    rest = [c for c in DECK if c not in ann + bob]
    random.Random(0).shuffle(rest)
    ann += rest[:10]
    bob += rest[10:18]
    return [ann, bob, rest[18:32], rest[32:46]]


def start_window_game(bombwindow: str = "3") -> tuple[TableActor, Recorder, object]:
    table, rec, clock = new_table(options={"bombwindow": bombwindow, "seed": "1"})
    table.deals = [window_deal()]
    table.submit("ann", "start")
    for n in NAMES:
        table.submit(n, "nogrand")
    keep = {"ann": {"Ma", "Dr"}, "bob": {"S9", "B9", "G9", "R9"}}
    for i, n in enumerate(NAMES):
        hand = table.match.view(i)["hand"].split()
        give = [c for c in hand if c not in keep.get(n, set())][:3]
        table.submit(n, "schupf", " ".join(give))
    assert not rec.errors() and table.match.round.turn == 0
    return table, rec, clock


def test_a_bomb_during_the_bomb_window_ends_it() -> None:
    table, rec, clock = start_window_game()
    table.submit("ann", "play", "Ma wish none")
    for n in ("bob", "cat", "dan"):
        table.submit(n, "pass")
    assert table._window_until is not None and table.match.round.trick_won
    table.submit("ann", "play", "S2")
    assert codes(rec, "ann") == ["bomb-window"]
    table.submit("bob", "bomben", "9 9 9 9")           # rank shorthand, BSW alias
    assert not rec.errors("bob")
    assert table._window_until is None and not clock.getDelayedCalls()
    assert [e for _, e in rec.log if e.type == "game-play"][-1].data["combo"] == "bomb"
    assert not table.match.round.trick_won and table.match.round.turn == 2


def test_the_dragon_gift_waits_for_the_bomb_window() -> None:
    table, rec, clock = start_window_game("4")
    table.submit("ann", "play", "Dr")
    for n in ("bob", "cat", "dan"):
        table.submit(n, "pass")
    assert table.match.round.phase == "dragon"
    table.submit("ann", "dragon", "right")
    assert codes(rec, "ann") == ["bomb-window"]
    clock.advance(4)
    table.submit("ann", "dragon", "right")
    assert codes(rec, "ann") == ["bomb-window"]
    given = [e for _, e in rec.log if e.type == "game-dragon-given"][-1]
    assert given.data["to"] == 1 and given.data["names"][1] == "bob"


def test_the_host_hands_on_and_close_abandons() -> None:
    table, rec, clock = new_table(options={"host": "on", "bombwindow": "2"})
    table.remove_member("ann")                        # the host leaves before the start
    assert table.host == "bob"
    assert any(e.type == "table-new-host" and e.data["name"] == "bob" for e in rec.to("cat"))
    table.submit("eve", "join", ["1"])                # args as a token list
    table.submit("bob", "start")
    assert table.state == "playing" and table.seated[0] == "eve"
    table.close()
    assert table.state == "finished" and table.result["abandoned"]
    assert not clock.getDelayedCalls()


def test_a_random_seed_stays_secret_while_the_game_runs() -> None:
    """Match(seed) deals every hand of every round: a seed the table drew itself is shown to
    nobody (table-started, /spielinfo) until the game is over; an /option seed is public anyway."""
    table, rec, _ = new_table(spectator="eve")
    table.submit("ann", "start")
    table.submit("eve", "spielinfo")
    table.submit("bob", "spielinfo")
    assert table.state == "playing" and table.seed is not None
    seeds = [e.data.get("seed") for _, e in rec.log if "seed" in e.data]
    assert seeds and all(s is None for s in seeds), seeds
    table, rec, _ = new_table(options={"seed": "11"}, spectator="eve")
    table.submit("ann", "start")
    table.submit("eve", "spielinfo")
    # table-started, table-seeded (to the seated humans), /spielinfo
    assert [e.data["seed"] for _, e in rec.log if "seed" in e.data] == [11, 11, 11]


def test_only_the_host_sets_the_seed_and_the_players_are_told_at_the_start() -> None:
    """The seed deals every hand (issue 12): only the host may set it, whatever option host
    says, and at /start every seated human (not a spectator, not a bot) is told."""
    table, rec, _ = new_table(spectator="eve")
    table.submit("bob", "option", "seed 7")              # seated, but not the host
    table.submit("bob", "option", {"name": "seed", "value": "off"})
    assert codes(rec, "bob") == ["host-only-option"] * 2
    assert rec.errors("bob")[0].data == {"option": "seed", "host": "ann"}
    assert table.options.seed is None
    table.submit("bob", "option", "dragon fixed on")     # every option is the host's (issue 24)
    assert table.options.dragon_fixed is False
    table.submit("ann", "option", "dragon fixed on")
    assert table.options.dragon_fixed is True
    table.submit("dan", "leave")
    table.submit("ann", "addbot", "4")
    table.submit("ann", "option", "seed 7")
    assert table.options.seed == 7
    table.submit("ann", "start")
    told = [(names, e) for names, e in rec.log if e.type == "table-seeded"]
    assert len(told) == 1
    names, event = told[0]
    assert sorted(names) == ["ann", "bob", "cat"] and event.data == {"table": table.number,
                                                                     "host": "ann", "seed": 7}
    assert not any(e.type == "table-seeded" for e in rec.to("eve"))
    # without a seed nobody is told anything of the kind
    table, rec, _ = new_table()
    table.submit("ann", "start")
    assert not any(e.type == "table-seeded" for _, e in rec.log)


def test_a_host_who_left_during_the_game_hands_the_table_on_at_reset() -> None:
    """With option host only the host may start: a host who vanished from the game (and was
    replaced by a bot) must not leave the reset table to nobody who may start it again."""
    table, rec, _clock = new_table(options={"host": "on", "round": "1", "seed": "4", "grace": "0"})
    table.submit("ann", "start")
    table.member_gone("ann")
    table.submit("bob", "remove", "ann")
    table.submit("cat", "accept")
    assert "ann" not in table.players
    play_to_end(table, rec, random.Random(5))
    assert table.state == "finished"
    table.submit("bob", "reset")
    assert table.state == "waiting" and table.host == "bob"
    assert any(e.type == "table-new-host" and e.data["name"] == "bob" for e in rec.to("cat"))
    rec.clear()
    table.submit("bob", "start")
    assert table.state == "playing", rec.errors()


def test_leave_after_the_game_frees_the_seat_for_the_next_one() -> None:
    """/leave after the game says table-left; the reset table must not seat them again."""
    table, rec, _ = new_table(options={"round": "1", "seed": "4"})
    table.submit("ann", "start")
    play_to_end(table, rec, random.Random(5))
    assert table.state == "finished"
    table.submit("dan", "leave")
    assert any(e.type == "table-left" and e.data["name"] == "dan" for e in rec.to("ann"))
    table.submit("ann", "reset")
    assert table.state == "waiting" and "dan" not in table.seated
    assert table.seated.count(None) == 1 and "dan" in table.spectators
    table.submit("dan", "join")
    assert not rec.errors("dan") and "dan" in table.seated


def test_a_player_who_vanished_is_no_spectator_after_the_reset() -> None:
    """dan goes out first and disconnects; the game ends without him. After /reset he must not
    be a member of the table (listed as watching, sent every table event wherever he is)."""
    table, rec, _ = new_table(options={"round": "1", "seed": "2"})
    table.submit("ann", "start")
    match = table.match
    assert match is not None
    rng = random.Random(2)

    def dan_out() -> bool:
        rnd = match.round
        return rnd.phase == "play" and rnd.hands[match.seat_of(3)] == 0

    play_to_end(table, rec, rng, stop=dan_out)
    assert table.state == "playing"
    table.member_gone("dan")
    play_to_end(table, rec, rng)
    assert table.state == "finished"
    table.submit("ann", "reset")
    assert table.state == "waiting" and "dan" not in table.seated
    assert "dan" not in table.spectators and "dan" not in table.members
    rec.clear()
    table.submit("ann", "option", "target 500")
    assert rec.to("dan") == []
    table.add_member("dan")                   # back later: he enters the room as anybody does
    assert "dan" in table.spectators


def test_a_drawn_seed_comes_from_a_range_nobody_can_search() -> None:
    """The seed fixes every deal: 2**31 seeds could be tried against one's own first 8 cards."""
    import random as _random

    from twisted.internet import task as _task

    from lobby.tables.table import TableActor

    table = TableActor(1, _task.Clock(), lambda recipients, event: None)
    table._rng = _random.Random(12345)
    for name in ("a1", "b2", "c3", "d4"):
        table.submit(name, "join")
    table.submit("a1", "start")
    assert table.state == "playing"
    expected = _random.Random(12345).randrange(2 ** 63)
    assert table.seed == expected and table.seed >= 2 ** 31


def test_already_called_names_the_call_in_the_readers_language() -> None:
    """U10: `already-called` after a Grand Tichu reads `Großes Tichu` in German, not the engine's
    English; the English text and machine mode's param stay `Grand Tichu`."""
    from lobby.text.messages import text
    table, rec, _ = new_table(options={"seed": "17"})
    table.submit("ann", "start")
    table.submit("ann", "grand")
    for n in NAMES[1:]:
        table.submit(n, "nogrand")
    rec.clear()
    table.submit("ann", "tichu")
    [err] = rec.errors("ann")
    assert err.type == "already-called"
    assert str(err.data["call"]) == "Grand Tichu"
    assert text(err.type, "de", **err.data) == "Du hast schon Großes Tichu angesagt."
    assert text(err.type, "en", **err.data) == "You have already called Grand Tichu."


def test_a_present_player_of_a_rated_game_needs_two_time_outs_and_the_partners_yes() -> None:
    """Issue 24 (outside finding): the opponents alone cannot remove a present player of a
    rated game; with a bot in the partner's seat every other player must agree."""
    table, rec, clock = new_table(options={"timer": "30"})
    table.submit("ann", "start")
    table.rated = True                    # (four registered players in a real server)
    for name in ("ann", "bob", "cat"):
        table.submit(name, "nogrand")
    clock.advance(31)                      # dan: one time-out
    assert [e.type for _, e in rec.log if e.type.startswith("table-timed-out")] == [
        "table-timed-out-rated"]
    table.submit("ann", "remove", "dan")
    assert codes(rec, "ann")[-1] == "remove-needs-timeouts"
    assert rec.errors("ann")[-1].data == {"name": "dan", "count": 1, "needed": 2}
    clock.advance(31)                      # the exchange: everyone times out, dan a second time
    assert table.timeouts == {"ann": 1, "bob": 1, "cat": 1, "dan": 2}
    table.submit("ann", "remove", "dan")   # bob (partner of dan) must say yes
    table.submit("cat", "accept")
    assert "dan" in table.players
    table.submit("bob", "accept")
    assert "dan" not in table.players and "dan" in table.leavers
    # bob's partner is a bot now: ann and cat must both agree
    table.timed_out.add("bob")
    table.timeouts["bob"] = 2
    table.submit("ann", "remove", "bob")
    assert any(e.type == "table-remove-needs-all" for _, e in rec.log)
    table.submit("cat", "refuse")
    assert "bob" in table.players and table._vote is None


def test_a_vote_waiting_for_a_vanished_partner_gives_way_to_a_new_one() -> None:
    """The partner's yes cannot come while the partner is away: a new /remove (of the partner
    whose grace is used up) ends that vote instead of being refused with vote-running."""
    table, rec, clock = new_table(options={"timer": "30", "grace": "30"})
    table.submit("ann", "start")
    table.rated = True
    for name in ("ann", "bob", "cat"):
        table.submit(name, "nogrand")
    clock.advance(31)
    clock.advance(31)                      # dan: two time-outs
    table.submit("ann", "remove", "dan")   # needs bob's yes
    table.member_gone("bob")
    clock.advance(31)                      # bob's grace is used up
    table.submit("cat", "remove", "bob")
    assert not rec.errors("cat")
    assert any(e.type == "table-vote-ended" and e.data["name"] == "dan" for _, e in rec.log)
    table.submit("ann", "accept")
    assert "bob" not in table.players and "dan" in table.players
