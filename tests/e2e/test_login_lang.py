"""`/set lang de` typed at the `login:` prompt (the greeting suggests it) sets the connection's
language and asks for the name again in it, over a real socket (an outside user's finding,
issue 26: it was refused as `bad-name`)."""
from __future__ import annotations

import pytest_twisted

from conftest import RunningServer
from lobby.text.messages import text


@pytest_twisted.ensureDeferred
async def test_set_lang_at_the_login_prompt(server: RunningServer) -> None:
    ann = await server.client()
    await ann.expect(text("login-prompt", "en"))
    ann.send("/set lang de")
    got = await ann.expect(text("login-prompt", "de"))
    assert "bad-name" not in got and "[" not in got, got
    ann.send("/set lang xx")                     # an unknown language: its own clear error
    got = await ann.expect("! [unknown-language]")
