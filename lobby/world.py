"""The world: who is online, the rooms they are in, chat routing, and the table registry.

It knows no sockets: each online user has a ``Listener`` (the wire layer's session) and the world
answers with ``Event`` objects delivered to listeners. Room 0 is the lobby (BSW's village), where
everybody starts. Rooms are ready for tables: a later issue creates one ``Room`` per table with
``Room.table`` set and registers the table in ``World.tables``.
"""
from __future__ import annotations

import random
from typing import Any, Iterable

from twisted.logger import Logger

from lobby.accounts import name_key
from lobby.events import Event, Listener
from lobby.messages import LobbyError

__all__ = ["LOBBY", "Room", "User", "World"]

LOBBY = 0

log = Logger(namespace="lobby.world")


class User:
    """Somebody online. A replacing log-in keeps the User (and so any seat) and swaps the listener."""

    __slots__ = ("name", "key", "registered", "listener", "room", "since")

    def __init__(self, name: str, registered: bool, listener: Listener, since: float) -> None:
        self.name = name
        self.key = name_key(name)
        self.registered = registered
        self.listener = listener
        self.room: Room | None = None
        self.since = since

    def __repr__(self) -> str:
        return f"User({self.name!r}, registered={self.registered})"


class Room:
    """A place people talk in: the lobby (number 0), later one per table (``table`` set)."""

    __slots__ = ("number", "name", "members", "table")

    def __init__(self, number: int, name: str, table: Any = None) -> None:
        self.number = number
        self.name = name
        self.members: dict[str, User] = {}
        self.table = table  # the TableActor of a table room; None for the lobby

    def names(self) -> list[str]:
        return sorted((u.name for u in self.members.values()), key=str.lower)

    def __repr__(self) -> str:
        return f"Room({self.number}, {self.name!r}, {len(self.members)} members)"


class World:
    """All users and rooms of one server. ``clock`` is an IReactorTime (task.Clock in tests)."""

    def __init__(self, clock: Any, rng: random.Random | None = None) -> None:
        self.clock = clock
        self.users: dict[str, User] = {}
        self.rooms: dict[int, Room] = {LOBBY: Room(LOBBY, "Lobby")}
        self.tables: dict[int, Any] = {}  # table number -> table; filled by the tables issue
        self._rng = rng if rng is not None else random.Random()

    @property
    def lobby(self) -> Room:
        return self.rooms[LOBBY]

    # ---- who ------------------------------------------------------------------------------------
    def online(self, name: str) -> User | None:
        return self.users.get(name_key(name))

    def free_guest_name(self) -> str:
        """A name ``GuestNNNN`` that nobody online has."""
        for _ in range(100):
            name = f"Guest{self._rng.randrange(1000, 10000)}"
            if name_key(name) not in self.users:
                return name
        n = 10000
        while name_key(f"Guest{n}") in self.users:
            n += 1
        return f"Guest{n}"

    # ---- arriving and leaving ---------------------------------------------------------------------
    def login(self, name: str, listener: Listener, registered: bool) -> User:
        """Bring ``name`` online in the lobby. A registered name that is online already is taken
        over by the new listener (the old one is told and disconnected); a guest name that is
        online is refused with LobbyError('name-in-use')."""
        existing = self.users.get(name_key(name))
        if existing is not None:
            if not registered:
                raise LobbyError("name-in-use", name=existing.name)
            old = existing.listener
            existing.listener = listener
            existing.registered = True
            log.info("{user} logged in again; the old connection is replaced", user=existing.name)
            self._safe(old.disconnect, Event("replaced", name=existing.name))
            return existing
        user = User(name, registered, listener, self.clock.seconds())
        self.users[user.key] = user
        self.enter(user, self.lobby)
        return user

    def logout(self, user: User, listener: Listener) -> bool:
        """Take ``user`` offline if ``listener`` is still theirs (a replaced connection is not)."""
        if self.users.get(user.key) is not user or user.listener is not listener:
            return False
        del self.users[user.key]
        self.leave(user)
        return True

    def enter(self, user: User, room: Room) -> None:
        """Move ``user`` into ``room`` (leaving their current one); both rooms are told."""
        if user.room is room:
            return
        self.leave(user)
        self.deliver(room.members.values(), Event("enters", name=user.name, room=room.name))
        room.members[user.key] = user
        user.room = room

    def leave(self, user: User) -> None:
        room = user.room
        if room is None:
            return
        room.members.pop(user.key, None)
        user.room = None
        self.deliver(room.members.values(), Event("leaves", name=user.name, room=room.name))

    # ---- talking ----------------------------------------------------------------------------------
    def say(self, user: User, text: str) -> None:
        """Speech to everybody in the speaker's room (the speaker sees it too)."""
        room = user.room
        if room is None:
            return
        self.deliver(room.members.values(),
                     Event("says", name=user.name, text=text, room=room.name))

    def tell(self, user: User, to: str, text: str) -> None:
        """A private message; LobbyError('not-online') if nobody called ``to`` is online."""
        target = self.online(to)
        if target is None:
            raise LobbyError("not-online", name=to)
        self._safe(target.listener.deliver, Event("tells", name=user.name, text=text))
        if target is not user:
            self._safe(user.listener.deliver, Event("told", name=target.name, text=text))

    # ---- lists ------------------------------------------------------------------------------------
    def who(self, user: User) -> Event:
        room = user.room or self.lobby
        return Event("who", room=room.name, number=room.number, names=room.names())

    def wwho(self) -> Event:
        users = sorted(self.users.values(), key=lambda u: u.key)
        return Event("wwho", users=[
            {"name": u.name, "room": u.room.name if u.room else "", "registered": u.registered}
            for u in users])

    # ---- delivery ---------------------------------------------------------------------------------
    def deliver(self, users: Iterable[User], event: Event) -> None:
        for u in list(users):
            self._safe(u.listener.deliver, event)

    def broadcast(self, event: Event) -> None:
        self.deliver(self.users.values(), event)

    @staticmethod
    def _safe(method: Any, event: Event) -> None:
        try:
            method(event)
        except Exception:
            log.failure("delivering {event_type} failed", event_type=event.type)
