"""Events -> lines of text for people (BSW style), through the message catalog.

Error lines have one format everywhere: ``! [CODE] message`` where CODE is the stable error code
(a key of lobby.text.messages.ERRORS). Every other event renders as one or more plain lines. Events
whose data are lists (who, wwho, finger, help) have a formatter here; all others are their catalog
template filled with the event's data.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from lobby.events import Event
from lobby.tables import options as table_options
from lobby.text.messages import CATALOGS, LANGUAGES, language_lines, language_name, text
from protocol.render.context import DEFAULT_WIDTH
from protocol.render.records import RECORD_FORMATTERS, stats_lines
from protocol.render.table import state_word
from protocol.render.wrap import seats_packed

__all__ = ["ERROR_PREFIX", "render", "error_line", "format_time"]

ERROR_PREFIX = "! "


def error_line(code: str, lang: str = "en", /, **params: Any) -> str:
    """The one format of error lines: ``! [code] message``."""
    return f"{ERROR_PREFIX}[{code}] {text(code, lang, **params)}"


def format_time(ts: float | None, lang: str = "en") -> str:
    """A timestamp (seconds since the epoch) as ``YYYY-MM-DD HH:MM UTC``."""
    if ts is None:
        return text("never", lang)
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _mute_list(event: Event, lang: str) -> list[str]:
    names = event.data["names"]
    return [text("mute-list", lang, count=len(names), names=", ".join(names))]


def _ban_list(event: Event, lang: str) -> list[str]:
    lines = [text("ban-list", lang, count=event.data["count"])]
    for b in event.data["bans"]:
        lines.append(text("ban-list-line", lang, name=b["name"], until=b["until"], by=b["by"],
                          reason=b["reason"]))
        if b.get("address"):
            lines.append(text("ban-list-address", lang, address=b["address"]))
    return lines


def _shutdown_warning(event: Event, lang: str) -> list[str]:
    d = event.data
    reason = str(d.get("reason") or "").strip()
    if reason in ("", "-"):             # none given ("-": what older servers sent)
        return [text("shutdown-warning-plain", lang, seconds=d["seconds"], by=d["by"])]
    return [text("shutdown-warning", lang, seconds=d["seconds"], reason=reason, by=d["by"])]


def _who(event: Event, lang: str) -> list[str]:
    staff = event.data.get("staff") or {}
    names = [text("who-staff", lang, name=n, role=text("staff-role-" + staff[n], lang))
             if n in staff else n for n in event.data["names"]]
    names += [text("who-bot", lang, name=bot) for bot in event.data.get("bots", ())]
    return [text("who", lang, room=event.data["room"], count=len(names),
                 names=", ".join(names))]


def _look(event: Event, lang: str) -> list[str]:
    """``/look`` outside a table: where you are and how to find a table."""
    d = event.data
    names = d.get("names") or []
    tables = d.get("tables") or 0
    return [text("look" if names else "look-alone", lang, room=d["room"], count=len(names)),
            text("look-tables" if tables else "look-no-tables", lang, tables=tables)]


def _wwho(event: Event, lang: str) -> list[str]:
    users = event.data["users"]
    lines = [text("wwho", lang, count=len(users))]
    for u in users:
        guest = "" if u["registered"] else text("wwho-guest", lang)
        if u.get("role"):
            guest = text("wwho-staff", lang, role=text("staff-role-" + u["role"], lang))
        lines.append(text("wwho-line", lang, name=u["name"], room=u["room"],
                          guest=guest))
    return lines


def _finger(event: Event, lang: str) -> list[str]:
    d = event.data
    lines = [text("finger", lang, name=d["name"])]
    if d["registered"]:
        lines.append(text("finger-registered", lang, registered_at=format_time(d["registered_at"]),
                          last_seen=format_time(d["last_seen"])))
    else:
        lines.append(text("finger-guest", lang))
    if d.get("role"):
        lines.append(text("finger-staff", lang, role=text("staff-role-" + d["role"], lang)))
    if d["online"]:
        lines.append(text("finger-online", lang, room=d["room"]))
    else:
        lines.append(text("finger-offline", lang))
    if d.get("client"):
        lines.append(text("finger-client", lang, client=d["client"]))
    if d["registered"]:
        lines.extend(stats_lines(d.get("statistics"), lang))
    return lines


def _help(event: Event, lang: str) -> list[str]:
    """One line per group (``Play: /play /pass ...``), the groups in the order of the list; the
    session wraps a long one with the hanging indent."""
    groups: dict[str, list[str]] = {}
    for c in event.data["commands"]:
        groups.setdefault(c.get("group") or "other", []).append("/" + c["name"])
    lines = [text("help", lang)]
    for group, names in groups.items():
        lines.append(text("help-group", lang, group=text("help-group-" + group, lang),
                          commands=" ".join(names)))
    lines.append(text("help-footer", lang))
    return lines


def _help_command(event: Event, lang: str) -> list[str]:
    d = event.data
    lines = [text("help-command", lang, usage=d["usage"])]
    if d["aliases"]:
        lines.append(text("help-aliases", lang, aliases=", ".join("/" + a for a in d["aliases"])))
    # one paragraph (the catalog's line breaks are only where the English text was cut), which
    # the session wraps to the connection's width
    lines.append("  " + " ".join(d["help"].split()))
    return lines


def _listroom(event: Event, lang: str, width: int = DEFAULT_WIDTH) -> list[str]:
    tables = event.data["tables"]
    if not tables:
        return [text("listroom-empty", lang)]
    data = event.data
    pages = data.get("pages", 1)
    if pages > 1:       # a crowded server: how many in all, this page, and how to go on
        first = (data["page"] - 1) * data["per_page"] + 1
        lines = [text("listroom-page", lang, first=first, last=first + len(tables) - 1,
                      count=data["total"], waiting=data["waiting"], playing=data["playing"],
                      page=data["page"], pages=pages)]
    else:
        lines = [text("listroom", lang, count=len(tables))]
    for t in tables:
        lines.append(_listroom_line(t, lang, width))
        opts = t.get("options") or {}
        changed = ", ".join(f"{k} {v}" for k, v in table_options.changed(opts))
        lines.append(text("listroom-details", lang, options=changed or text("options-default", lang),
                          spectators=t.get("spectators", 0)))
    if data.get("page", 1) < pages:
        lines.append(text("listroom-more", lang, next=data["page"] + 1,
                          per_page=data["per_page"]))
    return lines


#: what /listroom's head (``  1 tichu waiting``) holds in place of the seats, to be split there
_SEATS = "\x00"
#: the indent of a /listroom line's continuation: the details' (``listroom-details``)
_LISTROOM_INDENT = " " * 6


def _listroom_line(t: dict[str, Any], lang: str, width: int) -> str:
    """A table's line of /listroom: its head, then the seats, by the one rule of a seats listing
    (``seats_packed``: broken between two seats only; a name cut, ``…``, only where a seat
    does not fit a line of its own)."""
    head, _, tail = text("listroom-line", lang, table=t["table"], game=t.get("game", "tichu"),
                         state=state_word(t["state"], lang), seating=_SEATS).partition(_SEATS)
    return seats_packed(head, list(t.get("seats") or []), width, _LISTROOM_INDENT, tail=tail)


def _setting(event: Event, lang: str) -> list[str]:
    d = event.data
    if d.get("name") == "lang":
        return [text("setting-lang", lang, language=language_name(str(d.get("value"))),
                     choices="|".join(LANGUAGES))]
    name = str(d.get("name"))
    label = text("setting-label-" + name, lang) if "setting-label-" + name in CATALOGS["en"] \
        else name
    return [text("setting", lang, **{**d, "name": label, "value": _on_off(d.get("value"), lang)})]


def _on_off(value: object, lang: str) -> object:
    """``on`` and ``off`` in the reader's language (``an``, ``activé``); any other value as is."""
    return text(f"value-{value}", lang) if value in ("on", "off") else value


def _settings(event: Event, lang: str) -> list[str]:
    """``/set`` alone: each setting of the connection and its value (the language with its
    name, the width ``auto`` with the width in use)."""
    d = event.data
    lines = [text("settings-header", lang)]
    for name, value in (d.get("settings") or {}).items():
        if name == "lang":
            value = text("settings-lang", lang, code=value, language=language_name(str(value)))
        elif name == "width" and value == "auto":
            value = text("settings-width-auto", lang, width=d.get("width"))
        lines.append(text("settings-line", lang, name=name, value=_on_off(value, lang)))
    return lines


def _friends(event: Event, lang: str) -> list[str]:
    """``/friends``: a header, then each friend: not online, in which room, or playing."""
    friends = event.data.get("friends") or []
    if not friends:
        return [text("friends-none", lang)]
    lines = [text("friends-header", lang, online=event.data.get("online", 0),
                  count=len(friends))]
    for f in friends:
        if not f.get("online"):
            lines.append(text("friends-line-offline", lang, name=f["name"]))
        elif f.get("playing"):
            lines.append(text("friends-line-playing", lang, name=f["name"], table=f["table"]))
        else:
            lines.append(text("friends-line-room", lang, name=f["name"],
                              room=f.get("room") or ""))
    return lines


def _greeting(event: Event, lang: str) -> list[str]:
    lines = [text("greeting", lang), *language_lines()]
    versions = event.data.get("protocols")
    if versions:        # for programs: how to switch to machine mode, and its versions
        lines.append(text("greeting-machine", lang, versions=" ".join(map(str, versions)),
                          newest=versions[-1]))
    return lines


FORMATTERS: dict[str, Callable[[Event, str], list[str]]] = {
    "greeting": _greeting,
    "setting": _setting,
    "settings": _settings,
    "listroom": _listroom,
    "who": _who,
    "look": _look,
    "mute-list": _mute_list,
    "ban-list": _ban_list,
    "shutdown-warning": _shutdown_warning,
    "wwho": _wwho,
    "finger": _finger,
    "friends": _friends,
    "help": _help,
    "help-command": _help_command,
    **RECORD_FORMATTERS,
}


def render(event: Event, lang: str = "en", width: int = DEFAULT_WIDTH) -> list[str]:
    """The lines (without line ends) that show ``event`` to a person; lines that list seats
    fit ``width`` (the session wraps every other line to it)."""
    if event.is_error:
        return [error_line(event.type, lang, **event.data)]
    if event.type == "listroom":
        return _listroom(event, lang, width)
    formatter = FORMATTERS.get(event.type)
    if formatter is not None:
        return formatter(event, lang)
    # only "\n" ends a line: str.splitlines() would also split at U+2028/U+2029, which a user can
    # type into speech, and so forge a line that looks like the server's own
    lines = text(event.type, lang, **event.data).split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines
