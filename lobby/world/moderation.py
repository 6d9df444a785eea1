"""Moderation: roles, personal mute lists, bans, public silence, announcements, shutdown.

Everything lives in the database (``accounts.role``; the tables ``mutes``, ``bans``, ``silenced``
of migration 3) and is mirrored in memory, so the chat path (``ignores``, ``is_silenced``) and the
log-in path (``check_login``) never wait for a query. ``load()`` reads the mirror at start-up;
every change writes the database first and the mirror after it succeeded.

Roles: ``admin`` and ``moderator`` (``accounts.role``); guests never have one. The first admin is
named on the command line (``--admin NAME``): the account must exist when the server starts (the
operator creates it offline: ``tichu-lobby admin create NAME``, protocol/process/admin_cli.py); its role
is written then, and ``load()`` refuses to start (StartupError) when there is no such account, so
nobody can become admin by registering the name later. Roles are only ever read from the
database. Moderators may /kick, /ban, /unban,
/bmute and /announce, but never against a moderator or an admin; admins may everything, also
/shutdown and /role. Every moderation act is logged: who did what to whom, and why.

Bans: ``/ban NAME`` keeps the name out (registered or not). A guest online at the time of the
ban also brings the address it came from into the ban (``Ban.address``: the address group, an
IPv4 address or an IPv6 /64; not a loopback address, where a local TLS terminator's users all
come from): for the ban's time no guest logs in from there (``address-banned``), while
registered names from that address still do. ``/banlist`` shows the bans with their addresses
to moderators; ``/unban NAME`` lifts both.

Mute lists (``/add mute NAME`` as on BSW): speech and tells of a muted name are not shown to the
one who muted it; a tell to somebody who ignores you looks sent to you. Lists of registered users
are stored, those of guests last as long as the guest is online.
"""
from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from twisted.internet.defer import ensureDeferred
from twisted.logger import Logger

from lobby.events import Event
from lobby.storage.accounts import name_key
from lobby.storage.store import StartupError
from lobby.text.messages import LobbyError, Msg
from lobby.world.addresses import address_group, ban_group, is_loopback
from lobby.world.world import visible_text

__all__ = ["Moderation", "Ban", "ROLE_NAMES", "parse_duration", "MAX_MUTES"]

log = Logger(namespace="lobby.moderation")

#: the roles /role grants ("none" takes a role away)
ROLE_NAMES = ("admin", "moderator", "none")
_RANK = {None: 0, "moderator": 1, "admin": 2}
#: names on one mute list at most
MAX_MUTES = 200

_DURATION = re.compile(r"^(\d{1,6})([smhdw]?)$")
_UNIT = {"": 60, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(word: str) -> float | None:
    """``30m``, ``2h``, ``7d``, ``1w``, ``90s``, a bare number of minutes -> seconds; None when
    ``word`` is no duration (``perm`` and ``forever`` mean no end: also None, see ``is_forever``)."""
    m = _DURATION.match(word.lower())
    if m is None:
        return None
    return float(int(m.group(1)) * _UNIT[m.group(2)])


def _is_forever(word: str) -> bool:
    return word.lower() in ("perm", "permanent", "forever")


@dataclass(frozen=True, slots=True)
class Ban:
    name: str
    until: float | None
    reason: str
    by: str
    at: float
    address: str | None = None    # a banned guest's address group (guests from there too)


_NOBODY: frozenset[str] = frozenset()


class Moderation:
    """The moderation state of one server. ``world.moderation`` points here."""

    def __init__(self, store: Any, world: Any, admin: str | None = None) -> None:
        self.store = store
        self.world = world
        self.clock = world.clock
        self.first_admin = name_key(admin) if admin else None
        self._refresh_seconds = 0.0
        self._refresh_call: Any = None               # the next refresh_staff (refresh_every)
        #: the staff (moderators and admins): name key -> name, and the skeleton of each name
        #: (``name_skeleton``) -> the name, so that a new name reading like one is refused
        self.staff: dict[str, str] = {}
        self.staff_skeletons: dict[str, str] = {}
        #: name key -> the staff member's role (``admin``, ``moderator``)
        self.staff_roles: dict[str, str] = {}
        self.first_admin_name = admin or ""
        self.mutes: dict[str, dict[str, str]] = {}   # owner key -> {muted key: muted name}
        self.muted_by: dict[str, set[str]] = {}      # muted key -> owner keys (the reverse)
        self.bans: dict[str, Ban] = {}
        self.address_bans: dict[str, str] = {}      # address group -> the ban's name key
        #: guest key -> (address group, when they went offline): a /ban of a guest who has just
        #: left still bans the address they came from (for GUEST_ADDRESS_KEPT seconds)
        self.left_guests: dict[str, tuple[str, float]] = {}
        self.silenced: dict[str, str] = {}            # key -> name
        #: set by the server: shutdown(seconds, reason, by) -> None
        self.shutdown_handler: Callable[[float, str, str], Any] | None = None
        #: set by the server: cancel_shutdown(by) -> whether a shutdown was under way
        self.cancel_handler: Callable[[str], bool] | None = None
        world.moderation = self

    # ---- start-up -----------------------------------------------------------------------------
    async def load(self) -> None:
        """Read bans, silenced names and the mute lists; make the ``--admin`` name an admin."""
        rows = await self.store.run_query(_load_all)
        mutes, bans, silenced, staff = rows
        for name, role in staff:
            self._note_staff(name, role)
        for owner, key, name in mutes:
            self.mutes.setdefault(owner, {})[key] = name
            self.muted_by.setdefault(key, set()).add(owner)
        for key, name, until, reason, by, at, address in bans:
            self.bans[key] = Ban(name, until, reason, by, at, address)
            if address:
                self.address_bans[address] = key
        self.silenced = {key: name for key, name in silenced}
        if self.first_admin is not None:
            account = await self.store.get_account(self.first_admin)
            if account is None:
                raise StartupError(
                    f"--admin {self.first_admin_name}: there is no account "
                    f"{self.first_admin_name} in the database {self.store.path!r}; create it "
                    f"first: tichu-lobby admin create {self.first_admin_name}")
            if account.role != "admin":
                await self.store.set_role(account.name, "admin")
            self._note_staff(account.name, "admin")
            log.info("{name} is an admin (--admin)", name=account.name)
        log.info("moderation: {bans} bans, {silenced} silenced, {lists} mute lists",
                 bans=len(self.bans), silenced=len(self.silenced), lists=len(self.mutes))

    async def refresh_staff(self) -> None:
        """Read the staff accounts again, so that a role given or taken offline while the
        server runs (``tichu-lobby admin create NAME --role admin``, ``admin set-role``) is
        known to the look-alike check within ``--staff-refresh`` seconds, not only from that
        account's next log-in. One query of the accounts that have a role."""
        rows = await self.store.run_query(_load_staff)
        now = {name_key(name): (name, role) for name, role in rows}
        for key, name in list(self.staff.items()):
            if key not in now:
                self._note_staff(name, None)
        for key, (name, role) in now.items():
            if self.staff_roles.get(key) != role or self.staff.get(key) != name:
                self._note_staff(name, role)

    def refresh_every(self, seconds: float) -> None:
        """Call ``refresh_staff`` every ``seconds`` on the world's clock (0: never)."""
        self._refresh_seconds = seconds
        if seconds > 0 and self._refresh_call is None:
            self._refresh_call = self.clock.callLater(seconds, self._refresh_due)

    def stop_refreshing(self) -> None:
        if self._refresh_call is not None and self._refresh_call.active():
            self._refresh_call.cancel()
        self._refresh_call = None
        self._refresh_seconds = 0.0

    def _refresh_due(self) -> None:
        self._refresh_call = None
        if self._refresh_seconds <= 0:
            return
        done = ensureDeferred(self.refresh_staff())
        done.addErrback(lambda failure: log.failure("moderation: the staff list was not read "
                                                    "again", failure))
        done.addBoth(lambda _: self.refresh_every(self._refresh_seconds))

    # ---- roles --------------------------------------------------------------------------------
    async def role_of(self, user: Any) -> str | None:
        """The role of an online user (None for guests and ordinary players). Only a name
        the staff list holds (loaded at start, kept by /role, and refreshed with the role of
        each log-in: ``logged_in``) is looked up in the database, so a refused moderation
        command of anybody else costs no query (issue 23: no database work for a refusal)."""
        if not user.registered or name_key(user.name) not in self.staff_roles:
            return None
        account = await self.store.get_account(user.name)
        return None if account is None else account.role

    def logged_in(self, name: str, role: str | None) -> None:
        """``name`` logged in with the account's ``role`` (read with its password hash): a
        role given or taken offline (``tichu-lobby admin``) holds from that log-in on."""
        if self.staff_roles.get(name_key(name)) != role:
            self._note_staff(name, role)

    async def require(self, user: Any, role: str, command: str) -> str:
        """The user's role if it is ``role`` or higher; LobbyError('not-allowed') otherwise."""
        have = await self.role_of(user)
        if have is None or _RANK[have] < _RANK[role]:
            if self.world.log_budget.allow(_source(user), "refused-command"):
                log.info("{user} tried /{command} without the role {role} (further refusals "
                         "of this minute are counted)", user=user.name, command=command,
                         role=role)
            raise LobbyError("not-allowed", command=command, role=role)
        return have

    async def _may_act_on(self, actor: Any, actor_role: str, target: str, command: str) -> None:
        """A moderator never acts against a moderator or an admin; nobody against themselves."""
        if name_key(target) == actor.key:
            raise LobbyError("not-yourself", command=command)
        if actor_role == "admin":
            return
        account = await self.store.get_account(target)
        target_role = account.role if account is not None else None
        if _RANK[target_role] >= _RANK[actor_role]:
            raise LobbyError("not-allowed", command=command, role="admin")

    async def set_role(self, actor: Any, name: str, role: str) -> None:
        """``/role NAME admin|moderator|none`` (admins only)."""
        await self.require(actor, "admin", "role")
        role = role.lower()
        if role not in ROLE_NAMES:
            raise LobbyError("unknown-role", role=role, choices=", ".join(ROLE_NAMES))
        if name_key(name) == actor.key:
            raise LobbyError("not-yourself", command="role")
        if not await self.store.set_role(name, None if role == "none" else role):
            raise LobbyError("not-registered-user", name=name)
        account = await self.store.get_account(name)
        self._note_staff(account.name if account is not None else name,
                         None if role == "none" else role)
        log.info("moderation: {actor} sets the role of {target} to {role}", actor=actor.name,
                 target=name, role=role)
        self._reply(actor, Event("role-set", name=name, role=role))
        target = self.world.online(name)
        if target is not None and target is not actor:
            self._reply(target, Event("role-changed", role=role, by=actor.name))

    def _note_staff(self, name: str, role: str | None) -> None:
        key = name_key(name)
        old = self.staff.pop(key, None)
        self.staff_roles.pop(key, None)
        if old is not None:
            self.staff_skeletons.pop(name_skeleton(old), None)
        if role is not None:
            self.staff[key] = name
            self.staff_roles[key] = role
            self.staff_skeletons[name_skeleton(name)] = name

    def is_staff(self, name: str) -> bool:
        """Whether ``name`` is a moderator's or an admin's (from memory: no query)."""
        return name_key(name) in self.staff

    def staff_role(self, name: str) -> str | None:
        """``admin`` or ``moderator`` for a staff member's name, else None (from memory)."""
        return self.staff_roles.get(name_key(name))

    def check_new_name(self, name: str) -> None:
        """LobbyError('staff-lookalike') when ``name`` (a guest's, a new account's) reads like
        a staff member's name without being it: the same letters in another case, 0 for O, 1 or
        I for l, 5 for S, rn for m, a letter repeated, trailing digits, a staff word such as
        ``admin`` before or after it (``name_skeletons``)."""
        for skeleton in sorted(name_skeletons(name)):
            staff = self.staff_skeletons.get(skeleton)
            if staff is not None and name_key(staff) != name_key(name):
                raise LobbyError("staff-lookalike", name=name, staff=staff)

    # ---- mute lists ---------------------------------------------------------------------------
    def ignores(self, owner_key: str, speaker_key: str) -> bool:
        muted = self.mutes.get(owner_key)
        return muted is not None and speaker_key in muted

    def ignorers(self, speaker_key: str) -> AbstractSet[str]:
        """The keys of the users whose mute list holds ``speaker_key`` (usually none: one
        look-up instead of one per listener of a crowded room)."""
        return self.muted_by.get(speaker_key, _NOBODY)

    def mute_list(self, user: Any) -> list[str]:
        return sorted(self.mutes.get(user.key, {}).values(), key=str.lower)

    async def mute(self, user: Any, name: str) -> None:
        """``/add mute NAME``."""
        from lobby.storage.accounts import check_name
        check_name(name)
        key = name_key(name)
        if key == user.key:
            raise LobbyError("not-yourself", command="add mute")
        muted = self.mutes.get(user.key, {})
        if key in muted:
            raise LobbyError("already-muted", name=muted[key])
        if len(muted) >= MAX_MUTES:
            raise LobbyError("mute-list-full", limit=MAX_MUTES)
        online = self.world.online(name)
        shown = online.name if online is not None else name
        if user.registered:
            await self.store.run_query(_insert_mute, user.key, key, shown)
        self.mutes.setdefault(user.key, {})[key] = shown
        self.muted_by.setdefault(key, set()).add(user.key)
        self._reply(user, Event("muted", name=shown))

    async def unmute(self, user: Any, name: str) -> None:
        """``/sub mute NAME``."""
        key = name_key(name)
        muted = self.mutes.get(user.key, {})
        if key not in muted:
            raise LobbyError("not-muted", name=name)
        if user.registered:
            await self.store.run_query(_delete_mute, user.key, key)
        muted = self.mutes.get(user.key, {})       # again: another connection of the same
        shown = muted.pop(key, None)               # user may have taken it off meanwhile
        if shown is None:
            raise LobbyError("not-muted", name=name)
        self._drop_reverse(user.key, key)
        if not muted:
            self.mutes.pop(user.key, None)
        self._reply(user, Event("unmuted", name=shown))

    def forget_guest(self, user: Any) -> None:
        """A guest went offline: their mute list goes with them; their address is kept for a
        while, so that a /ban right after they left still bans it."""
        if not user.registered:
            for key in self.mutes.pop(user.key, {}):
                self._drop_reverse(user.key, key)
            address = _guest_address(user)
            if address is not None:
                now = self.clock.seconds()
                if len(self.left_guests) > 10000:
                    self.left_guests = {k: v for k, v in self.left_guests.items()
                                        if now - v[1] < GUEST_ADDRESS_KEPT}
                self.left_guests[user.key] = (address, now)

    def _drop_reverse(self, owner: str, key: str) -> None:
        owners = self.muted_by.get(key)
        if owners is not None:
            owners.discard(owner)
            if not owners:
                del self.muted_by[key]

    # ---- public silence -------------------------------------------------------------------------
    def is_silenced(self, user: Any) -> bool:
        return user.key in self.silenced

    async def bmute(self, actor: Any, name: str, off: bool) -> None:
        """``/bmute NAME [off]``: NAME may not speak in rooms (tells still work)."""
        role = await self.require(actor, "moderator", "bmute")
        await self._may_act_on(actor, role, name, "bmute")
        key = name_key(name)
        online = self.world.online(name)
        shown = online.name if online is not None else self.silenced.get(key, name)
        if off:
            if key not in self.silenced:
                raise LobbyError("not-silenced", name=name)
            await self.store.run_query(_delete_silenced, key)
            del self.silenced[key]
            log.info("moderation: {actor} lets {target} speak again", actor=actor.name,
                     target=shown)
            self._reply(actor, Event("unsilenced", name=shown))
            if online is not None:
                self._reply(online, Event("you-unsilenced", by=actor.name))
            return
        await self.store.run_query(_insert_silenced, key, shown, actor.name,
                                   self.clock.seconds())
        self.silenced[key] = shown
        log.info("moderation: {actor} silences {target} in public rooms", actor=actor.name,
                 target=shown)
        self._reply(actor, Event("silenced-set", name=shown))
        if online is not None:
            self._reply(online, Event("you-silenced", by=actor.name))

    # ---- kick and ban ---------------------------------------------------------------------------
    async def kick(self, actor: Any, name: str, reason: str) -> None:
        """``/kick NAME [reason]``: disconnect NAME (who may come back at once)."""
        role = await self.require(actor, "moderator", "kick")
        target = self.world.online(name)
        if target is None:
            raise LobbyError("not-online", name=name)
        await self._may_act_on(actor, role, target.name, "kick")
        log.info("moderation: {actor} kicks {target}: {reason}", actor=actor.name,
                 target=target.name, reason=reason or "-")
        self._reply(actor, Event("kick-done", name=target.name))
        self._disconnect(target, Event("kicked", by=actor.name, reason=reason or "-"))

    async def ban(self, actor: Any, name: str, rest: str) -> None:
        """``/ban NAME [duration] [reason]``: NAME may not log in (until the duration ends or
        /unban); NAME is disconnected if online."""
        role = await self.require(actor, "moderator", "ban")
        from lobby.storage.accounts import check_name
        check_name(name)
        await self._may_act_on(actor, role, name, "ban")
        word, _, reason = rest.strip().partition(" ")
        seconds = parse_duration(word) if word else None
        if seconds is None and not _is_forever(word):
            reason = rest.strip()
        reason = reason.strip() or "-"
        now = self.clock.seconds()
        until = now + seconds if seconds is not None else None
        if until is not None and until >= _LAST_DATE:    # 999999w ends after the year 9999
            until = None
        online = self.world.online(name)
        shown = online.name if online is not None else name
        address = None
        key = name_key(name)
        if online is not None and not online.registered:     # a guest: its address too
            address = _guest_address(online)
        elif online is None and key in self.left_guests:     # a guest who has just left
            group, left = self.left_guests[key]
            if now - left < GUEST_ADDRESS_KEPT:
                address = group
        await self.store.run_query(_insert_ban, key, shown, until, reason, actor.name, now,
                                   address)
        old = self.bans.get(key)
        if old is not None and old.address and self.address_bans.get(old.address) == key:
            del self.address_bans[old.address]
        self.bans[key] = Ban(shown, until, reason, actor.name, now, address)
        if address is not None:
            self.address_bans[address] = key
        log.info("moderation: {actor} bans {target} until {until}: {reason}{where}",
                 actor=actor.name, target=shown, until=_until_text(until), reason=reason,
                 where=f" (and guests from {address})" if address else "")
        self._reply(actor, Event("ban-done", name=shown, until=_until_text(until)))
        if online is not None:
            self._disconnect(online, Event("banned-now", by=actor.name, reason=reason,
                                           until=_until_text(until)))

    async def unban(self, actor: Any, name: str) -> None:
        """``/unban NAME``."""
        await self.require(actor, "moderator", "unban")
        key = name_key(name)
        ban = self.bans.get(key)
        if ban is None:
            raise LobbyError("not-banned", name=name)
        await self.store.run_query(_delete_ban, key)
        self._forget_ban(key)
        log.info("moderation: {actor} lifts the ban on {target}", actor=actor.name,
                 target=ban.name)
        self._reply(actor, Event("unban-done", name=ban.name))

    def ban_list(self) -> list[Ban]:
        """The bans in force, oldest first (expired ones are forgotten here)."""
        now = self.clock.seconds()
        for key in [k for k, b in self.bans.items() if b.until is not None and b.until <= now]:
            self._expire(key)
        return sorted(self.bans.values(), key=lambda b: (b.at, b.name.lower()))

    async def list_bans(self, actor: Any) -> None:
        """``/banlist`` (moderators): every ban in force, with a banned guest's address."""
        await self.require(actor, "moderator", "banlist")
        bans = self.ban_list()
        if not bans:
            self._reply(actor, Event("ban-list-empty"))
            return
        self._reply(actor, Event("ban-list", count=len(bans), bans=[
            {"name": b.name, "until": _until_text(b.until), "reason": b.reason, "by": b.by,
             "address": b.address} for b in bans]))

    def check_login(self, name: str, address: str | None = None,
                    registered: bool = True) -> None:
        """LobbyError('banned') while ``name`` is banned; for a guest (``registered`` False)
        also LobbyError('address-banned') while a ban holds ``address``'s group, and
        LobbyError('staff-lookalike') for a name reading like a staff member's. An expired
        ban is forgotten."""
        if not registered:            # a guest's name is new: not one reading like staff's
            self.check_new_name(name)
        key = name_key(name)
        ban = self.bans.get(key)
        if ban is not None:
            if ban.until is not None and ban.until <= self.clock.seconds():
                self._expire(key)
            else:
                raise LobbyError("banned", name=ban.name, until=_until_text(ban.until),
                                 reason=ban.reason)
        if registered or not address or not self.address_bans:
            return
        # the ban's prefix (--ipv6-ban-prefix); a ban stored under another prefix (the group's,
        # or before the option changed) holds its own network
        group = ban_group(address)
        ban_key = self.address_bans.get(group)
        if ban_key is None:
            for other in (address_group(address), *self._other_prefix_bans(address)):
                if other in self.address_bans:
                    group, ban_key = other, self.address_bans[other]
                    break
        ban = self.bans.get(ban_key) if ban_key is not None else None
        if ban is None or ban_key is None:
            self.address_bans.pop(group, None)
            return
        if ban.until is not None and ban.until <= self.clock.seconds():
            self._expire(ban_key)
            return
        raise LobbyError("address-banned", until=_until_text(ban.until), reason=ban.reason)

    def _other_prefix_bans(self, address: str) -> list[str]:
        """The banned IPv6 networks of another prefix length that hold ``address``."""
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return []
        if not isinstance(ip, ipaddress.IPv6Address) or ip.ipv4_mapped is not None:
            return []
        found = []
        for network in self.address_bans:
            if "/" in network:
                try:
                    if ip in ipaddress.IPv6Network(network):
                        found.append(network)
                except ValueError:
                    continue
        return found

    def _forget_ban(self, key: str) -> None:
        ban = self.bans.pop(key, None)
        if ban is not None and ban.address and self.address_bans.get(ban.address) == key:
            del self.address_bans[ban.address]

    def _expire(self, key: str) -> None:
        ban = self.bans.get(key)
        self._forget_ban(key)
        if ban is not None:
            self.store.run_query(_delete_ban, key).addErrback(
                lambda f: log.failure("forgetting the expired ban of {name}", f, name=ban.name))

    # ---- everybody -----------------------------------------------------------------------------
    async def close_table(self, actor: Any, number: int, reason: str) -> None:
        """``/closetable N [reason]``: close table N whoever sits there (its game abandoned and
        never restored); recorded in the log."""
        await self.require(actor, "moderator", "closetable")
        self.world.force_close(number, actor.name, reason)
        log.info("moderation: {actor} closes table {table}: {reason}", actor=actor.name,
                 table=number, reason=reason or "-")
        self._reply(actor, Event("closetable-done", table=number))

    async def announce(self, actor: Any, text: str) -> None:
        """``/announce TEXT``: one line to everybody online."""
        await self.require(actor, "moderator", "announce")
        text = visible_text(text)
        log.info("moderation: {actor} announces: {text}", actor=actor.name, text=text)
        self.world.broadcast(Event("announcement", by=actor.name, text=text))

    async def shutdown(self, actor: Any, seconds: float, reason: str) -> None:
        """``/shutdown [SECONDS] [reason]`` (admins): warn everybody, no new games, then stop."""
        await self.require(actor, "admin", "shutdown")
        if self.shutdown_handler is None:
            raise LobbyError("not-allowed", command="shutdown", role=Msg("role-operator"))
        log.info("moderation: {actor} shuts the server down in {seconds} s: {reason}",
                 actor=actor.name, seconds=seconds, reason=reason or "-")
        self.shutdown_handler(seconds, reason.strip(), actor.name)

    async def cancel_shutdown(self, actor: Any) -> None:
        """``/shutdown cancel`` (admins): the announced shutdown does not happen; new tables and
        games may start again; everybody is told."""
        await self.require(actor, "admin", "shutdown")
        if self.cancel_handler is None:
            raise LobbyError("not-allowed", command="shutdown", role=Msg("role-operator"))
        if not self.cancel_handler(actor.name):
            raise LobbyError("no-shutdown")
        log.info("moderation: {actor} cancels the shutdown", actor=actor.name)

    # ---- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _reply(user: Any, event: Event) -> None:
        try:
            user.listener.deliver(event)
        except Exception:
            log.failure("delivering {event_type} failed", event_type=event.type)

    @staticmethod
    def _disconnect(user: Any, event: Event) -> None:
        try:
            user.listener.disconnect(event)
        except Exception:
            log.failure("disconnecting {user} failed", user=user.name)


#: the end of the calendar datetime can show: a ban ending later is a ban until further notice
_LAST_DATE = datetime(9999, 12, 31, tzinfo=UTC).timestamp()


def _until_text(until: float | None) -> str:
    if until is None or until >= _LAST_DATE:
        return Msg("until-further-notice")
    return datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")


# ---- SQL (run on the store's worker thread) -----------------------------------------------------
def _load_staff(conn: Any) -> list[Any]:
    rows: list[Any] = conn.execute(
        "SELECT name, role FROM accounts WHERE role IS NOT NULL").fetchall()
    return rows


def _load_all(conn: Any) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    mutes = conn.execute("SELECT owner_key, muted_key, muted_name FROM mutes").fetchall()
    bans = conn.execute(
        "SELECT name_key, name, until, reason, banned_by, banned_at, address FROM bans").fetchall()
    silenced = conn.execute("SELECT name_key, name FROM silenced").fetchall()
    return mutes, bans, silenced, _load_staff(conn)


#: characters (and pairs) of a name that read like another one (names are ASCII letters,
#: digits, _ and -): the skeleton maps each to one of its look-alikes
_LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"))
_LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "3": "e", "4": "a", "5": "s",
                            "7": "t", "8": "b", "_": None, "-": None})


def name_skeleton(name: str) -> str:
    """What a name reads like, for look-alikes of staff names: lower case, each confusable
    character as its look-alike (0 -> o, 1/I/l -> l, 5 -> s, rn -> m ...), _ and - left out,
    and a run of one letter read as one (``bosss`` reads like ``boss``)."""
    return _collapse_runs(_confusable_skeleton(name))


def _confusable_skeleton(name: str) -> str:
    text = name.lower()
    for pair, one in _LOOKALIKE_PAIRS:
        text = text.replace(pair, one)
    return text.translate(_LOOKALIKE)


def _collapse_runs(text: str) -> str:
    return "".join(ch for i, ch in enumerate(text) if i == 0 or text[i - 1] != ch)


#: words a look-alike adds to a staff name to pass for staff (``bossadmin``, ``modboss``)
_STAFF_AFFIXES = ("admin", "administrator", "moderator", "mod", "staff", "sysop", "official",
                  "support", "team", "real", "the")
_AFFIX_SKELETONS = tuple(sorted({_confusable_skeleton(word) for word in _STAFF_AFFIXES},
                                key=len, reverse=True))


def name_skeletons(name: str) -> set[str]:
    """Every skeleton (``name_skeleton``) a new name may read as: the whole name, the name
    without its trailing digits (``boss1``, ``boss2026``), and the name without a staff word
    before or after it (``bossadmin``, ``the_boss``). Empty skeletons are left out."""
    bare = name.replace("_", "").replace("-", "")
    stem = bare.rstrip("0123456789")
    # each length of the trailing digits dropped: 5 may stand for S (Bo55_1 reads Boss)
    forms = {_confusable_skeleton(bare[:end]) for end in range(len(stem), len(bare) + 1)}
    for form in list(forms):
        for affix in _AFFIX_SKELETONS:
            if form.endswith(affix):
                forms.add(form[:-len(affix)])
            if form.startswith(affix):
                forms.add(form[len(affix):])
    return {_collapse_runs(form) for form in forms if form}


def _insert_mute(conn: Any, owner: str, key: str, name: str) -> None:
    conn.execute("INSERT OR REPLACE INTO mutes (owner_key, muted_key, muted_name) VALUES (?, ?, ?)",
                 (owner, key, name))


def _delete_mute(conn: Any, owner: str, key: str) -> None:
    conn.execute("DELETE FROM mutes WHERE owner_key = ? AND muted_key = ?", (owner, key))


def _insert_ban(conn: Any, key: str, name: str, until: float | None, reason: str, by: str,
                at: float, address: str | None = None) -> None:
    conn.execute("INSERT OR REPLACE INTO bans (name_key, name, until, reason, banned_by, "
                 "banned_at, address) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (key, name, until, reason, by, at, address))


def _delete_ban(conn: Any, key: str) -> None:
    conn.execute("DELETE FROM bans WHERE name_key = ?", (key,))


def _insert_silenced(conn: Any, key: str, name: str, by: str, at: float) -> None:
    conn.execute("INSERT OR REPLACE INTO silenced (name_key, name, silenced_by, silenced_at) "
                 "VALUES (?, ?, ?, ?)", (key, name, by, at))


def _delete_silenced(conn: Any, key: str) -> None:
    conn.execute("DELETE FROM silenced WHERE name_key = ?", (key,))


#: seconds a guest's address is kept after they went offline, for a /ban of their name
GUEST_ADDRESS_KEPT = 3600.0


def _guest_address(user: Any) -> str | None:
    """The address a ban of a guest holds (``ban_group``: an IPv4 address, an IPv6 network of
    --ipv6-ban-prefix bits), None for loopback or no address."""
    host = getattr(getattr(user, "listener", None), "address", None)
    if isinstance(host, str) and host != "?" and not is_loopback(host):
        return ban_group(host)
    return None


def _source(user: Any) -> str:
    """Where a user's lines come from, for the log's budget: the address group of its
    connection (the wire's session tells it), else the name."""
    address = getattr(user.listener, "address", None)
    return address_group(address) if isinstance(address, str) and address != "?" else user.key
