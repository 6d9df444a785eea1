"""Names and passwords: validation, argon2id hashes (argon2-cffi), verification and upgrades.

New hashes are argon2id PHC strings (``$argon2id$v=19$m=19456,t=2,p=1$salt$hash``) made by
argon2-cffi's ``PasswordHasher``; ``check_needs_rehash`` tells when a stored hash was made with
other parameters. Hashes of the first version (``scrypt$N$r$p$salt$hash``) are still verified,
and always reported as needing a rehash: the session stores a new argon2id hash after the next
successful log-in (``Verdict.needs_rehash``).

The hashing functions are plain, blocking and CPU/memory heavy on purpose; callers run them in a
thread (see ``Accounts`` below, which takes the function that does that), never on the reactor
thread. Passwords are never logged, stored or put into exceptions.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from twisted.internet.defer import Deferred

from lobby.text.messages import LobbyError

NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,16}")
RESERVED_EXACT = frozenset({"admin", "server"})
RESERVED_PREFIXES = ("guest",)
PASSWORD_MIN = 4
PASSWORD_MAX = 128


def name_key(name: str) -> str:
    """The case-insensitive identity of a name (names are ASCII, so lower() suffices)."""
    return name.lower()


def valid_name(name: str) -> bool:
    """3 to 16 ASCII letters, digits, ``_`` and ``-``."""
    return NAME_RE.fullmatch(name) is not None


def is_reserved(name: str) -> bool:
    """Names nobody may register or pick at the login prompt (``guest*``, ``admin``, ``server``)."""
    key = name_key(name)
    return key in RESERVED_EXACT or key.startswith(RESERVED_PREFIXES)


def check_name(name: str) -> None:
    """Raise LobbyError('bad-name' / 'reserved-name') unless ``name`` may be used as a login."""
    if not valid_name(name):
        raise LobbyError("bad-name", name=name[:40])
    if is_reserved(name):
        raise LobbyError("reserved-name", name=name)


def check_password(password: str) -> None:
    """Raise LobbyError('bad-password') for a password that is too short, too long or has spaces."""
    if not (PASSWORD_MIN <= len(password) <= PASSWORD_MAX) or any(c.isspace() for c in password):
        raise LobbyError("bad-password", min=PASSWORD_MIN, max=PASSWORD_MAX)


@dataclass(frozen=True, slots=True)
class Argon2Params:
    """argon2id cost parameters (argon2-cffi's names). The default is OWASP's argon2id setting:
    19 MiB, 2 passes, one lane -- about 20-30 ms of one CPU per hash, and one thread per hash,
    so the server's HashPool (protocol/process/host.py: one hashing thread per CPU) bounds the
    CPU that hashing takes."""

    time_cost: int = 2
    memory_cost: int = 19456         # KiB
    parallelism: int = 1
    hash_len: int = 32
    salt_len: int = 16

    def hasher(self) -> PasswordHasher:
        return PasswordHasher(time_cost=self.time_cost, memory_cost=self.memory_cost,
                              parallelism=self.parallelism, hash_len=self.hash_len,
                              salt_len=self.salt_len)


DEFAULT_PARAMS = Argon2Params()


@dataclass(frozen=True, slots=True)
class ScryptParams:
    """The cost parameters of the first version's scrypt hashes (only read now, and written by
    tests that need an old hash)."""

    n: int = 2**14
    r: int = 8
    p: int = 1
    dklen: int = 32

    @property
    def maxmem(self) -> int:
        return 128 * self.n * self.r * self.p + 1024 * 1024


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of a password check: ``ok``, and whether the stored hash should be replaced
    by one with the current parameters (an old scheme or old costs)."""

    ok: bool
    needs_rehash: bool = False


_HASHERS: dict[Argon2Params, PasswordHasher] = {}


def _hasher(params: Argon2Params) -> PasswordHasher:
    h = _HASHERS.get(params)
    if h is None:
        h = _HASHERS[params] = params.hasher()
    return h


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def hash_password(password: str, params: Argon2Params = DEFAULT_PARAMS) -> str:
    """An argon2id PHC string with a random salt. Blocking: run in a thread."""
    return _hasher(params).hash(password)


def hash_password_scrypt(password: str, params: ScryptParams = ScryptParams()) -> str:
    """A hash of the first version (``scrypt$n$r$p$salt$hash``): tests of the upgrade only."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=params.n, r=params.r,
                            p=params.p, dklen=params.dklen, maxmem=params.maxmem)
    return f"scrypt${params.n}${params.r}${params.p}${_b64(salt)}${_b64(digest)}"


def _verify_scrypt(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt_b64, digest_b64 = stored.split("$")
        if scheme != "scrypt":
            return False
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
        params = ScryptParams(int(n), int(r), int(p), len(expected))
        digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=params.n, r=params.r,
                                p=params.p, dklen=params.dklen, maxmem=params.maxmem)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest, expected)


def check_password_hash(password: str, stored: str,
                        params: Argon2Params = DEFAULT_PARAMS) -> Verdict:
    """Whether ``password`` matches ``stored`` (argon2id, or the old scrypt scheme), and whether
    ``stored`` should be replaced by a hash with ``params``. Blocking: run in a thread."""
    if stored.startswith("scrypt$"):
        ok = _verify_scrypt(password, stored)
        return Verdict(ok, needs_rehash=ok)
    hasher = _hasher(params)
    try:
        hasher.verify(stored, password)
    except (VerificationError, InvalidHashError, ValueError, TypeError):
        return Verdict(False)
    return Verdict(True, hasher.check_needs_rehash(stored))


def verify_password(password: str, stored: str) -> bool:
    """True if ``password`` matches ``stored`` (any scheme this module knows). Blocking."""
    return check_password_hash(password, stored).ok


# A runner calls a blocking function somewhere else (a thread) and returns a Deferred of its result.
Runner = Callable[..., "Deferred[Any]"]


class Accounts:
    """Password work off the reactor thread: ``run`` executes the blocking hash functions.

    ``hash_calls`` counts the hash runs handed to ``run`` (hashes and checks): the figure the
    limits of password attempts keep small (tests, the operator)."""

    def __init__(self, run: Runner, params: Argon2Params = DEFAULT_PARAMS) -> None:
        self._run = run
        self.params = params
        self.hash_calls = 0

    def hash(self, password: str) -> Deferred[str]:
        self.hash_calls += 1
        return self._run(hash_password, password, self.params)

    def check(self, password: str, stored: str) -> Deferred[Verdict]:
        """Fires with a Verdict: the password is right, and the hash should be upgraded."""
        self.hash_calls += 1
        return self._run(check_password_hash, password, stored, self.params)

    def verify(self, password: str, stored: str) -> Deferred[bool]:
        return self.check(password, stored).addCallback(lambda v: v.ok)
