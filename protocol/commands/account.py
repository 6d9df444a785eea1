"""The account of the user typing: /register PASSWORD, /password OLD NEW."""
from __future__ import annotations

from twisted.logger import Logger

from lobby.events import Event
from lobby.storage.accounts import check_password, is_reserved
from lobby.text.messages import (
    LobbyError,
)
from protocol.commands.base import (
    CommandContext,
    CommandGroup,
    user_of,
)

__all__ = ["GROUP"]

#: (the namespace of the command table's log lines since before the commands had a package)
log = Logger(namespace="protocol.commands")

GROUP = CommandGroup()


@GROUP.command("register", "PASSWORD", secret=True)
async def _register(ctx: CommandContext, args: dict[str, str]) -> None:
    me = user_of(ctx)
    if me.registered:
        raise LobbyError("already-registered")
    if is_reserved(me.name):
        raise LobbyError("reserved-name", name=me.name)
    if ctx.world.moderation is not None:      # (a guest before the staff name was given)
        ctx.world.moderation.check_new_name(me.name)
    held = ctx.world.guest_seats(me.name)
    if held:    # only the seat's key proves its guest: an account must not take the name over
        raise LobbyError("name-held-for-guest", name=me.name, table=held[0].table)
    check_password(args["password"])
    registration = ctx.registration_attempt()       # too-many-registrations
    attempt = ctx.password_attempt(me.name, "register")  # rate limits, before the hash
    try:
        password_hash = await ctx.accounts.hash(args["password"])
        created = await ctx.store.create_account(me.name, password_hash,
                                                 ctx.world.clock.seconds())
    except BaseException:
        registration.cancel()
        attempt.failed()
        raise
    if not created:
        registration.cancel()
        attempt.failed()
        raise LobbyError("name-taken", name=me.name)
    attempt.succeeded()
    me.registered = True
    if "lang" in ctx.settings:      # a language chosen as a guest is the account's from now on
        lang = ctx.settings["lang"]
        ctx.store.set_language(me.name, lang).addErrback(
            lambda f: log.failure("saving the language of {user}", f, user=me.name))
    ctx.send(Event("registered", name=me.name))


@GROUP.command("password", "OLD NEW", secret=True)
async def _password(ctx: CommandContext, args: dict[str, str]) -> None:
    me = user_of(ctx)
    if not me.registered:
        raise LobbyError("not-registered")
    check_password(args["new"])
    attempt = ctx.password_attempt(me.name, "password")  # rate limits, before any hash
    account = await ctx.store.get_account(me.name)
    if account is None:
        attempt.failed()
        raise LobbyError("not-registered")
    if not await ctx.accounts.verify(args["old"], account.password_hash):
        attempt.failed()
        await ctx.failure_delay()
        raise LobbyError("wrong-password")
    attempt.succeeded()
    await ctx.store.set_password(me.name, await ctx.accounts.hash(args["new"]))
    ctx.send(Event("password-changed"))
