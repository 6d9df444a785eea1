"""The expert bot (lobby/bots/strategies/expert.py, knowledge.py, search.py): it plays legal, complete games,
it knows only what its seat may know, its sampled deals agree with that knowledge, its levels;
and the heuristic bot's Dragon bomb."""
from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lobby.bots.strategies.expert import DEFAULT_SECONDS, ExpertStrategy, parse_level
from lobby.bots.strategies.heuristic import HeuristicStrategy
from lobby.bots.strategies.knowledge import Knowledge
from lobby.bots.strategies.random_bot import RandomStrategy
from lobby.bots.strategies.registry import make_strategy
from lobby.bots.strategies.search import Job, think
from lobby.bots.strategies.strategy import command_action
from lobby.tichu import Match, MatchOptions
from lobby.tichu.cards import DECK, MAHJONG, RANK_MASK, cards_mask, parse_cards
from lobby.tichu.combos import classify
from lobby.tichu.errors import Rejected
from lobby.tichu.round import Round
from table_support import new_table


# ---- helpers: an engine-level game whose events reach each player as the table delivers them ------
class Game:
    """A match driven by strategies; every player's strategy that can `observe` gets the events
    addressed to it (public ones and its own), as their JSON form (what a table delivers)."""

    def __init__(self, strategies: list[Any], seed: int, deals: Any = None,
                 target: int = 1000) -> None:
        self.match = Match(MatchOptions(target=target), seed=seed, deals=deals)
        self.strategies = strategies
        self.log: list[tuple[int, Any]] = []          # (player, action) in order
        self._deliver(self.match.opening_events())

    def _deliver(self, events: list[Any]) -> None:
        for ev in events:
            for p, s in enumerate(self.strategies):
                observe = getattr(s, "observe", None)
                if observe is not None and (ev.to is None or ev.to == p):
                    observe(ev.kind, ev.to_json())

    def askers(self) -> list[int]:
        match = self.match
        rnd = match.round
        ph = rnd.phase
        if ph == "grand":
            return [p for p in range(4) if rnd.grand[match.seat_of(p)] is None]
        if ph == "exchange":
            return [p for p in range(4) if rnd.given[match.seat_of(p)] is None]
        if ph == "wish":
            return [match.player_at(rnd.wisher)]
        ask = [p for p in range(4) if rnd.bombs(match.seat_of(p))]
        lead = rnd.holder if ph == "dragon" else rnd.turn
        if lead is not None:
            ask.append(match.player_at(lead))
        return ask

    def step(self) -> bool:
        """One action (the first player asked who answers); False at the end."""
        if self.match.finished:
            return False
        for p in self.askers():
            command = self.strategies[p].decide(self.match.view(p))
            if command is None:
                continue
            action = command_action(command, self.match.seat_of(p))
            self.apply(p, action)
            return True
        raise AssertionError("nobody acts")

    def apply(self, p: int, action: Any) -> None:
        events = self.match.apply(p, action)     # raises Rejected for an illegal command
        self.log.append((p, action))
        self._deliver(events)


def random_deal(rng: random.Random) -> list[list[int]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[i * 14:(i + 1) * 14] for i in range(4)]


# ---- levels ---------------------------------------------------------------------------------------
def test_levels_parse_within_their_range() -> None:
    assert parse_level("expert") == DEFAULT_SECONDS == 0.5
    assert parse_level("Expert:2") == 2.0
    assert parse_level("expert:0.05") == 0.05
    for bad in ("expert:", "expert:0.01", "expert:11", "expert:abc", "expert:1e1", "expert:-1",
                "expert:²", "heuristic:1"):
        with pytest.raises(ValueError):
            parse_level(bad)
    assert make_strategy("expert").name == "expert"
    assert make_strategy("expert:2").name == "expert:2"
    assert make_strategy("expert:p8").playouts == 8      # type: ignore[attr-defined]


def test_addbot_expert_levels_and_their_refusals() -> None:
    table, rec, _clock = new_table(join=False, spectator="eve")
    table.bot_delay = 0.0
    table.submit("ann", "join", "1")
    table.submit("ann", "addbot", "expert")
    table.submit("ann", "addbot", "3 expert:2")
    table.submit("ann", "addbot", "expert:0.01")
    table.submit("ann", "addbot", "expert:soon")
    errors = [e for e in rec.errors("ann")]
    assert [e.type for e in errors] == ["bad-bot-level", "bad-bot-level"]
    assert errors[0].data["level"] == "expert:0.01"
    assert errors[0].data["low"] == "0.05" and errors[0].data["high"] == "10"
    seated = table.seated
    assert seated[1] == "Bot1~expert" and seated[2] == "Bot2~expert"
    assert table.bot_list() == {"Bot1~expert": "expert", "Bot2~expert": "expert:2"}
    table.submit("eve", "spielinfo")
    info = [e for e in rec.to("eve") if e.type == "table-info"][-1]
    assert info.data["bots"] == {"Bot1~expert": "expert", "Bot2~expert": "expert:2"}
    # what a restored table seats again: the same level
    assert make_strategy(table.bot_list()["Bot2~expert"]).name == "expert:2"


# ---- complete games -------------------------------------------------------------------------------
def test_expert_bots_play_complete_matches_without_a_refused_command() -> None:
    for seed in (1, 2):
        strategies = [ExpertStrategy(seed * 10 + i, playouts=6) if i % 2 == 0
                      else HeuristicStrategy(i) for i in range(4)]
        game = Game(strategies, seed=seed, target=200)
        for _ in range(5000):
            if not game.step():
                break
        assert game.match.finished
        searched = [s.searched for s in strategies if isinstance(s, ExpertStrategy)]
        assert all(n > 0 for n in searched)


def test_expert_bots_play_a_complete_game_at_a_table() -> None:
    table, rec, clock = new_table(join=False, spectator="eve",
                                  options={"seed": "4", "target": "100"})
    table.bot_delay = 0.0
    for strategy in ("expert:0.05", "heuristic", "expert:0.05", "random"):
        table.submit("ann", "addbot", strategy)
    table.submit("ann", "start")
    for _ in range(20000):
        if table.state != "playing":
            break
        clock.advance(0)
    assert table.state == "finished" and not table.result.get("abandoned")
    assert not rec.errors()
    assert not [e for bot in table.bots.values() for e in bot.errors]
    experts = [b for b in table.bots.values() if b.strategy_name.startswith("expert")]
    assert len(experts) == 2 and all(b.sent for b in experts)
    assert all(b.strategy.knowledge.seat is not None for b in experts)   # type: ignore[attr-defined]


# ---- it uses only what its seat may know ---------------------------------------------------------
def _swaps(deal: list[list[int]], match: Match, seat_a: int, seat_b: int
           ) -> list[list[list[int]]]:
    """The same deal with one card of seat_a and one of seat_b swapped, both still held (never
    played, never given; not the Mah Jong, whose holder everybody sees lead), in every way."""
    rnd = match.round
    given = {int(c) for g in rnd.given if g for c in g} | {int(MAHJONG)}
    hand_a = [int(c) for c in rnd.hand(seat_a) if int(c) not in given]
    hand_b = [int(c) for c in rnd.hand(seat_b) if int(c) not in given]
    out = []
    for a in hand_a:
        for b in hand_b:
            ia, ib = deal[seat_a].index(a), deal[seat_b].index(b)
            new = [list(h) for h in deal]
            new[seat_a][ia], new[seat_b][ib] = b, a
            out.append(new)
    return out


@pytest.mark.parametrize("seed", [3, 8, 13])
def test_decisions_depend_only_on_what_the_seat_may_know(seed: int) -> None:
    """Two deals that differ only in cards the expert cannot see (two cards swapped between two
    other hands, never played nor given): the same events reach its seat, so with the same
    seed it makes the very same decisions and sends the very same job to the search."""
    rng = random.Random(seed)
    deal = random_deal(rng)
    # play the first deal up to a point with recorded actions
    players = [RandomStrategy(seed * 4 + i, tichu=0, grand=0) for i in range(4)]
    first = Game(players, seed=seed, deals=[deal])
    stop = rng.randrange(30, 90)
    while len(first.log) < stop and first.match.round_no == 1 and first.match.round.phase not in (
            "finished",):
        first.step()
    assert first.match.round_no == 1 and first.match.round.phase == "play"

    def replay(d: list[list[int]]) -> tuple[Any, dict[str, Any]]:
        expert = ExpertStrategy(99, playouts=8)
        strategies: list[Any] = [expert, None, None, None]
        game = Game(strategies, seed=seed, deals=[d])
        for p, action in first.log:
            game.apply(p, action)
        view = game.match.view(0)
        return expert.prepare(view), view

    job_a, view_a = replay(deal)
    compared = 0
    others = [d for a, b in ((1, 3), (1, 2), (2, 3)) for d in _swaps(deal, first.match, a, b)[:6]]
    for other in others:
        try:
            job_b, view_b = replay(other)
        except Rejected:
            continue       # the swap changed what a wish obliged someone to play: not the same
        assert view_a == view_b                   # what the seat sees is the same...
        assert type(job_a) is type(job_b)
        if isinstance(job_a, Job):
            assert pickle.dumps(job_a) == pickle.dumps(job_b)   # ...so is what it searches with
            a, b = think(job_a), think(job_b)
            assert a.command == b.command and a.values == b.values
        else:
            assert job_a == job_b
        compared += 1
        if compared == 2:
            break
    assert compared


def test_the_strategy_holds_no_round() -> None:
    """The job a worker gets is plain data of the seat: its view, its knowledge, numbers."""
    rng = random.Random(5)
    expert = ExpertStrategy(1, playouts=4)
    game = Game([expert, HeuristicStrategy(1), HeuristicStrategy(2), HeuristicStrategy(3)],
                seed=5, deals=[random_deal(rng)])
    jobs = []
    for _ in range(400):
        if game.match.finished or game.match.round_no > 1:
            break
        p = game.askers()[0]
        if p == 0:
            job = expert.prepare(game.match.view(0))
            if isinstance(job, Job):
                jobs.append(job)
        game.step()
    assert jobs
    for job in jobs:
        blob = pickle.dumps(job)
        assert b"Round" not in blob and b"Match" not in blob
        assert set(vars(job.knowledge)) == {"seat", "played", "trick", "trick_won", "wish",
                                            "given", "mahjong_holder", "constraints",
                                            "complete"}


# ---- the sampled deals agree with the knowledge ------------------------------------------------
def _play_until(seed: int, steps: int, wishy: bool) -> tuple[Game, list[Knowledge]]:
    """A round of random players (they wish often and rarely call), each seat's knowledge kept
    from its own events only, stopped after `steps` actions."""
    rng = random.Random(seed)
    players = [RandomStrategy(seed + i, tichu=0.05, grand=0.02, bomb=0.3) for i in range(4)]
    game = Game(players, seed=seed, deals=[random_deal(rng)])
    knowledge = [Knowledge() for _ in range(4)]
    game.strategies = [_Watcher(players[i], knowledge[i]) for i in range(4)]
    for _ in range(steps):
        if game.match.round_no > 1 or game.match.finished:
            break
        game.step()
    return game, knowledge


class _Watcher:
    def __init__(self, strategy: Any, knowledge: Knowledge) -> None:
        self.strategy = strategy
        self.knowledge = knowledge

    def observe(self, kind: str, data: Any) -> None:
        self.knowledge.observe(kind, data)

    def decide(self, view: Any) -> Any:
        self.knowledge.note_view(view)
        return self.strategy.decide(view)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 120), seat=st.integers(0, 3),
       sample_seed=st.integers(0, 2 ** 31))
def test_sampled_deals_are_consistent_with_the_seats_knowledge(seed: int, steps: int, seat: int,
                                                                sample_seed: int) -> None:
    game, knowledge = _play_until(seed, steps, True)
    match = game.match
    if match.round_no > 1 or match.finished:
        return
    view = match.view(match.player_at(seat))
    k = knowledge[match.player_at(seat)]
    k.note_view(view)
    if view["phase"] in ("exchange",) and view.get("given"):
        return                                    # between giving and receiving: no decisions
    assert k.usable(view)
    rnd = match.round
    # the truth is consistent with what the seat inferred (its voids are real)
    if view["phase"] not in ("grand", "exchange"):
        truth = [0 if s == seat else rnd.hands[s] for s in range(4)]
        assert k.consistent(view, truth)
    rng = random.Random(sample_seed)
    for _ in range(5):
        sample = k.sample(view, rng)
        assert sample is not None
        assert k.consistent(view, sample)
        assert not sample[seat] & cards_mask(parse_cards(view["hand"]))


def test_a_pass_under_an_open_wish_shows_the_wished_rank_is_missing() -> None:
    """A seat that passes on a lower single (or leads) while a rank is wished holds no card of
    that rank (docs/rules.md 20): the seats that saw it never get one from the sampler."""
    found = 0
    for seed in range(300):
        game, knowledge = _play_until(seed, 0, True)
        seen = [0] * 4
        for _ in range(300):
            match = game.match
            if match.finished or match.round_no > 1 or not game.step():
                break
            if match.round_no > 1 or match.round.phase != "play":
                continue
            for p, k in enumerate(knowledge):
                for c in k.constraints[seen[p]:]:
                    top = c.trick[-1] if c.trick else None
                    if top is not None and not (top.kind == "single" and top.rank < c.wish):
                        continue
                    found += 1
                    view = match.view(p)
                    k.note_view(view)
                    for i in range(3):
                        sample = k.sample(view, random.Random(i))
                        assert sample is not None and k.consistent(view, sample)
                        hand_then = sample[c.seat] | (k.played[c.seat] & ~c.played_before)
                        assert not hand_then & RANK_MASK[c.wish]
                seen[p] = len(k.constraints)
        if found >= 8:
            break
    assert found >= 8


# ---- the heuristic bombs a Dragon when it matters -------------------------------------------------
def test_the_heuristic_bombs_an_opponents_dragon_before_its_player_leads_out() -> None:
    """Seat 1 won a trick with the Dragon and holds 3 cards: it would lead again and may go
    out. Seat 0 holds four 9s: it bombs the Dragon (before the fix it let it pass: its bombs
    were for players with at most 2 cards only)."""
    hands = [cards_mask(parse_cards("S9 B9 G9 R9 S2 B3 G4 R6 S7 BB")),
             cards_mask(parse_cards("SK BK R3")),
             cards_mask(parse_cards("S5 G5 B6 G7 SB GB RD BD")),
             cards_mask(parse_cards("R2 G3 S4 B8 G10 R10"))]
    dragon = classify(parse_cards("Dr"))
    rnd = Round.position(hands, phase="dragon", trick=[(1, dragon)], trick_won=True,
                         played_first=[True] * 4)
    view = rnd.view(0)
    assert view["bombs"] == ["S9 B9 G9 R9"]
    command = HeuristicStrategy(1).decide(view)
    assert command == "bomb S9 B9 G9 R9"
    rnd.apply(0, command_action(command, 0))
    assert rnd.phase == "play" and rnd.holder == 0
    # the same Dragon of a player with many cards is let go (the trick comes to us anyway)
    hands[1] = cards_mask(parse_cards("SK BK R3 S3 B4 R4 S6 B7"))
    hands[3] = cards_mask(parse_cards("R2 G3"))
    rnd = Round.position(hands, phase="dragon", trick=[(1, dragon)], trick_won=True,
                         played_first=[True] * 4)
    assert HeuristicStrategy(1).decide(rnd.view(0)) is None


def test_the_expert_weighs_bombing_an_opponents_dragon() -> None:
    hands = [cards_mask(parse_cards("S9 B9 G9 R9 S2 B3 G4 R6 S7 BB")),
             cards_mask(parse_cards("SK BK R3")),
             cards_mask(parse_cards("S5 G5 B6 G7 SB GB RD BD")),
             cards_mask(parse_cards("R2 G3 S4 B8 G10 R10"))]
    dragon = classify(parse_cards("Dr"))
    rnd = Round.position(hands, phase="dragon", trick=[(1, dragon)], trick_won=True,
                         played_first=[True] * 4)
    view = rnd.view(0)
    k = Knowledge()
    k.reset(0, True)
    # what seat 0 saw: the rest of the 56 cards were played (by the seats that held them)
    held = hands[0] | hands[1] | hands[2] | hands[3] | dragon.mask
    k.played[2] = ((1 << 56) - 1) & ~held
    k.played[1] = dragon.mask
    k.trick = [dragon]
    assert k.usable(view)
    job = Job("bomb", view, k, heuristic="bomb S9 B9 G9 R9", playouts=12, seed=1)
    answer = think(job)
    assert set(answer.values) == {"none", "bomb S9 B9 G9 R9"}
    assert answer.command in ("bomb S9 B9 G9 R9", None)


def test_the_last_answer_is_that_of_the_last_decision_only() -> None:
    """`last` (what the arena times by decision type) is the answer of the decision just made
    when it was searched and None when it was answered at once: before, an answer stayed there
    for every later decision, so the arena counted unsearched plays after a Tichu search as
    Tichu decisions."""
    expert = ExpertStrategy(1, playouts=4)
    match = Match(MatchOptions(target=100), seed=2)
    kinds = []
    for _ in range(400):
        rnd = match.round
        if match.finished or rnd.phase not in ("grand", "exchange"):
            break
        player = next(p for p in range(4)
                      if (rnd.grand if rnd.phase == "grand" else rnd.given)[match.seat_of(p)]
                      is None)
        view = match.view(player)
        if player == 0:
            command = expert.decide(view)
            kinds.append(None if expert.last is None else expert.last.todo)
        else:
            command = HeuristicStrategy(player).decide(view)
        match.apply(player, command_action(command, match.seat_of(player)))
    assert kinds and kinds[-1] == "exchange" and None in kinds[:-1]
    assert expert.searched == sum(1 for k in kinds if k is not None)
    # the play begins; a decision with nothing to search (not the seat's turn, no bomb)
    view = match.view(0)
    assert view["phase"] == "play" and view["turn"] != view["seat"] and not view.get("bombs")
    assert expert.decide(view) is None and expert.last is None


def test_rollouts_bomb_a_caller_out_of_turn() -> None:
    """In the rollouts an opponent of a Tichu caller who holds the trick bombs it out of turn
    (before, nobody bombed out of turn there, so the rollouts overrated every caller); the same
    trick of a player who did not call and holds many cards is let go."""
    from lobby.bots.strategies.search import _has_bomb, _rollout_bomb
    hands = [cards_mask(parse_cards("S9 B9 G9 R9 S2 B3 G4 R6 S7 BB")),
             cards_mask(parse_cards("BK R3 S3 B4 R4 S6 B7 G8 SD")),
             cards_mask(parse_cards("S5 G5 B6 G7 SB GB RD BD")),
             cards_mask(parse_cards("R2 G3 S4 B8 G10 R10"))]
    king = classify(parse_cards("SK"))
    armed = [_has_bomb(h) for h in hands]
    assert armed == [True, False, False, False]
    rnd = Round.position(hands, phase="play", turn=2, trick=[(1, king)],
                         calls=[None, "tichu", None, None], played_first=[True] * 4)
    seat, action = _rollout_bomb(rnd, armed)
    assert seat == 0 and cards_mask(action.cards) == cards_mask(parse_cards("S9 B9 G9 R9"))
    rnd.apply(seat, action)
    assert rnd.holder == 0
    rnd = Round.position(hands, phase="play", turn=2, trick=[(1, king)],
                         played_first=[True] * 4)
    assert _rollout_bomb(rnd, armed) is None


def test_the_search_leaves_the_heuristics_answer_only_for_a_clearly_better_one() -> None:
    """The best mean of several noisy candidates is overrated: another answer than the
    heuristic's is taken only when it is better in the same deals by more than PRIOR points
    and one standard error of the paired difference; a candidate clearly behind the leader is
    dropped from the search, the heuristic's answer never."""
    from lobby.bots.strategies.search import PRIOR, Answer, Tally, _best, _prune
    rng = random.Random(3)
    base = [rng.choice([-150.0, -40.0, 0.0, 35.0, 80.0, 200.0]) for _ in range(30)]

    def tally(values: list[float]) -> Tally:
        t = Tally()
        t.values = list(values)
        return t
    noisy = tally([v + (130.0 if i % 2 else -120.0) for i, v in enumerate(base)])  # +5, se 23
    better = tally([v + 3 * PRIOR for v in base])
    worse = tally([v - 60.0 for v in base])
    heur = tally(base)
    stats = {"heur": heur, "noisy": noisy}
    assert noisy.mean > heur.mean
    assert _best(stats, "heur", Answer(None, "play")) == "heur"
    stats["better"] = better
    assert _best(stats, "heur", Answer(None, "play")) == "better"
    cands = [("heur", None), ("noisy", None), ("worse", None), ("better", None)]
    stats = {"heur": tally([v - 40.0 for v in base]), "noisy": noisy, "worse": worse,
             "better": better}
    kept = [c for c, _ in _prune(cands, stats, "heur")]   # type: ignore[arg-type]
    assert kept == ["heur", "noisy", "better"]


def test_the_arena_mirrors_two_copies_of_the_expert_unless_b_has_its_own_seed() -> None:
    """scripts/bot_arena.py: with one seed two copies of one strategy play the mirrored game of
    a deal exactly as the first (A's points minus B's are 0: half the games say nothing), with
    --b-seed B's copies decide differently; the searched decisions' playouts are counted."""
    from conftest import load_script
    arena = load_script("bot_arena")
    same = arena.run("expert:p4", "expert:p4", 2, seed=4, max_rounds=1)
    assert same.pair_diffs == [0.0] and same.points["A"] == same.points["B"]
    assert same.playouts["A"]["play"] and all(n >= 4 for n in same.playouts["A"]["play"])
    own = arena.run("expert:p4", "expert:p4", 2, seed=4, max_rounds=1, b_seed=5)
    assert own.points["A"] != own.points["B"]
