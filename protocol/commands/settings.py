"""The connection's settings: /set NAME VALUE (color, lang, bell, prompt, width), /set alone
(the settings shown), /iset NAME VALUE (json, protocol)."""
from __future__ import annotations

from twisted.logger import Logger

from lobby.events import Event
from lobby.text.messages import (
    LANGUAGES,
    LobbyError,
    language_name,
    one_of,
)
from protocol.commands.base import (
    CommandContext,
    CommandGroup,
    on_off,
)
from protocol.render.context import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH

__all__ = ["GROUP", "SETTINGS", "SETTING_ALIASES"]

#: (the namespace of the command table's log lines since before the commands had a package)
log = Logger(namespace="protocol.commands")

GROUP = CommandGroup()

#: per-connection settings: name -> accepted values (the session keeps them; only ``lang`` is
#: saved, for a registered name: lobby.storage.store ``set_language``)
SETTINGS: dict[str, tuple[str, ...]] = {"color": ("on", "off"), "lang": LANGUAGES,
                                        "bell": ("on", "off"), "prompt": ("on", "off")}
#: the machine-mode protocol from which `/set` without arguments answers with a `settings`
#: object (before it, `/set` without arguments is refused as always: no new shape for old
#: clients)
SETTINGS_OBJECT_PROTOCOL = 4
#: the usage a half /set is refused with (and /set alone below SETTINGS_OBJECT_PROTOCOL)
SET_USAGE = "/set NAME VALUE"
#: other words for the settings' names (BSW's German, British English)
SETTING_ALIASES = {"colour": "color", "farbe": "color", "language": "lang", "sprache": "lang"}


@GROUP.command("set", "[NAME] [VALUE]", help_params={
    "min_width": MIN_WIDTH, "max_width": MAX_WIDTH, "default_width": DEFAULT_WIDTH,
    "languages": "|".join(LANGUAGES), "language_names": ", ".join(map(language_name, LANGUAGES))})
def _set(ctx: CommandContext, args: dict[str, str]) -> None:
    if not args.get("name"):
        _show_settings(ctx)
        return
    if not args.get("value"):
        raise LobbyError("bad-arguments", usage=SET_USAGE)
    name, value = args["name"].lower(), args["value"].lower()
    name = SETTING_ALIASES.get(name, name)
    if name == "width":
        _set_width(ctx, args["value"])
        return
    if name not in SETTINGS:
        raise LobbyError("unknown-setting", name=args["name"])
    if SETTINGS[name] == ("on", "off"):
        value = on_off(value, ctx.lang) or value      # /set color an, /set bell oui
    if value not in SETTINGS[name]:
        if name == "lang":
            raise LobbyError("unknown-language", value=args["value"],
                             choices=one_of(SETTINGS[name]))
        raise LobbyError("bad-setting-value", name=name, value=args["value"],
                         expected=one_of(SETTINGS[name]))
    ctx.settings[name] = value
    me = ctx.user
    if name == "lang" and me is not None and me.registered:   # the account keeps it
        ctx.store.set_language(me.name, value).addErrback(
            lambda f: log.failure("saving the language of {user}", f, user=me.name))
    ctx.send(Event("setting", name=name, value=value))
    if name == "prompt" and value == "on":
        offer = getattr(ctx, "offer_eor", None)      # telnet EOR for the prompts (MUD clients;
        if offer is not None:                        # the output mode decides: not in machine mode)
            offer()


def _show_settings(ctx: CommandContext) -> None:
    """``/set`` alone: this connection's settings, each with its value now (the width: the
    chosen one, or ``auto`` and the width in use)."""
    if ctx.output.lacks_objects_of(SETTINGS_OBJECT_PROTOCOL):
        raise LobbyError("bad-arguments", usage=SET_USAGE)
    settings = ctx.settings
    values = {"width": settings.get("width") or "auto"}
    values.update((name, settings.get(name) or (ctx.lang if name == "lang" else "off"))
                  for name in SETTINGS)
    context = getattr(ctx, "render_context", None)
    ctx.send(Event("settings", settings=values,
                   width=context.width if context is not None else DEFAULT_WIDTH))


def _set_width(ctx: CommandContext, raw: str) -> None:
    """``/set width N`` (MIN_WIDTH..MAX_WIDTH columns) or ``/set width auto`` (the client's NAWS
    width again, or 80)."""
    if raw.lower() == "auto":
        ctx.settings.pop("width", None)
        ctx.send(Event("setting", name="width", value="auto"))
        return
    if not (raw.isascii() and raw.isdigit()) or not MIN_WIDTH <= int(raw) <= MAX_WIDTH:
        raise LobbyError("bad-width", value=raw, min=MIN_WIDTH, max=MAX_WIDTH)
    ctx.settings["width"] = str(int(raw))
    ctx.send(Event("setting", name="width", value=str(int(raw))))


@GROUP.command("iset", "NAME VALUE")
def _iset(ctx: CommandContext, args: dict[str, str]) -> None:
    name, value = args["name"].lower(), args["value"].lower()
    if name == "protocol":
        from protocol.render.json_lines import PROTOCOL_VERSIONS, parse_protocol
        version = parse_protocol(value)
        if version is None:
            raise LobbyError("unknown-protocol", version=args["value"][:20],
                             versions=" ".join(map(str, PROTOCOL_VERSIONS)),
                             newest=PROTOCOL_VERSIONS[-1])
        ctx.set_protocol(version)
        return
    if name != "json":
        raise LobbyError("unknown-setting", name=args["name"])
    if value not in ("1", "0", "on", "off"):
        raise LobbyError("bad-setting-value", name=name, value=args["value"],
                         expected=one_of(("1", "0")))
    ctx.set_json_mode(value in ("1", "on"))
