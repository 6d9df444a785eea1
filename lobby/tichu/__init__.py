"""The rules engine's facade (docs/engine.md): pure rules, no Twisted, no I/O, no clock."""
from lobby.tichu.actions import (
    UNSET,
    Action,
    CallTichu,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
    Wish,
    action_from_json,
)
from lobby.tichu.cards import (
    DECK,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    Card,
    format_cards,
    parse_cards,
    parse_rank,
    rank_name,
    sort_cards,
)
from lobby.tichu.combos import Combo, beats, classify
from lobby.tichu.errors import ENGINE_MESSAGES, Rejected
from lobby.tichu.match import Match, MatchOptions, initial_seating
from lobby.tichu.moves import (
    bombs_out_of_turn,
    can_pass,
    check_bomb_out_of_turn,
    check_play,
    fulfils_wish,
    legal_plays,
    trick_top,
    wish_binds,
)
from lobby.tichu.round import PHASES, Event, Round
