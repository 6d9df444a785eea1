"""Names and passwords: validation, salted scrypt hashes, constant-time verification.

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
from dataclasses import dataclass
from typing import Any, Callable

from twisted.internet.defer import Deferred

from lobby.messages import LobbyError

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
class ScryptParams:
    """scrypt cost parameters; stored next to each hash so they can be raised later."""

    n: int = 2**14
    r: int = 8
    p: int = 1
    dklen: int = 32

    @property
    def maxmem(self) -> int:
        return 128 * self.n * self.r * self.p + 1024 * 1024


DEFAULT_PARAMS = ScryptParams()


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def hash_password(password: str, params: ScryptParams = DEFAULT_PARAMS) -> str:
    """A self-describing salted hash: ``scrypt$n$r$p$salt$hash`` (base64). Blocking: run in a thread."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=params.n, r=params.r,
                            p=params.p, dklen=params.dklen, maxmem=params.maxmem)
    return f"scrypt${params.n}${params.r}${params.p}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    """True if ``password`` matches ``stored`` (compared with hmac.compare_digest). Blocking."""
    try:
        scheme, n, r, p, salt_b64, digest_b64 = stored.split("$")
        if scheme != "scrypt":
            return False
        params = ScryptParams(int(n), int(r), int(p))
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
        params = ScryptParams(params.n, params.r, params.p, len(expected))
        digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=params.n, r=params.r,
                                p=params.p, dklen=params.dklen, maxmem=params.maxmem)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest, expected)


# A runner calls a blocking function somewhere else (a thread) and returns a Deferred of its result.
Runner = Callable[..., "Deferred[Any]"]


class Accounts:
    """Password work off the reactor thread: ``run`` executes the blocking hash functions."""

    def __init__(self, run: Runner, params: ScryptParams = DEFAULT_PARAMS) -> None:
        self._run = run
        self.params = params

    def hash(self, password: str) -> "Deferred[str]":
        return self._run(hash_password, password, self.params)

    def verify(self, password: str, stored: str) -> "Deferred[bool]":
        return self._run(verify_password, password, stored)
