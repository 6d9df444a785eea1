"""Machine mode on a StringTransport: %json before the login and /iset json, one JSON object per
line, exactly one reply per command with its #ID, stable error codes, never saved; and the text
and JSON renderings of the same table events agree."""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import FakeClient, FakeLobby, held_runner
from lobby.events import Event
from lobby.tables.table import TableActor
from protocol import json_schema
from protocol.connection.machine import split_id
from protocol.render.json_lines import apply_update, render_json, state_object
from protocol.render.table import render_table

SCHEMA = json_schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def objects(client: FakeClient, after_switch: bool = False) -> list[dict[str, Any]]:
    """Every line written since the last read: each must be one valid JSON object. Right
    after `%json` the text prompt `login: ` already sent is ended by one CR LF first."""
    raw = client.raw()
    if after_switch:
        assert raw.startswith(b"\r\n")
        raw = raw[2:]
    assert b"\xff" not in raw, raw            # no telnet bytes at all (no GA, no negotiation)
    text = raw.decode("utf-8")
    assert text == "" or text.endswith("\r\n"), text   # no prompt without a line end
    out = []
    for line in text.split("\r\n")[:-1]:
        obj = json.loads(line)
        assert isinstance(obj, dict) and isinstance(obj["type"], str)
        VALIDATOR.validate(obj)
        out.append(obj)
    return out


def json_client(lobby: FakeLobby, name: str = "Anna") -> FakeClient:
    c = lobby.connect()
    c.raw()                                  # the text greeting before the switch
    c.send("%json 3")
    got = objects(c, after_switch=True)
    assert [o["type"] for o in got] == ["iset", "greeting", "prompt"]
    assert got[2]["prompt"] == "login"
    c.send(f"#login {name}")
    got = objects(c)
    assert got[0] == {"type": "logged-in-guest", "name": name, "id": "login"}
    assert got[1] == {"type": "room", "number": 0, "name": "Lobby", "table": None}
    return c


def replies(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in objs if "id" in o]


def test_split_id() -> None:
    assert split_id("#a-1_B who") == ("a-1_B", "who")
    assert split_id("who") == (None, "who")
    for bad in ("#", "#a.b who", "#" + "x" * 33 + " who", "#ä who"):
        with pytest.raises(ValueError):
            split_id(bad)


def test_json_before_login_and_one_reply_per_command(lobby: FakeLobby) -> None:
    c = json_client(lobby)
    cases = {
        "#w /who": "who", "#h help": "help", "#h2 /help who": "help-command",
        "#l /listroom": "listroom", "#x /whereis Anna": "whereis",
        "#s hello everybody": "ok", "#c /set color on": "setting",
        "#u /nosuchcommand": "error", "#t ;Nobody hi": "error", "#f /finger Anna": "finger",
    }
    for line, kind in cases.items():
        c.send(line)
        got = objects(c)
        answer = replies(got)
        assert len(answer) == 1, (line, got)
        assert answer[0]["id"] == line[1:].split(" ")[0]
        assert answer[0]["type"] == kind, (line, got)
    c.send("#u /nosuchcommand")
    error = replies(objects(c))[0]
    assert error["code"] == "unknown-command" and error["params"] == {"name": "nosuchcommand"}
    c.send("#s2 hello")
    got = objects(c)
    assert got[0] == {"type": "says", "name": "Anna", "text": "hello", "room": "Lobby"}
    assert got[1] == {"type": "ok", "command": "say", "id": "s2"}
    # a line without id still gets exactly one reply, without an id field
    c.send("/who")
    got = objects(c)
    assert [o["type"] for o in got] == ["who"] and "id" not in got[0]
    c.send("")                              # a blank line: nothing
    assert objects(c) == []
    c.send("#bad.id /who")
    got = objects(c)
    assert len(got) == 1 and got[0]["code"] == "bad-id" and "id" not in got[0]


def test_table_commands_answered_with_ok_and_state(lobby: FakeLobby) -> None:
    c = json_client(lobby)
    c.send("#n /newroom tichu")
    got = objects(c)
    assert [o["type"] for o in got] == ["newroom", "state", "room", "ok"]
    assert got[3] == {"type": "ok", "command": "newroom", "id": "n"}
    assert got[2] == {"type": "room", "number": 1, "name": "Table 1 room", "table": 1}
    c.send("#j /join 3")
    got = objects(c)
    assert [o["type"] for o in got] == ["table-joined", "table-seat-key", "state", "ok"]
    assert got[1]["name"] == "Anna" and len(got[1]["key"]) == 4 and got[1]["table"] == 1
    assert got[2]["seat"] == 2 and got[2]["names"] == [None, None, "Anna", None]
    c.send("#p /play S2")
    got = objects(c)
    assert got == [{"type": "error", "code": "no-game", "id": "p", "params": {},
                    "message": got[0]["message"]}]


def test_iset_switches_both_ways_and_is_not_saved(lobby: FakeLobby) -> None:
    lobby.register("Bert", "secret99")
    c = lobby.connect()
    c.login("Bert", "secret99")
    c.send("/iset json 1")
    got = objects(c)       # a client that named no version: protocol 1
    assert got == [{"type": "iset", "name": "json", "value": "1", "protocol": 1}]
    c.send("#1 /iset json 0")
    assert objects(c) == [{"type": "iset", "name": "json", "value": "0", "id": "1"}]
    c.send("/who")
    assert c.text().startswith("In the lobby")
    c.send("/iset json maybe")
    assert "[bad-setting-value]" in c.text()
    c.send("/iset colour 1")
    assert "[unknown-setting]" in c.text()
    c.send("/iset json on")
    objects(c)
    c.send("#q /quit")
    assert objects(c) == [{"type": "bye", "name": "Bert", "id": "q"}]
    again = lobby.connect()
    again.login("Bert", "secret99")
    again.send("/who")
    assert again.text().startswith("In the lobby")      # text again: never saved


def test_password_prompt_is_an_object_without_echo_negotiation(lobby: FakeLobby) -> None:
    lobby.register("Cleo", "secret99")
    c = lobby.connect()
    c.raw()
    c.send("%json")
    objects(c, after_switch=True)
    c.send("#a Cleo")
    assert objects(c) == [{"type": "prompt", "prompt": "password", "text": "password:",
                           "id": "a"}]
    c.send("#b wrong-one")
    got = objects(c)
    assert got[0]["type"] == "error" and got[0]["code"] == "wrong-password" and got[0]["id"] == "b"
    assert got[1]["type"] == "prompt" and "id" not in got[1]
    c.send("#c Cleo")
    objects(c)
    c.send("#d secret99")
    got = objects(c)
    assert got[0] == {"type": "logged-in", "name": "Cleo", "id": "d"}


def test_a_game_with_bots_seen_in_json(lobby: FakeLobby) -> None:
    """A spectator in machine mode follows a complete bot game: every line valid."""
    c = json_client(lobby)
    c.send("#n /newroom")
    first = [o for o in objects(c) if o["type"] == "state"]
    assert len(first) == 1          # the table, whole, as the spectator comes to it
    lobby.world.tables[1].bot_delay = 0
    for seat in range(4):
        c.send(f"#b{seat} /addbot {seat + 1} {'random' if seat % 2 else 'heuristic'}")
    c.send("#o /option target 100")
    c.send("#s /start")
    seen: list[dict[str, Any]] = objects(c)
    table = lobby.world.tables[1]
    for _ in range(20000):
        if table.state != "playing":
            break
        lobby.clock.advance(0.01)
        seen += objects(c)
    seen += objects(c)
    assert table.state == "finished"
    states = first         # the spectator's state after each `state` or `update` (protocol 2)
    for o in seen:
        if o["type"] == "state":
            states.append(o)
        elif o["type"] == "update":
            assert states and o["table"] == states[-1]["table"]
            states.append(apply_update(states[-1], o))
    assert [o["type"] for o in seen].count("state") == 0 and len(states) > 20
    assert states[-1]["status"] == "finished" and states[-1]["seat"] is None
    assert all("hand" not in s and "legal" not in s for s in states)   # the public state
    kinds = {o["type"] for o in seen}
    assert {"game-play", "game-pass", "game-trick-taken", "game-round-over",
            "game-match-over"} <= kinds
    assert [o["id"] for o in seen if "id" in o] == ["b0", "b1", "b2", "b3", "o", "s"]


# ---- the text and the JSON rendering of the same events agree ------------------------------------
def _table_with_views() -> list[Event]:
    from twisted.internet import task
    events: list[Event] = []
    table = TableActor(1, task.Clock(), lambda names, ev: events.append(ev)
                       if "Anna" in names else None, host="Anna")
    table.options.seed = 5
    table.options.target = 100
    for name in ("Anna", "Bert", "Cleo", "Dirk"):
        table.submit(name, "join")
    table.submit("Anna", "start")
    rng = random.Random(5)
    from lobby.bots.strategies.registry import make_strategy
    bots = {n: make_strategy("random", i) for i, n in enumerate(table.players)}
    for _ in range(150):
        if table.state != "playing":
            break
        for player, name in enumerate(table.players):
            command = bots[name].decide(table.match.view(player))
            if command:
                verb, _, rest = command.partition(" ")
                table.submit(name, verb, rest)
        rng.random()
    return events


def test_text_and_json_say_the_same() -> None:
    events = _table_with_views()
    views = [e for e in events if e.type == "table-view" and e.data.get("game")]
    assert len(views) > 20
    compared = 0
    # (each view is checked against the schema in its own test; here: text against JSON)
    for ev in views:
        state = render_json(ev)
        assert state == state_object(ev.data)
        lines = render_table(ev) or []
        hand = [l for l in lines if l.startswith("Your hand: ")]
        if "hand" in state and state["hand"] and state.get("phase") != "finished":
            assert hand, lines
            assert set(hand[0][len("Your hand: "):].split()) == set(state["hand"].split())
        players = lines[0]
        for seat, name in enumerate(state["names"]):
            part = re.search(rf"([> ]){seat + 1} {name} (out \w+|\d+)", " " + players)
            assert part, (players, state)
            if seat in state["out"]:
                assert part.group(2).startswith("out")
            else:
                assert int(part.group(2)) == state["cards_left"][seat]
            marked = part.group(1) == ">"
            in_turn = state["turn"] == seat and state["phase"] in ("play", "wish", "dragon")
            assert marked == in_turn
        score = [l for l in lines if l.startswith("Round ")]
        if score:
            nums = re.search(r"Round (\d+) \| \S+ (-?\d+) : (-?\d+) ", score[0])
            assert nums and int(nums.group(1)) == state["round_no"]
            assert [int(nums.group(2)), int(nums.group(3))] == state["scores"]
        if state.get("legal") and state["phase"] == "play":
            assert any("/play" in l for l in lines)
        compared += 1
    assert compared == len(views)


def test_error_objects_carry_the_text_modes_code() -> None:
    from lobby.events import error_event
    from protocol.render.text import render
    ev = error_event("seat-taken", seat=2, name="Bert")
    obj = render_json(ev)
    assert render(ev) == [f"! [seat-taken] {obj['message']}"]
    assert obj["code"] == "seat-taken" and obj["params"] == {"seat": 2, "name": "Bert"}


def test_a_line_refused_as_busy_does_not_take_the_running_commands_id(lobby: FakeLobby) -> None:
    from twisted.internet.defer import Deferred

    from protocol.connection.session import MAX_QUEUED_LINES
    pending: list[Deferred] = []
    slow = held_runner(pending)

    c = json_client(lobby)
    lobby.accounts._run = slow
    c.send("#reg /register first1")
    for i in range(MAX_QUEUED_LINES):
        c.send(f"#q{i} /who")
    c.send("#over /who")
    busy = objects(c)
    assert [(o["type"], o.get("code"), o.get("id")) for o in busy] == [("error", "busy", "over")]
    pending.pop().callback(None)
    got = objects(c)
    assert [(o["type"], o["id"]) for o in replies(got)] == \
        [("registered", "reg")] + [("who", f"q{i}") for i in range(MAX_QUEUED_LINES)]


def test_a_line_too_long_does_not_take_the_running_commands_id(lobby: FakeLobby) -> None:
    from twisted.internet.defer import Deferred
    pending: list[Deferred] = []
    slow = held_runner(pending)

    c = json_client(lobby)
    lobby.accounts._run = slow
    c.send("#reg /register first1")
    c.send("#long /say " + "x" * 2000)
    refused = objects(c)
    assert [(o["type"], o.get("code"), o.get("id")) for o in refused] == \
        [("error", "line-too-long", None)]
    pending.pop().callback(None)
    assert [(o["type"], o["id"]) for o in replies(objects(c))] == [("registered", "reg")]


def test_room_of_the_table_you_are_at_answers_after_the_held_back_events(clock: Any) -> None:
    # the table's events wait for their journal commit; /room N (the table's /spielinfo again)
    # is answered by its table-info, not by an ok sent before it
    from table_support import Lobby, seat_players
    lobby = Lobby(clock)
    clients = seat_players(lobby, options={"seed": "7"})
    ann = clients["Ann"]
    lobby.say(ann, "/iset json 1")
    objects(ann)
    clients["Bob"].send("/nogrand")            # held until the journal commits
    ann.send("#r /room 1")
    lobby.turn()
    got = objects(ann)
    assert [(o["type"], o["id"]) for o in replies(got)] == [("table-info", "r")]
    assert not [o for o in got if o["type"] == "ok"]


def test_regression_control_characters_never_change_the_reply_id(lobby: FakeLobby) -> None:
    """Found by tests/wire/test_fuzz_state.py at random: `#c1 \\x7f0` was answered with the id `c10`
    (the DEL erased the space after the id). The id word is read before BS and DEL erase."""
    c = json_client(lobby)
    c.send("#c1 \x7f0")
    got = objects(c)
    assert [o.get("id") for o in replies(got)] == ["c1"]
    assert got[0] == {"type": "says", "name": "Anna", "text": "0", "room": "Lobby"}
    for line, expected in (("#c2 \x08\x08/who", "c2"), ("#c3 \x7f\x7f\x7f\x7f\x7fwho", "c3"),
                           ("#c4 /who\x7f\x7f\x7fwho", "c4"), ("#c5 x\x1b\x00\x7f", "c5")):
        c.send(line)
        assert [o.get("id") for o in replies(objects(c))] == [expected], line
    # a control character inside the id word: a bad id (no id on the error), never another id
    for line in ("#c6\x7f7 /who", "#c\x088 /who", "#c9\x00 /who"):
        c.send(line)
        got = objects(c)
        assert [(o["type"], o.get("code"), o.get("id")) for o in got] == \
            [("error", "bad-id", None)], line
    # text mode still erases with BS/DEL as a telnet client in character mode means it
    c.send("#t /iset json 0")
    c.raw()
    c.send("/whp\x7fo")
    assert c.lines()[0].startswith("In the lobby (")


def test_requests_that_are_not_commands_are_refused_never_spoken(lobby: FakeLobby) -> None:
    """In machine mode a `%` word other than `%state`, `%state` with words after it, and a JSON
    object or list sent as if requests were JSON are refused with their own codes; none of them
    reaches the room as speech. A line without `/` that is none of these is still speech."""
    anna, bert = json_client(lobby), json_client(lobby, "Bert")
    anna.send("#n /newroom tichu")
    bert.send("#r /room 1")
    objects(anna), objects(bert)
    for line, code, params in [
            ('#a {"type": "play", "cards": ["S2"]}', "json-request", {"state": "%state"}),
            ('#b {"type": "play", "cards": ', "json-request", {"state": "%state"}),
            ("#c [1, 2]", "json-request", {"state": "%state"}),
            ("#d %frob", "unknown-request", {"request": "%frob", "state": "%state"}),
            ("#e %state 99", "bad-arguments", {"usage": "%state"}),
            ("  %json", "unknown-request", {"request": "%json", "state": "%state"})]:
        anna.send(line)
        got = objects(anna)
        want: dict[str, Any] = {"type": "error", "code": code, "params": params,
                                "message": got[0]["message"]}
        if line.startswith("#"):
            want["id"] = line[1]
        assert got == [want], line
        assert "{" not in got[0]["message"] and "%state" in got[0]["message"], got[0]
        assert objects(bert) == [], line          # nothing reached the room
    anna.send("#s %state")
    got = objects(anna)
    assert [(o["type"], o.get("id")) for o in got] == [("state", "s")]
    anna.send("#t hello {all}")
    assert [o["type"] for o in objects(anna)] == ["says", "ok"]
    assert [o["type"] for o in objects(bert)] == ["says"]


def test_a_client_that_names_no_version_gets_protocol_1(lobby: FakeLobby) -> None:
    """Issue 27: `%json` alone is protocol 1, what clients written before the versions expect: a
    whole `state` after every change and the `names` in every `game-*` event; the greeting names
    every version."""
    c = lobby.connect()
    greeting = c.text()
    assert "%json VERSION" in greeting and "1 2 3" in greeting
    c.send("%json")
    got = objects(c, after_switch=True)
    assert got[0] == {"type": "iset", "name": "json", "value": "1", "protocol": 1}
    assert got[1]["type"] == "greeting" and got[1]["protocol"] == 1
    assert got[1]["protocols"] == [1, 2, 3, 4]
    c.send("#l Anna")
    objects(c)
    c.send("/newroom")
    lobby.world.tables[1].bot_delay = 0
    for seat in range(4):
        c.send(f"/addbot {seat + 1} random")
    c.send("/option target 50")
    c.send("/start")
    seen = objects(c)
    table = lobby.world.tables[1]
    for _ in range(20000):
        if table.state != "playing":
            break
        lobby.clock.advance(0.01)
        seen += objects(c)
    kinds = [o["type"] for o in seen]
    assert "update" not in kinds and kinds.count("state") > 20
    games = [o for o in seen if o["type"].startswith("game-")]
    assert games and all("names" in o for o in games)


@pytest.mark.parametrize("how", ["%json 2", "iset"])
def test_protocol_2_gets_updates_with_the_whole_trick(lobby: FakeLobby, how: str) -> None:
    c = lobby.connect()
    c.raw()
    if how == "iset":
        c.send("%json")
        objects(c, after_switch=True)
        c.send("Anna")
        objects(c)
        c.send("#v /iset protocol 2")
        assert objects(c) == [{"type": "iset", "name": "protocol", "value": "2", "protocol": 2,
                               "id": "v"}]
    else:
        c.send(how)
        assert objects(c, after_switch=True)[0]["protocol"] == 2
        c.send("Anna")
        objects(c)
    c.send("/newroom")
    lobby.world.tables[1].bot_delay = 0
    for seat in range(4):
        c.send(f"/addbot {seat + 1} random")
    c.send("/option target 50")
    c.send("/start")
    seen = objects(c)
    table = lobby.world.tables[1]
    for _ in range(20000):
        if table.state != "playing":
            break
        lobby.clock.advance(0.01)
        seen += objects(c)
    updates = [o for o in seen if o["type"] == "update"]
    assert updates and not any("trick_add" in o for o in updates)
    assert any("trick" in o for o in updates)
    assert not any("names" in o for o in seen if o["type"].startswith("game-"))


def test_an_unknown_version_is_refused_with_the_versions(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.raw()
    c.send("%json 9")
    said = " ".join(c.text().split())
    assert "! [unknown-protocol]" in said and "speaks 1 2 3 4" in said and "login:" in said
    c.send("%json 3")                       # still text: the switch may come again
    assert objects(c, after_switch=True)[0]["protocol"] == 3
    c.send("Anna")
    objects(c)
    for bad in ("0", "5", "x", "３"):
        c.send(f"#b /iset protocol {bad}")
        (err,) = objects(c)
        assert err["type"] == "error" and err["code"] == "unknown-protocol" and err["id"] == "b"
