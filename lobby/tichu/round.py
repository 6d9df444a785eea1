"""One round of Tichu (one deal, from the first 8 cards to the score) as a state machine.

Actions in (`Round.apply(seat, action)`), events out. Any seat may send any action at any time:
the round either applies it and returns the events it caused, or raises `Rejected` with a stable
code and changes nothing. docs/rules.md 1-4, 10-11, 14-18, 22-28 are implemented here; which plays are
legal (combinations, beating, the wish obligation) is decided by `moves.py`.

Hot path: hands, tricks taken and the table are card bit masks (`1 << card`) in plain lists;
plays are the interned `Combo`s of combos.py; events are slotted objects whose data are small
dicts; nothing is deep-copied.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from operator import or_
from typing import Any

from . import memo as _memo
from . import moves as _moves
from .actions import UNSET, Action, CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from .cards import (
    DECK,
    DOG_BIT,
    DRAGON_BIT,
    MAHJONG,
    MAHJONG_BIT,
    RANK_MASK,
    Card,
    format_cards,
    mask_cards,
    mask_points,
    parse_rank,
    rank_name,
    sort_cards,
)
from .errors import Rejected
from .events import GameEvent
from .frozen import FrozenList, freeze
from .view_text import hand_text, play_text, play_texts, received_text

__all__ = ["Round", "PHASES"]

PHASES = ("grand", "exchange", "play", "wish", "dragon", "finished")


_BIT = tuple(1 << i for i in range(56))
_FULL = (1 << 56) - 1
#: the empty list of a view's `legal` and `bombs` (the most common value): one object, shared by
#: every view, since nobody changes a view (fewer objects for the collector to walk)
_NOTHING: list[Any] = FrozenList()


def _mask(cards: Iterable[int]) -> int:
    return reduce(or_, map(_BIT.__getitem__, cards), 0)


def _check_cards(cards: Any) -> None:
    """Cards of a Play must be cards (indexes 0..55); anything else is a bad card."""
    for c in cards:
        if c.__class__ is not Card and not (isinstance(c, int) and 0 <= c < 56):
            raise Rejected("bad-card", token=str(c))




class RoundCaches:
    """What a Round keeps only to answer faster (the fast paths), apart from its rule state; the
    memo switch (lobby/tichu/memo.py) bypasses all but `received_shown`, and a Round answers the
    same without them.

    - `legal`: (seat, hand, top, trick won, wish, plays, may pass) of the last `legal_plays`, for
      `can_pass` and `apply` of the very same state (a Play with a listed Combo's cards is not
      classified again);
    - `leads`: per seat (hand, its leads): the next leads are filtered from them (a hand only
      shrinks);
    - `bombs`: per seat (hand, the bomb to beat or None, its bombs, their texts);
    - `shown`: what the last view showed (the trick, the result, `_kept` lists, per seat the text
      of its gift), so that an unchanged value is the very object the renderers saw before;
    - `hand_shown`: per seat (hand mask, its text) of its last view;
    - `received_shown`: per seat the cards received in the exchange as views show them (made
      once, when they are revealed);
    - `combos`: the Combos of the trick on the table, oldest first (the second items of
      `Round.trick`, kept as a list of their own for moves.py, which takes the Combos alone;
      kept with every play and trick whatever the switch, like `received_shown`).
    """

    __slots__ = ("legal", "leads", "bombs", "shown", "hand_shown", "received_shown", "combos")

    def __init__(self, combos: Iterable[Any] = ()) -> None:
        self.combos: list[Any] = list(combos)
        self.legal: tuple[int, int, Any, bool, int | None, list[Any], bool] | tuple[()] = ()
        self.leads: list[tuple[int, list[Any]] | None] = [None] * 4
        self.bombs: list[tuple[int, Any, list[Any], list[str]] | None] = [None] * 4
        self.shown: dict[Any, Any] = {}
        self.hand_shown: list[tuple[int, str] | None] = [None] * 4
        self.received_shown: list[dict[str, str]] = [{}, {}, {}, {}]


class Round:
    """One deal. `hands`: four sequences of 14 Cards in deal order (the first 8 are the Grand
    Tichu cards). With `grand_allowed=False` (turnier) all 14 are dealt at once and the round
    starts with the exchange. `dragon_fixed` gives a Dragon trick to the next opponent in turn order
    without asking."""

    def __init__(self, hands: Sequence[Iterable[int]], *, grand_allowed: bool = True,
                 dragon_fixed: bool = False) -> None:
        try:
            deal = [tuple(map(DECK.__getitem__, h)) for h in hands]
        except (IndexError, TypeError):
            raise ValueError("a hand holds something that is no card") from None
        if len(deal) != 4 or any(len(h) != 14 for h in deal):
            raise ValueError("a round needs four hands of 14 cards")
        first = [_mask(h[:8]) for h in deal]
        rest = [_mask(h[8:]) for h in deal]
        if (reduce(or_, first) | reduce(or_, rest) != _FULL
                or sum(m.bit_count() for m in first + rest) != 56):
            raise ValueError("the four hands must hold the 56 cards exactly once")
        self.deal = deal
        self._rest = rest
        self.grand_allowed = grand_allowed
        self.dragon_fixed = dragon_fixed
        self.grand: list[bool | None] = [None] * 4     # Grand Tichu decisions
        self.calls: list[str | None] = [None] * 4      # "tichu" / "grand" / None
        self.played_first = [False] * 4                # has played a card (no Tichu any more)
        # exchange: the cards given (to the next, the partner, the previous)
        self.given: list[tuple[Card, ...] | None] = [None] * 4
        self.received: list[dict[int, Card]] = [{}, {}, {}, {}]  # exchange: from seat -> card
        self.trick: list[tuple[int, Any]] = []          # (seat, Combo), oldest first
        self._caches = RoundCaches()                    # the fast paths' (above)
        self._table = 0                                 # mask of the cards on the table
        self.holder: int | None = None                  # seat of the top play
        self.passes = 0                                 # passes since the top play
        self.trick_won = False                          # all passed: waits to be collected
        self.turn: int | None = None
        self.wish: int | None = None                    # open wish (rank 2..14)
        self.wisher: int | None = None                  # seat that must still name the wish
        self._after_wish: int | None = None             # turn after the wish is named
        self.out: list[int] = []                        # finishing order so far
        self.won = [0, 0, 0, 0]                         # masks of the cards each seat took
        self.won_points = [0, 0, 0, 0]
        self.result: dict[str, Any] | None = None
        self.double_victory: int | None = None          # team (0 or 1) of a double victory
        self._ending = False                            # over; only a Dragon gift is missing
        if grand_allowed:
            self.phase = "grand"
            self.hands = first
        else:
            self.phase = "exchange"
            self.hands = [first[s] | rest[s] for s in range(4)]

    @classmethod
    def position(cls, hands: Sequence[int], *, phase: str = "play", turn: int | None = None,
                 trick: Sequence[tuple[int, Any]] = (), trick_won: bool = False,
                 wish: int | None = None, calls: Sequence[str | None] = (None,) * 4,
                 played_first: Sequence[bool] = (False,) * 4, out: Sequence[int] = (),
                 won_points: Sequence[int] = (0, 0, 0, 0), dragon_fixed: bool = False) -> Round:
        """A round in the middle, from a compact snapshot (what search bots rebuild from a
        seat's knowledge and a sample of the hidden hands; lobby/bots/strategies/search.py): `hands` are
        the card masks held now, `trick` the plays on the table as (seat, Combo) oldest first,
        `phase` one of `exchange` (nobody has given yet; `hands` of 14 cards), `play` or
        `dragon` (the trick is won with the Dragon and waits for its gift: `trick_won`, the
        holder's turn). The passes since the top play follow from `turn`. Cards taken in earlier
        tricks are known only by their points (`won_points`): `all_cards()` does not list them."""
        if phase not in ("exchange", "play", "dragon"):
            raise ValueError(f"no position in phase {phase!r}")
        if len(hands) != 4 or any(a & b for i, a in enumerate(hands) for b in hands[i + 1:]):
            raise ValueError("four hands of distinct cards")
        rnd = cls.__new__(cls)
        rnd.deal = [mask_cards(h) for h in hands]
        rnd._rest = [0, 0, 0, 0]
        rnd.grand_allowed = False
        rnd.dragon_fixed = dragon_fixed
        rnd.calls = list(calls)
        rnd.grand = [c == "grand" for c in rnd.calls]
        rnd.played_first = list(played_first)
        rnd.given = [None] * 4 if phase == "exchange" else [(), (), (), ()]
        rnd.received = [{}, {}, {}, {}]
        rnd.trick = [(s, c) for s, c in trick]
        rnd._caches = RoundCaches(c for _, c in trick)
        rnd._table = _mask(c for _, combo in trick for c in combo.cards)
        rnd.holder = trick[-1][0] if trick else None
        rnd.hands = list(hands)
        rnd.trick_won = bool(trick) and (trick_won or phase == "dragon")
        rnd.turn = turn
        passes = 0
        holder = rnd.holder
        if holder is not None and turn is not None and not rnd.trick_won:
            s = (holder + 1) & 3
            while s != turn and s != holder:
                passes += rnd.hands[s] != 0
                s = (s + 1) & 3
        rnd.passes = passes
        rnd.wish = wish
        rnd.wisher = None
        rnd._after_wish = None
        rnd.out = list(out)
        rnd.won = [0, 0, 0, 0]
        rnd.won_points = list(won_points)
        rnd.result = None
        rnd.double_victory = None
        rnd._ending = False
        rnd.phase = phase
        if phase == "dragon":
            rnd.turn = rnd.holder
        return rnd

    # ---- small helpers ---------------------------------------------------------------------
    def opening_events(self) -> list[GameEvent]:
        """The events of the deal (each seat's cards, addressed to that seat)."""
        n = 8 if self.grand_allowed else 14
        evs = [GameEvent("deal", s, {"seat": s, "cards": tuple(sort_cards(self.deal[s][:n]))})
               for s in range(4)]
        if not self.grand_allowed:
            evs.append(GameEvent("exchange-phase", None, {}))
        return evs

    def _next_active(self, seat: int) -> int:
        hands = self.hands
        s = (seat + 1) & 3
        if hands[s]:
            return s
        s = (seat + 2) & 3
        if hands[s]:
            return s
        s = (seat + 3) & 3
        if hands[s]:
            return s
        return seat

    def _wish_text(self) -> str | None:
        return None if self.wish is None else rank_name(self.wish)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` holds now, sorted."""
        return mask_cards(self.hands[seat])

    # ---- the entry point -------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[GameEvent]:
        """Apply `action` by `seat` and return the events it caused, or raise Rejected (and change
        nothing)."""
        if seat.__class__ is not int or not 0 <= seat <= 3:
            raise Rejected("bad-seat", seat=seat)
        if type(action) is Play:
            return self._play(seat, action)
        if type(action) is Pass:
            return self._pass(seat)
        if type(action) is CallTichu:
            return self._call_tichu(seat)
        if type(action) is GrandTichu:
            return self._grand(seat, action.call)
        if type(action) is Exchange:
            return self._exchange(seat, action.cards)
        if type(action) is Wish:
            return self._wish(seat, action.rank)
        if type(action) is GiveDragon:
            return self._give_dragon(seat, action.seat)
        raise Rejected("bad-action", action=repr(action))

    # ---- announcements and the exchange ------------------------------------------------------
    def _grand(self, seat: int, call: bool) -> list[GameEvent]:
        if not self.grand_allowed:
            raise Rejected("no-grand-tichu")
        if self.grand[seat] is not None:
            raise Rejected("grand-already-decided")
        if self.phase != "grand":
            raise Rejected("wrong-phase", phase=self.phase)
        call = bool(call)
        self.grand[seat] = call
        evs = [GameEvent("grand", None, {"seat": seat, "call": call})]
        if call:
            self.calls[seat] = "grand"
        if None not in self.grand:
            for s in range(4):
                rest = self._rest[s]
                self.hands[s] |= rest
                evs.append(GameEvent("deal-rest", s, {"seat": s, "cards": mask_cards(rest)}))
            self.phase = "exchange"
            evs.append(GameEvent("exchange-phase", None, {}))
        return evs

    def _call_tichu(self, seat: int) -> list[GameEvent]:
        if self.phase == "finished" or self._ending:
            raise Rejected("round-over")
        c = self.calls[seat]
        if c is not None:
            raise Rejected("already-called", call="Grand Tichu" if c == "grand" else "Tichu")
        if self.played_first[seat]:
            raise Rejected("tichu-too-late")
        if self.phase == "grand" and self.grand[seat] is None:
            raise Rejected("grand-undecided")
        self.calls[seat] = "tichu"
        return [GameEvent("tichu", None, {"seat": seat})]

    def _exchange(self, seat: int, cards: tuple[Card, ...]) -> list[GameEvent]:
        if self.phase != "exchange":
            if self.phase == "grand":
                raise Rejected("wrong-phase", phase=self.phase)
            raise Rejected("exchange-over")
        if self.given[seat] is not None:
            raise Rejected("already-exchanged")
        if len(cards) != 3:
            raise Rejected("exchange-three-cards", count=len(cards))
        try:
            cs = tuple(c if c.__class__ is Card else Card(c) for c in cards)
        except (TypeError, ValueError):
            raise Rejected("bad-card", token=str(cards)) from None
        mask = _mask(cs)
        if mask.bit_count() != 3:
            raise Rejected("duplicate-card", card=str(cs[0] if cs[0] in cs[1:] else cs[1]))
        hand = self.hands[seat]
        if mask & ~hand:
            raise Rejected("cards-not-in-hand", cards=format_cards(mask_cards(mask & ~hand)))
        self.given[seat] = cs
        self.hands[seat] = hand & ~mask
        evs = [GameEvent("exchange-given", None, {"seat": seat})]
        if None not in self.given:
            for s in range(4):
                for k, c in enumerate(self.given[s] or ()):   # next, partner, previous
                    self.received[(s + k + 1) & 3][s] = c
            for s in range(4):
                rec = self.received[s]
                self.hands[s] |= _mask(rec.values())
                evs.append(GameEvent("exchange-received", s,
                                 {"seat": s, "cards": {f: rec[f] for f in sorted(rec)}}))
                self._caches.received_shown[s] = freeze(received_text(rec))
            self.phase = "play"
            for s in range(4):
                if self.hands[s] & MAHJONG_BIT:
                    self.turn = s
            evs.append(GameEvent("play-phase", None, {"turn": self.turn}))
        return evs

    # ---- playing ----------------------------------------------------------------------------
    def _not_playing(self) -> Rejected:
        ph = self.phase
        if ph == "exchange":
            return Rejected("exchange-incomplete")
        if ph == "wish":
            return Rejected("waiting-for-wish")
        if ph == "finished":
            return Rejected("round-over")
        if ph == "dragon":
            return Rejected("waiting-for-dragon", seat=self.holder)
        return Rejected("wrong-phase", phase=ph)

    def _play(self, seat: int, action: Play) -> list[GameEvent]:
        ph = self.phase
        if ph != "play" and (ph != "dragon" or self._ending):
            raise self._not_playing()
        hand = self.hands[seat]
        if not hand:
            raise Rejected("you-are-out")
        cards = action.cards
        wish = action.wish
        if wish is not UNSET and wish is not None:
            self._parse_wish(wish)
            if MAHJONG not in cards:
                raise Rejected("wish-without-mahjong")
        combos = self._caches.combos
        if seat == self.turn and ph == "play":
            combo = None
            legal = self._caches.legal if _memo.ON else ()
            if (legal and legal[0] == seat and legal[1] == hand and legal[3] == self.trick_won
                    and legal[2] is (combos[-1] if combos else None) and legal[4] == self.wish):
                # the very cards object of a play that legal_plays handed out for this state,
                # with the same Phoenix reading (no reading named = no Phoenix reading: a Phoenix
                # play without one takes check_play's default, so a replay reads it the same way)
                pa = action.phoenix_as
                for c in legal[5]:
                    if c._cards is cards and pa == c.phoenix_as:
                        combo = c
                        break
            if combos and not self.trick_won:
                if combo is None:
                    _check_cards(cards)
                    combo = _moves.check_play(hand, combos, self.wish, cards, action.phoenix_as)
                return self._put(seat, combo, wish)
            # a lead; a bomb of a lead-taker who did not win the trick goes onto the won trick
            if combo is None:
                _check_cards(cards)
            if combos and seat != self.holder and (combo is None or combo.is_bomb):
                bomb = self._try_bomb(hand, cards)
                if bomb is not None:
                    return self._put(seat, bomb, wish)
            if combo is None:
                combo = _moves.check_play(hand, (), self.wish, cards, action.phoenix_as)
            evs = self._collect() if combos else []
            if combo.kind == "dog":
                evs += self._play_dog(seat, combo)
                return evs
            evs += self._put(seat, combo, wish)
            return evs
        # out of turn (or during a Dragon gift): only a bomb onto a play on the table
        _check_cards(cards)
        try:
            combo = _moves.check_bomb_out_of_turn(hand, combos, cards)
        except Rejected as exc:
            if exc.code in ("not-a-bomb", "not-a-combination"):
                if ph == "dragon":
                    raise Rejected("waiting-for-dragon", seat=self.holder) from None
                raise Rejected("not-your-turn", turn=self.turn) from None
            raise
        if ph == "dragon":
            self.phase = "play"
        return self._put(seat, combo, UNSET)

    def _try_bomb(self, hand: int, cards: tuple[Card, ...]) -> Any:
        try:
            return _moves.check_bomb_out_of_turn(hand, self._caches.combos, cards)
        except Rejected:
            return None

    def _put(self, seat: int, combo: Any, wish: Any) -> list[GameEvent]:
        """Put `combo` of `seat` on the trick (the checks were made)."""
        m = combo.mask
        hand = self.hands[seat] & ~m
        self.hands[seat] = hand
        self.played_first[seat] = True
        self.trick.append((seat, combo))
        self._caches.combos.append(combo)
        self._table |= m
        self.holder = seat
        self.passes = 0
        self.trick_won = False
        evs = [GameEvent("play", None, {"seat": seat, "cards": combo.cards, "combo": combo.kind})]
        w = self.wish
        if w is not None and m & RANK_MASK[w]:
            self.wish = None
            evs.append(GameEvent("wish-fulfilled", None, {"seat": seat, "rank": rank_name(w)}))
        if not hand and self._goes_out(seat, evs):
            return evs
        nxt = self._next_active(seat)
        if m & MAHJONG_BIT:
            if wish is UNSET:
                self.phase = "wish"
                self.wisher = seat
                self.turn = seat
                self._after_wish = nxt
                return evs
            evs.append(self._set_wish(seat, wish))
        self.turn = nxt
        return evs

    def _goes_out(self, seat: int, evs: list[GameEvent]) -> bool:
        """`seat` has played its last card: it takes the next place (an "out" event). True when
        that ends the round, with the round's closing events added to `evs`."""
        self.out.append(seat)
        evs.append(GameEvent("out", None, {"seat": seat, "place": len(self.out)}))
        if self._round_over():
            evs += self._end_round()
            return True
        return False

    def _set_wish(self, seat: int, wish: Any) -> GameEvent:
        self.wish = None if wish is None else self._parse_wish(wish)
        return GameEvent("wish", None, {"seat": seat, "rank": self._wish_text()})

    @staticmethod
    def _parse_wish(wish: Any) -> int:
        try:
            return parse_rank(wish)
        except (Rejected, TypeError, ValueError):
            raise Rejected("bad-wish", rank=wish) from None

    def _play_dog(self, seat: int, combo: Any) -> list[GameEvent]:
        hand = self.hands[seat] & ~DOG_BIT
        self.hands[seat] = hand
        self.played_first[seat] = True
        evs = [GameEvent("play", None, {"seat": seat, "cards": combo.cards, "combo": "dog"})]
        self.won[seat] |= DOG_BIT   # the Dog trick is taken at once (0 points)
        if not hand and self._goes_out(seat, evs):
            return evs
        partner = (seat + 2) & 3
        self.turn = partner if self.hands[partner] else self._next_active(partner)
        evs.append(GameEvent("trick-taken", None, {"seat": seat, "points": 0, "winner": seat,
                                               "lead": self.turn}))
        return evs

    def _pass(self, seat: int) -> list[GameEvent]:
        if self.phase != "play":
            raise self._not_playing()
        if seat != self.turn:
            if not self.hands[seat]:
                raise Rejected("you-are-out")
            raise Rejected("not-your-turn", turn=self.turn)
        if not self._caches.combos or self.trick_won:
            raise Rejected("must-lead")
        hands = self.hands
        if self.wish is not None and not self._may_pass(seat):
            raise Rejected("must-fulfil-wish", rank=self._wish_text())
        self.passes = passes = self.passes + 1
        holder = self.holder
        assert holder is not None                       # a play is on the table
        needed = (hands[0] != 0) + (hands[1] != 0) + (hands[2] != 0) + (hands[3] != 0)
        if hands[holder]:
            needed -= 1
        if passes >= needed:
            self.trick_won = True
            if self._caches.combos[-1].mask == DRAGON_BIT and not self.dragon_fixed:
                self.phase = "dragon"
                self.turn = holder
                return [GameEvent("pass", None, {"seat": seat}),
                        GameEvent("trick-won", None, {"seat": holder, "dragon": True, "lead": holder})]
            lead = holder if hands[holder] else self._next_active(holder)
            self.turn = lead
            return [GameEvent("pass", None, {"seat": seat}),
                    GameEvent("trick-won", None, {"seat": holder, "dragon": False, "lead": lead})]
        self.turn = self._next_active(seat)
        return [GameEvent("pass", None, {"seat": seat})]

    def _collect(self, to: int | None = None) -> list[GameEvent]:
        """The trick on the table goes to `to` (default: its holder; a Dragon trick under
        `dragon_fixed` to the next opponent in turn order)."""
        holder = self.holder
        assert holder is not None                       # a trick is on the table
        if to is None:
            to = holder
            if self.dragon_fixed and self._caches.combos[-1].mask == DRAGON_BIT:
                to = (holder + 1) & 3
        table = self._table
        pts = mask_points(table)
        self.won[to] |= table
        self.won_points[to] += pts
        self.trick = []
        self._caches.combos = []
        self._table = 0
        self.holder = None
        self.passes = 0
        self.trick_won = False
        return [GameEvent("trick-taken", None, {"seat": to, "points": pts, "winner": holder})]

    def _wish(self, seat: int, rank: Any) -> list[GameEvent]:
        if self.phase != "wish" or seat != self.wisher:
            raise Rejected("no-wish-pending")
        ev = self._set_wish(seat, rank)
        self.phase = "play"
        self.wisher = None
        self.turn = self._after_wish
        self._after_wish = None
        return [ev]

    def _give_dragon(self, seat: int, to: int) -> list[GameEvent]:
        if self.phase != "dragon":
            raise Rejected("no-dragon-pending")
        if seat != self.holder:
            raise Rejected("not-your-dragon", seat=self.holder)
        if to.__class__ is not int or not 0 <= to <= 3 or (to - seat) % 2 == 0:
            raise Rejected("dragon-to-opponent", seat=to)
        evs = [GameEvent("dragon-given", None, {"seat": seat, "to": to})]
        evs += self._collect(to)
        if self._ending:
            evs += self._finish()
            return evs
        self.phase = "play"
        self.turn = seat if self.hands[seat] else self._next_active(seat)
        return evs

    # ---- the end of the round ----------------------------------------------------------------
    def _round_over(self) -> bool:
        out = self.out
        if len(out) == 2 and not (out[0] - out[1]) & 1:
            self.double_victory = out[0] & 1
            return True
        return len(out) >= 3

    def _end_round(self) -> list[GameEvent]:
        """The round is over (docs/rules.md 23): the trick on the table is still taken (a Dragon still
        given away, except after a double victory, where cards do not count)."""
        self.turn = None
        evs: list[GameEvent] = []
        combos = self._caches.combos
        if combos:
            if (combos[-1].mask == DRAGON_BIT and not self.dragon_fixed
                    and self.double_victory is None):
                self.phase = "dragon"
                self.turn = self.holder
                self.trick_won = True
                self._ending = True
                return [GameEvent("trick-won", None, {"seat": self.holder, "dragon": True,
                                                  "lead": None})]
            evs = self._collect()
        return evs + self._finish()

    def _finish(self) -> list[GameEvent]:
        self.phase = "finished"
        self.turn = None
        self._ending = False
        order = list(self.out)
        rest = [s for s in range(4) if self.hands[s]]
        if self.double_victory is not None:
            card_points = [0, 0]
            card_points[self.double_victory] = 200
        else:
            last = rest[0]
            per_seat = list(self.won_points)
            # the last player's tricks go to the first finisher, his hand to the opponents
            per_seat[order[0]] += per_seat[last]
            per_seat[last] = 0
            card_points = [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
            card_points[(last + 1) & 1] += mask_points(self.hands[last])
        tichu = [0, 0]
        first = order[0]
        for s in range(4):
            c = self.calls[s]
            if c is not None:
                v = 200 if c == "grand" else 100
                tichu[s & 1] += v if s == first else -v
        self.result = {
            "order": order + rest,
            "double_victory": self.double_victory,
            "card_points": card_points,
            "tichu": tichu,
            "calls": list(self.calls),
            "score": [card_points[0] + tichu[0], card_points[1] + tichu[1]],
        }
        return [GameEvent("round-over", None, dict(self.result))]

    # ---- what a seat may do and see ----------------------------------------------------------
    def legal_plays(self, seat: int) -> list[Any]:
        """The Combos `seat` may play now in turn (leads included); [] when it is not its turn."""
        if self.phase != "play" or seat != self.turn:
            return []
        combos = self._caches.combos
        hand = self.hands[seat]
        wish = self.wish
        if combos and not self.trick_won:
            top = combos[-1]
            plays, may_pass = _moves.follow_plays(hand, top, wish or 0)
            self._caches.legal = (seat, hand, top, False, wish, plays, may_pass)
            return plays
        # leads: filtered from this seat's previous leads (its hand only shrinks)
        caches = self._caches
        last = caches.leads[seat] if _memo.ON else None
        if last is not None and not hand & ~last[0]:
            gone = last[0] & ~hand
            leads = [c for c in last[1] if not c.mask & gone] if gone else last[1]
        else:
            leads = _moves.lead_plays(hand, 0)
        caches.leads[seat] = (hand, leads)
        if wish is not None and hand & RANK_MASK[wish]:
            rm = RANK_MASK[wish]     # a single of the wished rank is there: the wish binds
            plays = [c for c in leads if c.mask & rm or c.is_bomb]
        else:
            plays = leads.copy()
        if combos and seat != self.holder:
            bombs = _moves.bombs_out_of_turn(self.hands[seat], combos)
            if bombs:
                seen = {p.mask for p in plays}
                plays += [b for b in bombs if b.mask not in seen]
        caches.legal = (seat, hand, combos[-1] if combos else None, self.trick_won, wish, plays,
                        False)
        return plays

    def _may_pass(self, seat: int) -> bool:
        """Whether the wish lets `seat` (in turn, following) pass: from the legal-plays cache
        when it is for this very state."""
        caches = self._caches
        legal = caches.legal if _memo.ON else ()
        hand = self.hands[seat]
        if (legal and legal[0] == seat and legal[1] == hand and legal[2] is caches.combos[-1]
                and legal[3] is False and legal[4] == self.wish):
            return legal[6]
        return _moves.can_pass(hand, caches.combos, self.wish)

    def can_pass(self, seat: int) -> bool:
        """May `seat` pass now?"""
        if self.phase != "play" or seat != self.turn or not self._caches.combos or self.trick_won:
            return False
        if self.wish is None:
            return True
        return self._may_pass(seat)

    def bombs(self, seat: int) -> list[Any]:
        """The bombs `seat` could throw in now out of turn (docs/rules.md 14, 18)."""
        entry = self._bombs_entry(seat)
        return [] if entry is None else entry[2].copy()

    def _bombs_entry(self, seat: int) -> tuple[int, Any, list[Any], list[str]] | None:
        """(hand, the bomb to beat, bombs, their texts) of `seat` now, or None for no bombs at
        all. The bombs of a hand depend only on the hand and on the bomb they must beat (none on
        an empty table or on the Dog, every bomb on any other play): kept per seat until that
        changes, so the four views of an action do not generate them again, and a view shows
        the very same list of texts while they do not change (an update compares by identity
        first)."""
        ph = self.phase
        hand = self.hands[seat]
        caches = self._caches
        combos = caches.combos
        if ((ph != "play" and ph != "dragon") or not combos or not hand
                or self._ending or (seat == self.turn and ph == "play")):
            return None
        top = combos[-1]
        if top.kind == "dog":
            return None
        above = top if top.is_bomb else None
        entry = caches.bombs[seat] if _memo.ON else None
        if entry is None or entry[0] != hand or entry[1] is not above:
            bombs = _moves.bombs_out_of_turn(hand, combos)
            entry = caches.bombs[seat] = ((hand, above, bombs, freeze(play_texts(bombs)))
                                          if bombs else (hand, above, _NOTHING, _NOTHING))
        return entry if entry[2] else None

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything `seat` may do now: Tichu calls and bombs out of turn included. In the
        exchange it lists every ordered choice of three cards (up to 2184 actions); a Mah Jong
        play is listed with its wish left open (a `Wish` action follows)."""
        ph = self.phase
        acts: list[Action] = []
        if ph == "finished":
            return acts
        if self._ending:
            return [GiveDragon((seat + 1) & 3), GiveDragon((seat + 3) & 3)] \
                if seat == self.holder else acts
        if (self.calls[seat] is None and not self.played_first[seat]
                and not (ph == "grand" and self.grand[seat] is None)):
            acts.append(CallTichu())
        if ph == "grand":
            if self.grand[seat] is None:
                acts += [GrandTichu(True), GrandTichu(False)]
        elif ph == "exchange":
            if self.given[seat] is None:
                hand = mask_cards(self.hands[seat])
                for a in hand:
                    for b in hand:
                        if b != a:
                            for c in hand:
                                if c != a and c != b:
                                    acts.append(Exchange((a, b, c)))
        elif ph == "wish":
            if seat == self.wisher:
                acts.append(Wish(None))
                acts += [Wish(rank_name(r)) for r in range(2, 15)]
        elif ph == "dragon":
            if seat == self.holder:
                acts += [GiveDragon((seat + 1) & 3), GiveDragon((seat + 3) & 3)]
            acts += [Play(b.cards) for b in self.bombs(seat)]
        elif ph == "play":
            if seat == self.turn:
                acts += [Play(p.cards, p.phoenix_as) for p in self.legal_plays(seat)]
                if self.can_pass(seat):
                    acts.append(Pass())
            else:
                acts += [Play(b.cards) for b in self.bombs(seat)]
        return acts

    @property
    def table_mask(self) -> int:
        """The cards of the trick on the table now, as a mask (lobby.tichu `mask_points` counts
        them)."""
        return self._table

    @property
    def ending(self) -> bool:
        """Over but for the Dragon's gift: the last trick is the Dragon's and waits for it."""
        return self._ending

    def cards_left(self) -> list[int]:
        """How many cards each seat holds."""
        return [h.bit_count() for h in self.hands]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything `seat` (or a spectator, None) may see, JSON-safe."""
        v = self._public_view()
        if seat is not None:
            v["seat"] = seat
            self._add_seat_view(v, seat)
        return v

    def views(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """`[view(seat) for seat in seats]`, the part every seat sees built once: the views
        share its values (lists and dicts that nobody changes), each has its own top dict."""
        public = self._public_view()
        out = []
        for seat in seats:
            v = public.copy()
            if seat is not None:
                v["seat"] = seat
                self._add_seat_view(v, seat)
            out.append(v)
        return out

    def _public_view(self) -> dict[str, Any]:
        """The part of a view that is the same for every seat (`seat` None). A value that reads
        the same as in the last view is that view's very object (kept in `_shown`): the
        renderers compare by identity first, and a pass then leaves the trick, the calls, the
        cards left ... the same objects (nobody changes a delivered view)."""
        shown = self._caches.shown if _memo.ON else {}
        trick = self.trick
        tv = shown.get("trick")
        if tv is None or tv[0] is not trick or tv[1] != len(trick):
            if tv is not None and tv[0] is trick and tv[1] == len(trick) - 1:
                s, c = trick[-1]            # one play more on the same trick
                plays = tv[2] + [{"seat": s, "cards": play_text(c), "combo": c.kind}]
            else:
                plays = [{"seat": s, "cards": play_text(c), "combo": c.kind} for s, c in trick]
            tv = shown["trick"] = (trick, len(trick), freeze(plays))
        result = shown.get("result")
        if result is None or result[0] is not self.result:
            result = shown["result"] = (self.result,
                                        None if self.result is None else freeze(dict(self.result)))
        return {
            "phase": self.phase,
            "seat": None,
            "turn": self.turn,
            "trick": tv[2],
            "trick_won": self.trick_won,
            "holder": self.holder,
            "wish": self._wish_text(),
            "wish_pending": self.wisher,
            "calls": _kept(shown, "calls", list(self.calls)),
            "grand_decided": _kept(shown, "grand_decided", [g is not None for g in self.grand]),
            "exchanged": _kept(shown, "exchanged", [g is not None for g in self.given]),
            "cards_left": _kept(shown, "cards_left", [h.bit_count() for h in self.hands]),
            "out": _kept(shown, "out", list(self.out)),
            "points": _kept(shown, "points", list(self.won_points)),
            "result": result[1],
        }

    def _add_seat_view(self, v: dict[str, Any], seat: int) -> None:
        """The part of a view only `seat` sees: its hand, gifts, legal plays, bombs."""
        hand = self.hands[seat]
        caches = self._caches
        shown = caches.hand_shown[seat] if _memo.ON else None
        if shown is None or shown[0] != hand:
            # the seat's own memo: a server's hands outnumber hand_text's shared one
            shown = caches.hand_shown[seat] = (hand, hand_text(hand))
        v["hand"] = shown[1]
        given = self.given[seat]
        if given is not None:
            gv = caches.shown.get(seat) if _memo.ON else None
            if gv is None or gv[0] is not given:
                gv = caches.shown[seat] = (given, format_cards(given))
            v["given"] = gv[1]
        if self.phase != "exchange" and self.received[seat]:
            # final after the exchange: the same dict in all the seat's views of the round
            v["received"] = caches.received_shown[seat]
        if self.phase == "play" and seat == self.turn:
            v["legal"] = FrozenList(play_texts(self.legal_plays(seat)))   # (texts: frozen)
            v["can_pass"] = self.can_pass(seat)
        else:
            v["legal"] = _NOTHING
            v["can_pass"] = False
        entry = self._bombs_entry(seat)
        v["bombs"] = _NOTHING if entry is None else entry[3]

    # ---- accounting --------------------------------------------------------------------------
    def all_cards(self) -> list[Card]:
        """Every card where it is now (hands, tricks taken, the table, gifts in transit, cards
        not dealt yet): always the 56 cards exactly once (docs/rules.md 28)."""
        cards: list[Card] = []
        for s in range(4):
            cards.extend(mask_cards(self.hands[s]))
            cards.extend(mask_cards(self.won[s]))
            given = self.given[s]
            if given is not None and self.phase == "exchange":
                cards.extend(given)
            if self.phase == "grand":
                cards.extend(self.deal[s][8:])
        cards.extend(mask_cards(self._table))
        return cards


def _kept(shown: dict[str, list[Any]], key: str, value: list[Any]) -> list[Any]:
    """`value`, or the equal list the last view showed under `key` (the same object); frozen."""
    last = shown.get(key)
    if last is not None and last == value:
        return last
    frozen: list[Any] = freeze(value)           # (a FrozenList)
    shown[key] = frozen
    return frozen
