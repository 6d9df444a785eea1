"""The message catalog: every text meant for people, one key and one template per message.

Error codes ARE the keys of error messages (stable, documented in docs/protocol.md, matched by
scripts). Templates use str.format fields. Translations can be added as further dicts keyed by
language without touching handlers; English is the default and the fallback.

Add entries to the section of your layer; never rename a key that has shipped.
"""
from __future__ import annotations

from typing import Any

from lobby.tichu.errors import ENGINE_MESSAGES

# ---- errors: key -> template (the key is the stable error code) --------------------------------
ERRORS: dict[str, str] = {
    # protocol / session
    "line-too-long": "Line too long ({length} bytes, limit {limit}); it was discarded.",
    "unknown-command": "Unknown command /{name}. Type /help for a list of commands.",
    "ambiguous-command": "Ambiguous command /{name}: could be {candidates}.",
    "bad-arguments": "Usage: {usage}",
    "internal-error": "Internal error while handling your command; it was logged and nothing changed.",
    # login and accounts (protocol/session.py, protocol/commands.py)
    "bad-name": "{name} is not a valid name: use 3 to 16 letters, digits, _ and -.",
    "reserved-name": "The name {name} is reserved; choose another name (or type guest).",
    "name-in-use": "{name} is online already; choose another name.",
    "wrong-password": "Wrong password.",
    "too-many-failures": "Too many failed log-ins; closing the connection.",
    "bad-password": "A password has {min} to {max} characters and no spaces.",
    "already-registered": "You are registered already; /password OLD NEW changes your password.",
    "not-registered": "You are not registered; /register PASSWORD registers your name.",
    "name-taken": "The name {name} has been registered meanwhile; log in again with another name.",
    "busy": "Still working on your earlier commands; this line was discarded.",
    # chat
    "not-online": "{name} is not online.",
    "no-such-user": "Nobody called {name} is online or registered.",
    # tables (lobby/table.py)
    "game-running": "The game is running; that is only possible before the start.",
    "game-finished": "The game is over; /reset clears the table for a new game.",
    "no-game": "No game is running at this table.",
    "not-seated": "You do not sit at this table; /join takes a seat.",
    "already-seated": "You sit in seat {seat} already.",
    "no-such-seat": "There is no seat {seat}; the seats are 1 to 4.",
    "seat-taken": "Seat {seat} is taken by {name}.",
    "table-full": "All four seats are taken; you can watch.",
    "need-four": "Four players are needed to start; {count} seated.",
    "host-only": "Only the host, {host}, may do that (option host).",
    "not-finished": "The game is not over; /reset only clears a finished table.",
    "unknown-option": "Unknown option {name}; /option help lists them.",
    "bad-option-value": "Option {name} takes {expected}, not {value!r}.",
    "not-a-player": "{name} does not play at this table.",
    "not-vanished": "{name} has not vanished; only a player who disappeared during the game can "
                    "be removed.",
    "vote-running": "A vote on removing {name} is running already: /accept or /refuse.",
    "remove-too-early": "{name} may still come back: /remove is possible in {seconds} s (the "
                        "table's grace time, /option grace).",
    "no-vote": "There is no vote to answer.",
    "not-a-voter": "Only the other players at the table vote on this.",
    "bomb-window": "Wait {seconds} s before you go on: the others may still bomb the trick.",
    "ambiguous-cards": "Which {rank}s? Every choice breaks a bomb; name the cards, e.g. {example}.",
    "missing-rank": "You do not hold {count} card(s) of rank {rank}.",
    "bad-dragon-target": "Give the Dragon trick with /dragon left or /dragon right (or a seat "
                         "number or a name).",
    # rooms and table routing (lobby/world.py, protocol/commands.py)
    "not-at-table": "You are not at a table; /room N enters one, /newroom tichu opens one.",
    "no-such-room": "There is no room {number}; /listroom lists the tables.",
    "unknown-game": "There is no game {name} here; /newroom tichu opens a Tichu table.",
    "unknown-setting": "There is no setting {name}; /set color on|off is one.",
    "bad-setting-value": "Setting {name} takes {expected}, not {value!r}.",
    # machine mode (protocol/machine.py)
    "bad-id": "A command id is #ID with 1 to 32 letters, digits, - or _, not #{id}.",
    # bots at tables (lobby/table.py, lobby/bots)
    "unknown-strategy": "There is no bot strategy {name}; choose {choices}.",
    "not-a-bot": "Seat {seat} holds no bot.",
    # game records (lobby/records.py)
    "no-such-game": "There is no game #{game}; /history lists recent games.",
    "no-such-round": "Game #{game} has no round {round}; it had {rounds} rounds.",
    # defences of the public port (protocol/guard.py)
    "server-full": "The server is full; please try again later.",
    "too-many-connections": "Too many connections from your address (at most {limit}); this one "
                            "is closed.",
    "too-many-guests": "Too many guests are online (at most {limit}); log in with a registered "
                       "name, or try again later.",
    "too-many-attempts": "Too many password attempts from your address; try again in {seconds} s.",
    "too-many-attempts-here": "Too many password attempts on this connection; try again in "
                              "{seconds} s.",
    "account-wait": "Too many wrong passwords for {name}; the next attempt is possible in "
                    "{seconds} s.",
    "too-many-registrations": "Too many new accounts from your address (at most {limit} an "
                              "hour); try again in {minutes} minutes.",
    "login-timeout": "You did not log in within {seconds} s; closing the connection.",
    "idle-warning": "You have typed nothing for a long time; you will be disconnected in "
                    "{seconds} s unless you type something.",
    "idle-timeout": "Disconnected after {minutes} minutes without input.",
    "flooding": "You are sending lines too fast (more than {rate} a second); lines are dropped "
                "until you slow down.",
    "flood-disconnect": "Too many lines too fast; closing the connection.",
    # moderation and mute lists (lobby/moderation.py)
    "not-allowed": "Only a user with the role {role} may use /{command}.",
    "not-yourself": "You cannot use /{command} on yourself.",
    "unknown-role": "There is no role {role}; choose {choices}.",
    "not-registered-user": "{name} is not a registered name.",
    "unknown-list": "There is no list {name}; the list is mute (/showlist mute).",
    "already-muted": "{name} is on your mute list already.",
    "not-muted": "{name} is not on your mute list.",
    "mute-list-full": "Your mute list is full ({limit} names); /sub mute NAME makes room.",
    "silenced": "A moderator silenced you in public rooms; /tell still works.",
    "not-silenced": "{name} is not silenced.",
    "banned": "{name} is banned until {until}: {reason}",
    "not-banned": "{name} is not banned.",
    "shutting-down": "The server is shutting down; no new games start.",
}
# the engine's reasons (illegal plays, wrong phase, ...) are part of the same catalog
ERRORS.update(ENGINE_MESSAGES)

# ---- informational messages ------------------------------------------------------------------
INFO: dict[str, str] = {
    # connection and login (protocol/session.py)
    "greeting": "Welcome to the Tichu lobby. Log in with your name, or type guest.",
    "motd": "{text}",
    "login-prompt": "login: ",
    "password-prompt": "password: ",
    "logged-in-guest": "Hello {name}! You are a guest; /register PASSWORD keeps this name for you. "
                       "Type /help for the commands.",
    "logged-in": "Welcome back, {name}! Type /help for the commands.",
    "replaced": "You logged in as {name} from another connection; this one is closed.",
    "bye": "Goodbye, {name}.",
    "shutdown": "The server is shutting down. Goodbye.",
    "registered": "{name} is registered now. Next time log in with this name and your password.",
    "password-changed": "Your password has been changed.",
    # rooms and chat (lobby/world.py)
    "enters": "{name} enters the {room}.",
    "leaves": "{name} leaves the {room}.",
    "says": "<{name}> {text}",
    "tells": "{name} tells you: {text}",
    "told": "You tell {name}: {text}",
    "who": "In the {room} ({count}): {names}",
    "who-bot": "{name} (bot)",
    "wwho": "{count} online:",
    "wwho-line": "  {name:<16} {room}{guest}",
    "wwho-guest": " (guest)",
    "finger": "{name}:",
    "finger-registered": "  registered since {registered_at}, last seen {last_seen}",
    "finger-guest": "  a guest (not registered)",
    "finger-online": "  online now, in the {room}",
    "finger-offline": "  not online",
    "never": "never",
    # rooms and tables in the world (lobby/world.py, protocol/commands.py)
    "newroom": "You open table {table} (Tichu) and are its host: /join sits down, "
               "/option help lists the options, /manager returns to the lobby.",
    "listroom": "Tables ({count}):",
    "listroom-empty": "No tables are open; /newroom tichu opens one.",
    "listroom-line": "  {table:>3} {game} {state:<8} {seating}",
    "listroom-details": "      {options}; {spectators} watching",
    "whereis": "{name} is in the {room} (room {number}).",
    "game-waiting-for-you": "Your game at table {table} goes on without you: /room {table} "
                            "takes you back.",
    "setting": "{name} is {value} now.",
    "iset": "Interface setting {name} is {value} now.",
    # help (protocol/commands.py)
    "help": "Commands (the / is optional, unique prefixes work; plain text is speech to your room, "
            ";NAME text whispers):",
    "help-line": "  {usage:<26} {summary}",
    "help-footer": "/help COMMAND tells more about one command.",
    "help-command": "{usage}",
    "help-aliases": "  also: {aliases}",
    # tables (lobby/table.py events, rendered by protocol/render_table.py)
    "table-joined": "{name} sits down in seat {seat}.",
    "table-left": "{name} leaves seat {seat}.",
    "table-started": "Table {table}: the game starts, {team0} against {team1}.",
    "table-option-set": "{name} sets {option} to {value}.",
    "table-options": "Options of table {table} (/option NAME [VALUE] before the start):",
    "table-option-line": "  {option:<13} {value:<6} {about}",
    "table-info": "Table {table}: {state}, host {host}.",
    "table-info-seats": "  Seats: {seating}",
    "table-info-score": "  Score after round {round_no}: {score}",
    "table-info-options": "  Options: {options}",
    "table-info-watching": "  Watching: {names}",
    "table-reset": "{name} clears the table for a new game: /join, then /start.",
    "table-vanished": "{name} has vanished; the game waits for them. After {grace:g} s the other "
                      "players may /remove {name}.",
    "table-back": "{name} is back.",
    "table-remove-proposed": "{name} proposes to remove {target}: /accept or /refuse "
                             "({needed} votes needed).",
    "table-vote": "{name} votes {vote} on removing {target}.",
    "table-remove-refused": "{target} stays: the removal was refused.",
    "table-vote-ended": "The vote on removing {name} ends.",
    "table-abandoned": "{target} was removed; the game is abandoned at {score}.",
    "table-window-closed": "{name} may go on now.",
    "table-new-host": "{name} is the host of this table now.",
    "table-bot-added": "{by} seats {name} ({strategy} bot) in seat {seat}.",
    "table-bot-removed": "{by} takes {name} off seat {seat}.",
    "table-bot-takes-over": "{target} was removed; {name} plays on in seat {seat}.",
    "table-view": "Table {table}: {state}.",
    "view-seats": "Seats: {seating}",
    "view-waiting": "/join [SEAT] sits down; /start when four sit; /option help lists options.",
    "view-players": "{players}",
    "view-score": "Round {round_no} | {score}",
    "view-trick": "Trick: {plays}",
    "view-trick-empty": "Trick: empty",
    "view-trick-won": "Trick: {plays} - won by {name}",
    "view-wish": "Wish: {rank}",
    "view-hand": "Your hand: {cards}",
    "view-received": "Received: {gifts}",
    "view-turn": "{name}'s turn.",
    "view-cards-left": "({count} left)",
    "view-your-turn": "Your turn: /play CARDS or /pass",
    "view-your-lead": "Your lead: /play CARDS",
    "view-your-turn-wish": "Your turn: /play CARDS with a {rank} (the wish), or a bomb",
    "view-your-lead-wish": "Your lead: /play CARDS with a {rank} (the wish), or a bomb",
    "view-bombs": "You may bomb: /bomb {cards}",
    "view-bomb-window": "{name} may go on in {seconds} s: time to bomb.",
    "view-grand": "Grand Tichu? /grand or /nogrand",
    "view-grand-wait": "Waiting for Grand Tichu decisions: {names}",
    "view-exchange": "Exchange: /schupf NEXT PARTNER PREVIOUS ({next}, {partner}, {previous})",
    "view-exchange-wait": "Waiting for the exchange: {names}",
    "view-wish-prompt": "Your wish: /wish RANK or /wish none",
    "view-wish-wait": "Waiting for {name}'s wish.",
    "view-dragon": "Give the Dragon trick: /dragon left ({left}) or /dragon right ({right})",
    "view-dragon-wait": "Waiting for {name} to give the Dragon trick away.",
    "view-tichu-hint": "(/tichu calls Tichu)",
    "view-finished": "Game over. {outcome}",
    "view-abandoned": "The game was abandoned ({name} removed).",
    "game-round-start": "Round {round} begins.",
    "game-deal": "Your first 8 cards: {cards}",
    "game-deal-all": "Your cards: {cards}",
    "game-deal-rest": "Your last 6 cards: {cards}",
    "game-grand": "{name} calls GRAND TICHU!",
    "game-grand-no": "{name} calls no Grand Tichu.",
    "game-tichu": "{name} calls TICHU!",
    "game-exchange-phase": "Exchange: everyone gives three cards.",
    "game-exchange-given": "{name} has given three cards.",
    "game-exchange-received": "You receive {gifts}.",
    "game-play-phase": "{name} has the Mah Jong and leads.",
    "game-play": "{name} plays {cards}.",
    "game-play-bomb": "{name} BOMBS {cards}!",
    "game-wish": "{name} wishes for a {rank}.",
    "game-wish-none": "{name} wishes for nothing.",
    "game-wish-fulfilled": "The wish for a {rank} is fulfilled by {name}.",
    "game-pass": "{name} passes.",
    "game-trick-won": "{name} wins the trick.",
    "game-trick-won-dragon": "{name} wins the Dragon trick and must give it to an opponent.",
    "game-dragon-given": "{name} gives the Dragon trick to {to_name}.",
    "game-trick-taken": "{name} takes the trick ({points} points).",
    "game-dog": "The Dog gives the lead to {name}.",
    "game-out": "{name} is out ({place}).",
    "game-round-over": "Round over. Order: {order}.",
    "game-round-over-double": "Round over: double victory for {team}! Order: {order}.",
    "game-round-cards": "  Card points: {score}",
    "game-round-call-won": "  {name}'s {call} succeeded: +{points}",
    "game-round-call-lost": "  {name}'s {call} failed: -{points}",
    "game-round-total": "  This round:  {score}",
    "game-round-score": "Score after round {round}: {score}",
    "game-victory-points": "Victory points: {points}",
    "game-match-over": "Game over after {rounds} rounds: {outcome}",
    "game-winner": "{names} win {score}.",
    "game-shared": "Shared victory at {score}.",
    "game-turnier-winner": "{names} win.",
    "game-turnier-points": "Victory points/Tichu points: {points}",
    # game records, statistics, ratings (lobby/records.py data, protocol/render_records.py)
    "history-header": "Recent games of {name}:",
    "history-line": "  #{game} {date} table {table}: {team0} {score0}:{score1} {team1}, "
                    "{rounds} rounds, {outcome}{unrated}",
    "history-none": "{name} has no finished games.",
    "history-won": "won",
    "history-lost": "lost",
    "history-shared": "shared",
    "history-unrated": " (unrated)",
    "replay-header": "Game #{game}, table {table}, {date}: {team0} against {team1}, {rounds} rounds.",
    "replay-round": "Round {round}: seats {seating}",
    "replay-hand": "{name}: {cards}",
    "replay-exchange": "{name} gives {gifts}.",
    "replay-gift": "{card} to {name}",
    "ranking-header": "Rangliste (Team Elo, rated games only):",
    "ranking-line": "  {place:>3}. {name:<16} {rating:>5}  ({games} games)",
    "ranking-none": "Nobody has played a rated game yet.",
    # reconnecting and restoring (lobby/world.py, lobby/persistence.py)
    "game-rejoined": "You are back in your seat at table {table}; the game goes on.",
    "finger-stats": "  games {games} (won {wins}), rated {rated_games} (won {rated_wins}), "
                    "rounds {rounds}",
    "finger-calls": "  Tichu {tichu_made}/{tichu_calls}, Grand Tichu {grand_made}/{grand_calls}, "
                    "double victories {double_victories}, first out {first_out}",
    "finger-rating": "  rating {rating} after {rated_games} rated games (best {peak})",
    "finger-no-games": "  no finished games yet",
    # mute lists and moderation (lobby/moderation.py)
    "muted": "{name} is on your mute list now: you will not see their speech and tells.",
    "unmuted": "{name} is off your mute list.",
    "mute-list": "Your mute list ({count}): {names}",  # names joined by render_text
    "mute-list-empty": "Your mute list is empty; /add mute NAME adds a name.",
    "role-set": "{name} has the role {role} now.",
    "role-changed": "{by} gave you the role {role}.",
    "kick-done": "{name} was kicked.",
    "kicked": "You were kicked by {by}: {reason}",
    "ban-done": "{name} is banned until {until}.",
    "banned-now": "You were banned by {by} until {until}: {reason}",
    "unban-done": "The ban on {name} is lifted.",
    "silenced-set": "{name} may not speak in public rooms now.",
    "unsilenced": "{name} may speak in public rooms again.",
    "you-silenced": "{by} silenced you in public rooms; /tell still works.",
    "you-unsilenced": "{by} lets you speak in public rooms again.",
    "announcement": "*** {by} announces: {text}",
    "shutdown-warning": "*** The server shuts down in {seconds} s ({reason}; {by}). No new games "
                        "start.",
}

CATALOGS: dict[str, dict[str, str]] = {"en": {**INFO, **ERRORS}}


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """Render message `key` in `lang` (falling back to English) with `params`."""
    template = CATALOGS.get(lang, {}).get(key) or CATALOGS["en"].get(key)
    if template is None:
        return key + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


class LobbyError(Exception):
    """A refused command: `code` is a catalog key from ERRORS, `params` fill its template."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        return text(self.code, lang, **self.params)
