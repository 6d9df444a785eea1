"""The seats a table holds for its players: who may sit down, and who may come back.

A table asks its ``SeatPolicy`` (the world: the abuse limits of lobby/world/world.py ``TableLimits``)
before anybody sits down. A guest who sits down gets a short reconnect key, told to them alone
(``table-seat-key``); the table keeps only a salted hash of it (``hash_key``), in memory and in the
action journal. ``TableActor.holds_seat_for(name, key)`` answers with a ``HeldSeat`` whether a
running game holds a seat for a name, whether the name is still reserved for the player (a guest
within the table's grace time, ``/option grace``) and whether a given key proves the guest.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["HeldSeat", "KEY_ALPHABET", "KEY_LENGTH", "SeatPolicy", "hash_key", "key_matches",
           "new_key"]

#: letters and digits that cannot be mistaken for each other (no 0/o, 1/l/i)
KEY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
KEY_LENGTH = 4


def new_key() -> str:
    """A fresh reconnect key (``k7f3``), from the operating system's random source."""
    return "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))


def hash_key(key: str) -> str:
    """``sha256$SALT$DIGEST`` of ``key`` (case-insensitive): what a table keeps of a key."""
    salt = secrets.token_hex(8)
    digest = hashlib.sha256(f"{salt}:{key.strip().lower()}".encode()).hexdigest()
    return f"sha256${salt}${digest}"


def key_matches(key: str, stored: str | None) -> bool:
    """Whether ``key`` is the key ``stored`` (a ``hash_key`` string) was made from."""
    if not stored or not key:
        return False
    try:
        scheme, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "sha256":
        return False
    mine = hashlib.sha256(f"{salt}:{key.strip().lower()}".encode()).hexdigest()
    return hmac.compare_digest(mine, digest)


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A running game's seat for a name (``TableActor.holds_seat_for``)."""

    table: int         # the table's number
    name: str          # the seat's spelling of the name (``Bob`` for ``bob``)
    guest: bool        # a guest's seat (a registered player proves themselves with the password)
    reserved: bool     # the name is kept for the player: they are here, or within the grace time
    proved: bool       # the key given is the guest's reconnect key


class SeatPolicy(Protocol):
    """What a table asks before somebody sits down (the world implements it)."""

    def may_sit(self, table: Any, name: str) -> bool:
        """``name`` sits down at ``table``: True for a guest, False for a registered user;
        LobbyError when a limit refuses the seat."""

    def may_add_bot(self, table: Any, name: str, seconds: float) -> None:
        """``name`` adds a search bot thinking ``seconds`` per decision: LobbyError when a
        limit refuses it (a guest's thinking time, the expert tables of one user)."""

    def is_registered(self, name: str) -> bool:
        """Whether ``name`` is a registered user logged in now (a game of four of them is
        rated: decided at /start)."""

    def send_away(self, table: Any, name: str) -> None:
        """The host barred ``name`` from ``table`` (/bar): out of its room, into the lobby."""

    def identity_of(self, name: str) -> tuple[str | None, str | None, bool]:
        """Who ``name`` online now is, for a bar (/bar): (their identity: ``acct:KEY`` or one
        guest session, the address group a guest ban holds (``ban_group``), whether they are
        registered); (None, None, False) for nobody online under the name."""
