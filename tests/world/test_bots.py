"""In-process bots at a TableActor (lobby/bots): /addbot, /removebot, complete games with bots,
a bot taking over a removed player's seat; the strategies' commands are always accepted."""
from __future__ import annotations

import random
from typing import Any

import pytest

from lobby.bots.runtime.player import BOT_MARK, is_bot_name
from lobby.bots.strategies.heuristic import HeuristicStrategy
from lobby.bots.strategies.plan import analyse
from lobby.bots.strategies.random_bot import RandomStrategy
from lobby.bots.strategies.registry import STRATEGY_NAMES, make_strategy
from lobby.bots.strategies.strategy import command_action, my_turn_to
from lobby.tables.table import TABLE_COMMANDS, TableActor
from lobby.tichu import Match, MatchOptions
from lobby.tichu.actions import CallTichu, Exchange, GiveDragon, Pass, Play, Wish
from lobby.tichu.cards import parse_cards
from table_support import NAMES, Recorder, command_for, new_table


def codes(rec: Recorder, name: str) -> list[str]:
    return [e.type for e in rec.errors(name)]


def bot_errors(table: TableActor) -> list[Any]:
    return [(name, e.type, e.data) for name, bot in table.bots.items() for e in bot.errors]


def drive(table: TableActor, rec: Recorder, clock: Any, humans: list[str], rng: random.Random,
          *, limit: int = 5000, stop: Any = None) -> int:
    """Run the game: the bots answer through the clock, the `humans` send engine-legal actions
    as commands. Returns the number of human commands; every command must be accepted."""
    sent = 0
    for _ in range(limit):
        clock.advance(0)
        if table.state != "playing" or (stop is not None and stop()):
            return sent
        match = table.match
        assert match is not None
        choices: list[tuple[str, Any]] = []
        for name in humans:
            if name not in table.players:
                continue
            player = table.players.index(name)
            seat = match.seat_of(player)
            rnd = match.round
            for a in match.legal_actions(player):
                if isinstance(a, CallTichu) and rng.random() > 0.05:
                    continue
                if isinstance(a, Play) and rnd.phase == "play" and rnd.turn != seat:
                    continue                          # no bombs out of turn: keeps it simple
                if isinstance(a, Play) and rnd.phase == "dragon":
                    continue
                choices.append((name, a))
        if not choices:
            assert clock.getDelayedCalls(), "nobody can act"
            continue
        plays = [c for c in choices if isinstance(c[1], Play)]
        if plays and rng.random() < 0.5:
            choices = plays
        exchanges = [c for c in choices if isinstance(c[1], Exchange)]
        if exchanges:
            choices = [rng.choice(exchanges)]
        name, action = rng.choice(choices)
        player = table.players.index(name)
        seat = match.seat_of(player)
        command, args = command_for(action, seat, rng, in_turn=match.round.turn == seat)
        before = len(rec.log)
        rec.before_submit()
        table.submit(name, command, args)
        errors = [e for _, e in rec.log[before:] if e.is_error]
        assert not errors, (name, command, args, errors)
        sent += 1
    raise AssertionError("the game did not end")


def bots_play_to_the_end(table: TableActor, clock: Any, limit: int = 20000) -> None:
    """Turn the clock until a game of bots only is no longer playing."""
    for _ in range(limit):
        if table.state != "playing":
            return
        clock.advance(0)


def bot_table(**kw: Any) -> tuple[TableActor, Recorder, Any]:
    table, rec, clock = new_table(**kw)
    table.bot_delay = 0.0
    return table, rec, clock


# ---- /addbot and /removebot -------------------------------------------------------------------
def test_the_bot_commands_are_table_commands() -> None:
    addbot, removebot = TABLE_COMMANDS.lookup("addbot"), TABLE_COMMANDS.lookup("removebot")
    assert addbot is not None and removebot is not None
    assert [a.key for a in addbot.args] == ["seat", "strategy"]
    assert addbot.usage == "/addbot [SEAT] [random|heuristic|expert|expert:SECONDS]"
    assert [a.key for a in removebot.args] == ["seat"]
    assert STRATEGY_NAMES == ("heuristic", "random", "expert")


def test_addbot_seats_bots_marked_as_bots_and_removebot_frees_the_seat() -> None:
    table, rec, _clock = bot_table(join=False, spectator="eve")
    table.submit("ann", "join", "1")
    table.submit("ann", "addbot")                              # first free seat, heuristic
    table.submit("ann", "addbot", "4 random")
    table.submit("ann", "addbot", {"seat": "3", "strategy": "random"})
    assert not rec.errors()
    seated = table.seated
    assert seated[0] == "ann" and all(is_bot_name(n) for n in seated[1:])
    assert len(set(seated)) == 4 and all(BOT_MARK in n for n in seated[1:])
    assert table.bots[seated[1]].strategy_name == "heuristic"
    assert table.bots[seated[3]].strategy_name == "random"
    assert table.summary()["bots"] == {n: table.bots[n].strategy_name for n in seated[1:]}
    view = [e for e in rec.to("eve") if e.type == "table-view"][-1]
    assert set(view.data["bots"]) == set(seated[1:])
    table.submit("eve", "spielinfo")
    info = [e for e in rec.to("eve") if e.type == "table-info"][-1]
    assert set(info.data["bots"]) == set(seated[1:])
    added = [e for e in rec.to("eve") if e.type == "table-bot-added"]
    assert [e.data["seat"] for e in added] == [2, 4, 3]
    # the bots' events never reach the world's deliver
    assert not any(is_bot_name(n) for recipients, _ in rec.log for n in recipients)
    table.submit("ann", "removebot", "2")
    assert table.seated[1] is None and seated[1] not in table.bots
    assert any(e.type == "table-bot-removed" for e in rec.to("eve"))
    table.submit("ann", "removebot", seated[3].upper())          # by name too
    assert table.seated[3] is None
    assert not rec.errors()


def test_bot_command_refusals() -> None:
    table, rec, _clock = bot_table(join=False, spectator="eve")
    table.submit("ann", "join", "1")
    table.submit("eve", "addbot")
    assert codes(rec, "eve") == ["host-command"]                # only the host may
    table.submit("ann", "addbot", "clever")
    table.submit("ann", "addbot", "7")
    table.submit("ann", "addbot", "1")
    table.submit("ann", "removebot", "1")
    table.submit("ann", "removebot", "2")
    table.submit("ann", "removebot")
    assert codes(rec, "ann") == ["unknown-strategy", "no-such-seat", "seat-taken", "not-a-bot",
                                 "not-a-bot", "bad-arguments"]
    for _ in range(3):
        table.submit("ann", "addbot")
    table.submit("ann", "addbot")
    assert codes(rec, "ann")[-1] == "table-full"
    table.submit("ann", "start")
    assert table.state == "playing"
    table.submit("ann", "addbot")
    table.submit("ann", "removebot", "2")
    assert codes(rec, "ann")[-2:] == ["game-running", "game-running"]


def test_a_bot_name_cannot_be_a_user_name() -> None:
    from lobby.storage.accounts import valid_name
    assert not valid_name("Bot1~heuristic")


# ---- complete games ---------------------------------------------------------------------------
def test_four_bots_play_a_complete_game() -> None:
    table, rec, clock = bot_table(join=False, spectator="eve",
                                  options={"seed": "11", "target": "300"})
    for strategy in ("heuristic", "random", "heuristic", "random"):
        table.submit("ann", "addbot", strategy)
    table.submit("ann", "start")
    assert table.state == "playing"
    bots_play_to_the_end(table, clock)
    assert table.state == "finished"
    assert table.result is not None and not table.result.get("abandoned")
    assert set(table.result["bots"]) == set(table.players)
    assert not bot_errors(table) and not rec.errors()
    assert all(bot.sent for bot in table.bots.values())
    assert any(e.type == "game-match-over" for e in rec.to("eve"))
    assert not rec.leaks


def test_one_person_plays_a_complete_game_against_three_bots() -> None:
    table, rec, clock = bot_table(join=False, options={"seed": "5", "target": "300"})
    table.submit("ann", "join")
    for strategy in ("heuristic", "heuristic", "random"):
        table.submit("ann", "addbot", strategy)
    table.submit("ann", "start")
    sent = drive(table, rec, clock, ["ann"], random.Random(5))
    assert table.state == "finished" and not table.result.get("abandoned")
    assert sent > 20
    assert not bot_errors(table) and not rec.errors()
    assert not rec.leaks
    assert any(e.type == "game-match-over" for e in rec.to("ann"))


def test_a_removed_player_is_replaced_by_a_bot_and_the_game_ends_normally() -> None:
    table, rec, clock = bot_table(options={"seed": "8", "target": "300"}, spectator="eve")
    table.submit("ann", "start")
    rng = random.Random(8)
    humans = list(NAMES)
    match = table.match
    assert match is not None
    drive(table, rec, clock, humans, rng, stop=lambda: match.round.phase == "play"
          and sum(match.round.cards_left()) < 50)
    hand = match.round.hand(match.seat_of(table.players.index("dan")))
    table.member_gone("dan")
    clock.advance(table.options.grace)                    # the grace time is over
    table.submit("ann", "remove", "dan")
    table.submit("bob", "accept")
    humans.remove("dan")
    bot = table.seated[3]
    assert bot is not None and is_bot_name(bot) and table.state == "playing"
    assert any(e.type == "table-bot-takes-over" and e.data["name"] == bot for e in rec.to("eve"))
    bot_player = table.players.index(bot)
    assert match.round.hand(match.seat_of(bot_player)) == hand   # the bot has dan's hand
    drive(table, rec, clock, humans, rng)
    assert table.state == "finished" and not table.result.get("abandoned")
    assert bot in table.result["players"] and bot in table.result["bots"]
    assert table.bots[bot].sent and not bot_errors(table)
    assert not rec.leaks


def test_bots_wait_for_the_bomb_window_and_their_delay() -> None:
    table, rec, clock = bot_table(join=False, options={"seed": "3", "target": "100",
                                                       "bombwindow": "2"})
    table.bot_delay = 0.5
    for _ in range(4):
        table.submit("ann", "addbot")
    table.submit("ann", "start")
    clock.advance(0.25)
    assert not any(bot.sent for bot in table.bots.values())    # the delay has not passed
    for _ in range(40000):
        if table.state != "playing":
            break
        clock.advance(0.5)
    assert table.state == "finished"
    assert not bot_errors(table) and not rec.errors("ann")


# ---- strategies at the engine level -----------------------------------------------------------
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow(
        reason="three rounds of four experts (seconds of search); the quick loop has every "
               "command of two expert bots accepted in test_expert.py's "
               "test_expert_bots_play_a_complete_game_at_a_table")) if name == "expert" else name
    for name in STRATEGY_NAMES])
def test_every_command_of_a_strategy_is_legal(name: str) -> None:
    """Both strategies at all four seats for a few rounds: every command is an accepted action
    (Match.apply raises on anything else)."""
    match = Match(MatchOptions(target=10000, max_rounds=3), seed=21)
    bots = [make_strategy(name, seed=p) for p in range(4)]
    steps = 0
    while not match.finished and steps < 5000:
        acted = False
        order = sorted(range(4), key=lambda p: my_turn_to(match.view(p)) is not None)
        for p in order:
            command = bots[p].decide(match.view(p))
            if command:
                match.apply(p, command_action(command, match.seat_of(p)))
                acted = True
                break
        assert acted
        steps += 1
    assert match.finished


def test_command_action_reads_bot_commands() -> None:
    assert command_action("play Ma wish 8", 0) == Play(parse_cards("Ma"), None, "8")
    assert command_action("play R5 G5 Ph=5", 0) == Play(parse_cards("R5 G5 Ph"), 5)
    assert command_action("pass", 1) == Pass()
    assert command_action("wish none", 1) == Wish(None)
    assert command_action("dragon left", 1) == GiveDragon(0)
    assert command_action("dragon right", 3) == GiveDragon(0)
    assert isinstance(command_action("schupf S2 RA G3", 2), Exchange)


def test_plan_keeps_bombs_and_finds_straights() -> None:
    plan = analyse(parse_cards("S2 B3 G4 R5 S6 S9 B9 G9 R9 Dr Ph RA GA Hu"))
    kinds = sorted(g.kind for g in plan.groups)
    assert "bomb" in kinds and "straight" in kinds and "dog" in kinds
    bomb = next(g for g in plan.groups if g.kind == "bomb")
    assert sorted(c.rank for c in bomb.cards) == [9, 9, 9, 9]
    assert sum(len(g.cards) for g in plan.groups) == 14


def test_heuristic_exchange_wish_and_dragon_gift() -> None:
    h = HeuristicStrategy(seed=1)
    hand = "S2 B3 G7 R8 S9 B9 G9 R9 SK RA GA Dr Ph Hu"
    view = {"phase": "exchange", "seat": 0, "hand": hand, "calls": [None] * 4}
    command = h.decide(view)
    assert command is not None and command.startswith("schupf ")
    given = parse_cards(command.split(None, 1)[1])
    assert len(set(given)) == 3 and all(c in parse_cards(hand) for c in given)
    assert not any(c.rank == 9 for c in given)                 # the bomb stays whole
    assert given[0] == parse_cards("Hu")[0]                    # the Dog to an opponent
    # the wish: a rank we passed to an opponent and do not hold any more
    wish_view = {"phase": "wish", "seat": 0, "wish_pending": 0, "hand": "S3 S4",
                 "given": "B10 RA GD"}
    assert h.decide(wish_view) == "wish D"
    # the Dragon trick: to the opponent with most cards who called no Tichu
    dragon = {"phase": "dragon", "seat": 0, "holder": 0, "cards_left": [3, 9, 2, 5],
              "calls": [None, "tichu", None, None]}
    assert h.decide(dragon) == "dragon left"
    dragon["calls"] = [None] * 4
    assert h.decide(dragon) == "dragon right"


def test_heuristic_does_not_overtake_a_winning_partner() -> None:
    h = HeuristicStrategy(seed=1)
    view = {"phase": "play", "seat": 0, "turn": 0, "hand": "S3 B7 RA", "holder": 2,
            "trick": [{"seat": 2, "cards": "G6", "combo": "single"}], "trick_won": False,
            "calls": [None] * 4, "cards_left": [3, 8, 6, 8], "legal": ["B7", "RA"],
            "can_pass": True}
    assert h.decide(view) == "pass"
    view["holder"] = 1
    view["trick"] = [{"seat": 1, "cards": "G6", "combo": "single"}]
    assert h.decide(view) == "play B7"


def test_random_strategy_uses_only_legal_plays() -> None:
    r = RandomStrategy(seed=3)
    view = {"phase": "play", "seat": 1, "turn": 1, "hand": "S3 B7 RA", "legal": ["B7", "RA"],
            "can_pass": True, "calls": [None] * 4, "cards_left": [3, 3, 3, 3]}
    seen = {r.decide(view) for _ in range(200)}
    assert seen == {"play B7", "play RA", "pass"}


def test_bot_names_are_numbered_across_strategies() -> None:
    from lobby.bots.runtime.player import bot_name
    assert bot_name("random", {"Bot1~heuristic", "ann"}) == "Bot2~random"
    assert bot_name("heuristic", {"Bot2~random"}) == "Bot1~heuristic"


def test_bots_play_a_turnier_game_and_stay_seated_after_reset() -> None:
    table, rec, clock = bot_table(join=False, options={"seed": "4", "turnier": "on"})
    for strategy in ("heuristic", "random", "random", "heuristic"):
        table.submit("ann", "addbot", strategy)
    table.submit("ann", "start")
    for _ in range(40000):
        if table.state != "playing":
            break
        clock.advance(0)
    assert table.state == "finished" and table.match is not None
    assert table.match.round_no == 9 and not bot_errors(table) and not rec.errors()
    bots = set(table.bots)
    table.submit("ann", "reset")
    assert table.state == "waiting" and set(table.seated) == bots
    table.submit("ann", "start")
    assert table.state == "playing"


def test_a_replaced_player_who_comes_back_watches() -> None:
    table, rec, clock = bot_table(options={"seed": "2", "grace": "0"})
    table.submit("ann", "start")
    table.member_gone("dan")
    table.submit("ann", "remove", "dan")
    table.submit("cat", "accept")
    assert table.state == "playing" and "dan" not in table.seated
    assert "dan" not in table._audience()                 # offline: nothing is sent to dan
    rec.clear()
    table.member_back("dan")
    table.add_member("dan")
    views = [e for e in rec.to("dan") if e.type == "table-view"]
    assert views and views[-1].data["seat"] is None and "hand" not in views[-1].data["game"]
    table.submit("dan", "pass")
    assert codes(rec, "dan") == ["not-a-player"]
    clock.advance(0)
    assert list(table.bots[table.seated[3]].sent) in (["nogrand"], ["grand"])
    assert not rec.leaks


class _Stubborn:
    """A broken strategy: always passes, also when it must lead."""

    name = "stubborn"

    def decide(self, view: Any) -> str | None:
        return "pass" if my_turn_to(view) == "play" else HeuristicStrategy().decide(view)


def test_a_refused_bot_command_falls_back_to_a_random_legal_one() -> None:
    table, _rec, clock = bot_table(join=False, options={"seed": "6", "target": "100"})
    for _ in range(4):
        table.submit("ann", "addbot")
    for bot in table.bots.values():
        bot.strategy = _Stubborn()
    table.submit("ann", "start")
    bots_play_to_the_end(table, clock)
    assert table.state == "finished"
    refusals = [e.type for bot in table.bots.values() for e in bot.errors]
    assert refusals and set(refusals) <= {"must-lead", "must-fulfil-wish"}


def test_bots_are_marked_in_who(lobby) -> None:
    ann = lobby.connect()
    ann.login("Ann")
    ann.send("/newroom")
    ann.send("/addbot 2 random")
    ann.text()
    ann.send("/who")
    assert "Bot1~random (bot)" in ann.text()


def test_a_seeded_game_with_bots_plays_the_same_every_time() -> None:
    """The bots of a table with `/option seed` decide from that seed: the same game each time,
    whatever the bots were seeded with when they were added."""
    def play() -> tuple[Any, list[Any]]:
        table, rec, clock = bot_table(join=False, options={"seed": "11", "target": "300"})
        for strategy in ("heuristic", "random", "heuristic", "random"):
            table.submit("ann", "addbot", strategy)
        table.submit("ann", "start")
        bots_play_to_the_end(table, clock)
        assert table.state == "finished" and not rec.errors()
        events = [(e.type, e.data) for _, e in rec.log if e.type.startswith("game-")]
        return table.result["rounds"], events

    first = play()
    assert first[1] and first == play()
