"""Seeded, random-legal complete games for the record, log and journal tests; and `Game`, a
LobbyServer without ports on a task.Clock whose clients type random engine-legal moves as
commands (`command_line`), for the byte-pinning, lean-update and memo tests of tests/e2e and
tests/wire (a helper here, not in one test module that the others import: that worked only when
tests/e2e happened to be collected first, and `scripts/test tests/wire/test_lean_updates.py`
failed to import)."""
from __future__ import annotations

import random
from typing import Any

from twisted.internet import task

from conftest import FAST_SCRYPT, FakeClient
from lobby.storage.accounts import Accounts
from lobby.storage.store import Store, inline_runner
from lobby.tichu.actions import CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from lobby.tichu.cards import MAHJONG, PHOENIX, format_cards, mask_cards, rank_name
from lobby.tichu.errors import Rejected
from lobby.tichu.match import Match, MatchOptions


def random_game(seed: int, *, rounds: int = 3, turnier: bool = False,
                tichu_rate: float = 0.08, grand_rate: float = 0.1,
                until_actions: int | None = None) -> Match:
    """A match played with random legal actions (the acting player drawn at random among those
    who may act). Tichu calls are made with the given rates; a Phoenix play leaves its reading
    to the engine (its default reading), as a player who names none.
    Non-turnier games end after ``rounds`` rounds. ``until_actions`` stops early (unfinished)."""
    rng = random.Random(seed)
    options = MatchOptions(turnier=True) if turnier else MatchOptions(max_rounds=rounds)
    match = Match(options, seed=seed)
    while not match.finished and (until_actions is None or len(match.actions) < until_actions):
        players = [p for p in range(4) if match.legal_actions(p)]
        player = rng.choice(players)
        acts = match.legal_actions(player)
        calls = [a for a in acts if isinstance(a, CallTichu)]
        if calls and rng.random() < tichu_rate:
            match.apply(player, calls[0])
            continue
        acts = [a for a in acts if not isinstance(a, CallTichu)]
        if not acts:
            continue
        if isinstance(acts[0], GrandTichu):
            match.apply(player, GrandTichu(rng.random() < grand_rate))
            continue
        if isinstance(acts[0], Exchange):
            match.apply(player, rng.choice(acts))
            continue
        rng.shuffle(acts)
        for action in acts:
            if isinstance(action, Play) and PHOENIX in action.cards:
                # a fresh tuple: Round.apply matches the very cards object of a listed play
                # and would take that play's reading even with phoenix_as None
                action = Play(tuple(list(action.cards)), None, action.wish)
            try:
                match.apply(player, action)
                break
            except Rejected:
                continue
    return match


def command_line(action: Any, seat: int, in_turn: bool, rng: random.Random) -> str:
    if isinstance(action, GrandTichu):
        return "/grand" if action.call else "/nogrand"
    if isinstance(action, CallTichu):
        return "/tichu"
    if isinstance(action, Pass):
        return "/pass"
    if isinstance(action, Exchange):
        return "/schupf " + format_cards(action.cards)
    if isinstance(action, Wish):
        return f"/wish {action.rank or 'none'}"
    if isinstance(action, GiveDragon):
        return "/dragon " + ("right" if action.seat == (seat + 1) % 4 else "left")
    assert isinstance(action, Play)
    cards = list(action.cards)
    text = format_cards(cards)
    if action.phoenix_as is not None and len(cards) > 1 and PHOENIX in cards:
        text = text.replace("Ph", "Ph=" + rank_name(action.phoenix_as))
    if MAHJONG in cards and rng.random() < 0.5:
        text += " wish " + rng.choice(["none", "2", "7", "10", "B", "A"])
    return ("/play " if in_turn else "/bomb ") + text


class Game:
    """A LobbyServer without ports on a task.Clock; clients on StringTransports."""

    def __init__(self) -> None:
        from protocol.process.server import LobbyServer
        self.clock = task.Clock()
        self.clock.advance(1_800_000_000)
        self.server = LobbyServer(self.clock, Store(":memory:", inline_runner), [],
                                  motd="Output test server.", clock=self.clock,
                                  accounts=Accounts(inline_runner, FAST_SCRYPT))
        started: list[Any] = []
        self.server.start().addBoth(started.append)
        assert started and not hasattr(started[0], "raiseException"), started
        self.world = self.server.world
        self.world.on_new_table = lambda table: setattr(table, "bot_delay", 0.0)
        self.clients: dict[str, Any] = {}   # FakeClient, or _Client over TCP
        self.received: dict[str, bytearray] = {}

    async def turn(self, seconds: float = 0.0) -> None:
        for _ in range(4):
            self.clock.advance(0)
        if seconds:
            self.clock.advance(seconds)
            for _ in range(4):
                self.clock.advance(0)
        self.collect()

    def collect(self) -> None:
        for name, c in self.clients.items():
            self.received[name] += c.raw()

    async def connect(self, name: str, json_mode: bool) -> None:
        c = FakeClient(self.server.factory)
        self.clients[name] = c
        self.received[name] = bytearray()
        if json_mode:
            c.send("%json 3")
        c.send(name)
        if not json_mode:
            c.send("")              # an unregistered name: Enter plays as that guest
        await self.turn()

    async def send(self, name: str, line: str) -> None:
        if self.received[name] and self.clients[name].session.output.is_bot_client:
            line = "#c " + line
        self.clients[name].send(line)
        await self.turn()

    async def play(self, table: Any, rng: random.Random, limit: int = 5000, until: int = 0) -> int:
        steps = 0
        while table.state == "playing":
            if until and len(table.match.actions) >= until:
                break
            steps += 1
            assert steps < limit, "the game did not end"
            match = table.match
            rnd = match.round
            choices = []
            for player, name in enumerate(table.players):
                seat = match.seat_of(player)
                for action in match.legal_actions(player):
                    if isinstance(action, CallTichu) and rng.random() > 0.1:
                        continue
                    if isinstance(action, GrandTichu) and action.call and rng.random() > 0.1:
                        continue
                    if isinstance(action, Exchange):
                        continue
                    choices.append((name, seat, action))
                if rnd.phase == "exchange" and rnd.given[seat] is None:
                    hand = list(mask_cards(rnd.hands[seat]))
                    choices.append((name, seat, Exchange(tuple(rng.sample(hand, 3)))))
            plays = [c for c in choices if isinstance(c[2], Play)]
            if plays and rng.random() < 0.4:
                choices = plays
            name, seat, action = rng.choice(choices)
            line = command_line(action, seat, rnd.turn == seat, rng)
            before = len(match.actions)
            await self.send(name, line)
            if len(match.actions) == before and table.state == "playing":
                # refused: only the bomb window may refuse an engine-legal action
                assert table._window_until is not None, (name, line)
                await self.turn(table.options.bombwindow + 0.1)
        return steps
