"""Helpers for the round and match tests: explicit deals and short scripts of actions."""
from __future__ import annotations

from lobby.tichu.actions import UNSET, CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from lobby.tichu.cards import Card, parse_cards
from lobby.tichu.round import Round


def deal_for(final_hands: list[str]) -> tuple[list[list[Card]], list[tuple[Card, ...]]]:
    """A deal (four hands of 14 in deal order) and the three gifts of each seat such that after
    the exchange the seats hold exactly `final_hands` (each 14 cards).

    Receiver r gets the first three cards of its final hand: card 0 from r-1, card 1 from its
    partner, card 2 from r+1 (gifts go to the next player, the partner, the previous player)."""
    final = [list(parse_cards(h)) for h in final_hands]
    assert all(len(h) == 14 for h in final), [len(h) for h in final]
    assert len({c for h in final for c in h}) == 56
    given = [(final[(s + 1) % 4][0], final[(s + 2) % 4][1], final[(s + 3) % 4][2])
             for s in range(4)]
    deal = [final[s][3:] + list(given[s]) for s in range(4)]
    return deal, given


def make_round(final_hands: list[str], *, calls: dict[int, str] | None = None,
               **options: object) -> Round:
    """A Round in the play phase whose seats hold `final_hands`. `calls`: seat -> "grand" or
    "tichu" (a Tichu is called after the exchange)."""
    calls = calls or {}
    deal, given = deal_for(final_hands)
    r = Round(deal, **options)  # type: ignore[arg-type]
    if r.phase == "grand":
        for s in range(4):
            r.apply(s, GrandTichu(calls.get(s) == "grand"))
    for s in range(4):
        r.apply(s, Exchange(given[s]))
    assert r.phase == "play"
    for s, c in calls.items():
        if c == "tichu":
            r.apply(s, CallTichu())
    for s in range(4):
        assert sorted(r.hand(s)) == sorted(parse_cards(final_hands[s]))
    return r


def act(r, line: str):
    """One scripted action: `"2 play R5 G5"`, `"1 pass"`, `"0 play Ma wish 7"`, `"3 wish K"`,
    `"0 dragon 1"`, `"2 tichu"`, `"1 play R7 R8 R9 RB Ph=10"`. Returns the events."""
    seat_text, verb, *rest = line.split()
    seat = int(seat_text)
    if verb == "pass":
        return r.apply(seat, Pass())
    if verb == "tichu":
        return r.apply(seat, CallTichu())
    if verb == "wish":
        return r.apply(seat, Wish(None if rest[0] == "none" else rest[0]))
    if verb == "dragon":
        return r.apply(seat, GiveDragon(int(rest[0])))
    if verb == "play":
        wish = UNSET
        if "wish" in rest:
            i = rest.index("wish")
            wish = None if rest[i + 1] == "none" else rest[i + 1]
            rest = rest[:i]
        phoenix_as = None
        tokens = []
        for t in rest:
            if t.lower().startswith("ph="):
                from lobby.tichu.cards import parse_rank
                phoenix_as = parse_rank(t[3:])
                t = "Ph"
            tokens.append(t)
        return r.apply(seat, Play(parse_cards(" ".join(tokens)), phoenix_as, wish))
    raise ValueError(line)


def script(r, *lines: str) -> list:
    """Run several scripted actions; returns all their events."""
    evs = []
    for line in lines:
        evs += act(r, line)
    return evs


def fill(*partial: str) -> list[str]:
    """Four hands of 14: the given cards of each seat, completed from the rest of the deck in
    deck order (seats in order)."""
    from lobby.tichu.cards import DECK
    hands = [list(parse_cards(p)) for p in partial]
    while len(hands) < 4:
        hands.append([])
    used = {c for h in hands for c in h}
    rest = [c for c in DECK if c not in used]
    for h in hands:
        while len(h) < 14:
            h.append(rest.pop(0))
    assert not rest
    return [" ".join(str(c) for c in h) for h in hands]


def straight(suits: str, lo: int = 2, hi: int = 14) -> str:
    """Cards of ranks lo..hi, suits taken in turn from `suits` (`"SB"`: S2 B3 S4 ...)."""
    from lobby.tichu.cards import rank_name
    return " ".join(suits[i % len(suits)] + rank_name(r) for i, r in enumerate(range(lo, hi + 1)))


def play_in_match(match, final_hands: list[str], lines: list[str], *,
                  calls: dict[int, str] | None = None) -> list:
    """Play one scripted round of `match` (whose current deal must be `deal_for(final_hands)`);
    seats in `lines` are translated to the players sitting there."""
    from lobby.tichu.match import Match  # noqa: F401  (type only)
    calls = calls or {}
    _, given = deal_for(final_hands)
    r = match.round
    evs = []
    if r.phase == "grand":
        for s in range(4):
            evs += match.apply(match.player_at(s), GrandTichu(calls.get(s) == "grand"))
    for s in range(4):
        evs += match.apply(match.player_at(s), Exchange(given[s]))
    for s, c in calls.items():
        if c == "tichu":
            evs += match.apply(match.player_at(s), CallTichu())

    class _Proxy:
        def apply(self, seat, action):
            return match.apply(match.player_at(seat), action)

    for line in lines:
        evs += act(_Proxy(), line)
    return evs


# ---- scripted rounds used by several test files ---------------------------------------------
# Seat 0 goes out at once with a 14-card straight, seat 1 with a 13-card straight and the Dog
# (which hands the lead to seat 3), seat 3 with a 13-card straight and then its last card; seat 2
# is left holding all the green cards and the other special card.
def last_card_hands(last_card_of_3: str, kept_by_2: str) -> list[str]:
    return ["Ma " + straight("R"), straight("SB") + " Hu", straight("G") + " " + kept_by_2,
            straight("BS") + " " + last_card_of_3]


def last_card_lines(last_card_of_3: str) -> list[str]:
    return ["0 play Ma " + straight("R") + " wish none", "1 pass", "2 pass", "3 pass",
            "1 play " + straight("SB"), "2 pass", "3 pass", "1 play Hu",
            "3 play " + straight("BS"), "2 pass", "3 play " + last_card_of_3]


# Double victory of seats 0 and 2: seat 0 plays a straight, then the Dog to its partner, who goes
# out with 7 pairs of stairs.
DOUBLE_VICTORY_HANDS = [
    "Ma " + straight("R", 2, 13) + " Hu",
    straight("G") + " Ph",
    "S2 B2 S3 B3 S4 B4 S5 B5 S6 B6 S7 B7 S8 B8",
    "RA " + straight("S", 9, 14) + " " + straight("B", 9, 14) + " Dr",
]
DOUBLE_VICTORY_LINES = [
    "0 play Ma " + straight("R", 2, 13) + " wish none", "1 pass", "2 pass", "3 pass",
    "0 play Hu", "2 play S2 B2 S3 B3 S4 B4 S5 B5 S6 B6 S7 B7 S8 B8",
]


def rotate_hands(hands: list[str], k: int) -> list[str]:
    """The same deal moved k seats on (seat s gets the hand of seat s - k)."""
    return [hands[(s - k) % 4] for s in range(4)]


def rotate_lines(lines: list[str], k: int) -> list[str]:
    out = []
    for line in lines:
        seat, rest = line.split(" ", 1)
        verb, *args = rest.split()
        if verb == "dragon":
            args = [str((int(args[0]) + k) % 4)]
        out.append(" ".join([str((int(seat) + k) % 4), verb, *args]))
    return out
