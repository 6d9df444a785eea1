"""The caches of rendered bytes are keyed by the event and the render context (protocol/
render/context.py): connections whose text differs (another language) never get each other's
cached bytes, in text mode (a room's speech, shared across listeners) and in machine mode (a
JSON line with a `text` field), whatever order the listeners come in."""
from __future__ import annotations

import json

from conftest import FakeLobby
from lobby.events import Event
from lobby.text.messages import CATALOGS
from protocol.connection.session import Session
from protocol.render.context import DEFAULT_CONTEXT, RenderContext


def test_contexts_are_interned() -> None:
    assert RenderContext.of() is DEFAULT_CONTEXT is RenderContext.of("en", False)
    assert RenderContext.of("de", True) is RenderContext.of("de", True)
    assert RenderContext.of("de") is not DEFAULT_CONTEXT
    assert RenderContext.of("de") == RenderContext("de", False)


def with_language(lang: str, **templates: str) -> None:
    CATALOGS[lang] = dict(CATALOGS["en"], **templates)


def test_a_rooms_speech_is_rendered_once_per_context(lobby: FakeLobby) -> None:
    with_language("qq", says="{name} sagt: {text}")
    try:
        clients = [lobby.connect() for _ in range(5)]
        for i, c in enumerate(clients):
            c.login(f"P{i}abc")
        for i in (1, 3):
            clients[i].session.settings["lang"] = "qq"    # what /set lang will store
        clients[4].session.settings["color"] = "on"       # another context, the same text
        for c in clients:
            c.lines()
        assert clients[1].session.render_context is RenderContext.of("qq")
        clients[0].send("hello all")
        got = [c.lines() for c in clients]
        assert got[0] == got[2] == got[4] == ["<P0abc> hello all"]
        assert got[1] == got[3] == ["P0abc sagt: hello all"]
        # the same event to listeners in every order (World.bulk_deliver)
        event = Event("says", name="P2abc", text="again", room="Lobby")
        sessions = [c.session for c in clients]
        for order in (sessions, sessions[::-1], sessions[1:] + sessions[:1]):
            Session.deliver_many(order, event)
            assert [c.lines() for c in clients] == [
                ["<P2abc> again"], ["P2abc sagt: again"], ["<P2abc> again"],
                ["P2abc sagt: again"], ["<P2abc> again"]]
            for s in sessions:                           # one by one: the same
                s.deliver(event)
            assert [c.lines()[0][0] for c in clients] == ["<", "P", "<", "P", "<"]
    finally:
        del CATALOGS["qq"]


def test_a_json_line_is_shared_per_context(lobby: FakeLobby) -> None:
    with_language("qq", greeting="Willkommen.")
    try:
        clients = [lobby.connect() for _ in range(4)]
        for i, c in enumerate(clients):
            c.send("%json")
            c.login(f"J{i}abc")
        for c in clients:
            c.raw()
        for i in (0, 2):
            clients[i].session.settings["lang"] = "qq"
        event = Event("greeting")
        Session.deliver_many([c.session for c in clients], event)
        texts = [json.loads(c.raw().decode())["text"] for c in clients]
        assert texts == ["Willkommen.", CATALOGS["en"]["greeting"]] * 2
    finally:
        del CATALOGS["qq"]
