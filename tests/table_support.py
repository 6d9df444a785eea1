"""Helpers for the table tests: a recording deliver callback that checks information hiding, and
scripted players that drive a TableActor through submit() with engine-legal actions."""
from __future__ import annotations

import random
import re
from typing import Any

from twisted.internet.task import Clock

from conftest import FakeClient, FakeLobby, fired
from lobby.events import Event
from lobby.tables.table import TableActor
from lobby.text.messages import CATALOGS, LANGUAGES
from lobby.tichu.actions import (
    CallTichu,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
    Wish,
)
from lobby.tichu.cards import (
    MAHJONG,
    PHOENIX,
    Card,
    format_cards,
    parse_card,
    parse_cards,
    rank_name,
)
from lobby.tichu.match import Match
from lobby.world.persistence import Persistence
from lobby.world.world import World
from protocol.render.table import card_legend, render_table
from protocol.render.wrap import wrap_lines

NAMES = ["ann", "bob", "cat", "dan"]
CARD_TOKEN = re.compile(r"^(?:[SBGR](?:[2-9]|10|B|D|K|A)|Ma|Hu|Ph|Dr)$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


#: the lines of the card legend (shown once after the first deal) at the widths the tests use,
#: any language: they name the specials (Ma Hu Ph Dr) in notation, no card of anybody's
LEGEND_LINES = frozenset(line for lang in LANGUAGES if lang in CATALOGS
                         for width in (40, 45, 50, 60, 70, 80, 100, 120, 160, 200)
                         for line in wrap_lines(card_legend(lang), width))


def without_legend(text_: str) -> str:
    """``text_`` without the lines of the card legend."""
    return "\n".join(line for line in text_.replace("\r\n", "\n").split("\n")
                     if line not in LEGEND_LINES)


def card_tokens(value: Any) -> set[Card]:
    """Every card named anywhere in `value` (strings inside dicts and lists, BSW notation)."""
    out: set[Card] = set()
    if isinstance(value, str):
        for tok in re.split(r"[\s,:;()=|.!]+", ANSI.sub(" ", value)):
            if CARD_TOKEN.match(tok):
                out.add(parse_card(tok))
    elif isinstance(value, dict):
        for v in value.values():
            out |= card_tokens(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= card_tokens(v)
    return out


def hidden_cards(rnd: Any, me: int | None) -> set[Card]:
    """The cards of round `rnd` hidden now from seat `me` (None: a spectator): every other
    hand, a gift in transit that `me` did not give, and in the grand phase the last 6 cards of
    every hand (one's own too)."""
    hidden: set[Card] = set()
    views = [rnd.view(s) for s in range(4)]
    for s in range(4):
        if s == me:
            continue
        hidden |= set(parse_cards(views[s]["hand"]))
        if rnd.phase == "exchange" and views[s].get("given"):
            hidden |= set(parse_cards(views[s]["given"]))
        if rnd.phase == "grand":
            hidden |= set(rnd.deal[s][8:])
    if me is not None:
        if views[me].get("given"):
            hidden -= set(parse_cards(views[me]["given"]))
        if rnd.phase == "grand":
            hidden |= set(rnd.deal[me][8:])       # not even one's own last 6 cards yet
    return hidden


class Recorder:
    """The table's deliver callback: records (recipients, event) and, while a game runs, checks
    that no recipient is ever sent a card that is hidden from them at that moment: a card in
    another player's hand, or a gift in transit that they did not give. Rendered text (with and
    without colour) is checked as well as the event data."""

    def __init__(self) -> None:
        self.table: TableActor | None = None
        self.log: list[tuple[list[str], Event]] = []
        self.leaks: list[tuple[str, str, set[Card]]] = []
        self.checked = 0
        self._round: Any = None
        self.on_deliver: Any = None

    def deliver(self, recipients: list[str], event: Event) -> None:
        self.log.append((list(recipients), event))
        self._check(recipients, event)
        if self.on_deliver is not None:
            self.on_deliver(recipients, event)

    def before_submit(self) -> None:
        t = self.table
        self._round = t.match.round if t is not None and t.match is not None else None

    def _check(self, recipients: list[str], event: Event) -> None:
        t = self.table
        if t is None or t.match is None:
            return
        if event.is_error:          # a refusal echoes only what its one recipient typed
            assert len(recipients) == 1
            return
        if event.type == "game-round-start" or self._round is None:
            self._round = t.match.round
        rnd = self._round
        shown = card_tokens(event.data)
        for color in (False, True):
            for line in render_table(event, color=color) or []:
                shown |= card_tokens(line)
        if not shown:
            return
        seated = t.seated
        for name in recipients:
            me = seated.index(name) if name in seated else None
            self.checked += 1
            leak = shown & hidden_cards(rnd, me)
            if leak:
                self.leaks.append((name, event.type, leak))

    # ---- queries -------------------------------------------------------------------------
    def to(self, name: str) -> list[Event]:
        return [e for r, e in self.log if name in r]

    def errors(self, name: str | None = None) -> list[Event]:
        return [e for r, e in self.log if e.is_error and (name is None or name in r)]

    def types(self, name: str | None = None) -> list[str]:
        return [e.type for r, e in self.log if name is None or name in r]

    def clear(self) -> None:
        self.log.clear()


def new_table(*, host: str = "ann", options: dict[str, str] | None = None, join: bool = True,
              spectator: str | None = None, number: int = 5
              ) -> tuple[TableActor, Recorder, Clock]:
    rec = Recorder()
    clock = Clock()
    table = TableActor(number, clock, rec.deliver, host=host)
    rec.table = table
    if spectator:
        table.add_member(spectator)
    for name, value in (options or {}).items():
        table.submit(host, "option", {"name": name, "value": value})
    if join:
        for n in NAMES:
            table.submit(n, "join")
    assert not rec.errors(), rec.errors()
    return table, rec, clock


def command_for(action: Any, seat: int, rng: random.Random, *, in_turn: bool
                ) -> tuple[str, Any]:
    """A table command (name, args) that expresses an engine action, in the varied forms people
    type: text or mapping args, Phoenix readings, wishes inline or afterwards, dragon left/right
    or a seat number."""
    if isinstance(action, GrandTichu):
        return ("grand" if action.call else "nogrand", None)
    if isinstance(action, CallTichu):
        return ("tichu", None)
    if isinstance(action, Pass):
        return (rng.choice(["pass", "passe"]), None)
    if isinstance(action, Exchange):
        return (rng.choice(["schupf", "kartentausch"]), format_cards(action.cards))
    if isinstance(action, Wish):
        return ("wish", action.rank or "none")
    if isinstance(action, GiveDragon):
        if action.seat == (seat + 1) % 4:
            return ("dragon", rng.choice(["right", str(action.seat + 1)]))
        return ("dragon", rng.choice(["left", str(action.seat + 1)]))
    assert isinstance(action, Play)
    cards = list(action.cards)
    text = format_cards(cards)
    if action.phoenix_as is not None and len(cards) > 1 and PHOENIX in cards:
        text = text.replace("Ph", "Ph=" + rank_name(action.phoenix_as))
    if MAHJONG in cards and rng.random() < 0.5:
        text += " wish " + rng.choice(["none", "2", "7", "10", "B", "A", "K"])
    if not in_turn:
        return (rng.choice(["bomb", "bomben", "play"]), {"cards": text})
    return ("play", text if rng.random() < 0.5 else {"cards": text})


def legal_command(match: Match, players: list[str], rng: random.Random, *, tichu: float = 0.05,
                  grand: float = 0.05) -> tuple[str, str, Any]:
    """Some player's engine-legal action as (name, command, args) for command_for's commands:
    Tichu and Grand Tichu called with the given chances, gifts chosen at random."""
    choices: list[tuple[str, Any]] = []
    for player, name in enumerate(players):
        for a in match.legal_actions(player):
            if isinstance(a, CallTichu) and rng.random() > tichu:
                continue
            if isinstance(a, GrandTichu) and a.call and rng.random() > grand:
                continue
            if isinstance(a, Exchange):
                continue
            choices.append((name, a))
        rnd = match.round
        seat = match.seat_of(player)
        if rnd.phase == "exchange" and "given" not in rnd.view(seat):
            hand = sorted(parse_cards(rnd.view(seat)["hand"]))
            choices.append((name, Exchange(tuple(rng.sample(hand, 3)))))
    # plays over passes now and then, so that games end in reasonable time
    plays = [c for c in choices if isinstance(c[1], Play)]
    if plays and rng.random() < 0.3:
        choices = plays
    name, action = rng.choice(choices)
    seat = match.seat_of(players.index(name))
    command, args = command_for(action, seat, rng, in_turn=match.round.turn == seat)
    return name, command, args


def step(table: TableActor, rec: Recorder, rng: random.Random, *, tichu: float = 0.05,
         grand: float = 0.05) -> tuple[str, str, Any]:
    """One engine-legal action of some player, submitted as a command. Returns what was sent."""
    assert table.match is not None
    name, command, args = legal_command(table.match, table.players, rng, tichu=tichu, grand=grand)
    rec.before_submit()
    table.submit(name, command, args)
    return name, command, args


def play_to_end(table: TableActor, rec: Recorder, rng: random.Random, *, limit: int = 20000,
                stop: Any = None) -> int:
    """Drive the game until it is finished (or `stop()` says so); every command must succeed."""
    steps = 0
    while table.state == "playing" and steps < limit:
        if stop is not None and stop():
            break
        before = len(rec.log)
        sent = step(table, rec, rng)
        errors = [e for _, e in rec.log[before:] if e.is_error]
        assert not errors, (sent, errors)
        steps += 1
    return steps


def play_through_windows(table: TableActor, rec: Recorder, clock: Any, rng: random.Random, *,
                         steps: int, tichu: float = 0.2, grand: float = 0.2) -> None:
    """Drive the game (at most ``steps`` actions) with some calls; an action the bomb window
    refuses is dropped from the log and the window waited out (``clock`` advanced 1.5 s)."""
    for _ in range(steps):
        if table.state != "playing":
            break
        step(table, rec, rng, tichu=tichu, grand=grand)
        if rec.errors():
            clock.advance(1.5)
            rec.log[:] = [(r, e) for r, e in rec.log if not e.is_error]


#: the line that tells a guest the reconnect key of their seat (lobby/tables/seats.py)
SEAT_KEY = re.compile(r"log in as (\S+) and give the key ([a-z0-9]+)\.")


def seat_keys(text: str) -> dict[str, str]:
    """The reconnect keys told in ``text``: name -> key (the last one of each name)."""
    return {name: key for name, key in SEAT_KEY.findall(text)}


# ---- a FakeLobby with the server's persistence (the journal, the game archive) -----------------
PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def rows(lobby: FakeLobby, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    return fired(lobby.store.run_query(lambda c: c.execute(sql, args).fetchall()))


class Lobby(FakeLobby):
    """FakeLobby with the server's persistence wired in (World.recorder)."""

    def __init__(self, clock: Any, store: Any = None) -> None:
        super().__init__(clock)
        if store is not None:                  # a "restart" on the same database
            from protocol.process.server import LobbyFactory
            self.store = store
            self.world = World(clock, rng=random.Random(8))
            self.factory = LobbyFactory(self.world, self.store, self.accounts)
        self.persistence = Persistence(self.store, self.world, clock)
        self.world.recorder = self.persistence
        self.world.on_new_table = lambda t: setattr(t, "bot_delay", 0.0)
        #: the reconnect keys the guests of seat_players were told, by name
        self.keys: dict[str, str] = {}

    def turn(self) -> None:
        """One reactor turn: the journal commits, held events leave, bots act."""
        for _ in range(3):
            self.clock.advance(0)

    def say(self, client: FakeClient, line: str) -> list[str]:
        client.send(line)
        self.turn()
        return client.lines()


def seat_players(lobby: Lobby, names: list[str] = PLAYERS, *, registered: bool = True,
                 options: dict[str, str] | None = None, start: str = "/start"
                 ) -> dict[str, FakeClient]:
    clients = {}
    for name in names:
        if registered:
            lobby.register(name, "pw" + name.lower() + "1")
        c = lobby.connect()
        c.login(name, "pw" + name.lower() + "1" if registered else None)
        clients[name] = c
    first = clients[names[0]]
    lobby.say(first, "/newroom")
    for name in names[1:]:
        lobby.say(clients[name], "/room 1")
    for name in names:
        lobby.keys.update(seat_keys("\n".join(lobby.say(clients[name], "/join"))))
    for key, value in (options or {}).items():
        lobby.say(first, f"/option {key} {value}")
    lobby.say(first, start)
    for c in clients.values():
        c.lines()
    return clients


def play(lobby: Lobby, rng: random.Random, *, steps: int | None = None,
         until: Any = None) -> int:
    """Engine-legal commands of the seated humans (bots answer through the clock)."""
    table = lobby.world.tables[1]
    done = 0
    while table.state == "playing" and (steps is None or done < steps):
        if until is not None and until(table):
            break
        humans = [n for n in table.players if n not in table.bots and n not in table.gone]
        if table.match is not None and not any(
                a for n in humans for a in table.match.legal_actions(table.players.index(n))):
            lobby.turn()                        # a bot is due
            done += 1
            continue
        before = len(table.match.actions)
        while True:
            name, _, _ = step(table, Recorder(), rng)
            if name in humans or len(table.match.actions) > before:
                break
        lobby.turn()
        done += 1
    return done
