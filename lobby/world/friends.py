"""Friends (FICS' ``+notify``): ``/notify NAME``, ``/unnotify NAME``, ``/friends``.

Whoever has NAME on their list is told when NAME logs in or out (``friend-online``,
``friend-offline``) and when NAME starts or finishes a game (``friend-game-started``,
``friend-game-over``, with the table's number); ``/friends`` lists them with who is online and
where (``friends``). A registered user's list is kept in the database (table ``friends``,
migration 7) and read at the server's start; a guest's lasts for its session. An entry follows
one identity, not the string (``bound``): the friend online when it was added, else the first to
come under the name; a guest namesake who takes the name later is somebody else. At most
``--max-friends`` names per list (TableLimits.max_friends, 100; ``friends-list-full``).

``Friends(store, world)`` is made once per server (protocol/process/server.py) and is the world's
``friends``; the world calls ``logged_in`` / ``logged_out`` and, as a table's events pass,
``game_started`` / ``game_over``. Data only: the texts are the catalog's (lobby/text/messages.py).
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from twisted.logger import Logger

from lobby.events import Event
from lobby.storage.accounts import name_key
from lobby.text.messages import LobbyError

if TYPE_CHECKING:
    from lobby.world.world import User, World

__all__ = ["Friends"]

log = Logger(namespace="lobby.friends")


class Friends:
    """Every online user's friends list, and who has whom on theirs."""

    def __init__(self, store: Any, world: World) -> None:
        self.store = store
        self.world = world
        #: owner key -> friend key -> the friend's name as written (registered users: all of
        #: them, read at the start; guests: while they are online)
        self.lists: dict[str, dict[str, str]] = {}
        #: friend key -> the owners who have them on their list
        self.watchers: dict[str, set[str]] = {}
        #: (owner key, friend key) -> the identity (``User.identity``: a registered account, or
        #: one guest session) the entry follows: the friend who was online when it was added,
        #: else the first to come under the name after it (a list read from the database: the
        #: first after the start). A later namesake (a new guest under a freed guest name) is
        #: somebody else: not told about, not listed as online
        self.bound: dict[tuple[str, str], str] = {}
        world.friends = self

    async def load(self) -> None:
        """Read the registered users' lists (the server's start)."""
        if self.store is None:
            return
        rows = await self.store.run_query(_load_all)
        for owner, key, name in rows:
            self.lists.setdefault(owner, {})[key] = name
            self.watchers.setdefault(key, set()).add(owner)
        log.info("friends: {lists} lists", lists=len(self.lists))

    # ---- the commands -------------------------------------------------------------------------
    async def notify(self, user: User, name: str) -> None:
        """``/notify NAME``: NAME goes on ``user``'s list (``friend-added``)."""
        from lobby.storage.accounts import check_name
        check_name(name)
        key = name_key(name)
        if key == user.key:
            raise LobbyError("not-yourself", command="notify")
        mine = self.lists.get(user.key, {})
        if key in mine:
            raise LobbyError("already-friend", name=mine[key])
        limit = self.world.table_limits.max_friends          # --max-friends
        if limit and len(mine) >= limit:
            raise LobbyError("friends-list-full", limit=limit)
        online = self.world.online(name)
        shown = online.name if online is not None else name
        if user.registered and self.store is not None:
            await self.store.run_query(_insert, user.key, key, shown)
        self.lists.setdefault(user.key, {})[key] = shown
        self.watchers.setdefault(key, set()).add(user.key)
        if online is not None:
            self.bound[(user.key, key)] = online.identity
        else:
            self.bound.pop((user.key, key), None)
        _tell(user, Event("friend-added", name=shown, online=online is not None))

    async def unnotify(self, user: User, name: str) -> None:
        """``/unnotify NAME``: NAME goes off ``user``'s list (``friend-removed``)."""
        key = name_key(name)
        if key not in self.lists.get(user.key, {}):
            raise LobbyError("not-a-friend", name=name)
        if user.registered and self.store is not None:
            await self.store.run_query(_delete, user.key, key)
        mine = self.lists.get(user.key, {})
        shown = mine.pop(key, None)
        if shown is None:                      # another connection took it off meanwhile
            raise LobbyError("not-a-friend", name=name)
        if not mine:
            self.lists.pop(user.key, None)
        self._unwatch(user.key, key)
        self.bound.pop((user.key, key), None)
        _tell(user, Event("friend-removed", name=shown))

    def listing(self, user: User) -> Event:
        """``/friends``: each friend, online or not, and where (room, table, playing)."""
        out = []
        for key, name in sorted(self.lists.get(user.key, {}).items(),
                                key=lambda kv: kv[1].lower()):
            friend = self.world.users.get(key)
            if friend is not None and not self._follows(user.key, key, friend.identity,
                                                        bind=False):
                friend = None                  # a namesake: somebody else, not this friend
            entry: dict[str, Any] = {"name": friend.name if friend else name,
                                     "online": friend is not None, "room": None,
                                     "table": None, "playing": False}
            if friend is not None and friend.room is not None:
                entry["room"] = friend.room.name
                table = friend.room.table
                if table is not None:
                    entry["table"] = table.number
                    entry["playing"] = table.state == "playing" and friend.name in table.players
            if friend is not None and entry["table"] is None:     # away from a running game
                playing = self.world.playing_at(friend)
                if playing is not None:
                    entry["table"], entry["playing"] = playing, True
            out.append(entry)
        return Event("friends", friends=out, online=sum(e["online"] for e in out))

    def forget_guest(self, user: User) -> None:
        """A guest went offline: their list goes with them."""
        if user.registered:
            return
        for key in self.lists.pop(user.key, {}):
            self._unwatch(user.key, key)
            self.bound.pop((user.key, key), None)

    # ---- what friends are told ----------------------------------------------------------------
    def logged_in(self, user: User) -> None:
        self._tell_watchers(user.key, Event("friend-online", name=user.name), user.identity)

    def logged_out(self, user: User) -> None:
        self._tell_watchers(user.key, Event("friend-offline", name=user.name), user.identity)

    def game_started(self, table_no: int, names: Iterable[str | None],
                     identities: dict[str, str] | None = None) -> None:
        """``identities``: name key -> the identity that sat down under the name (the world's)."""
        for name in names:
            if name:
                self._tell_watchers(name_key(name), Event("friend-game-started", name=name,
                                                          table=table_no),
                                    self._identity(name, identities))

    def game_over(self, table_no: int, names: Iterable[str | None],
                  identities: dict[str, str] | None = None) -> None:
        for name in names:
            if name:
                self._tell_watchers(name_key(name), Event("friend-game-over", name=name,
                                                          table=table_no),
                                    self._identity(name, identities))

    # ---- inside -------------------------------------------------------------------------------
    def _identity(self, name: str, identities: dict[str, str] | None) -> str | None:
        key = name_key(name)
        known = (identities or {}).get(key)
        if known:
            return known
        user = self.world.users.get(key)
        return user.identity if user is not None and user.identity else None

    def _follows(self, owner: str, key: str, identity: str | None, *, bind: bool) -> bool:
        """Whether ``owner``'s entry for the name ``key`` follows ``identity`` (an entry that
        follows nobody yet takes it when ``bind``). None: not known, the name decides."""
        if identity is None:
            return True
        bound = self.bound.get((owner, key))
        if bound is None:
            if bind:
                self.bound[(owner, key)] = identity
            return True
        return bound == identity

    def _tell_watchers(self, key: str, event: Event, identity: str | None = None) -> None:
        owners = self.watchers.get(key)
        if not owners:
            return
        users = self.world.users
        for owner in sorted(owners):
            if not self._follows(owner, key, identity, bind=True):
                continue                      # a namesake of the friend: somebody else
            watcher = users.get(owner)
            if watcher is not None and watcher.key != key:
                _tell(watcher, event)

    def _unwatch(self, owner: str, key: str) -> None:
        owners = self.watchers.get(key)
        if owners is not None:
            owners.discard(owner)
            if not owners:
                del self.watchers[key]


def _tell(user: User, event: Event) -> None:
    try:
        user.listener.deliver(event)
    except Exception:
        log.failure("delivering {event_type} failed", event_type=event.type)


def _load_all(conn: sqlite3.Connection) -> list[Any]:
    return conn.execute("SELECT owner_key, friend_key, friend_name FROM friends").fetchall()


def _insert(conn: Any, owner: str, key: str, name: str) -> None:
    conn.execute("INSERT OR REPLACE INTO friends (owner_key, friend_key, friend_name) "
                 "VALUES (?, ?, ?)", (owner, key, name))


def _delete(conn: Any, owner: str, key: str) -> None:
    conn.execute("DELETE FROM friends WHERE owner_key = ? AND friend_key = ?", (owner, key))
