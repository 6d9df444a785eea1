"""The rules engine's facade (docs/engine.md): pure rules, no Twisted, no I/O, no clock, no text.

Application code (lobby, protocol, tichu_bot, scripts) imports the engine from here only, never
from its modules (tests/engine/test_engine_alone.py checks it); the modules behind it may change.

May import: its own modules (lobby.tichu) and the standard library only: nothing of lobby,
protocol or tichu_bot, no Twisted, no other package (tests/project/test_layers.py,
tests/engine/test_engine_alone.py), so it runs and is tested on its own.
"""
from lobby.tichu import memo
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
    DOG_BIT,
    DRAGON,
    DRAGON_BIT,
    MAHJONG,
    MAHJONG_BIT,
    PHOENIX,
    PHOENIX_BIT,
    RANK_MASK,
    RANK_OF,
    RANKS,
    SORT_KEY,
    SUITS,
    WISH_WORDS,
    Card,
    card_points,
    cards_mask,
    format_cards,
    format_play,
    is_play_text,
    mask_cards,
    mask_points,
    parse_cards,
    parse_play,
    parse_rank,
    parse_wish,
    rank_name,
    sort_cards,
)
from lobby.tichu.combos import Combo, beats, classify, readings
from lobby.tichu.errors import Rejected
from lobby.tichu.events import GameEvent, json_data
from lobby.tichu.frozen import (
    FROZEN_DICT_TYPES,
    FROZEN_LIST_TYPES,
    FrozenDict,
    FrozenError,
    FrozenList,
    freeze,
    freeze_dict,
)
from lobby.tichu.match import TURNIER_ROUNDS, Match, MatchOptions, initial_seating
from lobby.tichu.moves import (
    bombs_out_of_turn,
    can_pass,
    check_bomb_out_of_turn,
    check_play,
    clear_move_caches,
    fulfils_wish,
    legal_plays,
    trick_top,
    wish_binds,
)
from lobby.tichu.round import PHASES, Round
from lobby.tichu.view_text import play_text

__all__ = [
    "UNSET", "Action", "CallTichu", "Exchange", "GiveDragon", "GrandTichu", "Pass", "Play",
    "Wish", "action_from_json",
    "DECK", "DOG", "DOG_BIT", "DRAGON", "DRAGON_BIT", "MAHJONG", "MAHJONG_BIT", "PHOENIX",
    "PHOENIX_BIT", "RANK_MASK", "RANK_OF", "RANKS", "SORT_KEY", "SUITS", "Card", "card_points",
    "cards_mask", "format_cards", "format_play", "mask_cards", "mask_points", "parse_cards",
    "is_play_text", "parse_play", "parse_rank", "parse_wish", "rank_name", "sort_cards",
    "WISH_WORDS",
    "Combo", "beats", "classify", "readings",
    "Rejected", "memo",
    "GameEvent", "json_data",
    "FROZEN_DICT_TYPES", "FROZEN_LIST_TYPES", "FrozenDict", "FrozenError", "FrozenList", "freeze",
    "freeze_dict",
    "TURNIER_ROUNDS", "Match", "MatchOptions", "initial_seating",
    "bombs_out_of_turn", "can_pass", "check_bomb_out_of_turn", "check_play", "clear_move_caches",
    "fulfils_wish", "legal_plays", "trick_top", "wish_binds",
    "PHASES", "Round",
    "play_text",
]
