"""Offline administration of a lobby database: ``tichu-lobby admin ...``.

The server's own program takes ``admin`` as its first argument for these subcommands
(``scripts/serve admin ...`` and ``python -m protocol admin ...`` too)::

    tichu-lobby admin [--db PATH] create NAME [--role player|moderator|admin] [--password-file FILE]
    tichu-lobby admin [--db PATH] list
    tichu-lobby admin [--db PATH] set-role NAME player|none|moderator|admin
    tichu-lobby admin [--db PATH] reset-password NAME [--password-file FILE]
    tichu-lobby admin [--db PATH] remove NAME
    tichu-lobby admin [--db PATH] bans [list]
    tichu-lobby admin [--db PATH] bans lift NAME
    tichu-lobby admin [--db PATH] backup DEST

A password is read from ``--password-file`` (its first line; ``-`` is standard input) or asked
twice at the terminal (getpass, not echoed); never from the command line, where every user of
the machine could read it. Every subcommand works while the server runs: the database is in WAL
mode, a write waits for the server's (busy timeout) and the backup is ``VACUUM INTO``, one
consistent snapshot. What the running server keeps in memory follows the database at its next
start: bans (lift one while it runs with ``/unban``); accounts, passwords and roles are read
from the database at each log-in and count at once.

Exit status 0 on success, 1 with one line ``tichu-lobby admin: ...`` on standard error when the
work cannot be done, 2 for a wrong command line (argparse). docs/operations.md, "Administration".
"""
from __future__ import annotations

import argparse
import getpass
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from lobby.storage.accounts import (
    DEFAULT_PARAMS,
    Argon2Params,
    check_name,
    check_password,
    hash_password,
    name_key,
)
from lobby.storage.store import (
    ROLES,
    Store,
    StoreError,
    create_private,
    inline_runner,
    open_failure,
)
from lobby.text.messages import LobbyError

__all__ = ["main", "build_parser", "AdminError", "PROG"]

PROG = "tichu-lobby admin"
DEFAULT_DB = "tichu.sqlite3"


class AdminError(Exception):
    """The subcommand cannot be done: the message is the one line the operator reads."""


def _fired(d: Any) -> Any:
    """The result of an inline store's Deferred (it has fired already); its failure raises."""
    out: list[Any] = []
    d.addBoth(out.append)
    if out and hasattr(out[0], "raiseException"):
        out[0].raiseException()
    return out[0]


def _open(path: str, create: bool = False) -> Store:
    if not create and not Path(path).is_file():
        raise AdminError(f"no database file {path!r} (--db PATH names it)")
    store = Store(path, inline_runner)
    try:
        _fired(store.open())
    except StoreError as e:
        raise AdminError(str(e)) from None
    return store


def _count(n: int, word: str) -> str:
    """``1 account``, ``2 accounts``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _refusal(e: LobbyError) -> AdminError:
    return AdminError(e.text())


def _read_password(opts: argparse.Namespace, stdin: TextIO,
                   ask: Callable[[str], str]) -> str:
    source = opts.password_file
    if source is not None:
        try:
            if source == "-":
                first = stdin.readline()
            else:
                with open(source, encoding="utf-8") as f:
                    first = f.readline()
        except OSError as e:
            raise AdminError(f"cannot read the password file {source!r}: "
                             f"{e.strerror or e}") from None
        password = first.rstrip("\r\n")
    else:
        try:
            password = ask(f"Password for {opts.name}: ")
            again = ask("The same password again: ")
        except (EOFError, KeyboardInterrupt):
            raise AdminError("no password given") from None
        if password != again:
            raise AdminError("the two passwords differ; nothing changed")
    try:
        check_password(password)
    except LobbyError as e:
        raise _refusal(e) from None
    return password


def _when(ts: float | None) -> str:
    if ts is None:
        return "further notice"
    try:
        return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (OverflowError, OSError, ValueError):
        return "further notice"


# ---- the subcommands ----------------------------------------------------------------------------
def _create(opts: argparse.Namespace, env: _Env) -> str:
    try:
        check_name(opts.name)
    except LobbyError as e:
        raise _refusal(e) from None
    store = _open(opts.db, create=True)
    try:
        if _fired(store.get_account(opts.name)) is not None:
            raise AdminError(f"{opts.name} is registered already; reset-password changes its "
                             "password")
        password = _read_password(opts, env.stdin, env.ask)
        created = _fired(store.create_account(opts.name, hash_password(password, env.params),
                                              time.time()))
        if not created:
            raise AdminError(f"{opts.name} has been registered meanwhile; nothing changed")
        role = _role(opts.role)
        if role is not None:
            _fired(store.set_role(opts.name, role))
    finally:
        _fired(store.close())
    return f"created the account {opts.name} ({opts.role}) in {opts.db}"


#: the roles an account may have, as the command line names them: `player` is no role, and
#: `none` is another name for it (the lobby's `/role NAME none`)
ROLE_NAMES = ("player", *ROLES, "none")


def _role(name: str) -> str | None:
    return None if name in ("player", "none") else name


def _list(opts: argparse.Namespace, env: _Env) -> str:
    store = _open(opts.db)
    try:
        rows = _fired(store.run_query(lambda c: c.execute(
            "SELECT name, role, registered_at, last_seen FROM accounts "
            "ORDER BY name_key").fetchall()))
    finally:
        _fired(store.close())
    if not rows:
        return "no accounts"
    width = max(len(r[0]) for r in rows)
    lines = [f"{_count(len(rows), 'account')}:"]
    for name, role, registered, seen in rows:
        # an account made here is stamped "seen" at its creation; one made by /register is
        # seen again at the log-out: the same time means nobody has logged in with it yet
        never = seen is None or seen == registered
        lines.append(f"  {name:<{width}}  {role or 'player':<9}  registered {_day(registered)}"
                     + (", never logged in" if never else f", last seen {_day(seen)}"))
    return "\n".join(lines)


def _day(ts: float | None) -> str:
    if ts is None:
        return "never"
    try:
        return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        return "?"


def _set_role(opts: argparse.Namespace, env: _Env) -> str:
    store = _open(opts.db)
    try:
        account = _fired(store.get_account(opts.name))
        if account is None:
            raise AdminError(f"{opts.name} is not a registered name in {opts.db}")
        _fired(store.set_role(account.name, _role(opts.role)))
    finally:
        _fired(store.close())
    role = _role(opts.role) or "player"
    return (f"{account.name}'s role is {role} now "
            f"(was {account.role or 'player'}; a running server uses it at the next log-in)")


def _reset_password(opts: argparse.Namespace, env: _Env) -> str:
    store = _open(opts.db)
    try:
        account = _fired(store.get_account(opts.name))
        if account is None:
            raise AdminError(f"{opts.name} is not a registered name in {opts.db}")
        password = _read_password(opts, env.stdin, env.ask)
        _fired(store.set_password(account.name, hash_password(password, env.params)))
    finally:
        _fired(store.close())
    return f"the password of {account.name} is changed"


def _delete_account(conn: sqlite3.Connection, key: str) -> int:
    removed = conn.execute("DELETE FROM accounts WHERE name_key = ?", (key,)).rowcount
    if removed:
        conn.execute("DELETE FROM mutes WHERE owner_key = ?", (key,))
        conn.execute("DELETE FROM player_stats WHERE name_key = ?", (key,))
        conn.execute("DELETE FROM player_ratings WHERE name_key = ?", (key,))
    return int(removed)


def _remove(opts: argparse.Namespace, env: _Env) -> str:
    store = _open(opts.db)
    try:
        account = _fired(store.get_account(opts.name))
        if account is None:
            raise AdminError(f"{opts.name} is not a registered name in {opts.db}")
        _fired(store.run_transaction(_delete_account, name_key(account.name)))
    finally:
        _fired(store.close())
    return (f"removed the account {account.name} (its mute list, statistics and rating; its "
            "finished games stay in the records)")


def _list_bans(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every ban, oldest first, as {column: value} (on the store's own thread)."""
    cursor = conn.execute("SELECT * FROM bans ORDER BY banned_at")
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def _bans(opts: argparse.Namespace, env: _Env) -> str:
    store = _open(opts.db)
    try:
        if opts.action == "list":
            rows = _fired(store.run_query(_list_bans))
            if not rows:
                return "no bans"
            now = time.time()
            lines = [f"{_count(len(rows), 'ban')}:"]
            for r in rows:
                until = r["until"]
                state = " (expired)" if until is not None and until <= now else ""
                address = f", address {r['address']}" if r.get("address") else ""
                lines.append(f"  {r['name']}{address}: until {_when(until)}{state}, by "
                             f"{r['banned_by']} at {_when(r['banned_at'])}: {r['reason']}")
            return "\n".join(lines)
        if opts.name is None:
            raise AdminError("bans lift needs the banned NAME")
        key = name_key(opts.name)
        lifted = _fired(store.run_query(
            lambda c: c.execute("DELETE FROM bans WHERE name_key = ?", (key,)).rowcount))
        if not lifted:
            raise AdminError(f"{opts.name} is not banned in {opts.db}")
        return (f"the ban on {opts.name} is lifted (a running server keeps it until its next "
                "start; /unban lifts it at once)")
    finally:
        _fired(store.close())


def _backup(opts: argparse.Namespace, env: _Env) -> str:
    dest = Path(opts.dest)
    if dest.exists():
        raise AdminError(f"{opts.dest!r} exists already; name a new file")
    store = _open(opts.db)
    try:
        create_private(str(dest))     # 0600: a backup holds the password hashes too
        _fired(store.run_query(lambda c: c.execute("VACUUM INTO ?", (str(dest),))))
    except sqlite3.Error as e:
        if dest.is_file() and dest.stat().st_size == 0:
            dest.unlink()              # the empty file made for it
        raise AdminError(f"cannot write the backup {opts.dest!r}: "
                         f"{open_failure(str(dest), e)}") from None
    finally:
        _fired(store.close())
    return f"backup of {opts.db} written to {opts.dest}"


# ---- the command line ---------------------------------------------------------------------------
class _Env:
    def __init__(self, stdin: TextIO, ask: Callable[[str], str], params: Argon2Params) -> None:
        self.stdin = stdin
        self.ask = ask
        self.params = params


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, allow_abbrev=False,
        description="Offline administration of the lobby's database (safe while the server "
                    "runs).")
    parser.add_argument("--db", default=DEFAULT_DB, metavar="PATH",
                        help=f"the SQLite database file (default {DEFAULT_DB})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run: Callable[..., str]) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help, allow_abbrev=False)
        p.add_argument("--db", default=argparse.SUPPRESS, metavar="PATH",
                       help="the SQLite database file (also before the command)")
        p.set_defaults(run=run)
        return p

    def password_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--password-file", metavar="FILE",
                       help="read the password from the first line of FILE (- for standard "
                            "input); without it the password is asked twice at the terminal")

    p = command("create", "create an account (the first admin: create NAME --role admin)",
                _create)
    p.add_argument("name", metavar="NAME")
    p.add_argument("--role", choices=ROLE_NAMES, default="player",
                   help="the account's role (default player; the first admin: --role admin)")
    password_option(p)
    p = command("list", "list the accounts with their roles", _list)
    p = command("set-role", "give an account a role (player, or none: no role)", _set_role)
    p.add_argument("name", metavar="NAME")
    p.add_argument("role", metavar="ROLE", choices=ROLE_NAMES)
    p = command("reset-password", "give an account a new password", _reset_password)
    p.add_argument("name", metavar="NAME")
    password_option(p)
    p = command("remove", "remove an account (its games stay in the records)", _remove)
    p.add_argument("name", metavar="NAME")
    p = command("bans", "list the bans (bans alone: the same), or lift one", _bans)
    p.add_argument("action", choices=("list", "lift"), nargs="?", default="list")
    p.add_argument("name", metavar="NAME", nargs="?")
    p = command("backup", "write a consistent copy of the database to DEST (VACUUM INTO)",
                _backup)
    p.add_argument("dest", metavar="DEST")
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None,
         ask: Callable[[str], str] | None = None,
         params: Argon2Params = DEFAULT_PARAMS) -> int:
    """``tichu-lobby admin ARGS``: 0 done, 1 refused (one line on ``stderr``), 2 usage."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    try:
        opts = build_parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0) if isinstance(e.code, int) else 2
    env = _Env(stdin if stdin is not None else sys.stdin,
               ask if ask is not None else getpass.getpass, params)
    try:
        message = opts.run(opts, env)
    except AdminError as e:
        err.write(f"{PROG}: {e}\n")
        return 1
    out.write(message + "\n")
    return 0
