"""Events -> one JSON object each (machine mode, and the payload of GMCP messages).

`render_json(event)` turns one `lobby.events.Event` into one JSON-safe dict with a `type` field,
from the event's data only (never from its text rendering), so the text and the JSON rendering of
the same event cannot disagree. The kinds of objects (docs/protocol.md, "Machine mode", and
protocol/protocol.schema.json describe each field):

- `error`: a refused command: `code` (the same stable code as text mode's `! [code]`), `message`
  (its text in the connection's language) and `params` (the template's values);
- `state`: a `table-view` (or a `table-look`, the answer to `/look`, which carries the
  command's id): what one person may see of a table now (seat names, options, scores,
  and for a running game the engine's view of that seat: phase, hand, trick, turn, wish, calls,
  cards left, out, `legal`, `can_pass`, `bombs`...). Spectators get the public state;
- `prompt`: the server waits for a login name or a password (`prompt`: `login` | `password`);
- `ok`: a command whose effects arrive as events was accepted (made by the session, see
  protocol/connection/machine.py);
- every other event: `{"type": EVENT_TYPE, ...its data}` (`says`, `who`, `table-joined`,
  `game-play`, `game-round-over`, ...). A data key named `type` or `id` is renamed `type_` / `id_`.

Seats in `state` objects and `game-*` events are the engine's indexes 0..3 (seat 1 of `/join` is
index 0); the text rendering adds 1 for people.
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring as _encode_str
from operator import itemgetter as _itemgetter
from typing import Any

from lobby.events import Event
from lobby.text.messages import text
from lobby.text.numbers import ascii_int
from lobby.tichu import FROZEN_DICT_TYPES, FROZEN_LIST_TYPES, FrozenDict, FrozenList, freeze
from lobby.tichu import memo as _memo

__all__ = ["render_json", "parse_protocol", "state_object", "state_update", "view_change", "WHOLE",
           "apply_update",
           "dumps", "REPLY_TYPES", "GAME_FIELDS", "is_table_event", "jsonable", "PROTOCOL_VERSION",
           "PROTOCOL_VERSIONS", "DEFAULT_PROTOCOL", "FIELDS_SINCE", "TYPES_SINCE", "CODES_SINCE",
           "for_protocol", "ok_line"]

#: the versions of machine mode's objects a client may ask for (`%json N`, `/iset protocol N`;
#: the connection's version is in the `iset json` reply and the greeting). 1: a whole `state`
#: after every change, `names` in every `game-*` event; 2: a whole `state` when a connection comes
#: to a table (or to another seat), then after every change an `update` with only what changed
#: for it, `game-*` events without `names`; 3: as 2, and a play on top of the trick comes as
#: `trick_add` (the new entries), not the whole `trick`; 4: as 3, and the objects of fair play
#: (FIELDS_SINCE, TYPES_SINCE: the move timer, rated games, leavers, friends, the host's bar).
#: Every later change of an object's shape is a new version here, and the older ones keep their
#: shapes.
PROTOCOL_VERSIONS: tuple[int, ...] = (1, 2, 3, 4)
#: the newest version (what tichu_bot asks for)
PROTOCOL_VERSION = PROTOCOL_VERSIONS[-1]
#: the version of a client that names none: what clients written before the versions had expect
DEFAULT_PROTOCOL = 1

#: event types that answer the command of the person who receives them (in machine mode they
#: carry the command's id); every other command is answered by an `ok` object
REPLY_TYPES: frozenset[str] = frozenset({
    "who", "wwho", "finger", "help", "help-command", "listroom", "whereis", "setting", "iset",
    "settings",
    "registered", "password-changed", "bye", "told", "table-info", "table-options",
    "logged-in", "logged-in-guest", "prompt", "history", "replay", "tchlog", "ranking",
    "look", "table-look", "friends",
})

#: fields of the engine's view copied into a `state` object as they are
GAME_FIELDS: tuple[str, ...] = (
    "phase", "seat", "player", "hand", "given", "received", "trick", "trick_won", "holder", "turn",
    "wish", "wish_pending", "calls", "grand_decided", "exchanged", "cards_left", "out", "points",
    "legal", "can_pass", "bombs", "round_no", "scores", "round_scores", "match_finished",
    "match_result", "victory_points", "tichu_points",
)

#: the fields a version added to objects older versions have: version -> object type -> the
#: paths of the fields an older version does not get ("a": field a; "a.b": field b of the
#: object under a; "a[].b": field b of each object in the list a). docs/protocol.md, "Versions".
FIELDS_SINCE: dict[int, dict[str, tuple[str, ...]]] = {
    4: {
        "state": ("options.timer", "result.left"),
        "table-info": ("timer", "timer_left", "rated", "unrated", "left", "options.timer",
                       "result.left"),
        "table-options": ("options.timer",),
        "table-started": ("options.timer",),
        "listroom": ("tables[].options.timer",),
        "history": ("games[].result", "games[].left"),
        "replay": ("players[].left_round", "players[].replaced_by"),
        "ranking": ("players[].games_left",),
        "finger": ("statistics.games_left", "role"),
        # issue 23: the staff marked
        "who": ("staff",),
        "wwho": ("users[].role",),
    },
}
#: the object types a version added: an older version never gets them (the friends commands
#: answer it with `needs-protocol`; `says-namesake` comes to it as a `says` whose `name` says
#: who is speaking, as text mode shows it)
TYPES_SINCE: dict[int, frozenset[str]] = {
    4: frozenset({
        "friends", "friend-added", "friend-removed", "friend-online", "friend-offline",
        "friend-game-started", "friend-game-over", "namesake-notice", "namesake-writes",
        "says-namesake",
        "table-rated", "table-unrated", "table-timer-warning", "table-timed-out",
        # the removal of a present player from a rated game (issue 24 outside finding)
        "table-timed-out-rated", "table-remove-needs-partner", "table-remove-needs-all",
        "table-unseated", "table-barred", "table-unbarred",
        # issue 23's /closetable (after protocol 3): older clients get what they got before,
        # the move to the lobby (`room`) and the command's `ok`
        "table-closed-by", "closetable-done",
        # (outside finding U12) an admin's /shutdown cancel: older clients get an `announcement`
        "shutdown-cancelled",
    }),
}

#: the error codes a version added for a case an older version already had a code for: version
#: -> the new code -> the code an older version gets instead (with that code's message in the
#: connection's language and the same `params`), so an old bot that matches the code still sees it
CODES_SINCE: dict[int, dict[str, str]] = {
    4: {
        # issue 24: a seated player's idle warning (only activity at the table counts)
        "idle-warning-seated": "idle-warning",
        # issue 26: /leave by a player of the running game says what becomes of the seat
        "leave-in-game": "game-running",
    },
}


def _codes_of(protocol: int) -> dict[str, str]:
    """The error codes `protocol` does not have -> the code it gets instead (followed through
    every later version, newest first)."""
    codes: dict[str, str] = {}
    for version, renamed in sorted(CODES_SINCE.items(), reverse=True):
        if protocol < version:
            for new, old in renamed.items():
                for key, value in list(codes.items()):
                    if value == new:
                        codes[key] = old
                codes.setdefault(new, old)
    return codes


#: per version, the error codes it reads under an older code (none for the newest)
_CODES: dict[int, dict[str, str]] = {version: _codes_of(version) for version in PROTOCOL_VERSIONS}


def _drop(obj: Any, path: list[str]) -> Any:
    """A copy of `obj` without the field at `path` (the same object where nothing is dropped)."""
    if type(obj) not in FROZEN_DICT_TYPES:          # (delivered data is frozen)
        return obj
    head = path[0]
    if len(path) == 1:
        if head not in obj:
            return obj
        return {k: v for k, v in obj.items() if k != head}
    listed = head.endswith("[]")
    key = head[:-2] if listed else head
    inner = obj.get(key)
    if inner is None:
        return obj
    if listed:
        if type(inner) not in FROZEN_LIST_TYPES:
            return obj
        new: Any = [_drop(item, path[1:]) for item in inner]
        if all(a is b for a, b in zip(new, inner, strict=True)):
            return obj
    else:
        new = _drop(inner, path[1:])
        if new is inner:
            return obj
    out = dict(obj)
    out[key] = new
    return out


#: a type a version does not have (in `_SHAPES`)
_GONE = ("gone",)


def _shapes_of(protocol: int) -> dict[Any, Any]:
    """What `protocol` changes, per object type: `_GONE` for a type added after it, else the
    paths (split at the dots) of the fields added after it; types it reads as they are are
    not in it."""
    shapes: dict[Any, Any] = {}
    for version, types in sorted(TYPES_SINCE.items()):
        if protocol < version:
            shapes.update(dict.fromkeys(types, _GONE))
    for version, fields in sorted(FIELDS_SINCE.items()):
        if protocol < version:
            for kind, paths in fields.items():
                if shapes.get(kind) is not _GONE:
                    shapes[kind] = (*shapes.get(kind, ()), *(tuple(p.split(".")) for p in paths))
    return shapes


#: the decision of `for_protocol` made once per version and object type (the same for every
#: delivery of that type: only the fields present differ)
_SHAPES: dict[int, dict[Any, Any]] = {version: _shapes_of(version) for version in PROTOCOL_VERSIONS}


def for_protocol(obj: dict[str, Any], protocol: int, lang: str = "en") -> dict[str, Any] | None:
    """`obj` as a client of `protocol` reads it: without the fields later versions added to its
    type; None for a type added after `protocol` (`says-namesake`: a `says` before 4, its
    `name` in `lang`; `shutdown-cancelled`: an `announcement`, its `text` in `lang`); an
    `error` whose code came later under the older code (CODES_SINCE). The same object when
    nothing changes (the newest protocol, and every type without later fields)."""
    shapes = _SHAPES.get(protocol)
    if shapes is None:
        shapes = _shapes_of(protocol)
    kind = obj.get("type")
    if kind == "error":
        codes = _CODES.get(protocol)
        old = (codes if codes is not None else _codes_of(protocol)).get(obj.get("code", ""))
        if old is None:
            return obj
        params = obj.get("params") or {}
        return {**obj, "code": old, "message": text(old, lang, **params)}
    drop = shapes.get(kind)
    if drop is None:
        return obj
    if drop is _GONE:
        if kind == "says-namesake":
            return {"type": "says", "name": text("says-namesake-name", lang,
                                                 name=obj.get("name")),
                    "text": obj.get("text"), "room": obj.get("room")}
        if kind == "shutdown-cancelled":      # an object older clients know, in their language
            return {"type": "announcement", "by": obj.get("by"),
                    "text": text("shutdown-cancelled-announcement", lang)}
        return None
    for path in drop:
        obj = _drop(obj, list(path))
    return obj


def _state_parts(protocol: int) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The fields `protocol` does not have in a `state` object, by the state's field they are
    in: {"options": (("timer",),), "result": (("left",),)} for protocols 1-3; a field of the
    state itself is a key with the path ()."""
    parts: dict[str, tuple[tuple[str, ...], ...]] = {}
    for path in (_SHAPES.get(protocol) or _shapes_of(protocol)).get("state", ()):
        parts[path[0]] = (*parts.get(path[0], ()), path[1:])
    return parts


#: per version, the `state` fields it reads without some of their fields (none for the newest)
_STATE_PARTS: dict[int, dict[str, tuple[tuple[str, ...], ...]]] = {
    version: _state_parts(version) for version in PROTOCOL_VERSIONS}
#: per version, the `state` fields other than the options that it reads without some fields
_STATE_OTHERS: dict[int, tuple[str, ...]] = {
    version: tuple(key for key in parts if key != "options")
    for version, parts in _STATE_PARTS.items()}
#: id of a part of a view (its options, its result) -> (the part, the paths, the part without
#: them): the same object for every seat and change while the part is the same object (the
#: renderers' memos and the update compare by identity; kept alive here, so the id is not re-used
#: while the entry lives)
_OLDER: _memo.BoundedMemo[tuple[Any, Any, Any]] = _memo.BoundedMemo(4096, oldest=True)


def _older(value: Any, paths: tuple[tuple[str, ...], ...]) -> Any:
    """`value` without the fields at `paths` (frozen: the same object while `value` is)."""
    if _memo.ON:
        kept = _OLDER.find(id(value))
        if kept is not None and kept[0] is value and kept[1] == paths:
            return kept[2]
    out = value
    for path in paths:
        out = _drop(out, list(path))
    if out is not value:
        out = freeze(out)
    _OLDER.put(id(value), (value, paths, out))
    return out


#: events whose catalog text is all they say (no data a program could use instead)
_WITH_TEXT = frozenset({"greeting", "shutdown", "replaced",
                        # a friend's news (lobby/world/friends.py): in the connection's language too
                        "friend-online", "friend-offline", "friend-game-started",
                        "friend-game-over"})


_PLAIN = frozenset((str, int, float, bool, type(None)))


#: the frozen types of delivered data (lobby.tichu `freeze`) -> the types they stand for: the
#: encoders and the update compare the kind of a value, and a frozen list is a list
_KIND: dict[type[Any], type[Any]] = {FrozenList: list, FrozenDict: dict}
_kind = _KIND.get


def jsonable(value: Any) -> Any:
    """A JSON-safe copy of `value` (tuples become lists, keys strings, unknown objects text)."""
    t = type(value)
    t = _kind(t, t)
    if t in _PLAIN:                      # the common cases first, by exact type (hot path)
        return value
    if t is list or t is tuple:
        for v in value:
            if type(v) not in _PLAIN:
                return [jsonable(v) for v in value]
        return list(value)              # a list of plain values (names, cards, scores)
    if t is dict:
        return {k if type(k) is str else str(k): v if type(v) in _PLAIN else jsonable(v)
                for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    return str(value)


def state_object(data: dict[str, Any], protocol: int = PROTOCOL_VERSION) -> dict[str, Any]:
    """The `state` object of a `table-view` event's data (lobby.tables.table.TableActor._view),
    as `protocol` reads it (1-3: without protocol 4's fields, FIELDS_SINCE).

    The view is JSON-safe by contract (`Round.view`, `Match.view` and the table's own fields are
    plain lists, dicts, text and numbers), so its values are taken as they are, not copied: this
    runs once per seat and change, the hottest path of a busy server. Nobody changes a
    delivered event's data."""
    state: dict[str, Any] = {
        "type": "state",
        "table": data.get("table"),
        "status": data.get("state"),
        "you": data.get("you"),
        "seat": data.get("seat"),
        "host": data.get("host"),
        "names": data.get("seats") or [None] * 4,
        "options": data.get("options") or {},
        "bots": data.get("bots") or {},
        "gone": data.get("gone") or [],
    }
    # (the view is a FrozenDict: `.get` is a plain dict's method call, where `key in game`
    # and `game[key]` on a dict subclass go through the type's slots, about twice the work;
    # this loop runs some 20 times per seat and change)
    get = data.get
    game = get("game")
    if game is not None:
        game_get = game.get
        for key in GAME_FIELDS:
            value = game_get(key, _ABSENT)
            if value is not _ABSENT:
                state[key] = value
        state["round_result"] = game_get("result")
        state["player_seats"] = game_get("seats")
        value = get("scores", _ABSENT)
        if value is not _ABSENT:
            state["scores"] = value
        value = get("round_no", _ABSENT)
        if value is not _ABSENT:
            state["round_no"] = value
    value = get("bombwindow_left", _ABSENT)
    if value is not _ABSENT:
        state["bombwindow_left"] = round(float(value), 3)
    value = get("result")
    if value is not None:
        state["result"] = jsonable(value)
    parts = _STATE_PARTS.get(protocol) if protocol != PROTOCOL_VERSION else None
    if parts:
        paths = parts.get("options")
        if paths is not None:           # the options of the view as `protocol` reads them
            options = state["options"]
            kept = _OLDER.find(id(options)) if _memo.ON else None
            state["options"] = kept[2] if (kept is not None and kept[0] is options
                                           and kept[1] == paths) else _older(options, paths)
        for key in _STATE_OTHERS[protocol]:
            if key in state:
                _older_field(state, data, key, parts[key])
    return state


def _older_field(state: dict[str, Any], data: dict[str, Any], key: str,
                 paths: tuple[tuple[str, ...], ...]) -> None:
    """`state` without the fields at `paths` under its field `key` (the field itself for the
    path ()): the view's result without them is the same object for every seat (`_older`)."""
    if () in paths:
        del state[key]
    elif key == "result":
        state[key] = jsonable(_older(data["result"], paths))
    else:
        for path in paths:
            state[key] = _drop(state[key], list(path))


_ABSENT = object()


def state_update(before: dict[str, Any], after: dict[str, Any],
                 trick_add: bool = True) -> dict[str, Any] | None:
    """The `update` object that turns the `state` object `before` into `after` (both of the
    same table), or None when nothing changed: `{"type": "update", "table": N, KEY: VALUE...}`
    with each key whose value changed or is new (a `trick` that only grew: `trick_add`, the
    entries on top of it), and `"unset": [KEY...]` for keys `after` no longer has.
    `trick_add=False` (protocol 2): a trick that grew comes whole as `trick`.
    `apply_update(before, update) == after`. Values are compared by identity first
    (the views of a table share the objects of what did not change), then by type and value."""
    update: dict[str, Any] = {"type": "update", "table": after["table"]}
    get = before.get
    changed = False
    for key, value in after.items():
        old = get(key, _ABSENT)
        if old is not value and _put_change(update, key, old, value, trick_add):
            changed = True
    if not before.keys() <= after.keys():                 # some key of `before` is gone
        update["unset"] = [key for key in before if key not in after]
        changed = True
    return update if changed else None


def _put_change(update: dict[str, Any], key: str, old: Any, value: Any, trick_add: bool) -> bool:
    """Put `key`'s new `value` into `update` unless it reads as `old` does (not the same object;
    `old` is _ABSENT for a new key); whether it did."""
    t_old, t_new = type(old), type(value)
    if t_old is not t_new:              # (a frozen list is a list: their kinds are compared)
        t_old, t_new = _kind(t_old, t_old), _kind(t_new, t_new)
    if t_old is t_new and old == value:
        return False
    if key == "trick" and trick_add and t_old in FROZEN_LIST_TYPES \
            and t_new in FROZEN_LIST_TYPES \
            and len(value) > len(old) and all(
                a is b or _same_json(a, b) for a, b in zip(old, value, strict=False)):
        update["trick_add"] = value[len(old):]       # the plays on top of the trick
    else:
        update[key] = value
    return True


#: the `state` fields a view's game gives (`state_object`): its GAME_FIELDS (the ``seat`` first:
#: it has the place of the view's own) and the two it renames
_GAME_STATE_KEYS = frozenset(GAME_FIELDS) | {"round_result", "player_seats"}
#: the GAME_FIELDS in the order of the `state`, without the ``seat``
_GAME_ORDER = tuple(key for key in GAME_FIELDS if key != "seat")
#: per version, whether `view_change` may compare two views' games alone: no field a game gives
#: is read without some of its fields by that version (_STATE_PARTS)
_GAMES_ALONE: dict[int, bool] = {
    version: not (_GAME_STATE_KEYS & set(parts)) for version, parts in _STATE_PARTS.items()}


#: what `view_change` answers when the client must get the whole `state` of the later view
WHOLE: Any = object()


def view_change(before: dict[str, Any], after: dict[str, Any],
                protocol: int = PROTOCOL_VERSION) -> dict[str, Any] | None:
    """What a client that holds the `state` of view data ``before`` gets for view ``after``:
    `WHOLE` when the `state` of ``after`` is of another table, user or seat (its `table`,
    `you` or `seat` differ); else the `update` between the two (None: nothing changed), that of
    `state_update(state_object(before, protocol), state_object(after, protocol),
    trick_add=protocol >= 3)`. Its reference is `_reference_view_change` (FAST_ENCODERS).

    The fast path of a view after a move: both views have a game and every other value of the
    view is the very object it was (a table's views share them while they do not change:
    lobby/tables/views.py), so only the game's fields can differ and they are compared where
    they are, without building either `state`. Anything else takes the reference path. (The
    view's own values are compared by identity there, the reference compares them by value: a
    NaN among them, which no view holds, would read as unchanged.)"""
    bgame = before.get("game")
    agame = after.get("game")
    if bgame is not None and agame is not None and len(before) == len(after) \
            and _GAMES_ALONE.get(protocol, False):
        get = before.get
        for key, value in after.items():
            if value is not get(key, _ABSENT) and key != "game":
                break
        else:
            return _game_update(before, get, bgame, agame, protocol >= 3)
    return _reference_view_change(before, after, protocol)


def _reference_view_change(before: dict[str, Any], after: dict[str, Any],
                           protocol: int = PROTOCOL_VERSION) -> dict[str, Any] | None:
    """What `view_change` answers, the slow way: both `state` objects built, then compared."""
    old, new = state_object(before, protocol), state_object(after, protocol)
    if old["table"] != new["table"] or old["you"] != new["you"] or old["seat"] != new["seat"]:
        whole: dict[str, Any] = WHOLE
        return whole
    return state_update(old, new, trick_add=protocol >= 3)


def _game_update(view: dict[str, Any], get: Any, bgame: dict[str, Any], agame: dict[str, Any],
                 trick_add: bool) -> dict[str, Any] | None:
    """`view_change` of two views that differ in their games alone (``view``: either view,
    ``get`` its bound `get`), in the order of the `state`'s keys."""
    bget, aget = bgame.get, agame.get
    update: dict[str, Any] = {"type": "update", "table": get("table")}
    changed = False
    # the `seat`: the game's, else the view's (the same object in both views)
    old, value = bget("seat", _ABSENT), aget("seat", _ABSENT)
    if old is not value:
        seat = get("seat")
        old = seat if old is _ABSENT else old
        value = seat if value is _ABSENT else value
        if old != value:
            whole: dict[str, Any] = WHOLE       # another seat: the whole state
            return whole
        if _put_change(update, "seat", old, value, trick_add):
            changed = True
    gone: list[str] | None = None
    for key in _GAME_ORDER:
        old = bget(key, _ABSENT)
        value = aget(key, _ABSENT)
        if old is value:
            continue
        if (key == "scores" or key == "round_no") and key in view:
            continue                    # the view's own (the same object in both views)
        if value is _ABSENT:            # the field is gone: unset, after the changes
            gone = [key] if gone is None else [*gone, key]
        elif _put_change(update, key, old, value, trick_add):
            changed = True
    for key, field in (("round_result", "result"), ("player_seats", "seats")):
        old, value = bget(field), aget(field)
        if old is not value and _put_change(update, key, old, value, trick_add):
            changed = True
    if gone is not None:
        update["unset"] = gone
        changed = True
    return update if changed else None


def _same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values read the same on the wire (`True` is not `1` here); the views of
    a table share the trick's entries, so this runs only where identity did not answer."""
    ta, tb = type(a), type(b)
    return (_kind(ta, ta) is _kind(tb, tb)
            and json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True))


def apply_update(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The `state` object after `update` (a new dict; what a client of protocol 3 does): its
    keys replace the state's, `trick_add` is appended to the `trick`, the keys in `unset` go."""
    out = dict(state)
    for key, value in update.items():
        if key == "trick_add":
            out["trick"] = [*out.get("trick", ()), *value]
        elif key != "type" and key != "unset":
            out[key] = value
    for key in update.get("unset", ()):
        out.pop(key, None)
    return out


def render_json(event: Event, lang: str = "en") -> dict[str, Any]:
    """The one JSON object that shows `event` to a program."""
    if event.is_error:
        return {"type": "error", "code": event.type,
                "message": text(event.type, lang, **event.data),
                "params": jsonable(event.data)}
    if event.type == "table-view" or event.type == "table-look":    # /look: the whole state
        return state_object(event.data)
    obj: dict[str, Any] = {"type": event.type}
    for key, value in event.data.items():
        key = str(key)
        if key in ("type", "id"):
            key += "_"
        obj[key] = jsonable(value)
    if event.type in _WITH_TEXT:
        obj["text"] = text(event.type, lang, **event.data)
    return obj


def is_table_event(event_type: str) -> bool:
    """Events of a table (sent as GMCP `Tichu.Event`; `table-view` is `Tichu.State`)."""
    return event_type.startswith(("table-", "game-")) and event_type != "table-view"


#: one encoder for every line (json.dumps would build one per call)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


try:
    # (CPython's C encoder: typeshed does not declare it)
    from json.encoder import c_make_encoder as _c_make_encoder  # type: ignore[attr-defined]
except ImportError:                      # pragma: no cover (CPython has the C encoder)
    _c_make_encoder = None

if _c_make_encoder is not None:
    # what _ENCODER.encode does for a non-text value, without building the C encoder again for
    # every line: the C encoder itself, made once (no circular-reference check: these objects
    # are trees; the text is the same)
    _C_ENCODE = _c_make_encoder(None, str, json.encoder.encode_basestring, None, ":", ",",
                                False, False, True)

    def _encode(obj: Any) -> str:
        return "".join(_C_ENCODE(obj, 0))
else:                                    # pragma: no cover
    def _encode(obj: Any) -> str:
        return _ENCODER.encode(obj)


def parse_protocol(word: str) -> int | None:
    """The version a client names (`3`, or `newest`: the newest this server speaks), or None when
    it is no version this server speaks."""
    if word.strip().lower() == "newest":
        return PROTOCOL_VERSIONS[-1]
    value = ascii_int(word.strip(), max(PROTOCOL_VERSIONS))
    return value if value in PROTOCOL_VERSIONS else None


def dumps(obj: dict[str, Any]) -> str:
    """One object as one line of JSON (no line breaks inside, UTF-8 text kept)."""
    return _encode(obj)


def ok_line(name: str, reply_id: str | None = None) -> str:
    """The `ok` that ends a command nothing else answered in machine mode: the text of
    ``dumps({"type": "ok", "command": name[, "id": reply_id]})``, written without building the
    object (every command of a bot gets one; `_reference_ok_line` beside it is the slow way)."""
    if reply_id is None:
        return '{"type":"ok","command":' + _encode_str(name) + "}"
    return '{"type":"ok","command":' + _encode_str(name) + ',"id":' + _encode_str(reply_id) + "}"


# ---- the `state` line of a seat, from pre-encoded parts ---------------------------------------------
# A busy table sends four `state` objects per change (one per seat) that differ only in a few
# values (you, seat, player, hand, gifts, legal, can_pass, bombs); the table's views of one change
# share the objects of everything else. `state_line` encodes that shared part once, as four
# fragments between the seat's own values, and re-uses them while every shared value is the very
# same object (identity: delivered data is never changed, and the memo keeps its objects alive so
# their ids cannot be reused). The text is exactly `dumps(state_object(data))`.


_MISSING = object()
#: the game's values every seat shares, in the order they appear in a `state` object
_GAME_TRICK = ("trick", "trick_won", "holder", "turn", "wish", "wish_pending", "calls",
               "grand_decided", "exchanged", "cards_left", "out", "points")
_GAME_TRICK_GET = _itemgetter(*_GAME_TRICK)
#: every shared value of a seat's view, in three parts: the table's, the trick's, the tail's
_TOP = ("table", "state", "host", "seats", "options", "bots", "gone", "phase")
_TAIL_GAME = ("round_no", "scores", "round_scores", "match_finished", "match_result", "result",
              "seats")
_DATA_ALL = _itemgetter(*_TOP[:-1])
_GAME_ALL = _itemgetter("phase", *_GAME_TRICK, *_TAIL_GAME)
_DATA_TAIL_ALL = _itemgetter("scores", "round_no")
_N_TOP = len(_TOP)
#: where the options are in a line's key (state_line puts the version's options there)
_OPTIONS_AT = _TOP.index("options")
#: the `state` fields whose later fields state_line's fragments leave out (_STATE_PARTS)
_LINE_PARTS = frozenset(("options", "result"))
_N_TRICK = len(_GAME_TRICK)
_GAME_SEAT = _itemgetter("seat", "player", "hand", "legal", "can_pass", "bombs")
#: every shared value of the last line and its three fragments (the seats of one change)
_LAST_STATE: _memo.LastMemo[tuple[tuple[str, str], str, str]] = _memo.LastMemo()
#: the last shared values and their fragments: the table's part (the same for many changes:
#: the table keeps its names, options, bots objects while they do not change), the trick's
#: (the same for the views of one change) and the tail's (scores...: the match keeps those
#: objects while they do not change)
_TOP_MEMO: _memo.LastMemo[tuple[str, str]] = _memo.LastMemo()
_TRICK_MEMO: _memo.LastMemo[str] = _memo.LastMemo()
_TAIL_MEMO: _memo.LastMemo[str] = _memo.LastMemo()
#: `received` ({from: card}) -> its JSON (bounded; a function of the value only)
_RECEIVED: _memo.BoundedMemo[str] = _memo.BoundedMemo(4096)
#: id of a `received` dict -> (the dict, its JSON): the round shows a seat the same dict all
#: round (kept alive here, so the id is not re-used while the entry lives; bounded)
_LAST_RECEIVED: _memo.BoundedMemo[tuple[Any, str]] = _memo.BoundedMemo(4096)


def _fragment(obj: dict[str, Any]) -> str:
    """`"key":value,...` of a dict (its JSON without the braces)."""
    return _encode(obj)[1:-1]


def _scalar_or_strings(value: Any) -> str:
    """JSON of a text, a number, a flag, None, or a list of texts (the seat's own values)."""
    t = type(value)
    t = _kind(t, t)
    if t is str:
        return _encode_str(value)
    if t is list:
        if not value:
            return "[]"
        try:
            return "[" + ",".join(map(_encode_str, value)) + "]"
        except TypeError:
            return _encode(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if t is int:
        return int.__repr__(value)
    return _encode(value)


def state_line(data: dict[str, Any], protocol: int = PROTOCOL_VERSION) -> str:
    """`dumps(state_object(data, protocol))`, faster for the views of a change that share their
    values."""
    game = data.get("game")
    if game is None or "hand" not in game:
        # no game, or the public view (sent once anyway)
        return dumps(state_object(data, protocol))
    parts = _STATE_PARTS.get(protocol) if protocol != PROTOCOL_VERSION else None
    if parts and not parts.keys() <= _LINE_PARTS:
        return dumps(state_object(data, protocol))     # (fields these fragments do not drop)
    try:
        seat, player, hand, legal, can_pass, bombs = _GAME_SEAT(game)
        key = _DATA_ALL(data) + _GAME_ALL(game) + _DATA_TAIL_ALL(data)
    except KeyError:
        return dumps(state_object(data, protocol))
    if parts and "options" in parts:        # the options as `protocol` reads them
        key = (*key[:_OPTIONS_AT], _older(key[_OPTIONS_AT], parts["options"]),
               *key[_OPTIONS_AT + 1:])
    key += (data.get("bombwindow_left", _MISSING), data.get("result"),
            game.get("victory_points", _MISSING), game.get("tichu_points", _MISSING), protocol)
    fragments = _LAST_STATE.get(key)        # the other seats of the same change
    if fragments is _memo.MISSING:
        fragments = _LAST_STATE.put(key, _state_fragments(data, game, key, parts))
    head, middle, end = fragments
    you = data.get("you")
    out = [head[0], _encode_str(you) if type(you) is str else _scalar_or_strings(you),
           ',"seat":', _int_repr(seat) if type(seat) is int else _scalar_or_strings(seat),
           head[1], _int_repr(player) if type(player) is int else _scalar_or_strings(player),
           ',"hand":', _encode_str(hand) if type(hand) is str else _scalar_or_strings(hand)]
    if "given" in game:
        out += (',"given":', _scalar_or_strings(game["given"]))
    if "received" in game:
        out += (',"received":', _received(game["received"]))
    out += (middle, _scalar_or_strings(legal),
            ',"can_pass":true,"bombs":' if can_pass is True else
            ',"can_pass":false,"bombs":' if can_pass is False else
            ',"can_pass":' + _scalar_or_strings(can_pass) + ',"bombs":',
            "[]" if not bombs and type(bombs) in FROZEN_LIST_TYPES else
            _scalar_or_strings(bombs), end)
    return "".join(out)


def _state_fragments(data: dict[str, Any], game: dict[str, Any], key: tuple[Any, ...],
                     parts: dict[str, tuple[tuple[str, ...], ...]] | None
                     ) -> tuple[tuple[str, str], str, str]:
    """The fragments of `key`'s views: each of the three parts from its own memo while its
    values are the same objects (the table's part for many changes, the tail for a round;
    `key` holds the options as the connection's version reads them, and the version)."""
    top = key[:_N_TOP]
    head = _TOP_MEMO.get(top)
    if head is _memo.MISSING:
        head = _TOP_MEMO.put(top, _state_head(data, game, key[_OPTIONS_AT]))
    trick = key[_N_TOP:_N_TOP + _N_TRICK]
    middle = _TRICK_MEMO.get(trick)
    if middle is _memo.MISSING:
        middle = _TRICK_MEMO.put(
            trick, "," + _fragment(dict(zip(_GAME_TRICK, trick, strict=True))) + ',"legal":')
    tail = key[_N_TOP + _N_TRICK:]
    end = _TAIL_MEMO.get(tail)
    if end is _memo.MISSING:
        end = _TAIL_MEMO.put(
            tail, "," + _fragment(_state_tail(data, game, "victory_points" in game,
                                              parts.get("result") if parts else None)) + "}")
    return head, middle, end


_int_repr = int.__repr__


def _received(value: Any) -> str:
    if type(value) not in FROZEN_DICT_TYPES or not _memo.ON:
        return _encode(value)
    last = _LAST_RECEIVED.find(id(value))
    if last is not None and last[0] is value:     # the seat's own dict of the last view
        return last[1]
    try:
        key = tuple(value.items())
        text = _RECEIVED.find(key)
    except TypeError:                 # an unhashable value
        return _encode(value)
    if text is None:
        text = _RECEIVED.put(key, _encode(value))
    _LAST_RECEIVED.put(id(value), (value, text))
    return text


#: stands for the seat's own values in the encoding of a shared part (see _cut)
_HOLE = "\x00"
_HOLE_JSON = _encode_str(_HOLE)


def _cut(first: dict[str, Any], hole: str, second: dict[str, Any]) -> tuple[str, str]:
    """`first` and `second` encoded as one object with `hole` between them, cut at the hole:
    ('{"a":1,...,"HOLE":', ',"b":2,...}'). Should a value contain the hole's text, the two are
    encoded on their own."""
    whole = dict(first)
    whole[hole] = _HOLE
    whole.update(second)
    if len(whole) == len(first) + len(second) + 1:
        cut = _encode(whole).split(_HOLE_JSON)
        if len(cut) == 2:
            return cut[0], cut[1]
    inner = _fragment(first)
    return ("{" + inner + "," if inner else "{") + _encode_str(hole) + ":", \
        ("," + _fragment(second) if second else "") + "}"


def _state_head(data: dict[str, Any], game: dict[str, Any], options: Any) -> tuple[str, str]:
    """The fragments before and after a seat's `you` and `seat`, up to `"player":` (`options`:
    the view's as the connection's version reads them)."""
    head = {"type": "state", "table": data.get("table"), "status": data.get("state")}
    middle = {"host": data.get("host"), "names": data.get("seats") or [None] * 4,
              "options": options or {}, "bots": data.get("bots") or {},
              "gone": data.get("gone") or [], "phase": game["phase"]}
    before, after = _cut(head, "you", middle)
    return before, after[:-1] + ',"player":'


def _state_tail(data: dict[str, Any], game: dict[str, Any], turnier: bool,
                result_paths: tuple[tuple[str, ...], ...] | None = None) -> dict[str, Any]:
    tail: dict[str, Any] = {
        "round_no": data["round_no"] if "round_no" in data else game["round_no"],
        "scores": data["scores"] if "scores" in data else game["scores"],
        "round_scores": game["round_scores"], "match_finished": game["match_finished"],
        "match_result": game["match_result"],
    }
    if turnier:
        tail["victory_points"] = game["victory_points"]
        if "tichu_points" in game:
            tail["tichu_points"] = game["tichu_points"]
    elif "tichu_points" in game:
        tail["tichu_points"] = game["tichu_points"]
    tail["round_result"] = game.get("result")
    tail["player_seats"] = game.get("seats")
    if "bombwindow_left" in data:
        tail["bombwindow_left"] = round(float(data["bombwindow_left"]), 3)
    if data.get("result") is not None:
        tail["result"] = jsonable(data["result"] if not result_paths
                                  else _older(data["result"], result_paths))
    return tail


# ---- the fast encoders and their references ------------------------------------------------------
def _reference_state_line(data: dict[str, Any], protocol: int = PROTOCOL_VERSION) -> str:
    """What `state_line` writes, the slow way: the state object, encoded by the json module."""
    return _ENCODER.encode(state_object(data, protocol))


def _reference_ok_line(name: str, reply_id: str | None = None) -> str:
    """What `ok_line` writes, the slow way: the object, encoded by the json module."""
    obj = {"type": "ok", "command": name}
    if reply_id is not None:
        obj["id"] = reply_id
    return _ENCODER.encode(obj)


#: each fast encoder of this module -> (it, its reference): the text each writes is exactly its
#: reference's for every value (tests/wire/test_fast_encoders.py checks them equal, with hypothesis)
FAST_ENCODERS: dict[str, tuple[Any, Any]] = {
    "encode": (_encode, _ENCODER.encode),                    # the C encoder made once
    "fragment": (_fragment, lambda obj: _ENCODER.encode(obj)[1:-1]),
    "scalar_or_strings": (_scalar_or_strings, _ENCODER.encode),
    "received": (_received, _ENCODER.encode),
    "state_line": (state_line, _reference_state_line),
    "ok_line": (ok_line, _reference_ok_line),
    "view_change": (view_change, _reference_view_change),      # (an object, in the same order)
}
