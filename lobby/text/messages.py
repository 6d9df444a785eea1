"""The message catalog: every text meant for people, one key and one template per message.

Error codes ARE the keys of error messages (stable, documented in docs/protocol.md, matched by
scripts). Templates use str.format fields. Translations can be added as further dicts keyed by
language without touching handlers; English is the default and the fallback.

Add entries to the section of your layer; never rename a key that has shipped.
"""
from __future__ import annotations

import re
import string
from typing import Any

from lobby.text import translations as _translations
from lobby.tichu import memo as _memo

# ---- errors: key -> template (the key is the stable error code) --------------------------------
ERRORS: dict[str, str] = {
    # protocol / session
    "line-too-long": "Line too long ({length} bytes, limit {limit}); it was discarded.",
    "unknown-command": "Unknown command /{name}. Type /help for a list of commands.",
    "did-you-mean": "Unknown command /{name}. Did you mean /{command}?",
    # a bot's name is one form everywhere (Bot1~expert: its strategy after the ~), so no
    # message names its strategy a second time
    "finger-bot": "{name} is a bot playing at table {table}; its name ends in its strategy "
                  "(/help addbot).",
    "ambiguous-command": "Ambiguous command /{name}: could be {candidates}.",
    "bad-arguments": "Usage: {usage}",
    "internal-error": "Internal error while handling your command; it was logged and nothing changed.",
    # login and accounts (protocol/connection/session.py, protocol/commands/account.py)
    "bad-name": "{name} is not a valid name: use 3 to 16 characters, each an ASCII letter a-z "
                "or A-Z, a digit 0-9, _ or -.",
    "reserved-name": "The name {name} is reserved; choose another name (or type guest).",
    "staff-lookalike": (
        "The name {name} reads too much like that of {staff}, who is on the staff; choose "
        "another name."),
    "name-in-use": "{name} is online already; choose another name.",
    #. back at the login prompt: how the guest takes the held seat back
    "seat-held": "Table {table} holds the seat of the guest {name} for them: to take it back, "
                 "type {name} at the login prompt, then its key; or choose another name.",
    #. a wrong reconnect key; the connection is back at the login prompt
    "wrong-seat-key": "Wrong key for the seat of {name}. To try again, type {name} at the login "
                      "prompt, then the key you were told when you sat down; or choose another "
                      "name.",
    "wrong-password": "Wrong password.",
    "too-many-failures": "Too many failed log-ins; closing the connection.",
    "bad-password": "A password has {min} to {max} characters and no spaces.",
    "already-registered": "You are registered already; /password OLD NEW changes your password.",
    "not-registered": "You are not registered; /register PASSWORD registers your name.",
    "name-held-for-guest": "Table {table} holds a guest seat under the name {name}; the name can "
                           "be registered once that game is over.",
    "name-taken": "The name {name} has been registered meanwhile; log in again with another name.",
    "busy": "Still working on your earlier commands; this line was discarded.",
    # chat
    "not-online": "{name} is not online.",
    "invisible-text": "Nothing visible is left of your message: control and formatting "
                      "characters (such as U+202E) are removed from what you say.",
    "no-such-user": "Nobody called {name} is online or registered.",
    # tables (lobby/tables/table.py)
    "game-running": "The game is running; that is only possible before the start.",
    "game-finished": "The game is over; /reset clears the table for a new game.",
    "no-game": "No game is running at this table.",
    "not-seated": "You do not sit at this table; /join takes a seat.",
    #. /leave by a player of the running game: the seat cannot be given up; {grace} e.g. 2
    #. minutes (the grace time this player has left: the others may then vote them out)
    "leave-in-game": "You play in the running game at table {table}, so your seat stays yours "
                     "and the game waits for your moves. /manager takes you to the lobby and "
                     "/room {table} brings you back; away for more than {grace!t}, you may be "
                     "voted out, and a bot then plays on in your seat.",
    "quit-in-game": "You are playing at table {table}; the game waits for you. /quit again to "
                    "leave; log in as {name} to come back.",
    "quit-in-game-guest": "You are playing at table {table}; the game waits for you. /quit "
                          "again to leave; log in as {name} with your key to come back.",
    "already-seated": "You sit in seat {seat} already.",
    "no-such-seat": "There is no seat {seat}; the seats are 1 to 4.",
    "seat-taken": "Seat {seat} is taken by {name}.",
    "table-full": "All four seats are taken; you can watch.",
    "too-many-tables": "You host or sit at {limit} open {limit!p:table|tables} already (table {tables}); "
                       "leave one, or let its game end, first.",
    "seat-limit": "You sit at table {tables} already, and a user sits at {limit} {limit!p:table|tables} at a "
                  "time; leave it, or let its game end, first.",
    "tables-too-fast": "You opened {limit} {limit!p:table|tables} in the last minute, the most "
                       "one user may; "
                       "try again in {seconds!t}.",
    "address-tables": "The users of your address host or sit at {limit} open "
                      "{limit!p:table|tables} already, "
                      "the most one address may; leave one first.",
    "need-four": "Four players are needed to start; {count} seated. /join or /addbot fills a "
                 "seat.",
    "host-only": "Only the host, {host}, may do that (option host).",
    "host-only-option": "Only the host, {host}, may set the option {option}.",
    "not-finished": "The game is not over; /reset only clears a finished table.",
    "unknown-option": "Unknown option {name}; /option help lists them.",
    "bad-option-value": "Option {name} takes {expected}, not {value!r}.",
    "turnier-too-long": "A turnier plays {rounds} rounds; this server allows at most {most}.",
    "turnier-rounds": "A turnier always plays {rounds} rounds, so it cannot be combined with "
                      "round: set round off first, or turnier off.",
    "not-a-player": "You are watching; only the players of this game can do that.",
    "host-command": "Only the host, {host}, may do that.",
    "not-seated-here": "{name} does not sit at this table.",
    "barred-from-table": "The host ({host}) has barred you from table {table} until it closes.",
    "not-barred": "{name} is not barred from this table.",
    "name-now-someone-else": (
        "{name} is someone else now: the {name} you talked to left, and a newcomer has the name. Your "
        "message was not sent; send it again to reach the new {name}."),
    "already-friend": "{name} is on your friends list already.",
    "friends-list-full": "Your friends list is full ({limit} names): /unnotify NAME makes room.",
    "not-a-friend": "{name} is not on your friends list.",
    "not-vanished": "{name} has neither vanished nor run out of time; only such a player can be removed.",
    "vote-running": "A vote on removing {name} is running already: /accept or /refuse.",
    "remove-needs-timeouts": (
        "{name} is here: in a rated game the others may /remove a present player only after the "
        "timer has decided for them {needed} times ({count} so far), and only with the yes of "
        "{name}'s partner."),
    "remove-too-early": "{name} may still come back: /remove is possible in {seconds!t} (the "
                        "table's grace time, /option grace).",
    "no-vote": "There is no vote to answer.",
    "not-a-voter": "Only the other players at the table vote on this.",
    "bomb-window": "Wait {seconds!t} before you go on: the others may still bomb the trick.",
    "give-dragon-first": "You won the Dragon trick: give it away first, /dragon left ({left}) "
                         "or /dragon right ({right}).",
    "name-wish-first": "Name your wish first: /wish RANK or /wish none.",
    "give-cards-first": "Give your three cards first: /schupf NEXT PARTNER PREVIOUS.",
    "bad-dragon-target": "Give the Dragon trick with /dragon left or /dragon right (or a seat "
                         "number or a name).",
    # rooms and table routing (lobby/world/world.py, protocol/commands/tables.py)
    "not-at-table": "You are not at a table; /room N enters one, /newroom tichu opens one.",
    "no-such-room": "There is no room {number}; /listroom lists the tables.",
    "no-such-table": "There is no table {number}; /listroom lists the tables.",   # /spielinfo N
    "no-more-pages": "Nothing more to show: /next goes on with a long answer (/replay) where it "
                     "stopped at -- more --.",
    "no-such-page": "There is no page {page}; /listroom has {pages} {pages!p:page|pages}.",
    "seat-held-here": "Table {table} holds a seat for the guest {name} who sat down there "
                      "before you; log in with another name to watch it.",
    "unknown-game": "There is no game {name} here; /newroom tichu opens a Tichu table.",
    "unknown-protocol": "There is no machine-mode protocol {version}; this server speaks "
                        "{versions} (%json {newest}).",
    "needs-protocol": "/{command} answers in machine mode from protocol {version} on; this "
                      "connection reads protocol {protocol} (/iset protocol {version}).",
    "unknown-setting": "There is no setting {name}; /set color on|off is one.",
    "bad-setting-value": "Setting {name} takes {expected}, not {value!r}.",
    "unknown-language": "There is no language {value!r} here; /set lang takes {choices}.",
    "bad-width": "The width is a number of columns from {min} to {max}, or auto, not {value!r}.",
    # machine mode (protocol/connection/machine.py)
    "bad-id": "A command id is #ID with 1 to 32 letters, digits, - or _, not #{id}.",
    # the web client (protocol/web)
    "bad-message": "A WebSocket message carries one line: no line breaks inside, UTF-8 text.",
    "password-needs-tls": "Passwords are not sent over an unencrypted connection from another "
                          "computer: open the web client over https:// (the server's --web "
                          "ssl:..., or a TLS proxy in front of it), or play as a guest.",
    "unknown-request": "There is no request {request}; {state} is one, and commands begin with "
                       "/ (/help lists them).",
    "json-request": "Requests are command lines such as /play B5 or {state}, not JSON "
                    "objects; docs/bots.md shows them.",
    # bots at tables (lobby/tables/table.py, lobby/bots)
    "unknown-strategy": "There is no bot strategy {name}; choose {choices}.",
    "bad-bot-level": "{level} is no bot level: expert thinks from {low} to {high} seconds per "
                     "decision (expert:2).",
    "not-a-bot": "Seat {seat} holds no bot.",
    # game records (lobby/storage/records.py)
    "no-such-game": "There is no game #{game}; /history lists recent games.",
    "no-such-round": "Game #{game} has no round {round}; it had {rounds} "
                     "{rounds!p:round|rounds}.",
    "no-tch-log": "Game #{game} has no BSW log: it was played with /option log off.",
    # defences of the public port (protocol/connection/guard.py)
    "server-full": "The server is full; please try again later.",
    "too-many-connections": "Too many connections from your address (at most {limit}); this one "
                            "is closed.",
    "connecting-too-fast": ("Too many new connections from your address (at most {limit} a "
                            "minute); try again in {seconds!t}."),
    "too-many-guests": "Too many guests are online (at most {limit}); log in with a registered "
                       "name, or try again later.",
    "too-many-attempts": "Too many password attempts from your address; try again in {seconds!t}.",
    "too-many-attempts-here": "Too many password attempts on this connection; try again in "
                              "{seconds!t}.",
    "account-wait": "Too many wrong passwords for {name}; the next attempt is possible in "
                    "{seconds!t}.",
    "too-many-registrations": "Too many new accounts from your address (at most {limit} an "
                              "hour); try again in {seconds!t}.",
    "login-timeout": "You did not log in within {seconds!t}; closing the connection.",
    "idle-warning": "You have typed nothing for a long time; you will be disconnected in "
                    "{seconds!t} unless you type something.",
    "idle-warning-seated": "You have not played nor spoken at your table for a long time; you "
                           "will be disconnected in {seconds!t} unless you play or speak there.",
    "idle-timeout": "Disconnected after {seconds!t} without input.",
    "flooding": "You are sending lines too fast (more than {rate} a second); lines are dropped "
                "until you slow down.",
    "flood-disconnect": "Too many lines too fast; closing the connection.",
    "guest-bot-level": (
        "Guests may give an expert bot at most {seconds} seconds per decision (expert:{seconds});"
        " register (/register) for more."),
    "expert-tables": (
        "You take part in {limit} {limit!p:table|tables} with expert bots already ({tables}); "
        "the bot workers are shared."),
    "too-many-marks": (
        "More than {limit} combining marks on one character; the message was not sent."),
    "too-many-joiners": (
        "More than {limit} zero-width joiners in a row; the message was not sent."),
    "speech-budget": (
        "Your address is talking too fast here (more than {rate} {rate!p:line|lines} a second); "
        "lines are not sent until it slows down."),
    "speech-budget-disconnect": "Too many lines too fast; closing the connection.",
    "repeated-line": "You said that just now; a line repeated in a row is not sent.",
    "table-budget": (
        "Too many table changes from you or your address (more than {rate} a minute): /{command} "
        "was not done. Wait a moment and try again."),
    "work-budget": (
        "You are asking the server for too much at once (/{command} costs {cost} ordinary "
        "commands); wait a moment."),
    "work-budget-disconnect": "Too many expensive commands too fast; closing the connection.",
    "input-flood": (
        "You are sending more than {rate} {rate!p:byte|bytes} a second; what you send is dropped until "
        "you slow down."),
    "input-flood-disconnect": "Too many bytes too fast; closing the connection.",
    "telnet-flood": (
        "Your client sends more than {rate} telnet {rate!p:command|commands} a second; they are ignored "
        "until it slows down."),
    "telnet-flood-disconnect": "Too many telnet commands too fast; closing the connection.",
    "frame-flood": (
        "Your client sends more than {rate} WebSocket control {rate!p:frame|frames} or message "
        "{rate!p:fragment|fragments} a second; they are ignored until it slows down."),
    "frame-flood-disconnect": "Too many WebSocket frames too fast; closing the connection.",
    "ping-flood-disconnect": "Too many WebSocket pings too fast; closing the connection.",
    # moderation and mute lists (lobby/world/moderation.py)
    "not-allowed": "Only a user with the role {role} may use /{command}.",
    "not-yourself": "You cannot use /{command} on yourself.",
    "unknown-role": "There is no role {role}; choose {choices}.",
    "not-registered-user": "{name} is not a registered name.",
    "unknown-list": "There is no list {name}; the list is mute (/showlist mute).",
    "already-muted": "{name} is on your mute list already.",
    "not-muted": "{name} is not on your mute list.",
    "mute-list-full": "Your mute list is full ({limit} {limit!p:name|names}); /sub mute NAME "
                      "makes room.",
    "silenced": "A moderator silenced you in public rooms; /tell still works.",
    "not-silenced": "{name} is not silenced.",
    "banned": "{name} is banned until {until}: {reason}",
    "address-banned": "Guests from your address are banned until {until}: {reason}. Log in "
                      "with a registered name.",
    "not-banned": "{name} is not banned.",
    "shutting-down": "The server is shutting down; no new games start.",
    "no-shutdown": "No shutdown is under way to cancel.",
    # the database fails while the server runs (lobby/world/persistence.py)
    "game-not-saved": "The server cannot save the game at table {table} (a database write "
                      "failed; the operator finds it in the log). You can play on, but this "
                      "game may be lost if the server stops.",
}

# ---- informational messages ------------------------------------------------------------------
INFO: dict[str, str] = {
    # connection and login (protocol/connection/session.py)
    "greeting": "Welcome to the Tichu lobby. Log in with your name, or type guest.",
    "greeting-machine": "Programs: %json VERSION switches to machine mode (protocols {versions}).",
    #. how to switch to this language, in its own words; the greeting shows every language's
    #. line (lobby.text.messages.language_lines), so each catalog says it for itself only
    "greeting-language": "In English: /set lang {code}",
    "motd": "{text}",
    # GMCP Comm.Channel.List: the captions of the chat channels (a MUD client shows them)
    "gmcp-channel-say": "Speech in your room",
    "gmcp-channel-tell": "Whispers",
    "login-prompt": "login: ",
    "password-prompt": "password: ",
    "guest-confirm": "\"{name}\" is not a registered name. Press Enter to play as the guest "
                     "{name}, or type another name: ",
    "typed-ahead-dropped": "(That line was not used: it might be a password typed ahead.)",
    "seat-key-prompt": "key: ",
    "seat-key-asked": "Table {table} holds the seat of the guest {name}: type the key you were "
                      "given when you sat down (an empty line: back to login).",
    "seat-key-asked-late": "Table {table} holds the seat of the guest {name}: type the key you "
                           "were given when you sat down to get it back (an empty line: log in "
                           "as {name} without it).",
    "logged-in-guest": "Hello {name}! You are a guest; /register PASSWORD keeps this name for you. "
                       "Type /help for the commands.",
    "logged-in": "Welcome back, {name}! Type /help for the commands.",
    "replaced": "You logged in as {name} from another connection; this one is closed.",
    "name-reclaimed": "The guest {name} came back with the key of their seat, and the name is "
                      "theirs; log in again under another name.",
    "bye": "Goodbye, {name}.",
    "shutdown": "The server is shutting down. Goodbye.",
    "registered": "{name} is registered now. Next time log in with this name and your password.",
    "password-changed": "Your password has been changed.",
    # rooms and chat (lobby/world/world.py)
    "enters": "{name} enters the {room}.",
    "leaves": "{name} leaves the {room}.",
    # the same messages where {room} is a table's room: `text` takes KEY-table then, with the
    # table's {number} (a room's name is data, read as each language says it)
    "enters-table": "{name} comes to table {number}.",
    "leaves-table": "{name} leaves table {number}.",
    "who-table": "At table {number} ({count}): {names}",
    "wwho-line-table": "  {name:<16} at table {number}{guest}",
    "finger-online-table": "  online now, at table {number}",
    "whereis-table": "{name} is in the room of table {number} (/room {number} goes there).",
    "friends-line-room-table": "  {name}: online, at table {number}",
    "says": "<{name}> {text}",
    "tells": "{name} tells you: {text}",
    "told": "You tell {name}: {text}",
    "who": "In the {room} ({count}): {names}",
    "look": "You are in the {room}, with {count} {count!p:other person|other people} here.",
    "look-alone": "You are in the {room}; nobody else is here.",
    "look-tables": "{tables} {tables!p:table|tables} open: /listroom shows the list, /room N "
                   "watches a table, /newroom opens another.",
    "look-no-tables": "No table is open: /newroom opens one.",
    "who-bot": "{name} (bot)",
    "wwho": "{count} online:",
    "wwho-line": "  {name:<16} {room}{guest}",
    "wwho-guest": " (guest)",
    "wwho-staff": " ({role})",
    "who-staff": "{name} ({role})",
    "staff-role-admin": "admin",
    "staff-role-moderator": "moderator",
    "finger-staff": "  on the staff: {role}",
    "finger": "{name}:",
    "finger-registered": "  registered since {registered_at}, last seen {last_seen}",
    "finger-guest": "  a guest (not registered)",
    "finger-online": "  online now, in the {room}",
    "finger-offline": "  not online",
    "finger-client": "  your client: {client}",
    "never": "never",
    # durations (`{seconds!t}` in a template; lobby.text.messages.duration)
    "duration-second": "{n} {n!p:second|seconds}",
    "duration-minute": "{n} {n!p:minute|minutes}",
    "duration-hour": "{n} {n!p:hour|hours}",
    # rooms and tables in the world (lobby/world/world.py, protocol/commands/tables.py)
    "newroom": "You open table {table} (Tichu) and are its host: /join sits down, "
               "/option help lists the options, /manager returns to the lobby.",
    #. a long answer (/replay) stopped after a screenful: {last} lines shown of {total}
    "more": "-- more ({last} of {total} lines): /next shows the next page --",
    "listroom": "Tables ({count}):",
    "listroom-empty": "No tables are open; /newroom tichu opens one.",
    "listroom-page": "Tables {first}-{last} of {count} ({waiting} waiting, {playing} playing), "
                     "page {page} of {pages}:",
    "listroom-more": "/listroom {next} shows the next {per_page}.",
    "listroom-line": "  {table:>3} {game} {state:<8} {seating}",
    "listroom-details": "      {options}; {spectators} watching",
    "whereis": "{name} is in the {room} (room {number}).",
    "game-waiting-for-you": "Your game at table {table} goes on without you: /room {table} "
                            "takes you back.",
    #. {name}: the setting's label (setting-label-*: "Color", "Width"), {value} its value
    "setting": "{name} is {value} now.",
    #. the settings by name, as the answer to /set NAME VALUE names them (where the reader's word
    #. is not the name typed, add it in brackets: "Farbe (color)")
    "setting-label-color": "Color",
    "setting-label-bell": "Bell",
    "setting-label-prompt": "Status prompt",
    "setting-label-width": "Width",
    #. a setting's value on or off as shown (/set bell on: "Bell is on now."; /set alone)
    "value-on": "on",
    "value-off": "off",
    #. /set alone: the connection's settings, one a line
    "settings-header": "Your settings (/set NAME VALUE changes one):",
    #. {name}: the setting's name as typed (color, lang, bell, prompt, width); {value} e.g. on
    "settings-line": "  {name:<7} {value}",
    "settings-lang": "{code} ({language})",
    #. {width} e.g. 80: the width in use (the telnet client's, else the default)
    "settings-width-auto": "auto ({width})",
    #. {choices}: the codes of the languages, such as de|en|fr|es|da
    "setting-lang": "Language: {language}. /set lang {choices} switches.",
    #. the name of this catalog's language in itself (lobby.text.messages.language_name): English,
    #. Deutsch, Français
    "language-name": "English",
    # the words a person may type for on and for off (/set color on, /option drawseat off), each
    # |-separated, lower-case; the English ones are accepted in every language too
    "words-on": "on|yes",
    "words-off": "off|no",
    # the placeholders of usage lines (/play CARDS, /join [SEAT]: lobby.text.messages.Usage), one
    # upper-case word each, as the reader types nothing but sees what to put there
    "arg-CARDS": "CARDS",
    "arg-COMMAND": "COMMAND",
    "arg-DURATION": "DURATION",
    "arg-GAME": "GAME",
    "arg-LIST": "LIST",
    "arg-NAME": "NAME",
    "arg-NEW": "NEW",
    "arg-NEXT": "NEXT",
    "arg-NUMBER": "NUMBER",
    "arg-OLD": "OLD",
    "arg-PAGE": "PAGE",
    "arg-PARTNER": "PARTNER",
    "arg-PASSWORD": "PASSWORD",
    "arg-PREVIOUS": "PREVIOUS",
    "arg-RANK": "RANK",
    "arg-REASON": "REASON",
    "arg-ROLE": "ROLE",
    "arg-ROUND": "ROUND",
    "arg-SEAT": "SEAT",
    "arg-SECONDS": "SECONDS",
    "arg-TEXT": "TEXT",
    "arg-TO": "TO",
    "arg-VALUE": "VALUE",
    # the rooms' names (lobby/world/world.py names them in English for the machine mode's data)
    #. the lobby as a sentence names it: "enters the lobby", "Du bist in der Lobby"
    "room-lobby": "lobby",
    "room-table": "Table {number} room",
    "iset": "Interface setting {name} is {value} now.",
    # help (protocol/commands/help.py)
    "help": "Commands (unique prefixes work; the / is optional when the words after the command "
            "are valid, but a call or a step that changes the game for good (/grand, /nogrand, "
            "/tichu, /start, /leave, /reset) always needs it; any other line is speech to your "
            "room, ;NAME text or @NAME text whispers):",
    "help-group": "{group}: {commands}",
    "help-group-lobby": "Lobby",
    "help-group-chat": "Chat",
    "help-group-tables": "Tables",
    "help-group-play": "Play",
    "help-group-records": "Records",
    "help-group-account": "Account",
    "help-group-moderation": "Moderation",
    "help-group-other": "Other",
    "help-footer": "/help COMMAND tells more about one command.",
    "help-command": "{usage}",
    "help-aliases": "  also: {aliases}",
    # tables (lobby/tables/table.py events, rendered by protocol/render/table.py)
    "table-joined": "{name} sits down in seat {seat}.",
    "table-joined-you": "You sit down in seat {seat}.",
    "table-seat-key": "If you lose your connection, log in as {name} and give the key {key}.",
    "table-left": "{name} leaves seat {seat}.",
    "table-left-you": "You leave seat {seat}.",
    "table-started": "Table {table}: the game starts, {team0} against {team1}.",
    "table-option-set": "{name} sets {option} to {value}.",
    "table-options": "Options of table {table} (/option NAME [VALUE] before the start):",
    "table-option-line": "  {option:<13} {value:<6} {about}",
    "table-info": "Table {table}: {state}, host {host}.",
    "table-info-seats": "  Seats: {seating}",
    "table-info-score": "  Score after {rounds} {rounds!p:round|rounds}: {score}",
    "table-info-score-none": "  Score: {score} (no rounds played yet)",
    "table-info-options": "  Options: {options}",
    "table-info-watching": "  Watching: {names}",
    #. the table's view follows, with what the reader may do (the host: /start)
    "table-reset": "{name} clears the table for a new game.",
    "table-vanished": "{name} has vanished; the game waits for them. After {grace!t} the other "
                      "players may /remove {name}.",
    "table-back": "{name} is back.",
    "table-remove-proposed": "{name} proposes to remove {target}: /accept or /refuse "
                             "({needed} {needed!p:vote|votes} needed).",
    #. the same said to a spectator, who has no vote
    "table-remove-proposed-watching": "{name} proposes to remove {target}; the players vote "
                                      "({needed} {needed!p:vote|votes} needed).",
    "table-vote": "{name} votes {vote} on removing {target}.",
    "table-remove-refused": "{target} stays: the removal was refused.",
    "table-vote-ended": "The vote on removing {name} ends.",
    "table-rated": "Rated game: who leaves it and is not back within {grace!t} in all loses it.",
    "table-unrated": "This game is not rated: {reason!w:why-unrated}.",
    "why-unrated-nosave": "it was started with /startnosave",
    "why-unrated-seed": "its deals follow from the seed of /option seed",
    "why-unrated-bots": "a bot plays in it",
    "why-unrated-guests": "not all four players are registered",
    "history-abandoned": " (abandoned)",
    "history-left": ", left: {names}",
    "finger-left": "  left {left} of {games} {games!p:game|games} started",
    "ranking-left": ", left {left}",
    "table-timer-warning": "Hurry up: {seconds!t} left for your decision, then it is made for you.",
    "table-timed-out": (
        "{name} ran out of time ({seconds!t}); the decision is made for them. The others may now "
        "/remove {name}."),
    "table-timed-out-rated": (
        "{name} ran out of time ({seconds!t}); the decision is made for them. In a rated game a "
        "present player may be removed only after {needed} time-outs ({count} so far)."),
    "table-remove-needs-partner": (
        "{target} is here: the removal needs the yes of {partner}, {target}'s partner."),
    "table-remove-needs-all": (
        "{target} is here and has no partner to vote: the removal needs every other player's yes."),
    "table-info-timer": "Move timer: {seconds!t} per decision.",
    "table-info-timer-off": "Move timer: off.",
    "table-info-rated": "This game is rated.",
    "table-info-left": "Left the game (each loses it): {names}.",
    "table-unseated": "{by} (the host) takes seat {seat} away from {name}.",
    "table-barred": "{by} (the host) bars {name} from this table until it closes.",
    "table-unbarred": "{by} (the host) lets {name} come to this table again.",
    "namesake-notice": (
        "{name} talked to someone else under your name before; this is the first message to you."),
    "namesake-writes": (
        "{name} is someone else now: the {name} you talked to left, and a newcomer with the name "
        "writes to you."),
    "says-namesake": "<{name} (new, not the {name} who sat here)> {text}",
    "says-namesake-name": "{name} (new, not the {name} who sat here)",
    "friend-added": (
        "{name} is on your friends list now: you hear when {name} comes, goes, starts or finishes a "
        "game."),
    "friend-removed": "{name} is off your friends list.",
    "friend-online": "Your friend {name} is online now.",
    "friend-offline": "Your friend {name} has logged out.",
    "friend-game-started": "Your friend {name} starts a game at table {table}.",
    "friend-game-over": "Your friend {name} has finished the game at table {table}.",
    "friends-none": "Your friends list is empty: /notify NAME adds a name.",
    "friends-header": "Your friends ({online} of {count} online):",
    "friends-line-offline": "  {name}: not online",
    "friends-line-room": "  {name}: online, in the {room}",
    "friends-line-playing": "  {name}: playing at table {table}",
    "table-info-timer-auto": "Move timer: auto ({seconds!t} per decision if the game is rated, else none).",
    "table-abandoned": "{target} was removed; the game is abandoned at {score}.",
    "table-window-closed": "{name} may go on now.",
    "table-window-closed-you": "You may go on now.",
    "table-new-host": "{name} is the host of this table now.",
    "table-seeded": "Seed {seed}, set by the host {host}: whoever knows it knows every hand.",
    "table-bot-added": "{by} seats the bot {name} in seat {seat}.",
    #. an expert bot with its own thinking time (/addbot expert:2): {seconds} e.g. 2 or 0.5
    "table-bot-added-level": "{by} seats the bot {name} in seat {seat}; it thinks up to "
                             "{seconds} {seconds!p:second|seconds} per decision.",
    "table-bot-removed": "{by} takes {name} off seat {seat}.",
    "table-bot-takes-over": "{target} was removed; {name} plays on in seat {seat}.",
    "vote-yes": "yes",
    "vote-no": "no",
    "table-view": "Table {table}: {state}.",
    "table-look": "Table {table} as it stands:",
    "options-default": "default options",       # /listroom: a table with no option changed
    "options-defaults": "defaults",              # /spielinfo: the same
    "table-state-waiting": "waiting",
    "table-state-playing": "playing",
    "table-state-finished": "finished",
    "view-seats": "Seats: {seating}",
    #. a waiting table with a free seat: how to fill it; seats 1 and 3 play against 2 and 4
    "view-waiting": "/join [SEAT] or /addbot fills a seat (1+3 against 2+4); /start when four "
                    "sit.",
    #. a waiting table whose four seats are taken
    "view-waiting-full": "All four seats are taken: /start begins the game.",
    #. the same two hints to anybody but the host (only the host may /addbot and /start);
    #. {host} e.g. Ann
    "view-waiting-guest": "/join [SEAT] takes a free seat (1+3 against 2+4); the host, {host}, "
                          "starts the game when four sit.",
    "view-waiting-full-guest": "All four seats are taken; the host, {host}, starts the game.",
    #. the head of a spectator's table picture (at a waiting table instead of "Table 1:
    #. waiting.")
    "view-watching": "You are watching table {table}.",
    "view-players": "{players}",
    "view-player-out": "out {place}",
    "view-call-tichu": "T!",
    "view-call-grand": "GT!",
    #. after the name of the reader's partner in the players line: "3 Cat 14 (partner)"
    "view-partner": "(partner)",
    #. the same on a narrow screen (the card legend explains it): "3 Cat 14 (P)"
    "view-partner-short": "(P)",
    "view-gone": "(gone)",
    "view-score": "Round {round_no} | {score}",
    "view-trick": "Trick: {plays}",
    "view-trick-empty": "Trick: empty",
    "view-trick-won": "Trick: {plays} \u2013 won by {name}",
    "view-trick-won-you": "Trick: {plays} \u2013 won by you",
    #. a spectator's (or a waiting player's) line of moves and the next turn: {moves} e.g.
    #. "Ann passes; Bob plays R7 (5 left)", {turn} e.g. "Cat's turn."
    "view-moves": "{moves}; {turn}",
    #. what joins two moves in that line
    "view-moves-sep": "; ",
    #. the turn at the end of that line (after the separator: lower case where the language
    #. writes it so)
    "view-turn-next": "{name}'s turn.",
    #. the Mah Jong and its wish in that line: {play} e.g. "Cat plays Ma (13 left)"
    "view-and-wish": "{play} and wishes for {rank!w:a-rank}",
    "view-and-wish-you": "{play} and wish for {rank!w:a-rank}",
    "view-trick-more": "... {plays}",            # the trick's older plays left out
    "view-wish": "Wish: {rank!w:rank}",
    "view-with-wish": "{line}  |  {wish}",
    "view-hand": "Your hand: {cards}",
    "view-received": "Received: {gifts}",
    "view-turn": "{name}'s turn.",
    "view-cards-left": "({count} left)",
    "view-your-turn": "Your turn: /play CARDS or /pass",
    "view-your-lead": "Your lead: /play CARDS",
    "view-your-turn-wish": "Your turn: /play CARDS with {rank!w:a-rank} (the wish), or a bomb",
    "view-your-lead-wish": "Your lead: /play CARDS with {rank!w:a-rank} (the wish), or a bomb",
    "view-bombs": "You may bomb: /bomb {cards}",
    "view-bomb-window": "{name} may go on in {seconds!t}: time to bomb.",
    "view-bomb-window-you": "You may go on in {seconds!t}: the others may still bomb.",
    #. /set prompt on: the status prompt of a MUD client after each change of the game
    #. Placeholders: {cards} e.g. 11 (the reader's cards left); {turn} e.g. your move;
    #. {ours} e.g. 120 (the reader's side's score); {theirs} e.g. 80.
    "prompt-status": "[{cards} {cards!p:card|cards} | {turn} | us {ours} : {theirs} them] ",
    #. the same for a spectator: {score} e.g. Ann+Cat 120 : 80 Bob+Dan
    "prompt-watching": "[{turn} | {score}] ",
    "prompt-your-move": "your move",
    "prompt-turn": "{name} to play",
    "prompt-phase-grand": "Grand Tichu decisions",
    "prompt-phase-exchange": "exchange",
    "prompt-phase-wish": "the wish",
    "prompt-phase-dragon": "the Dragon gift",
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
    "view-play-again": "To play again: /reset clears the table, then /start deals a new game.",
    "view-abandoned": "The game was abandoned ({name} removed).",
    "game-round-start": "Round {round} begins.",
    "game-deal": "Your first 8 cards: {cards}",
    #. shown once per account (a guest: once per connection), after the first deal: how to
    #. read the cards and the marks of the players line, four paragraphs (BSW's German letters
    #. are the notation). {suits} e.g. "S Schwert (Sword), B Pagode (Pagoda), G Jade and R Stern
    #. (Star)": card-legend-card for each, joined with names-and
    "card-legend": "How to read the cards (shown once). Suits: {suits}.",
    #. {ranks} e.g. "B Bube (Jack), D Dame (Queen), K König (King) and A Ass (Ace)"
    "card-legend-ranks": "Ranks: 2 to 10, {ranks}.",
    #. {specials} e.g. "Ma Mah Jong, Hu Dog, Ph Phoenix and Dr Dragon"
    "card-legend-specials": "Specials: {specials}. Ph=7: the Phoenix played as a 7.",
    "card-legend-marks": (
        "In the players line > marks whose turn it is, T! and GT! a Tichu and a Grand Tichu "
        "call, (partner) or (P) your partner. /help play tells more."),
    #. one card of the legend: {card} its letters (S, K, Ma), {german} the German name they
    #. stand for (the German catalog's suit-/rank- word: Schwert, König), {word} the reader's
    #. word for it (suit-/rank-/special-: Sword, King). Its spaces never break a line.
    "card-legend-card": "{card} {german} ({word})",
    #. the same where the reader's word is the German name (Jade, Dame), and for a special
    #. card (Ma Mah Jong): {word} the reader's word
    "card-legend-card-same": "{card} {word}",
    #. the suits by their letters (BSW notation S B G R: Schwert, Pagode, Jade, Stern)
    "suit-S": "Sword",
    "suit-B": "Pagoda",
    "suit-G": "Jade",
    "suit-R": "Star",
    #. the special cards by their letters (Ma Hu Ph Dr)
    "special-Ma": "Mah Jong",
    "special-Hu": "Dog",
    "special-Ph": "Phoenix",
    "special-Dr": "Dragon",
    "game-deal-all": "Your cards: {cards}",
    "game-deal-rest": "Your last 6 cards: {cards}",
    "game-grand": "{name} calls GRAND TICHU!",
    "game-grand-no": "{name} does not call Grand Tichu.",
    #. the reader's own decisions and moves, said to them (the lines above name the player)
    "game-grand-you": "You call GRAND TICHU!",
    "game-grand-no-you": "You do not call Grand Tichu.",
    #. a spectator's one line for the Grand Tichu decisions of a deal: who declined
    "game-grand-no-all": "No Grand Tichu from {names}.",
    #. the same when all four declined
    "game-grand-no-nobody": "Nobody calls Grand Tichu.",
    "game-tichu": "{name} calls TICHU!",
    "game-tichu-you": "You call TICHU!",
    "game-exchange-phase": "Exchange: everyone gives three cards.",
    "game-exchange-given": "{name} has given three cards.",
    #. what a spectator reads once all four have given their three cards (the gives one by one
    #. are told to the players only)
    "game-exchange-done": "The exchange is complete.",
    "game-exchange-given-you": "You have given three cards.",
    "game-exchange-received": "You receive {gifts}.",
    "game-gift-from": "{card} from {name}",
    "game-play-phase": "{name} has the Mah Jong and leads.",
    "game-play-phase-you": "You have the Mah Jong and lead.",
    "game-play": "{name} plays {cards}.",
    "game-play-you": "You play {cards}.",
    "game-play-bomb": "{name} BOMBS {cards}!",
    "game-play-bomb-you": "You BOMB {cards}!",
    "game-wish": "{name} wishes for {rank!w:a-rank}.",
    "game-wish-you": "You wish for {rank!w:a-rank}.",
    "game-wish-none": "{name} wishes for nothing.",
    "game-wish-none-you": "You wish for nothing.",
    "game-wish-fulfilled": "The wish for {rank!w:a-rank} is fulfilled by {name}.",
    "game-wish-fulfilled-you": "You fulfil the wish for {rank!w:a-rank}.",
    "game-pass": "{name} passes.",
    "game-pass-you": "You pass.",
    "game-trick-won": "{name} wins the trick.",
    "game-trick-won-you": "You win the trick.",
    "game-trick-won-dragon": "{name} wins the Dragon trick and must give it to an opponent.",
    "game-trick-won-dragon-you": "You win the Dragon trick and must give it to an opponent.",
    "game-dragon-given": "{name} gives the Dragon trick to {to_name}.",
    "game-dragon-given-you": "You give the Dragon trick to {to_name}.",
    "game-dragon-given-to-you": "{name} gives you the Dragon trick.",
    "game-dog": "The Dog gives the lead to {name}.",
    "game-dog-you": "The Dog gives you the lead.",
    "game-out": "{name} is out ({place}).",
    "game-out-you": "You are out ({place}).",
    "place-1": "1st",
    "place-2": "2nd",
    "place-3": "3rd",
    "place-4": "4th",
    "place-n": "{place}th",
    "seat-unnamed": "seat {seat}",       # a seat without a name in a game event
    # ranks in sentences (`{rank!w:rank}`, `{rank!w:a-rank}`, `{rank!w:ranks}`): the rank's
    # word, with the indefinite article (as the object of a verb), and in the plural; the
    # card notation itself (B D K A) stays BSW's
    "rank-2": "2",
    "a-rank-2": "a 2",
    "ranks-2": "2s",
    "rank-3": "3",
    "a-rank-3": "a 3",
    "ranks-3": "3s",
    "rank-4": "4",
    "a-rank-4": "a 4",
    "ranks-4": "4s",
    "rank-5": "5",
    "a-rank-5": "a 5",
    "ranks-5": "5s",
    "rank-6": "6",
    "a-rank-6": "a 6",
    "ranks-6": "6s",
    "rank-7": "7",
    "a-rank-7": "a 7",
    "ranks-7": "7s",
    "rank-8": "8",
    "a-rank-8": "an 8",
    "ranks-8": "8s",
    "rank-9": "9",
    "a-rank-9": "a 9",
    "ranks-9": "9s",
    "rank-10": "10",
    "a-rank-10": "a 10",
    "ranks-10": "10s",
    "rank-B": "Jack",
    "a-rank-B": "a Jack",
    "ranks-B": "Jacks",
    "rank-D": "Queen",
    "a-rank-D": "a Queen",
    "ranks-D": "Queens",
    "rank-K": "King",
    "a-rank-K": "a King",
    "ranks-K": "Kings",
    "rank-A": "Ace",
    "a-rank-A": "an Ace",
    "ranks-A": "Aces",
    # kinds of plays (`{kind!w:kind-a}`, an engine refusal)
    "kind-a-single": "a single card",
    "kind-a-pair": "a pair",
    "kind-a-triple": "a triple",
    "kind-a-fullhouse": "a full house",
    "kind-a-straight": "a straight",
    "kind-a-stairs": "stairs",
    "kind-a-bomb": "a bomb",
    "kind-a-dog": "the Dog",
    # the phases of a round (`{phase!w:phase}`)
    "phase-grand": "Grand Tichu decisions",
    "phase-exchange": "exchange",
    "phase-play": "play",
    "phase-wish": "the wish",
    "phase-dragon": "the Dragon gift",
    "phase-finished": "round over",
    # words that fill other messages (lobby.text.messages.Msg)
    "role-operator": "the server operator",
    "until-further-notice": "further notice",
    "names-and": "{names} and {name}",
    "names-or": "{names} or {name}",
    "game-round-over": "Round over. Order: {order}.",
    "game-round-over-double": "Round over: double victory for {team}! Order: {order}.",
    "game-round-cards": "  Card points: {score}",
    "game-round-call-won": "  {name}'s {call} succeeded: +{points}",
    "game-round-call-won-you": "  Your {call} succeeded: +{points}",
    "game-round-call-lost": "  {name}'s {call} failed: -{points}",
    "game-round-call-lost-you": "  Your {call} failed: -{points}",
    "call-tichu": "Tichu",
    "call-grand": "Grand Tichu",
    "game-round-total": "  This round: {score}",
    "game-round-score": "Score after round {round}: {score}",
    "game-victory-points": "Victory points: {points}",
    "game-match-over": "Game over after {rounds} {rounds!p:round|rounds}: {outcome}",
    "game-winner": "{names} win {score}.",
    "game-shared": "Shared victory at {score}.",
    "game-turnier-winner": "{names} win.",
    "game-turnier-points": "Victory points/Tichu points: {points}",
    # game records, statistics, ratings (lobby/storage/records.py data, protocol/render/records.py)
    "history-header": "Recent games of {name}:",
    "history-line": "  #{game} {date} table {table}: {team0} {score0} : {score1} {team1}, "
                    "{rounds} {rounds!p:round|rounds}, {outcome}{unrated}",
    "history-none": "{name} has no finished games.",
    "history-won": "won",
    "history-lost": "lost",
    "history-shared": "shared",
    "history-unrated": " (unrated)",
    "replay-header": "Game #{game}, table {table}, {date}: {team0} against {team1}, {rounds} "
                     "{rounds!p:round|rounds}.",
    "replay-round": "Round {round}: seats {seating}",
    "replay-hand": "{name}: {cards}",
    "replay-exchange": "{name} gives {gifts}.",
    "replay-gift": "{card} to {name}",
    "ranking-header": "Rangliste (Team Elo, rated games only):",
    "ranking-line": "  {place:>3}. {name:<16} {rating:>5}  ({games} {games!p:game|games})",
    "ranking-none": "Nobody has played a rated game yet.",
    # reconnecting and restoring (lobby/world/world.py, lobby/world/persistence.py)
    "game-rejoined": "You are back in your seat at table {table}; the game goes on.",
    "finger-stats": "  games {games} (won {wins}), rated {rated_games} (won {rated_wins}), "
                    "rounds {rounds}",
    "finger-calls": "  Tichu {tichu_made}/{tichu_calls}, Grand Tichu {grand_made}/{grand_calls}, "
                    "double victories {double_victories}, first out {first_out}",
    "finger-rating": "  rating {rating} after {rated_games} rated {rated_games!p:game|games} "
                     "(best {peak})",
    "finger-no-games": "  no finished games yet",
    # mute lists and moderation (lobby/world/moderation.py)
    "muted": "{name} is on your mute list now: you will not see their speech and tells.",
    "unmuted": "{name} is off your mute list.",
    "mute-list": "Your mute list ({count}): {names}",  # names joined by render_text
    "mute-list-empty": "Your mute list is empty; /add mute NAME adds a name.",
    "role-set": "{name} has the role {role} now.",
    "role-changed": "{by} gave you the role {role}.",
    "kick-done": "{name} was kicked.",
    "table-closed-by": "Table {table} was closed by {by}: {reason}",
    "closetable-done": "Table {table} is closed.",
    "kicked": "You were kicked by {by}: {reason}",
    "ban-done": "{name} is banned until {until}.",
    "banned-now": "You were banned by {by} until {until}: {reason}",
    "unban-done": "The ban on {name} is lifted.",
    "ban-list": "Bans ({count}):",
    "ban-list-line": "  {name} until {until}, by {by}: {reason}",
    "ban-list-address": "    and guests from {address}",
    "ban-list-empty": "Nobody is banned.",
    "silenced-set": "{name} may not speak in public rooms now.",
    "unsilenced": "{name} may speak in public rooms again.",
    "you-silenced": "{by} silenced you in public rooms; /tell still works.",
    "you-unsilenced": "{by} lets you speak in public rooms again.",
    "announcement": "*** {by} announces: {text}",
    "shutdown-warning": "*** The server shuts down in {seconds!t} ({reason}; {by}). No new games "
                        "start.",
    "shutdown-warning-plain": "*** The server shuts down in {seconds!t} (announced by {by}). No "
                              "new games start.",
    "shutdown-cancelled": "*** {by} has cancelled the shutdown: the server stays up, and new "
                          "games may start again.",
    # the `text` of the `announcement` a machine-mode client before protocol 4 gets instead of
    # `shutdown-cancelled` (render_json.for_protocol)
    "shutdown-cancelled-announcement": "The shutdown is called off: the server stays up, and new "
                                       "games may start again.",
}

# ---- help texts: every command's summary and explanation (/help, docs/protocol.md) -------------
#: ``cmd-NAME`` is the one-line summary of /NAME, ``cmd-NAME-help`` its explanation (/help NAME);
#: ``option-NAME`` what a table option means (/option help)
HELP_TEXTS: dict[str, str] = {
    "cmd-accept": "Vote yes on the running /remove.",
    "cmd-accept-help": (
        "Votes for removing the vanished player named by the running /remove proposal."),
    "cmd-add": "Add NAME to a list of yours: /add mute NAME.",
    "cmd-add-help": (
        "/add mute NAME puts NAME on your mute (ignore) list, as on BSW: you no longer see what "
        "NAME says in rooms nor NAME's tells, and a tell of NAME to you looks sent to NAME. The "
        "list of a registered name is stored; a guest's list lasts while the guest is online."),
    "cmd-addbot": (
        "Seat a bot (heuristic unless named) in SEAT or the first free seat, before the start."),
    "cmd-addbot-help": (
        "Seat a bot (heuristic unless named) in SEAT or the first free seat, before the start; only "
        "the host (at a table left without a host, any seated player). expert searches "
        "{default!t} per decision, expert:SECONDS as long as you give it ({low} to {high})."),
    "cmd-announce": "Moderators: say TEXT to everybody online.",
    "cmd-announce-help": (
        "Moderators and admins: one line to everybody online, wherever they are. Logged."),
    "cmd-ban": "Moderators: keep NAME out.",
    "cmd-ban-help": (
        "Moderators and admins: NAME can no longer log in, for DURATION (90s, 30m, 2h, 7d, 1w, a "
        "bare number means minutes) or, without one (or with perm), until /unban NAME; NAME is "
        "disconnected if online. A guest online now also brings its address into the ban: no guest "
        "logs in from there for that time (registered names still do); /banlist shows it. The ban "
        "is stored. A moderator cannot ban a moderator or an admin. Logged."),
    "cmd-banlist": "Moderators: list the bans.",
    "cmd-banlist-help": (
        "Moderators and admins: every ban in force with its end, reason and who gave it; the ban of"
        " a guest shows the address it came from (banned with the name: no guest logs in from "
        "there)."),
    "cmd-bmute": "Moderators: silence NAME in public rooms (off: undo).",
    "cmd-bmute-help": (
        "Moderators and admins: NAME may no longer speak in rooms (the lobby and the table rooms); "
        "tells still work. /bmute NAME off lifts it. Stored; logged."),
    "cmd-bomb": "Bomb, also out of turn: /bomb S5 B5 G5 R5.",
    "cmd-bomb-help": (
        "Plays a bomb (four of a kind, or a straight of five or more cards in one suit) at any time"
        " while a trick is on the table, also when it is not your turn."),
    "cmd-dragon": "Give away a trick won with the Dragon: /dragon left|right.",
    "cmd-dragon-help": (
        "Who wins a trick with the Dragon gives it to an opponent: /dragon right (the next player "
        "in turn order) or /dragon left (the previous one); a seat number or a name works too. With"
        " the option dragon fixed it goes to the next opponent automatically."),
    "cmd-finger": "Account facts, statistics and rating of NAME (or yours).",
    "cmd-finger-help": (
        "Shows whether NAME is registered and since when, when NAME was last seen, and whether NAME"
        " is online now (and in which room); for a registered player also the statistics (games, "
        "wins, rounds, Tichu and Grand Tichu calls and successes, double victories) and the Team "
        "Elo rating. Without NAME: your own."),
    "cmd-grand": "Call Grand Tichu (after your first 8 cards).",
    "cmd-grand-help": (
        "After the first 8 cards, before the last 6 are dealt, every player answers /grand (call "
        "Grand Tichu: 200 points if you go out first, minus 200 otherwise) or /nogrand."),
    "cmd-help": "List the commands, or explain one.",
    "cmd-help-help": (
        "Without an argument, lists the commands you may use, grouped (lobby, chat, tables, play, "
        "records, account, and moderation for moderators and admins). /help COMMAND shows the "
        "command's usage, aliases and a longer explanation; unique prefixes work here too."),
    "cmd-history": "Your (or NAME's) recent games.",
    "cmd-history-help": (
        "Lists the last ten finished games of NAME (without NAME: your own), newest first: the game"
        " number (for /replay), date, table, the two teams with the final score, the number of "
        "rounds, won or lost, and whether the game was unrated."),
    "cmd-iset": "Interface setting of this connection: /iset json 1|0, /iset protocol N.",
    "cmd-iset-help": (
        "/iset json 1 switches this connection to machine mode: from then on every line the server "
        "sends is one JSON object with a type field, and a command line may start with #ID (1 to 32"
        " letters, digits, - or _) that its reply repeats as \"id\". /iset json 0 switches back to "
        "text. A first line %json before the login does the same from the start. Never saved to the"
        " account; docs/protocol.md (\"Machine mode\") describes every object. /iset protocol N (or "
        "a first line %json N) chooses the version of the objects: without it 1."),
    "cmd-join": "Take a seat at this table (first free, or seat 1..4).",
    "cmd-join-help": (
        "Sits you down in seat SEAT (1 to 4) or, without SEAT, the first free seat, before the "
        "start. Seats 1 and 3 play together against seats 2 and 4; play goes 1, 2, 3, 4. With the "
        "option tichujoin the first two to join are partners; with drawseat the seats are drawn at "
        "the start."),
    "cmd-kick": "Moderators: disconnect NAME.",
    "cmd-kick-help": (
        "Moderators and admins: closes NAME's connection with REASON (NAME may log in again; /ban "
        "keeps NAME out). A moderator cannot kick a moderator or an admin. Logged."),
    "cmd-closetable": "Moderators: close table TABLE.",
    "cmd-closetable-help": (
        "Moderators and admins: closes table TABLE whoever sits there, with REASON; everybody in "
        "its room is moved to the lobby, a running game is abandoned and never restored. Logged."),
    "cmd-leave": "Give up your seat before the start.",
    "cmd-leave-help": (
        "Frees your seat again; you stay in the room and watch. Not possible while the game "
        "runs."),
    "cmd-listroom": "List the open tables.",
    "cmd-listroom-help": (
        "Lists the open tables: their number, game, state (waiting, playing, finished), the players"
        " by seat, the options that differ from the defaults, and how many watch. {per_page} tables "
        "at a time: with more, the first line says how many there are and how many wait and play, "
        "and /listroom 2 shows the next {per_page}."),
    "cmd-look": "Show the table (or where you are) again.",
    "cmd-look-help": (
        "At a table: the whole view again, as it is now: the seats with the cards left and the "
        "calls, the score, the trick, the wish, your hand and whose turn it is, with what to type "
        "(a spectator sees the public view, without hands). Elsewhere: the room you are in and how "
        "to find a table. In machine mode the answer is the whole state object. BSW and MUD players"
        " know it as /l."),
    "cmd-manager": "Return to the lobby (room 0).",
    "cmd-manager-help": (
        "Takes you back to the lobby (room 0, BSW's village). Before a game starts this frees your "
        "seat; leaving a running game makes you vanish for the other players (/room N takes you "
        "back)."),
    "cmd-newroom": "Open a new table (GAME: tichu) and go there.",
    "cmd-newroom-help": (
        "Opens a new table room for GAME (only tichu for now, the default) with you as its host, "
        "and moves you there. The table gets the smallest free number; /listroom shows it. Then "
        "/join sits down, /option sets the options, /start begins when four sit."),
    "cmd-nogrand": "Call no Grand Tichu (after your first 8 cards).",
    "cmd-nogrand-help": (
        "Declines Grand Tichu. When all four have answered, the last 6 cards are dealt."),
    "cmd-option": "Set a table option before the start; /option help lists them.",
    "cmd-option-help": (
        "/option help lists the options with their current values. Before the start only the host "
        "sets them (at a table left without a host, any seated player; seed even then only the "
        "host). A flag without VALUE toggles; on/off set it. The options:"),
    "cmd-pass": "Pass (do not play on the current trick).",
    "cmd-pass-help": (
        "Passes on the current trick. Not possible when you lead, nor when the open wish binds "
        "you."),
    "cmd-password": "Change your password.",
    "cmd-password-help": "Changes the password of your registered name from OLD to NEW.",
    "cmd-play": "Play cards (BSW notation), e.g. /play R10 G10 or /play 7 7.",
    "cmd-play-help": (
        "Plays CARDS in BSW notation: suit S (Schwert), B (Pagode), G (Jade), R (Stern) and rank "
        "2-10, B (Bube, jack), D (Dame), K (König), A (Ass), or Ma (Mah Jong), Hu (Dog), Ph "
        "(Phoenix), Dr (Dragon). Ph=7 names the rank the Phoenix stands for where it is not clear. "
        "With the Mah Jong add a wish: /play Ma wish 8 (or /wish RANK right after). Rank-only "
        "shorthand (/play 7 7) is accepted where it is unambiguous; it picks cards that do not "
        "break a bomb. A bomb may be played out of turn with /play too."),
    "cmd-quit": "Leave the server.",
    "cmd-quit-help": "Closes your connection. Your account (if registered) stays. A player of "
                     "a running game is warned first, once (the game waits for them): /quit "
                     "again leaves.",
    "cmd-rangliste": "The best players by rating (rated games only).",
    "cmd-rangliste-help": (
        "The ranking list: the players with the highest Team Elo rating (docs/rating.md), with "
        "their number of rated games. Only games of four registered players, not started with "
        "/startnosave and without a fixed seed, are rated."),
    "cmd-refuse": "Vote no on the running /remove.",
    "cmd-refuse-help": (
        "Votes against removing the vanished player named by the running /remove proposal."),
    "cmd-register": "Register the name you are using.",
    "cmd-register-help": (
        "Registers your current name with PASSWORD (4 to 128 characters, no spaces). From then on "
        "logging in with this name asks for the password, and nobody else can use it. Guest names "
        "(Guest1234) cannot be registered: log in with a name of your own first."),
    "option-timer": "seconds per decision before it is made for the player (off; auto: 60 in a rated game)",
    "option-expects-timer": "whole seconds, 5 to {high}, or off or auto",
    "cmd-unseat": "The host takes a seat away from a player (or bot) at a waiting table.",
    "cmd-unseat-help": (
        "Before the start the host may take anyone's seat away (BSW: /rauswerfen NAME); the player "
        "stays in the room, watching, and may sit down again unless barred with /bar."),
    "cmd-bar": "The host bars a name from the table until it closes.",
    "cmd-bar-help": (
        "The host bars NAME from this table until it closes (BSW: /sperren NAME): a seat at a waiting "
        "table is taken away, NAME is sent to the lobby and may neither come into the room nor sit "
        "down. /unbar NAME lifts it."),
    "cmd-unbar": "The host lets a barred name come to the table again.",
    "cmd-unbar-help": "Lifts the host's /bar of NAME (BSW: /entsperren NAME).",
    "cmd-notify": "Put NAME on your friends list (you hear when NAME comes, goes and plays).",
    "cmd-notify-help": (
        "Puts NAME on your friends list (as FICS' +notify): you are told when NAME logs in or out and "
        "when NAME starts or finishes a game. A registered name keeps its list; a guest's lasts for "
        "the session. At most 100 names (the server's --max-friends may set another limit)."),
    "cmd-unnotify": "Take NAME off your friends list.",
    "cmd-unnotify-help": "Takes NAME off your friends list (/notify NAME put it there).",
    "cmd-friends": "List your friends: who is online and where.",
    "cmd-friends-help": (
        "Lists the names on your friends list (/notify): for each whether they are online, in which "
        "room, or at which table they play."),
    "cmd-remove": "Propose to remove a player who vanished during the game.",
    "cmd-remove-help": (
        "When a player has vanished (disconnected or left the room) during a game, another player "
        "may propose to remove them; the other seated players vote with /accept or /refuse, and a "
        "majority decides. A removed player's seat is taken over by a bot that plays on with their "
        "cards. A player who is present but ran out of time: in a rated game only after two "
        "time-outs, and only with their partner's yes."),
    "cmd-removebot": "Take the bot in SEAT off the table again, before the start.",
    "cmd-removebot-help": (
        "Take the bot in SEAT off the table again, before the start; only the host (at a table "
        "left without a host, any seated player)."),
    "cmd-replay": "Show a stored game round by round.",
    "cmd-replay-help": (
        "Prints stored game GAME (the number /history shows) round by round: the seats, every hand "
        "as dealt, the calls, the exchange, every play, pass and Dragon gift, and each round's "
        "score. With ROUND only that round."),
    "cmd-next": "Show the next page of a long answer.",
    "cmd-next-help": (
        "A long answer (/replay) comes a screenful at a time, sized to your terminal's height "
        "(telnet NAWS, else {rows} rows), each page ending in a -- more -- line; /next shows the "
        "next page. /replay GAME starts again from the top. Machine mode is never paged."),
    "cmd-reset": "Clear a finished table for a new game.",
    "cmd-reset-help": (
        "After a game has ended, clears the table for the next game: the players who are still here"
        " keep their seats, the options stay. Then /start again."),
    "cmd-role": "Admins: give NAME a role: admin, moderator or none.",
    "cmd-role-help": (
        "Admins: makes the registered NAME an admin or a moderator, or (none) an ordinary player "
        "again. Stored; logged. The first admin comes from the server's --admin option."),
    "cmd-room": "Go to room NUMBER (0 is the lobby; a table: watch it).",
    "cmd-room-help": (
        "Moves you to room NUMBER: 0 is the lobby, every other room belongs to the table with that "
        "number. Entering a table room means watching the table (you see only public information); "
        "/join takes a seat there. A player who left a running game comes back to it this way. "
        "/room N for the room you are in shows the table's /spielinfo."),
    "cmd-schupf": "Exchange: one card each to next player, partner, previous player.",
    "cmd-schupf-help": (
        "Gives three cards at the start of each round, in this order: to the next player in turn "
        "order (the opponent after you), to your partner, to the previous player (the opponent "
        "before you), as in BSW's logs. Example: /schupf R2 SA Hu. Rank-only shorthand works "
        "(/schupf 2 A 3)."),
    #. {languages}: the language codes, such as en|de|fr
    "cmd-set": ("Change a setting of this connection (color on|off, lang {languages}, "
                "width N|auto)."),
    "cmd-set-help": (
        "Settings of this connection (only the language is saved): /set color on shows the cards of"
        " hands and tricks in ANSI colours per suit (Schwert bold, Pagode blue, Jade green, Stern "
        "red, the specials yellow); /set color off turns it off again. /set lang {languages} "
        "chooses the language of everything the server tells you ({language_names}); a registered "
        "name keeps it for the next log-in. /set width N wraps every line at N columns ({min_width}"
        " to {max_width}); /set width auto goes back to the width your telnet client tells (NAWS), "
        "or {default_width}. /set bell on rings the terminal bell when it becomes your turn or a "
        "decision waits for you. /set prompt on ends each change of your game with a status "
        "prompt for MUD clients (your cards, whose move, the score), with telnet EOR where the "
        "client agrees. /set alone shows your settings."),
    "cmd-showlist": "Show a list of yours: /showlist mute.",
    "cmd-showlist-help": "/showlist mute shows the names on your mute list.",
    "cmd-shutdown": "Admins: stop the server after a warning.",
    "cmd-shutdown-help": (
        "Admins: warns everybody that the server stops in SECONDS (a REASON alone: {default}), "
        "refuses new tables and new games from then on, and after SECONDS stops cleanly (every "
        "connection told and closed, the database closed). /shutdown cancel calls it off. "
        "/shutdown alone only shows how to use it. Logged."),
    "cmd-spielinfo": "The table's options, seats, scores and state.",
    "cmd-spielinfo-help": (
        "Shows the state of the table (waiting, playing, finished), its host, the players by seat, "
        "the score and round, the options that differ from the defaults, who watches, and after the"
        " end the outcome. /spielinfo N shows table N from anywhere, the lobby too."),
    "cmd-start": "Start the game when four players sit.",
    "cmd-start-help": (
        "Starts the game once all four seats are taken. Only the host may start (at a table left "
        "without a host, any seated player). The seating, the options and the seed are fixed from "
        "here on."),
    "cmd-startnosave": "Start an unrated game that counts in no statistics.",
    "cmd-startnosave-help": (
        "Starts the game like /start, but it is unrated and counts in nobody's statistics (it is "
        "still stored: /history and /replay show it). Games with bots or guests, and games with a "
        "fixed seed (/option seed), are unrated anyway."),
    "cmd-sub": "Take NAME off a list of yours: /sub mute NAME.",
    "cmd-sub-help": "/sub mute NAME takes NAME off your mute list again.",
    "cmd-tchlog": "A stored game as a BSW log file (.tch).",
    "cmd-tchlog-help": (
        "Prints stored game GAME (the number /history shows) as the .tch file of BrettspielWelt's "
        "log archive, line by line, for the tools that analyse BSW logs (docs/operations.md, \"BSW "
        "logs\"). Games played with /option log off have none."),
    "cmd-tell": "Whisper TEXT to NAME (also: ;NAME TEXT or @NAME TEXT).",
    "cmd-tell-help": (
        "Sends a private message to one person who is online, wherever they are. Only NAME sees it;"
        " you see a confirmation. ;NAME TEXT is the short form. tintin++ reads ; as its own command"
        " separator (;Anna hi would reach the room as the speech \"Anna hi\"): there, whisper with "
        "@NAME TEXT (or /tell NAME TEXT)."),
    "cmd-tichu": "Call Tichu (before your first card).",
    "cmd-tichu-help": (
        "Calls Tichu: 100 points if you go out first, minus 100 otherwise. Possible any time before"
        " you play your first card (also during the exchange), once per round."),
    "cmd-unban": "Moderators: lift the ban on NAME.",
    "cmd-unban-help": "Moderators and admins: NAME may log in again. Logged.",
    "cmd-whereis": "Which room NAME is in.",
    "cmd-whereis-help": (
        "Tells which room (the lobby or a table's room, with its number) NAME is in."),
    "cmd-who": "Who is in your room.",
    "cmd-who-help": "Lists the people in the room you are in (at first the lobby, room 0).",
    "cmd-wish": "Wish a rank after playing the Mah Jong (/wish none: no wish).",
    "cmd-wish-help": (
        "Right after you played the Mah Jong without a wish: /wish RANK (2 to A) or /wish none. The"
        " next player who holds a card of that rank and can play it must do so until it is played."),
    "cmd-wwho": "Everybody online, and where they are.",
    "cmd-wwho-help": (
        "Lists everybody who is online, with the room each one is in; guests are marked."),
    # table options (lobby/tables/options.py)
    "option-round": "at most X rounds (off: play to the target)",
    "option-tichujoin": "the first two to /join play together",
    "option-turnier": "9 rounds, rotating partners, victory points (not with round)",
    "option-target": "the score that ends the game",
    "option-drawseat": "seats are drawn at random at the start",
    "option-host": "only the host starts and sets options",
    "option-dragon-fixed": "Dragon trick to the next opponent",
    "option-bombwindow": "seconds to bomb before a won trick goes on",
    "option-seed": "same seed, same cards (off: random)",
    "option-log": "store the game as a BSW log too",
    "option-grace": "seconds before a vanished player may be /removed",
    "option-help-line": "{name}: {meaning} ({expects}; default {default})",
    # what an option takes (the error bad-option-value)
    "option-expects-flag": "on or off",
    "option-expects-seconds": "seconds, 0 to {high}",
    "option-expects-max_rounds": "a number of rounds",
    "option-expects-target": "a score such as 500 or 1000",
    "option-expects-seed": "a whole number",
}
# ---- the web client's own words (protocol/web/static: served as /strings/LANG.json) -------------
# The page fills {name}-style fields itself; the server's messages (errors, chat) come with
# their text from the catalog above.
WEB_TEXTS: dict[str, str] = {
    "web-title": "Tichu",
    "web-connecting": "Connecting...",
    "web-reconnecting": "The connection was lost; connecting again...",
    "web-name": "Name",
    "web-password": "Password (registered names only)",
    "web-login": "Log in",
    "web-guest": "Play as a guest",
    "web-language": "Language",
    "web-logout": "Log out",
    "web-lobby": "Lobby",
    "web-online": "Online",
    "web-tables": "Tables",
    "web-no-tables": "No open tables: open one.",
    "web-state-waiting": "waiting",
    "web-state-playing": "playing",
    "web-state-finished": "finished",
    "web-refresh": "Refresh",
    "web-new-table": "New table",
    "web-watch": "Watch",
    #. the lobby's button for a table where the reader holds a seat (instead of "Watch")
    "web-back-to-seat": "Back to my seat",
    "web-sit": "Sit down",
    "web-seat": "Seat {seat}",
    "web-free": "free",
    "web-spectators": "{count} watching",
    "web-chat": "Chat",
    "web-say": "Say something",
    "web-send": "Send",
    "web-to-lobby": "Back to the lobby",
    "web-table": "Table {table}",
    "web-add-bot": "Add a bot",
    "web-level-heuristic": "heuristic",
    "web-level-random": "random",
    "web-level-expert": "expert",
    "web-level-expert-slow": "expert, 2 s",
    "web-options": "Options",
    "web-set": "Set",
    "web-start": "Start",
    "web-reset": "New game",
    "web-leave-seat": "Stand up",
    "web-hand": "Your hand",
    #. the card input's placeholder: short (a 360 px phone); the ranks as the cards show them
    #. in the language (English J Q K A: GJ is the jade jack)
    "web-type-cards": "e.g. R10 GJ Ph",
    #. beside the card input; {suits} e.g. ♠S ◆B ♣G ★R (the suit letters stay), {ranks} the
    #. page's letters for jack, queen, king, ace (web-ranks), e.g. J Q K A
    "web-card-legend": "A card is its suit and rank: {suits}; 2-10 {ranks}; specials Ma Hu Ph Dr.",
    #. after a reload a registered name comes back into the form: the password is never kept
    "web-password-again": "Log in again with your password.",
    #. a running game holds the seat of the guest {name} at table {table}, and this browser tab
    #. has not the key of that seat (it is kept only in the tab where they sat down); the log-in
    #. form comes back, for a guest name or another name
    "web-seat-key-missing": "Table {table} keeps the seat of the guest {name}, and this tab "
                            "does not have its key (only the tab where you sat down has it). "
                            "Type the key shown at the table, play as a guest, or log in with "
                            "another name.",
    #. the box for that key in the log-in form, and its button
    "web-seat-key": "Key of the seat",
    "web-seat-key-use": "Back to the seat",
    #. the key typed in that box is being checked (the server pauses a moment after a wrong one)
    "web-seat-key-checking": "Checking the key...",
    #. the key typed in that box is not the seat's
    "web-seat-key-wrong": "Wrong key. Type the key shown at the table again.",
    #. the WebSocket did not open, and the server gave no reason: it tries again by itself
    "web-cannot-connect": "The server cannot be reached; trying again...",
    #. the WebSocket was refused: the server has as many connections as it takes
    "web-refused-server-full": "The server is full; trying again in a moment...",
    #. the WebSocket was refused: this address has as many connections open as one address may
    #. (other tabs or devices behind the same address count too)
    "web-refused-too-many-connections": "Too many connections are open from your address "
                                        "(other tabs or devices count too); close one. "
                                        "Trying again...",
    #. the WebSocket was refused: this address opened too many connections in the last minute
    "web-refused-connecting-too-fast": "Too many new connections from your address; trying "
                                       "again in a moment...",
    #. the answer to /register typed in a chat line
    "web-registered": "{name} is registered: next time log in with the password.",
    #. the trick is over (won, a bomb too) and its winner leads
    "web-trick-won": "{name} takes the trick.",
    #. the Tichu button after one tap: a second tap calls
    "web-confirm-tichu": "Call Tichu? Tap again",
    "web-confirm-grand": "Call Grand Tichu? Tap again",
    #. the value box of an option (its hint is a line below)
    "web-value": "value",
    "web-value-auto": "auto",
    "web-select": "Select",
    "web-play": "Play",
    #. one button per reading of the Phoenix in a play; {rank} e.g. Seven
    "web-play-as": "Play, the Phoenix as {rank}",
    #. typed cards that are not in the hand; {cards} e.g. ZZ R11
    "web-unknown-cards": "Not in your hand: {cards}. Cards are typed like S5 R10 GJ Ph.",
    #. a typed card whose first letter is no suit; {letter} e.g. Z, {suits} e.g. "♠S ◆B ♣G ★R"
    "web-unknown-suit": "{letter} is no suit letter: the suits are {suits}.",
    #. a typed card with a rank letter of another language (the English Q of a queen, which
    #. French writes D); {letter} e.g. Q, {name} the rank's name e.g. Queen, {shown} its letter here
    "web-unknown-rank-as": "{letter} is no card letter here; {name} is {shown}.",
    #. a typed card whose rank is no rank; {letter} e.g. X, {ranks} e.g. "2-10 J Q K A"
    "web-unknown-rank": "{letter} is no card letter here: the ranks are {ranks}.",
    "web-pass": "Pass",
    "web-tichu": "Tichu",
    "web-grand": "Grand Tichu",
    "web-no-grand": "No Grand Tichu",
    "web-bomb": "Bomb {cards}",
    "web-schupf": "Give three cards: choose a card, then whom it goes to.",
    "web-give-left": "Left",
    "web-give-partner": "Partner",
    "web-give-right": "Right",
    "web-give": "Give the cards",
    "web-wish": "Your wish:",
    "web-no-wish": "No wish",
    "web-dragon": "Give the Dragon trick to:",
    "web-you": "you",
    "web-partner": "partner",
    "web-cards-left": "{count} cards",
    #. the same for one card (the page picks it by the language's plural rule)
    "web-cards-left-one": "{count} card",
    #. the ranks 2..A as this language writes them on a card (BSW's B D K A are still what is
    #. typed); thirteen, separated by spaces
    "web-ranks": "2 3 4 5 6 7 8 9 10 J Q K A",
    "web-bot": "bot",
    "web-turn": "to play",
    "web-gone": "gone",
    #. {place} e.g. 1st (the catalog's place-N)
    "web-out": "out ({place})",
    "web-round": "Round {round}",
    #. the reader's side first (a spectator's: seats 1 and 3); {side_a} e.g. "you and Cleo"
    #. (web-side-you) or "Anna and Cleo" (web-side), {a} its score
    "web-score-sides": "Score: {side_a} {a} : {b} {side_b}",
    "web-side-you": "you and {partner}",
    "web-side": "{a} and {b}",
    "web-trick": "Trick",
    "web-wish-open": "Wish: {rank}",
    "web-watching": "You are watching this table.",
    #. to the host of a new table who has not sat down yet
    "web-host-hint": "Your table: sit down, add bots, set the options, then start.",
    "web-waiting-for": "Waiting for {name}",
    "web-key": "Your key to come back to this seat: {key}",
    #. every score on the page in one order, the reader's side first (a spectator's: seats 1
    #. and 3), each side named: {side_a} e.g. "you and Cleo", {side_b} e.g. "Bert and Dirk"
    "web-round-over": "Round {round} is over: {side_a} {a} : {b} {side_b} "
                      "(total {total_a} : {total_b}).",
    #. {winners} e.g. "you and Cleo" or "Bert and Dirk"; then the score, the reader's side first
    "web-game-over-won": "The game is over: {winners} win; {side_a} {a} : {b} {side_b}.",
    "web-game-over-shared": "The game is over: a draw; {side_a} {a} : {b} {side_b}.",
    #. the round's breakdown, the reader's side first: card points and the Tichu calls' bonuses
    "web-round-detail": "Card points {cards_us} : {cards_them}; Tichu calls {tichu_us} : {tichu_them}.",
    #. the same after a double victory: its points (200 for the side that made it; no card
    #. points are counted), the reader's side first
    "web-round-detail-double": "Double victory {double_us} : {double_them}; Tichu calls "
                               "{tichu_us} : {tichu_them}.",
    "web-double-victory": "A double victory for {side}.",
    "web-history": "My games",
    "web-no-games": "No finished games yet.",
    "web-replay": "Replay",
    "web-close": "Close",
    "web-game": "Game {game}",
    "web-won": "won",
    "web-lost": "lost",
    "web-dealt": "{name} was dealt {cards}",
    "web-ev-play": "{name}: {cards}",
    "web-ev-pass": "{name} passes",
    "web-ev-tichu": "{name} calls Tichu",
    "web-ev-grand": "{name} calls Grand Tichu",
    "web-ev-wish": "{name} wishes for {rank}",
    "web-ev-trick": "{name} takes the trick ({points} points)",
    "web-ev-dragon": "{name} gives the Dragon trick to {to}",
    "web-ev-out": "{name} is out ({place})",
    #. after a play with the Phoenix: which rank it stood for; {rank} e.g. Seven
    "web-ev-phoenix": "(the Phoenix as {rank})",
    "web-ev-exchange": "{name} has given three cards",
    #. one card of the schupf: {card} the card, {name} who gave it
    "web-ev-received-from": "You received {card} from {name}",
    #. in a replay: {name} gave {card} to {to}
    "web-ev-gave": "{name} gave {card} to {to}",
}
# ---- the rules engine's refusals: error codes too --------------------------------------------
# lobby.tichu raises `Rejected(code, **params)` (illegal plays, wrong phase, ...) and has no
# text of its own: the text is here, part of ERRORS, rendered like every other error
ENGINE_ERRORS: dict[str, str] = {
    "bad-card": "Not a card: {token!r}. Cards are written like R10 GB SD BK RA Ma Hu Ph Dr.",
    # round.py / match.py
    "bad-seat": "There is no seat {seat!r}.",
    "bad-action": "Not an action: {action}.",
    "wrong-phase": "That is not possible now (phase: {phase!w:phase}).",
    "round-over": "The round is over.",
    "match-over": "The game is over.",
    "no-grand-tichu": "Grand Tichu is not played at this table.",
    "grand-already-decided": "You have already decided on the Grand Tichu.",
    "grand-undecided": "First decide on the Grand Tichu: /grand or /nogrand.",
    "already-called": "You have already called {call}.",
    "tichu-too-late": "Too late for Tichu: you have already played a card.",
    "exchange-over": "The exchange is over.",
    "already-exchanged": "You have already given your three cards.",
    "exchange-three-cards": "Give exactly three cards: to the next player, your partner and "
                            "the previous player (you named {count}).",
    "exchange-incomplete": "Not everybody has given his cards yet.",
    "waiting-for-wish": "Waiting for the Mah Jong player to name a wish.",
    "waiting-for-dragon": "Waiting for seat {seat} to give the Dragon trick away.",
    "you-are-out": "You have no cards left in this round.",
    "not-your-turn": "It is not your turn (seat {turn} plays); out of turn only a bomb may be "
                     "played on the table.",
    "must-lead": "You lead: play something (you cannot pass).",
    "must-fulfil-wish": "The wish binds you: play {rank!w:a-rank}.",
    "bad-wish": "Not a rank to wish for: {rank!r}. Wish 2..10, B, D, K, A or none.",
    "wish-without-mahjong": "Only a play with the Mah Jong may name a wish.",
    "no-wish-pending": "There is no wish for you to name.",
    "no-dragon-pending": "There is no Dragon trick to give away.",
    "not-your-dragon": "The Dragon trick is seat {seat}'s to give away.",
    "dragon-to-opponent": "The Dragon trick must go to an opponent, not to seat {seat}.",
    # cards.py
    "duplicate-card": "{card} is named twice.",
    "bad-rank": "Not a rank: {token!r}. Ranks are 2..10, B (or J), D (or Q), K, A.",
    # cards.py: the rank-only shorthand of a play (`/play 7 7`)
    "ambiguous-cards": "Which {rank!w:ranks}? Every choice breaks a bomb; name the cards, e.g. "
                       "{example}.",
    "missing-rank": "You do not hold {count} {count!p:card|cards} of rank {rank}.",
    # moves.py: why a play is refused
    "no-cards": "Name the cards to play.",
    "cards-not-in-hand": "You do not hold {cards}.",
    "not-a-combination": "{cards} is not a combination.",
    "bad-phoenix-reading": "The Phoenix cannot stand for {rank!w:a-rank} in {cards}.",
    "dog-on-table": "Nothing can be played on the Dog, not even a bomb.",
    "dog-not-lead": "The Dog can only be led, not played on a trick.",
    "phoenix-on-dragon": "The Phoenix cannot be played on the Dragon.",
    "bomb-on-table": "{play} does not beat the bomb {top}: only a higher bomb does.",
    "wrong-kind": "{play} cannot be played on {top}: {kind!w:kind-a} does not go on "
                  "{top_kind!w:kind-a}.",
    "wrong-length": "{play} cannot be played on {top}: a play must have as many cards as the one it beats.",
    "too-low": "{play} does not beat {top}.",
    "wish-not-followed": "You must play {rank!w:a-rank}: the open wish (or a bomb).",
    "not-a-bomb": "{cards} is not a bomb; only a bomb can be played out of turn.",
    "bomb-on-empty-table":
        "A bomb can be thrown in only while a play lies on the table; lead it in your turn.",
}
ERRORS.update(ENGINE_ERRORS)


CATALOGS: dict[str, dict[str, str]] = {"en": {**INFO, **ERRORS, **HELP_TEXTS, **WEB_TEXTS}}

# the other languages: lobby/text/locales/LANG/LC_MESSAGES/messages.mo (gettext, made with Babel from
# the PO next to it; docs/translating.md), each holding the keys whose translation was made for
# today's English (the rest falls back to English)
_translated, PLURAL_FORMS = _translations.load(CATALOGS["en"])

#: each language's quotation marks, opening and closing (a quoted name, words quoted in a help
#: text): German „…“, French « … » with no-break spaces, Spanish «…» (the RAE's first choice),
#: Danish »…« (Dansk Sprognævn's first recommendation, the usual marks of Danish print). A
#: catalog writes a quotation with any pair of marks ("…" in English, which keeps them);
#: `quote_marks` gives every template of a language that language's own, one rule for all.
QUOTES: dict[str, tuple[str, str]] = {"de": ("\u201e", "\u201c"), "fr": ("\u00ab\u00a0", "\u00a0\u00bb"),
                                      "es": ("\u00ab", "\u00bb"), "da": ("\u00bb", "\u00ab")}
#: the pairs of marks a translator may have written, each read as a quotation (the spaces
#: inside French marks included)
_QUOTED = re.compile('|'.join([
    "\u00ab[ \u00a0\u202f]?([^\u00ab\u00bb\n]*?)[ \u00a0\u202f]?\u00bb",   # « … »
    "\u201e([^\u201e\u201c\n]*?)\u201c",                                        # „…“
    "\u201c([^\u201c\u201d\n]*?)\u201d",                                        # “…”
    "\u00bb([^\u00ab\u00bb\n]*?)\u00ab",                                        # »…«
    '"([^"\n]*)"']))                                                              # "…"


def quote_marks(template: str, lang: str) -> str:
    """``template`` with each quotation in ``lang``'s own marks (``QUOTES``); English, and a
    language without marks of its own, as it is."""
    marks = QUOTES.get(lang)
    if marks is None or template.count('"') % 2:
        return template
    opening, closing = marks
    return _QUOTED.sub(lambda m: opening + next(g for g in m.groups() if g is not None) + closing,
                       template)


def quoted(value: Any, lang: str) -> str:
    """``value`` as somebody typed it, in ``lang``'s quotation marks (``QUOTES``; English "…"),
    a character that prints nothing shown as its escape (``\\x1b``), as repr did."""
    shown = str(value)
    if not shown.isprintable():
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in shown)
    opening, closing = QUOTES.get(lang, ('"', '"'))
    return opening + shown + closing


for _lang, _catalog in _translated.items():
    for _key, _template in _catalog.items():
        _catalog[_key] = quote_marks(_template, _lang)
CATALOGS.update(_translated)

#: the languages of the catalogs, English first (the default and the fallback), then every
#: language that has a compiled catalog in lobby/text/locales, by code
LANGUAGES: tuple[str, ...] = ("en", *(lang for lang in _translations.available_languages()
                                      if lang != "en"))


def coverage(lang: str) -> float:
    """The share of the English catalog that ``lang`` translates (1.0 for English)."""
    return len(CATALOGS.get(lang, {}).keys() & CATALOGS["en"].keys()) / len(CATALOGS["en"])


def language_name(lang: str) -> str:
    """The language's name in itself ("Deutsch"): its catalog's ``language-name``, else CLDR's."""
    own = CATALOGS.get(lang, {}).get("language-name")
    return own or _translations.display_name(lang)


def language_lines(per_line: int = 2) -> list[str]:
    """The greeting's lines that tell how to switch language, each language in its own words
    (its catalog's ``greeting-language``), ``per_line`` to a line."""
    parts = [text("greeting-language", lang, code=lang) for lang in LANGUAGES]
    return [" · ".join(parts[i:i + per_line]) for i in range(0, len(parts), per_line)]


def plural_form(count: float | int | str, forms: str, lang: str = "en") -> str:
    """The word of ``forms`` ("FORM0|FORM1|...", in the order of the language's Plural-Forms)
    that goes with ``count`` in ``lang``; a missing form is the last one given."""
    choices = forms.split("|")
    if len(choices) == 1:
        return choices[0]
    try:
        n = abs(float(count))
    except (TypeError, ValueError):
        return choices[-1]
    if n != n or n in (float("inf"),):
        return choices[-1]
    index = _translations.plural_index(lang, n, PLURAL_FORMS)
    return choices[min(index, len(choices) - 1)]


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """Render message `key` in `lang` (falling back to English) with `params`. A field written
    `{seconds!t}` is a duration in seconds, shown as people read it (`duration`); a field
    written `{count!p:table|tables}` is the word form that goes with `count` (`plural_form`); a
    field written `{rank!w:a-rank}` is the catalog's word `a-rank-VALUE` for its value (`word`).
    A parameter that is a `Msg` is rendered in `lang` first. A message whose ``room`` is a
    table's room (``room-table``) is its ``KEY-table`` form where the catalog has one."""
    room = params.get("room") if "room" in params else None
    if room is not None and type(room) is Msg and room.key == "room-table" \
            and key + "-table" in CATALOGS["en"]:
        # a table's room reads as each language says it ("leaves table 2"), not as the room's
        # data words ("leaves the Table 2 room"): the message's KEY-table form
        key += "-table"
        params = {**params, "number": room.params["number"]}
    template = CATALOGS.get(lang, _NO_CATALOG).get(key) or CATALOGS["en"].get(key)
    if template is None:
        return key + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
    if not params and "{" not in template and "}" not in template:
        return template         # (what format_template makes of it: no field, no brace escaped)
    return format_template(template, lang, params)


_NO_CATALOG: dict[str, str] = {}


def format_template(template: str, lang: str, params: dict[str, Any]) -> str:
    """A catalog template filled with ``params`` in ``lang`` (`text` without the look-up); a
    template that does not format comes back as it is. A parameter named ``usage`` is a usage
    line (`Usage`: its placeholders in ``lang``)."""
    if "usage" in params and type(params["usage"]) is str and lang != "en":
        params = {**params, "usage": Usage(params["usage"])}
    for value in params.values():
        if type(value) in _LAZY:
            params = {k: v.text(lang) if type(v) in _LAZY else v for k, v in params.items()}
            break
    try:
        if lang in _JOIN_RULES and "{" in template:
            return _format_joined(template, lang, params)
        if "!" in template or (lang != "en" and _decimal_comma(lang)
                               and any(type(v) is float for v in params.values())):
            return _Formatter(lang).vformat(template, (), params)
        return template.format_map(params)     # (= format(**params), without copying them)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return template


# ---- the joins that depend on the value filled in: rules of a language, not hand edits ---------
#: French elides a short word before a vowel: "le souhait d'Ingrid", "le Tichu d'Amelie"
_ELIDABLE = re.compile(r"(?:^|(?<=[\s(«]))(de|que|le|la|ne|je|se|me|te|lorsque|puisque) $", re.I)
_VOWEL_START = re.compile(r"[aeiouyàâäéèêëîïôöûùüœæ]", re.I)
#: Danish writes the genitive of a name ending in s, x or z with an apostrophe alone: "Mads'
#: Tichu", "Anna's" stays "Annas"
_DANISH_GENITIVE = re.compile(r"s(?=$|[\s.,;:!?)])")


def _french_join(before: str, value: str) -> tuple[str, str]:
    match = _ELIDABLE.search(before)
    if match is None or not _VOWEL_START.match(value):
        return before, value
    word = match.group(1)
    return before[:match.start(1)] + word[:-1] + "'", value


#: German contracts a preposition with the article a value begins with: "in dem Raum von
#: Tisch 1" -> "im Raum von Tisch 1", "an dem", "von dem", "zu dem", "zu der", "in das"
_GERMAN_CONTRACTIONS = {("in", "dem"): "im", ("an", "dem"): "am", ("von", "dem"): "vom",
                        ("zu", "dem"): "zum", ("zu", "der"): "zur", ("in", "das"): "ins",
                        ("bei", "dem"): "beim"}
_GERMAN_PREPOSITION = re.compile(r"(?:^|(?<=\s))(in|an|von|zu|bei) $", re.I)


def _german_join(before: str, value: str) -> tuple[str, str]:
    match = _GERMAN_PREPOSITION.search(before)
    if match is None:
        return before, value
    article, _, rest = value.partition(" ")
    short = _GERMAN_CONTRACTIONS.get((match.group(1).lower(), article))
    if short is None or not rest:
        return before, value
    if match.group(1)[0].isupper():
        short = short.capitalize()
    return before[:match.start(1)] + short + " ", rest


def _danish_join(value: str, after: str) -> str:
    if value[-1:].lower() in ("s", "x", "z") and _DANISH_GENITIVE.match(after):
        return "'" + after[1:]
    return after


#: lang -> (the rule for the literal before a value, the rule for the literal after it)
#: Spanish contracts "de el" and "a el" when the value begins with the article: "sale de
#: {room}" with "el lobby" -> "sale del lobby"
_SPANISH_PREPOSITION = re.compile(r"(?:^|(?<=\s))(de|a) $", re.I)


def _spanish_join(before: str, value: str) -> tuple[str, str]:
    match = _SPANISH_PREPOSITION.search(before)
    if match is None or not value.startswith("el "):
        return before, value
    short = {"de": "del", "a": "al"}[match.group(1).lower()]
    if match.group(1)[0].isupper():
        short = short.capitalize()
    return before[:match.start(1)] + short + " ", value[3:]


_JOIN_RULES: dict[str, tuple[Any, Any]] = {"fr": (_french_join, None), "da": (None, _danish_join),
                                           "de": (_german_join, None),
                                           "es": (_spanish_join, None)}


def _format_joined(template: str, lang: str, params: dict[str, Any]) -> str:
    """``template`` filled field by field, so that the language's joining rules see each value
    and the text around it (`_JOIN_RULES`)."""
    formatter = _Formatter(lang)
    before_rule, after_rule = _JOIN_RULES[lang]
    out: list[str] = []
    last_value: str | None = None
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if literal and last_value and after_rule is not None:
            literal = after_rule(last_value, literal)
        out.append(literal)
        last_value = None
        if field is None:
            continue
        value = formatter.get_field(field, (), params)[0]
        value = formatter.convert_field(value, conversion)
        if spec and "{" in spec:
            spec = formatter.vformat(spec, (), params)
        shown = formatter.format_field(value, spec or "")
        if before_rule is not None and out and shown:
            out[-1], shown = before_rule(out[-1], shown)
        out.append(shown)
        last_value = shown
    return "".join(out)


#: language -> whether it writes a decimal comma (one of lobby.tichu.memo's)
_DECIMAL_COMMAS: _memo.BoundedMemo[bool] = _memo.BoundedMemo(256)


def _decimal_comma(lang: str) -> bool:
    """Whether ``lang`` writes 2,5 for 2.5 (CLDR's decimal symbol, through Babel)."""
    known = _DECIMAL_COMMAS.find(lang) if _memo.ON else None
    if known is None:
        try:
            from babel.numbers import get_decimal_symbol
            known = get_decimal_symbol(lang) == ","
        except Exception:        # a code CLDR does not know (a test's pseudo-language)
            known = False
        _DECIMAL_COMMAS.put(lang, known)
    return known


def number(value: float | int, lang: str = "en") -> str:
    """A number as ``lang`` writes it: 2.5, 2,5; a whole float without its .0."""
    if type(value) is float and value.is_integer():
        value = int(value)
    shown = f"{value:g}" if type(value) is float else str(value)
    return shown.replace(".", ",") if lang != "en" and _decimal_comma(lang) else shown


def word(prefix: str, value: Any, lang: str = "en") -> str:
    """The catalog's word ``PREFIX-VALUE`` in ``lang`` (``rank-A`` "Ace", ``a-rank-A`` "an
    Ace", ``phase-play``), or the value itself where the catalog has no such word."""
    key = f"{prefix}-{value}"
    if key in CATALOGS["en"]:
        return text(key, lang)
    return str(value)


class Msg(str):
    """A catalog message as a parameter of another one (an error's ``expected``, a ban's
    ``until``): a ``str`` (its English text, for logs and machine mode's ``params``) that
    `text` renders in the language of the message it fills."""

    __slots__ = ("key", "params")
    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, /, **params: Any) -> Msg:
        return cls.named(text(key, "en", **params), key, **params)

    @classmethod
    def named(cls, data: str, key: str, /, **params: Any) -> Msg:
        """The message ``key`` whose ``str`` (machine mode's data, logs) is ``data``, not its
        English text: a name that stays as programs know it while people read the catalog's
        words (the lobby's room: ``Lobby`` as data, "the lobby" in an English sentence)."""
        self = super().__new__(cls, data)
        self.key = key
        self.params = params
        return self

    def text(self, lang: str = "en") -> str:
        return text(self.key, lang, **self.params)

    def __reduce__(self) -> Any:
        return (_msg, (self.key, self.params, str(self)))


def _msg(key: str, params: dict[str, Any], data: str | None = None) -> Msg:
    return Msg(key, **params) if data is None else Msg.named(data, key, **params)


_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]+\b")


class Usage(str):
    """A command's usage line (``/play CARDS``, ``/join [SEAT]``) as a parameter of a message: a
    ``str`` (the English, for logs and machine mode) whose placeholder words `text` renders in
    the reader's language (the catalog's ``arg-WORD``: de ``/play KARTEN``)."""

    __slots__ = ()

    def text(self, lang: str = "en") -> str:
        if lang == "en":
            return str(self)
        return _PLACEHOLDER.sub(lambda m: placeholder(m.group(0), lang), self)


def placeholder(word: str, lang: str = "en") -> str:
    """A usage line's placeholder (``CARDS``) in ``lang`` (``KARTEN``); a word the catalog has no
    ``arg-WORD`` for stays as it is."""
    key = "arg-" + word
    return text(key, lang) if key in CATALOGS["en"] else word


class Number(str):
    """A number as a parameter of a message: a ``str`` as English writes it (``0.05``, for logs
    and machine mode) that `text` writes as the reader's language does (``0,05``)."""

    __slots__ = ()

    def text(self, lang: str = "en") -> str:
        try:
            return number(float(self), lang)
        except ValueError:
            return str(self)


_LAZY = (Msg, Usage, Number)


def words_for(key: str, lang: str) -> frozenset[str]:
    """The words a catalog entry ``key`` lists, ``|``-separated (``words-on``: on|yes), in
    ``lang`` and in English, lower-case: what a person may type for one meaning."""
    out: set[str] = set()
    for language in {lang, "en"}:
        out.update(w.strip().lower() for w in text(key, language).split("|") if w.strip())
    return frozenset(out)


#: the language of the names BSW's letters stand for (S Schwert, K König, A Ass): the German
#: catalog's words of the suits and ranks are those names, so each is written in one place (the
#: card legend prints them in every language, and rank words are read in it in every language)
NOTATION_LANGUAGE = "de"


def rank_of_word(word: str, lang: str) -> str | None:
    """The rank (``D``) a word of ``lang``, of English or of BSW's notation (the German names
    the letters stand for, printed in every language's card legend) names (``Dame``, ``queen``,
    ``Queens``, ``Jack``), or None."""
    low = word.strip().lower()
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A"):
        for language in {lang, "en", NOTATION_LANGUAGE}:
            for prefix in ("rank", "ranks"):
                if text(f"{prefix}-{rank}", language).lower() == low:
                    return rank
    return None


def one_of(values: Any, key: str = "names-or") -> str:
    """``a, b or c`` (with ``key`` "names-and": ``a, b and c``) in the language of the message
    it fills: the last two joined by the catalog's ``names-or``, the others by commas."""
    items = [str(v) for v in values]
    if len(items) < 2:
        return items[0] if items else ""
    return Msg(key, names=", ".join(items[:-1]), name=items[-1])


def duration(seconds: float | int | str, lang: str = "en") -> str:
    """A duration as people read it: `8 seconds`, `1 second`, `2.5 seconds`, `2 minutes`,
    `1 minute 30 seconds`, `2 hours 5 minutes` (never `0.133333 minutes`). Below a minute
    fractions are kept (`:g`); from a minute on the seconds are whole."""
    value = float(seconds)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"not a duration: {seconds!r}")
    if abs(value) < 60:
        return _unit("second", round(value, 1), lang)
    whole = round(value)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [_unit(unit, n, lang) for unit, n in (("hour", hours), ("minute", minutes),
                                                   ("second", secs)) if n]
    return " ".join(parts)


def _unit(unit: str, n: float, lang: str) -> str:
    return text(f"duration-{unit}", lang, n=int(n) if float(n).is_integer() else float(n))


class _Plural:
    """A count waiting for its word forms (the format spec of a `!p` field)."""

    __slots__ = ("count", "lang")

    def __init__(self, count: Any, lang: str) -> None:
        self.count = count
        self.lang = lang

    def __format__(self, forms: str) -> str:
        return plural_form(self.count, forms, self.lang)


class _Word:
    """A value waiting for the prefix of its catalog word (the format spec of a `!w` field)."""

    __slots__ = ("value", "lang")

    def __init__(self, value: Any, lang: str) -> None:
        self.value = value
        self.lang = lang

    def __format__(self, prefix: str) -> str:
        return word(prefix, self.value, self.lang) if prefix else str(self.value)


class _Formatter(string.Formatter):
    """str.format with three more conversions: `!t` writes a duration (`duration`), `!p` the
    word form for a count (`{count!p:table|tables}`, `plural_form`), `!w` the catalog's word for
    a value (`{rank!w:rank}`: `rank-A` "Ace", `word`); and `!r` quotes what somebody typed in
    the language's own marks (`quoted`), not as Python's repr."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> Any:
        if type(value) is float and not format_spec:
            return number(value, self.lang)
        return super().format_field(value, format_spec)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "t":
            return duration(value, self.lang)
        if conversion == "p":
            return _Plural(value, self.lang)
        if conversion == "w":
            return _Word(value, self.lang)
        if conversion == "r":
            return quoted(value, self.lang)
        return super().convert_field(value, conversion)


class LobbyError(Exception):
    """A refused command: `code` is a catalog key from ERRORS, `params` fill its template."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        return text(self.code, lang, **self.params)
