"""Sessions through StringTransport (no sockets, task.Clock, inline store): login, accounts,
commands, and the telnet byte cases as seen through a logged-in session."""
from __future__ import annotations

from conftest import FakeClient, FakeLobby, held_runner, logged_events, strip_telnet

IAC, WILL, WONT, DO, DONT, SB, SE, GA = 255, 251, 252, 253, 254, 250, 240, 249
ECHO, SGA, NAWS = 1, 3, 31


def test_greeting_motd_and_login_prompt(clock) -> None:
    c = FakeLobby(clock, motd="Tournament tonight!\nSecond line").connect()
    out = c.text()
    assert out.startswith("Welcome to the Tichu lobby.")
    assert "Tournament tonight!\r\nSecond line\r\n" in out
    assert out.endswith("login: ")


def test_guest_and_empty_line_give_free_guest_names(lobby: FakeLobby) -> None:
    a, b = lobby.connect(), lobby.connect()
    a.raw(), b.raw()
    assert "Hello Guest" in a.login("guest")
    assert "Hello Guest" in b.login("")
    names = [u.name for u in lobby.world.users.values()]
    assert len(names) == 2 and all(n.startswith("Guest") and len(n) == 9 for n in names)


def test_unregistered_name_is_a_guest_and_the_same_name_twice_is_refused(lobby: FakeLobby) -> None:
    a, b = lobby.connect(), lobby.connect()
    a.raw(), b.raw()
    assert "Hello Bob! You are a guest" in a.login("Bob")
    out = b.login("BOB")
    assert "! [name-in-use] Bob is online already; choose another name.\r\nlogin: " in out
    assert "Hello Carl" in b.login("Carl")


def test_bad_and_reserved_names_return_to_login(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.raw()
    assert "! [bad-name]" in c.login("no spaces allowed") and c.session.state == "login"
    assert "! [reserved-name]" in c.login("admin")
    assert "! [reserved-name]" in c.login("Guest1234")
    assert c.login("x" * 17).count("login: ") == 1


def test_registered_login_hides_the_password_and_three_failures_close(lobby: FakeLobby) -> None:
    lobby.register("Alice", "sesame")
    c = lobby.connect()
    c.raw()
    c.send("alice")
    raw = c.raw()
    assert bytes((IAC, WILL, ECHO)) in raw and raw.endswith(b"password: ")
    c.send("wrong1")
    raw = c.raw()
    assert bytes((IAC, WONT, ECHO)) in raw
    assert b"! [wrong-password] Wrong password.\r\nlogin: " in strip_telnet(raw)
    assert "! [wrong-password]" in c.login("alice", "wrong2")
    out = c.login("alice", "wrong3")
    assert "! [too-many-failures]" in out and c.closed
    assert lobby.world.online("alice") is None


def test_right_password_logs_in_with_the_registered_spelling(lobby: FakeLobby) -> None:
    lobby.register("Alice", "sesame")
    c = lobby.connect()
    c.raw()
    assert "Welcome back, Alice!" in c.login("ALICE", "sesame")
    assert lobby.world.online("alice").registered


def test_second_login_replaces_a_registered_user(lobby: FakeLobby) -> None:
    lobby.register("Alice", "sesame")
    old, new = lobby.connect(), lobby.connect()
    old.login("alice", "sesame")
    new.login("alice", "sesame")
    assert "You logged in as Alice from another connection" in old.text() and old.closed
    new.raw()
    new.send("/who")
    assert new.lines() == ["In the lobby (1): Alice"]


def test_register_then_password_change(lobby: FakeLobby, clock) -> None:
    c = lobby.connect()
    c.login("Dora")
    c.raw()
    c.send("/register abc")
    assert c.lines() == ["! [bad-password] A password has 4 to 128 characters and no spaces."]
    c.send("/register first1")
    assert c.lines() == ["Dora is registered now. Next time log in with this name and your password."]
    c.send("/register again1")
    assert c.lines()[0].startswith("! [already-registered]")
    c.send("/password nope second2")
    assert c.lines() == ["! [wrong-password] Wrong password."]
    c.send("/password first1 second2")
    assert c.lines() == ["Your password has been changed."]
    c.send("quit")
    assert c.closed
    again = lobby.connect()
    assert "! [wrong-password]" in again.login("dora", "first1")
    assert "Welcome back, Dora!" in again.login("dora", "second2")


def test_guests_cannot_register_guest_names_or_change_passwords(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.login("guest")
    c.raw()
    c.send("register secret1")
    assert c.lines()[0].startswith("! [reserved-name]")
    c.send("password a1234 b1234")
    assert c.lines()[0].startswith("! [not-registered]")


def test_who_wwho_tell_speech_and_finger(lobby: FakeLobby, clock) -> None:
    lobby.register("Alice", "sesame")
    a, b, c = lobby.connect(), lobby.connect(), lobby.connect()
    a.login("alice", "sesame")
    clock.advance(60)
    b.login("Bob")
    c.login("Cleo")
    for x in (a, b, c):
        x.raw()
    a.send("/who")
    assert a.lines() == ["In the lobby (3): Alice, Bob, Cleo"]
    b.send("wwho")
    assert b.lines() == ["3 online:", "  Alice            lobby", "  Bob              lobby (guest)",
                         "  Cleo             lobby (guest)"]
    a.send("good game everyone")
    assert b.lines() == c.lines() == a.lines() == ["<Alice> good game everyone"]
    a.send(";bob psst")
    assert b.lines() == ["Alice tells you: psst"]
    assert a.lines() == ["You tell Bob: psst"]
    assert c.lines() == []
    a.send("/tell nobody hi")
    assert a.lines() == ["! [not-online] nobody is not online."]
    c.send("/finger alice")
    assert c.lines() == ["Alice:", "  registered since 2027-01-15 08:00 UTC, last seen 2027-01-15 08:00 UTC",
                         "  online now, in the lobby", "  no finished games yet"]
    c.send("/finger bob")
    assert c.lines() == ["Bob:", "  a guest (not registered)", "  online now, in the lobby"]
    c.send("/finger zed")
    assert c.lines() == ["! [no-such-user] Nobody called zed is online or registered."]
    a.send("quit")
    assert a.closed and b.lines() == ["Alice leaves the lobby."]
    clock.advance(3600)
    c.send("/fin alice")          # (without the slash only a name online: docs/protocol.md)
    assert c.lines() == ["Alice leaves the lobby.", "Alice:",
                         "  registered since 2027-01-15 08:00 UTC, last seen 2027-01-15 08:01 UTC",
                             "  not online", "  no finished games yet"]


def test_help_and_help_command(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.login()
    c.raw()
    c.send("help")
    lines = c.lines()
    assert lines[0].startswith("Commands") and lines[-1] == "/help COMMAND tells more about one command."
    assert any(line.startswith("Lobby: ") and "/finger" in line.split() for line in lines[1:-1])
    c.send("/help tel")
    lines = c.lines()
    assert lines[0] == "/tell NAME TEXT..." and lines[1] == "  also: /whisper"
    c.send("/help nosuch")
    assert c.lines()[0].startswith("! [unknown-command]")
    c.send("/w")
    assert c.lines() == ["! [ambiguous-command] Ambiguous command /w: could be /tell, /whereis, "
                         "/who,", "  /wish, /wwho."]                # wrapped at 80 columns


# ---- the telnet byte cases, through a logged-in session ------------------------------------------
def logged_in(lobby: FakeLobby, name: str = "Ann") -> FakeClient:
    c = lobby.connect()
    c.login(name)
    c.raw()
    return c


def test_negotiation_bytes_mixed_into_a_line_never_reach_the_parser(lobby: FakeLobby) -> None:
    c = logged_in(lobby)
    c.send(b"/w" + bytes((IAC, DO, SGA)) + b"h" + bytes((IAC, SB, NAWS, 0, 80, 0, 24, IAC, SE))
           + b"o" + bytes((IAC, WILL, NAWS)) + b"\r\n")
    raw = c.raw()
    # WILL NAWS answers the server's DO NAWS of the offers: agreed, nothing to answer
    assert bytes((IAC, WILL, SGA)) in raw and bytes((IAC, DONT, NAWS)) not in raw
    assert bytes((IAC, DO, NAWS)) not in raw
    assert strip_telnet(raw) == b"In the lobby (1): Ann\r\n"


def test_utf8_character_split_across_chunks_and_invalid_utf8(lobby: FakeLobby) -> None:
    a, b = logged_in(lobby, "Ann"), logged_in(lobby, "Ben")
    a.raw()
    word = "Grüße ♠".encode()
    cut = word.index(b"\xc3") + 1  # inside the two-byte ü
    b.send(word[:cut])
    b.send(word[cut:] + b"\r\n")
    assert a.lines() == ["<Ben> Grüße ♠"]
    b.send(b"caf\xe9 cr\xe8me\n")  # Latin-1, not UTF-8
    assert a.lines() == ["<Ben> café crème"]


def test_overlong_line_is_refused_and_the_connection_stays(lobby: FakeLobby) -> None:
    c = logged_in(lobby)
    limit = c.session.telnet.MAX_LINE_BYTES
    c.send(b"x" * (limit + 10) + b"\r\n")
    assert c.lines() == [f"! [line-too-long] Line too long ({limit + 10} bytes, limit {limit}); "
                         "it was discarded."]
    assert not c.closed
    c.send("who")
    assert c.lines() == ["In the lobby (1): Ann"]


def test_crlf_and_lf_and_control_characters(lobby: FakeLobby) -> None:
    c = logged_in(lobby)
    c.send(b"who\n")
    assert c.lines() == ["In the lobby (1): Ann"]
    c.send(b"w\x07ho\r\n")
    assert c.lines() == ["In the lobby (1): Ann"]
    c.send(b"hi\x1b[31m there\r\n")
    assert c.lines() == ["<Ann> hi[31m there"]


def test_iac_in_output_is_doubled(lobby: FakeLobby) -> None:
    a, b = logged_in(lobby, "Ann"), logged_in(lobby, "Ben")
    a.raw()
    b.send("ÿ")  # U+00FF is C3 BF in UTF-8; a raw 0xFF byte in a line is Latin-1 ÿ
    assert a.raw() == b"<Ben> \xc3\xbf\r\n"
    b.send(b"\xff\xff\xfe\r\n")  # IAC IAC is a literal 0xFF data byte: invalid UTF-8 -> Latin-1
    assert a.raw() == "<Ben> ÿþ\r\n".encode()


def test_lines_typed_while_a_command_works_wait_their_turn(lobby: FakeLobby) -> None:
    from twisted.internet.defer import Deferred
    pending: list[Deferred] = []
    slow = held_runner(pending)

    lobby.accounts._run = slow
    c = logged_in(lobby)
    c.send("/register first1")
    c.send("/who")
    assert c.lines() == []
    pending.pop().callback(None)
    assert c.lines() == ["Ann is registered now. Next time log in with this name and your password.",
                         "In the lobby (1): Ann"]


def test_disconnect_logs_out(lobby: FakeLobby) -> None:
    a, b = logged_in(lobby, "Ann"), logged_in(lobby, "Ben")
    a.raw()
    b.session.connectionLost(None)
    assert lobby.world.online("Ben") is None
    assert a.lines() == ["Ben leaves the lobby."]


def test_passwords_never_reach_the_log(lobby: FakeLobby) -> None:
    from twisted.logger import formatEvent
    with logged_events() as events:
        c = lobby.connect()
        c.login("Paula")
        c.send("/register Hunter22")
        c.send("/password Hunter22 Swordfish9")
        c.send("quit")
        d = lobby.connect()
        d.login("paula", "Wrong-Guess7")
        d.login("paula", "Swordfish9")
    seen = [formatEvent(event) + repr(event) for event in events]
    assert any("Paula" in s for s in seen)  # the log did see the log-ins
    for secret in ("Hunter22", "Swordfish9", "Wrong-Guess7"):
        assert not any(secret in s for s in seen)


def test_a_slow_reader_is_closed_and_logged_out(lobby: FakeLobby) -> None:
    slow, talker = logged_in(lobby, "Slow"), logged_in(lobby, "Talker")
    slow.session.telnet.pauseProducing()  # the transport's buffer is full: the client does not read
    line = "x" * 500
    for _ in range(2 * slow.session.telnet.MAX_OUTPUT_BYTES // len(line)):
        talker.send(line)
        if slow.transport.disconnecting or slow.session.state == "closed":
            break
    assert slow.session.state == "closed"
    slow.session.connectionLost(None)
    assert lobby.world.online("Slow") is None
    talker.raw()
    talker.send("/who")
    assert talker.lines() == ["In the lobby (1): Talker"]


def test_a_line_separator_in_speech_cannot_forge_a_server_line(lobby: FakeLobby) -> None:
    # U+2028/U+2029 survive the telnet layer's control-character filter; the rendering must not
    # split a user's words into two lines (the second one would look like the server's own)
    ann, bob = logged_in(lobby, "Ann"), logged_in(lobby, "Bob")
    ann.raw(), bob.raw()
    ann.send("hi\u2028Carl tells you: your password please")
    ann.send(";Bob psst\u2029! [kicked] bye")
    assert bob.raw().count(b"\r\n") == 2


def test_a_closed_connection_that_never_drains_is_aborted(lobby: FakeLobby, clock) -> None:
    # loseConnection waits until the output is written: a peer that stopped reading (a full TCP
    # window) would keep the socket, the guard's counts and the name online forever
    from protocol.connection.session import CLOSE_GRACE
    c = logged_in(lobby, "Ann")
    c.session.dataReceived(b"/quit\r\n")       # not through FakeClient: nothing drains
    assert c.transport.disconnecting and not c.transport.disconnected
    clock.advance(CLOSE_GRACE - 1)
    assert not c.transport.disconnected
    clock.advance(1)
    assert c.transport.disconnected            # abortConnection
    c.session.connectionLost(None)
    assert lobby.world.online("Ann") is None


def test_a_connection_lost_in_time_is_not_aborted(lobby: FakeLobby, clock) -> None:
    from protocol.connection.session import CLOSE_GRACE
    c = logged_in(lobby, "Ann")
    c.send("/quit")
    assert c.closed
    assert not clock.getDelayedCalls() or all(
        call.getTime() < clock.seconds() + CLOSE_GRACE - 1 for call in clock.getDelayedCalls())


def test_a_failing_password_check_returns_to_the_login_prompt(lobby: FakeLobby, logged) -> None:
    # the check fails (the worker thread, a damaged hash): internal-error, and the session must
    # not stay in the password state without an account (every later line an internal error)
    from twisted.internet.defer import fail
    lobby.register("Alice", "sesame")
    run = lobby.accounts._run
    lobby.accounts._run = lambda f, *args: fail(RuntimeError("worker gone"))
    c = lobby.connect()
    c.raw()
    c.send("alice")
    c.send("sesame")
    assert "! [internal-error]" in c.text() and c.session.state == "login"
    lobby.accounts._run = run
    assert "Welcome back, Alice!" in c.login("alice", "sesame")


def test_bulk_delivery_isolates_a_failing_listener() -> None:
    """World.bulk_deliver (Session.deliver_many): a listener that is no Session goes through its
    own deliver; one that fails is logged and the others still get the event."""
    from twisted.logger import capturedLogs

    from lobby.events import Event
    from protocol.connection.session import Session

    got: list[tuple[str, Event]] = []

    class Good:
        def __init__(self, name: str) -> None:
            self.name = name

        def deliver(self, event: Event) -> None:
            got.append((self.name, event))

    class Bad:
        def deliver(self, event: Event) -> None:
            raise RuntimeError("broken listener")

    event = Event("says", name="Ann", text="hi", room="Lobby")
    with capturedLogs() as logged:
        Session.deliver_many([Good("a"), Bad(), Good("b")], event)
    assert got == [("a", event), ("b", event)]
    failures = [e for e in logged if "log_failure" in e]
    assert [(e["event_type"], str(e["log_failure"].value)) for e in failures] == \
        [("says", "broken listener")]
