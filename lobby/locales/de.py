"""The German catalog: every English key of lobby/messages.py, the same placeholders, in
BSW's German (Tisch, Runde, Stich, Schupfen, Wunsch, Bombe, Drache, Phönix, Hund, Mah Jong; du)."""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # ---- informational messages --------------------------------------------------------------------
    # connection and login (protocol/session.py)
    "greeting": "Willkommen in der Tichu-Lobby. Melde dich mit deinem Namen an oder tippe guest.",
    # the same in every language: how to switch, in a few words of each
    "greeting-languages": (
        "In English: /set lang en · Auf Deutsch: /set lang de\n"
        "En français : /set lang fr · En español: /set lang es\nPå dansk: /set lang da"),
    "motd": "{text}",
    "login-prompt": "Name: ",
    "password-prompt": "Passwort: ",
    "guest-confirm": (
        "„{name}“ ist kein registrierter Name. Drück Enter, um als Gast {name} zu spielen, oder tippe "
        "einen anderen Namen: "),
    "typed-ahead-dropped": (
        "(Diese Zeile wurde nicht verwendet: Es könnte ein zu früh getipptes Passwort sein.)"),
    "seat-key-prompt": "Schlüssel: ",
    "seat-key-asked": (
        "Tisch {table} hält den Platz des Gasts {name} frei: Tippe den Schlüssel, den du beim Hinsetzen "
        "bekommen hast (eine leere Zeile: zurück zur Anmeldung)."),
    "seat-key-asked-late": (
        "Tisch {table} hält den Platz des Gasts {name} frei: Tippe den Schlüssel, den du beim Hinsetzen "
        "bekommen hast, um ihn zurückzubekommen (eine leere Zeile: als {name} ohne ihn anmelden)."),
    "logged-in-guest": (
        "Hallo {name}! Du bist Gast; /register PASSWORD reserviert dir diesen Namen. /hilfe zeigt die "
        "Befehle."),
    "logged-in": "Willkommen zurück, {name}! /hilfe zeigt die Befehle.",
    "replaced": (
        "Du hast dich von einer anderen Verbindung als {name} angemeldet; diese hier wird geschlossen."),
    "name-reclaimed": (
        "Der Gast {name} ist mit dem Schlüssel seines Platzes zurück, und der Name gehört ihm; melde dich "
        "mit einem anderen Namen neu an."),
    "bye": "Tschüss, {name}.",
    "shutdown": "Der Server wird heruntergefahren. Tschüss.",
    "registered": (
        "{name} ist jetzt registriert. Melde dich nächstes Mal mit diesem Namen und deinem Passwort an."),
    "password-changed": "Dein Passwort wurde geändert.",
    # rooms and chat (lobby/world.py)
    "enters": "{name} ist jetzt in {room}.",
    "leaves": "{name} geht aus {room}.",
    "says": "<{name}> {text}",
    "tells": "{name} flüstert dir zu: {text}",
    "told": "Du flüsterst {name} zu: {text}",
    "who": "In {room} ({count}): {names}",
    "look": "Du bist in {room}, mit {count} {count!p:weiteren Person|weiteren Personen}.",
    "look-alone": "Du bist in {room}; sonst ist niemand hier.",
    "look-tables": (
        "{tables} {tables!p:Tisch|Tische} offen: /listroom zeigt die Liste, /room N schaut einem Tisch zu, "
        "/newroom eröffnet einen neuen."),
    "look-no-tables": "Kein Tisch ist offen: /newroom eröffnet einen.",
    "who-bot": "{name} (Bot)",
    "wwho": "{count} online:",
    "wwho-line": "  {name:<16} in {room}{guest}",
    "wwho-guest": " (Gast)",
    "finger": "{name}:",
    "finger-registered": "  registriert seit {registered_at}, zuletzt gesehen {last_seen}",
    "finger-guest": "  ein Gast (nicht registriert)",
    "finger-online": "  gerade online, in {room}",
    "finger-offline": "  nicht online",
    "finger-client": "  dein Client: {client}",
    "never": "nie",
    # durations (`{seconds!t}` in a template; lobby.messages.duration)
    "duration-second": "{n} Sekunde",
    "duration-seconds": "{n} Sekunden",
    "duration-minute": "{n} Minute",
    "duration-minutes": "{n} Minuten",
    "duration-hour": "{n} Stunde",
    "duration-hours": "{n} Stunden",
    # rooms and tables in the world (lobby/world.py, protocol/commands.py)
    "newroom": (
        "Du eröffnest Tisch {table} (Tichu) und bist sein Gastgeber: /join setzt dich hin, /option help "
        "zeigt die Optionen, /manager bringt dich zurück in die Lobby."),
    "listroom": "Tische ({count}):",
    "listroom-empty": "Kein Tisch ist offen; /newroom tichu eröffnet einen.",
    "listroom-page": (
        "Tische {first}-{last} von {count} ({waiting} warten, {playing} spielen), Seite {page} von {pages}:"),
    "listroom-more": "/listroom {next} zeigt die nächsten {per_page}.",
    "listroom-line": "  {table:>3} {game} {state:<8} {seating}",
    "listroom-details": "      {options}; {spectators} schauen zu",
    "whereis": "{name} ist in {room} (Raum {number}).",
    "game-waiting-for-you": (
        "Dein Spiel an Tisch {table} geht ohne dich weiter: /room {table} bringt dich zurück."),
    "setting": "{name} ist jetzt {value}.",
    "setting-lang": "Sprache: {language}. /set lang de|en|fr|es|da wechselt sie.",
    # the languages by their own names (the same in every catalog)
    "language-en": "English",
    "language-de": "Deutsch",
    "language-fr": "Français",
    "language-es": "Español",
    "language-da": "Dansk",
    # the rooms' names (lobby/world.py names them in English for the machine mode's data)
    "room-lobby": "der Lobby",
    "room-table": "dem Raum von Tisch {number}",
    "iset": "Schnittstellen-Einstellung {name} ist jetzt {value}.",
    # help (protocol/commands.py)
    "help": (
        "Befehle (der / ist freiwillig, eindeutige Anfänge reichen; Text ohne / sprichst du in deinem "
        "Raum, ;NAME Text flüstert):"),
    "help-group": "{group}: {commands}",
    "help-group-lobby": "Lobby",
    "help-group-chat": "Chat",
    "help-group-tables": "Tische",
    "help-group-play": "Spiel",
    "help-group-records": "Archiv",
    "help-group-account": "Konto",
    "help-group-moderation": "Moderation",
    "help-group-other": "Sonstiges",
    "help-footer": "/hilfe COMMAND erklärt einen Befehl genauer.",
    "help-command": "{usage}",
    "help-aliases": "  auch: {aliases}",
    # tables (lobby/table.py events, rendered by protocol/render_table.py)
    "table-joined": "{name} setzt sich auf Platz {seat}.",
    "table-seat-key": (
        "Wenn deine Verbindung abreißt, melde dich als {name} an und gib den Schlüssel {key} ein."),
    "table-left": "{name} verlässt Platz {seat}.",
    "table-started": "Tisch {table}: Das Spiel beginnt, {team0} gegen {team1}.",
    "table-option-set": "{name} setzt {option} auf {value}.",
    "table-options": "Optionen von Tisch {table} (/option NAME [VALUE] vor dem Start):",
    "table-option-line": "  {option:<13} {value:<6} {about}",
    "table-info": "Tisch {table}: {state}, Gastgeber {host}.",
    "table-info-seats": "  Plätze: {seating}",
    "table-info-score": "  Stand nach {rounds} {rounds!p:Runde|Runden}: {score}",
    "table-info-score-none": "  Stand: {score} (noch keine Runde gespielt)",
    "table-info-options": "  Optionen: {options}",
    "table-info-watching": "  Zuschauer: {names}",
    "table-reset": "{name} räumt den Tisch für ein neues Spiel ab: /join, dann /start.",
    "table-vanished": (
        "{name} ist verschwunden; das Spiel wartet. Nach {grace!t} dürfen die anderen {name} mit /remove "
        "entfernen."),
    "table-back": "{name} ist zurück.",
    "table-remove-proposed": (
        "{name} schlägt vor, {target} zu entfernen: /accept oder /refuse ({needed} "
        "{needed!p:Stimme|Stimmen} nötig)."),
    "table-vote": "{name} stimmt beim Entfernen von {target} mit {vote}.",
    "table-remove-refused": "{target} bleibt: Das Entfernen wurde abgelehnt.",
    "table-vote-ended": "Die Abstimmung über das Entfernen von {name} ist vorbei.",
    "table-rated": (
        "Gewertetes Spiel: wer es verlässt und nicht binnen insgesamt {grace!t} zurück ist, verliert "
        "es."),
    "table-unrated": "Dieses Spiel wird nicht gewertet: {reason!w:why-unrated}.",
    "why-unrated-nosave": "es wurde mit /startnosave begonnen",
    "why-unrated-seed": "seine Blätter folgen aus dem Startwert von /option seed",
    "why-unrated-bots": "ein Bot spielt mit",
    "why-unrated-guests": "nicht alle vier Spieler sind registriert",
    "history-abandoned": " (abgebrochen)",
    "history-left": ", verlassen von: {names}",
    "finger-left": "  {left} von {games} begonnenen {games!p:Spiel|Spielen} verlassen",
    "ranking-left": ", {left} verlassen",
    "table-timer-warning": (
        "Beeil dich: noch {seconds!t} für deine Entscheidung, dann wird für dich entschieden."),
    "table-timed-out": (
        "{name} hat die Bedenkzeit ({seconds!t}) überschritten; es wird für {name} entschieden. Die "
        "anderen dürfen {name} jetzt mit /remove entfernen."),
    "table-info-timer": "Bedenkzeit: {seconds!t} je Entscheidung.",
    "table-info-timer-off": "Bedenkzeit: aus.",
    "table-info-rated": "Dieses Spiel wird gewertet.",
    "table-info-left": "Haben das Spiel verlassen (und verlieren es): {names}.",
    "table-unseated": "{by} (Gastgeber) nimmt {name} den Platz {seat} weg.",
    "table-barred": "{by} (Gastgeber) sperrt {name} für diesen Tisch, bis er geschlossen wird.",
    "table-unbarred": "{by} (Gastgeber) hebt die Sperre für {name} auf.",
    "namesake-notice": (
        "{name} hat früher mit jemand anderem unter deinem Namen gesprochen; dies ist die erste "
        "Nachricht an dich."),
    "says-namesake": "<{name} (neu, nicht der {name}, der hier saß)> {text}",
    "table-abandoned": "{target} wurde entfernt; das Spiel wird beim Stand {score} abgebrochen.",
    "table-window-closed": "{name} darf jetzt weiterspielen.",
    "table-window-closed-you": "Du darfst jetzt weiterspielen.",
    "table-new-host": "{name} ist jetzt Gastgeber dieses Tischs.",
    "table-seeded": "Seed {seed}, gesetzt vom Gastgeber {host}: Wer ihn kennt, kennt jede Hand.",
    "table-bot-added": "{by} setzt {name} ({strategy}-Bot) auf Platz {seat}.",
    "table-bot-removed": "{by} nimmt {name} von Platz {seat}.",
    "table-bot-takes-over": "{target} wurde entfernt; {name} spielt auf Platz {seat} weiter.",
    "vote-yes": "Ja",
    "vote-no": "Nein",
    "table-view": "Tisch {table}: {state}.",
    "table-look": "Tisch {table}, wie er gerade steht:",
    "options-default": "Standardoptionen",
    "options-defaults": "Standard",
    "table-state-waiting": "wartet",
    "table-state-playing": "spielt",
    "table-state-finished": "beendet",
    "view-seats": "Plätze: {seating}",
    "view-waiting": "/join [SEAT] setzt dich; /start, wenn vier sitzen; /option help zeigt die Optionen.",
    "view-players": "{players}",
    "view-player-out": "raus ({place})",
    "view-call-tichu": "T!",
    "view-call-grand": "GT!",
    "view-gone": "(weg)",
    "view-score": "Runde {round_no} | {score}",
    "view-trick": "Stich: {plays}",
    "view-trick-empty": "Stich: leer",
    "view-trick-won": "Stich: {plays} – geht an {name}",
    "view-trick-more": "... {plays}",
    "view-wish": "Wunsch: {rank!w:rank}",
    "view-with-wish": "{line}  |  {wish}",
    "view-hand": "Deine Hand: {cards}",
    "view-received": "Bekommen: {gifts}",
    "view-turn": "{name} ist dran.",
    "view-cards-left": "({count} übrig)",
    "view-your-turn": "Du bist dran: /play CARDS oder /pass",
    "view-your-lead": "Du spielst aus: /play CARDS",
    "view-your-turn-wish": "Du bist dran: /play CARDS mit dem Wunsch ({rank!w:rank}) oder eine Bombe",
    "view-your-lead-wish": "Du spielst aus: /play CARDS mit dem Wunsch ({rank!w:rank}) oder eine Bombe",
    "view-bombs": "Du kannst bomben: /bomb {cards}",
    "view-bomb-window": "{name} darf in {seconds!t} weiterspielen: Zeit zum Bomben.",
    "view-bomb-window-you": "Du darfst in {seconds!t} weiterspielen: Die anderen dürfen noch bomben.",
    "view-grand": "Großes Tichu? /grand oder /nogrand",
    "view-grand-wait": "Warten auf die Entscheidung zum Großen Tichu: {names}",
    "view-exchange": "Schupfen: /schupf NEXT PARTNER PREVIOUS ({next}, {partner}, {previous})",
    "view-exchange-wait": "Warten aufs Schupfen: {names}",
    "view-wish-prompt": "Dein Wunsch: /wish RANK oder /wish none",
    "view-wish-wait": "Warten auf den Wunsch von {name}.",
    "view-dragon": "Verschenke den Drachenstich: /dragon left ({left}) oder /dragon right ({right})",
    "view-dragon-wait": "Warten, bis {name} den Drachenstich verschenkt.",
    "view-tichu-hint": "(/tichu sagt Tichu an)",
    "view-finished": "Spiel vorbei. {outcome}",
    "view-play-again": "Noch eine Partie: /reset räumt den Tisch ab, dann teilt /start ein neues Spiel aus.",
    "view-abandoned": "Das Spiel wurde abgebrochen ({name} entfernt).",
    "game-round-start": "Runde {round} beginnt.",
    "game-deal": "Deine ersten 8 Karten: {cards}",
    "game-deal-all": "Deine Karten: {cards}",
    "game-deal-rest": "Deine letzten 6 Karten: {cards}",
    "game-grand": "{name} sagt GROSSES TICHU an!",
    "game-grand-no": "{name} sagt kein Großes Tichu an.",
    "game-tichu": "{name} sagt TICHU an!",
    "game-exchange-phase": "Schupfen: Jeder gibt drei Karten ab.",
    "game-exchange-given": "{name} hat drei Karten geschupft.",
    "game-exchange-received": "Du bekommst {gifts}.",
    "game-gift-from": "{card} von {name}",
    "game-play-phase": "{name} hat das Mah Jong und spielt aus.",
    "game-play-phase-you": "Du hast das Mah Jong und spielst aus.",
    "game-play": "{name} spielt {cards}.",
    "game-play-bomb": "{name} BOMBT mit {cards}!",
    "game-wish": "{name} wünscht sich {rank!w:a-rank}.",
    "game-wish-none": "{name} wünscht sich nichts.",
    "game-wish-fulfilled": "Der Wunsch ({rank!w:rank}) ist erfüllt, von {name}.",
    "game-pass": "{name} passt.",
    "game-trick-won": "{name} bekommt den Stich.",
    "game-trick-won-dragon": "{name} bekommt den Drachenstich und muss ihn einem Gegner geben.",
    "game-dragon-given": "{name} gibt den Drachenstich an {to_name}.",
    "game-dog": "Der Hund gibt das Ausspiel an {name}.",
    "game-out": "{name} ist raus ({place} Platz).",
    "place-1": "1.",
    "place-2": "2.",
    "place-3": "3.",
    "place-4": "4.",
    "place-n": "{place}.",
    "seat-unnamed": "Platz {seat}",
    # card notation itself (B D K A) stays BSW's
    "rank-2": "2",
    "a-rank-2": "eine 2",
    "ranks-2": "2er",
    "rank-3": "3",
    "a-rank-3": "eine 3",
    "ranks-3": "3er",
    "rank-4": "4",
    "a-rank-4": "eine 4",
    "ranks-4": "4er",
    "rank-5": "5",
    "a-rank-5": "eine 5",
    "ranks-5": "5er",
    "rank-6": "6",
    "a-rank-6": "eine 6",
    "ranks-6": "6er",
    "rank-7": "7",
    "a-rank-7": "eine 7",
    "ranks-7": "7er",
    "rank-8": "8",
    "a-rank-8": "eine 8",
    "ranks-8": "8er",
    "rank-9": "9",
    "a-rank-9": "eine 9",
    "ranks-9": "9er",
    "rank-10": "10",
    "a-rank-10": "eine 10",
    "ranks-10": "10er",
    "rank-B": "Bube",
    "a-rank-B": "einen Buben",
    "ranks-B": "Buben",
    "rank-D": "Dame",
    "a-rank-D": "eine Dame",
    "ranks-D": "Damen",
    "rank-K": "König",
    "a-rank-K": "einen König",
    "ranks-K": "Könige",
    "rank-A": "Ass",
    "a-rank-A": "ein Ass",
    "ranks-A": "Asse",
    # kinds of plays (`{kind!w:kind-a}`, an engine refusal)
    "kind-a-single": "eine Einzelkarte",
    "kind-a-pair": "ein Pärchen",
    "kind-a-triple": "ein Drilling",
    "kind-a-fullhouse": "ein Full House",
    "kind-a-straight": "eine Straße",
    "kind-a-stairs": "eine Treppe",
    "kind-a-bomb": "eine Bombe",
    "kind-a-dog": "der Hund",
    # the phases of a round (`{phase!w:phase}`)
    "phase-grand": "Entscheidung zum Großen Tichu",
    "phase-exchange": "Schupfen",
    "phase-play": "Spiel",
    "phase-wish": "der Wunsch",
    "phase-dragon": "das Verschenken des Drachenstichs",
    "phase-finished": "Runde vorbei",
    # words that fill other messages (lobby.messages.Msg)
    "role-operator": "der Betreiber des Servers",
    "until-further-notice": "auf Weiteres",
    "names-and": "{names} und {name}",
    "names-or": "{names} oder {name}",
    "game-round-over": "Runde vorbei. Reihenfolge: {order}.",
    "game-round-over-double": "Runde vorbei: Doppelsieg für {team}! Reihenfolge: {order}.",
    "game-round-cards": "  Kartenpunkte: {score}",
    "game-round-call-won": "  {call} von {name} geschafft: +{points}",
    "game-round-call-lost": "  {call} von {name} verloren: -{points}",
    "call-tichu": "Tichu",
    "call-grand": "Großes Tichu",
    "game-round-total": "  Diese Runde:  {score}",
    "game-round-score": "Stand nach Runde {round}: {score}",
    "game-victory-points": "Siegpunkte: {points}",
    "game-match-over": "Spiel vorbei nach {rounds} {rounds!p:Runde|Runden}: {outcome}",
    "game-winner": "{names} gewinnen {score}.",
    "game-shared": "Geteilter Sieg bei {score}.",
    "game-turnier-winner": "{names} gewinnen.",
    "game-turnier-points": "Siegpunkte/Tichupunkte: {points}",
    # game records, statistics, ratings (lobby/records.py data, protocol/render_records.py)
    "history-header": "Letzte Spiele von {name}:",
    "history-line": (
        "  #{game} {date} Tisch {table}: {team0} {score0}:{score1} {team1}, {rounds} "
        "{rounds!p:Runde|Runden}, {outcome}{unrated}"),
    "history-none": "{name} hat keine beendeten Spiele.",
    "history-won": "gewonnen",
    "history-lost": "verloren",
    "history-shared": "geteilt",
    "history-unrated": " (ungewertet)",
    "replay-header": (
        "Spiel #{game}, Tisch {table}, {date}: {team0} gegen {team1}, {rounds} {rounds!p:Runde|Runden}."),
    "replay-round": "Runde {round}: Plätze {seating}",
    "replay-hand": "{name}: {cards}",
    "replay-exchange": "{name} schupft {gifts}.",
    "replay-gift": "{card} an {name}",
    "tchlog-header": "Spiel #{game} als BSW-Log (.tch), {count} {count!p:Zeile|Zeilen}:",
    "ranking-header": "Rangliste (Team-Elo, nur gewertete Spiele):",
    "ranking-line": "  {place:>3}. {name:<16} {rating:>5}  ({games} {games!p:Spiel|Spiele})",
    "ranking-none": "Noch niemand hat ein gewertetes Spiel gespielt.",
    # reconnecting and restoring (lobby/world.py, lobby/persistence.py)
    "game-rejoined": "Du sitzt wieder auf deinem Platz an Tisch {table}; das Spiel geht weiter.",
    "finger-stats": (
        "  Spiele {games} (gewonnen {wins}), gewertet {rated_games} (gewonnen {rated_wins}), Runden "
        "{rounds}"),
    "finger-calls": (
        "  Tichu {tichu_made}/{tichu_calls}, Großes Tichu {grand_made}/{grand_calls}, Doppelsiege "
        "{double_victories}, als Erster raus {first_out}"),
    "finger-rating": (
        "  Wertung {rating} nach {rated_games} gewerteten {rated_games!p:Spiel|Spielen} (beste {peak})"),
    "finger-no-games": "  noch keine beendeten Spiele",
    # mute lists and moderation (lobby/moderation.py)
    "muted": "{name} steht jetzt auf deiner Ignorierliste: Du siehst weder Reden noch Flüstern von {name}.",
    "unmuted": "{name} steht nicht mehr auf deiner Ignorierliste.",
    "mute-list": "Deine Ignorierliste ({count}): {names}",
    "mute-list-empty": "Deine Ignorierliste ist leer; /add mute NAME fügt einen Namen hinzu.",
    "role-set": "{name} hat jetzt die Rolle {role}.",
    "role-changed": "{by} hat dir die Rolle {role} gegeben.",
    "kick-done": "{name} wurde hinausgeworfen.",
    "kicked": "{by} hat dich hinausgeworfen: {reason}",
    "ban-done": "{name} ist gesperrt bis {until}.",
    "banned-now": "{by} hat dich bis {until} gesperrt: {reason}",
    "unban-done": "Die Sperre von {name} ist aufgehoben.",
    "ban-list": "Sperren ({count}):",
    "ban-list-line": "  {name} bis {until}, von {by}: {reason}",
    "ban-list-address": "    und Gäste von {address}",
    "ban-list-empty": "Niemand ist gesperrt.",
    "silenced-set": "{name} darf jetzt in öffentlichen Räumen nicht mehr sprechen.",
    "unsilenced": "{name} darf in öffentlichen Räumen wieder sprechen.",
    "you-silenced": "{by} hat dich in öffentlichen Räumen stummgeschaltet; /tell geht weiter.",
    "you-unsilenced": "{by} lässt dich in öffentlichen Räumen wieder sprechen.",
    "announcement": "*** {by} verkündet: {text}",
    "shutdown-warning": (
        "*** Der Server fährt in {seconds!t} herunter ({reason}; {by}). Keine neuen Spiele mehr."),
    # ---- errors (the keys are the error codes) -----------------------------------------------------
    # protocol / session
    "line-too-long": "Zeile zu lang ({length} Bytes, Grenze {limit}); sie wurde verworfen.",
    "unknown-command": "Unbekannter Befehl /{name}. /hilfe zeigt die Befehle.",
    "ambiguous-command": "Mehrdeutiger Befehl /{name}: möglich sind {candidates}.",
    "bad-arguments": "Aufruf: {usage}",
    "internal-error": (
        "Interner Fehler bei deinem Befehl; er wurde protokolliert, und nichts hat sich geändert."),
    # login and accounts (protocol/session.py, protocol/commands.py)
    "bad-name": (
        "{name} ist kein gültiger Name: 3 bis 16 Zeichen, jedes ein ASCII-Buchstabe a-z oder A-Z, eine "
        "Ziffer 0-9, _ oder -."),
    "reserved-name": "Der Name {name} ist reserviert; wähle einen anderen Namen (oder tippe guest).",
    "name-in-use": "{name} ist schon online; wähle einen anderen Namen.",
    "seat-held": (
        "Tisch {table} hält den Platz des Gasts {name} für ihn frei: Gib seinen Schlüssel ein oder wähle "
        "einen anderen Namen."),
    "wrong-seat-key": "Falscher Schlüssel.",
    "wrong-password": "Falsches Passwort.",
    "too-many-failures": "Zu viele gescheiterte Anmeldungen; die Verbindung wird geschlossen.",
    "bad-password": "Ein Passwort hat {min} bis {max} Zeichen und keine Leerzeichen.",
    "already-registered": "Du bist schon registriert; /password OLD NEW ändert dein Passwort.",
    "not-registered": "Du bist nicht registriert; /register PASSWORD registriert deinen Namen.",
    "name-held-for-guest": (
        "Tisch {table} hält einen Gastplatz unter dem Namen {name} frei; der Name lässt sich registrieren, "
        "sobald dieses Spiel vorbei ist."),
    "name-taken": "Der Name {name} wurde inzwischen registriert; melde dich mit einem anderen Namen neu an.",
    "busy": "Deine vorigen Befehle laufen noch; diese Zeile wurde verworfen.",
    # chat
    "not-online": "{name} ist nicht online.",
    "invisible-text": (
        "Von deiner Nachricht bleibt nichts Sichtbares übrig: Steuer- und Formatzeichen (etwa U+202E) "
        "werden aus dem Gesagten entfernt."),
    "no-such-user": "Niemand namens {name} ist online oder registriert.",
    # tables (lobby/table.py)
    "game-running": "Das Spiel läuft; das geht nur vor dem Start.",
    "game-finished": "Das Spiel ist vorbei; /reset räumt den Tisch für ein neues Spiel ab.",
    "no-game": "An diesem Tisch läuft kein Spiel.",
    "not-seated": "Du sitzt nicht an diesem Tisch; /join nimmt einen Platz.",
    "already-seated": "Du sitzt schon auf Platz {seat}.",
    "no-such-seat": "Es gibt keinen Platz {seat}; die Plätze sind 1 bis 4.",
    "seat-taken": "Platz {seat} ist besetzt von {name}.",
    "table-full": "Alle vier Plätze sind besetzt; du kannst zuschauen.",
    "too-many-tables": (
        "Du bist schon Gastgeber oder Spieler an {limit} {limit!p:offenem Tisch|offenen Tischen} (Tisch "
        "{tables}); verlass zuerst einen oder lass sein Spiel enden."),
    "seat-limit": (
        "Du sitzt schon an Tisch {tables}, und man sitzt an höchstens {limit} {limit!p:Tisch|Tischen} "
        "zugleich; verlass ihn zuerst oder lass sein Spiel enden."),
    "tables-too-fast": (
        "Du hast in der letzten Minute {limit} {limit!p:Tisch|Tische} eröffnet, das Höchste für einen "
        "Benutzer; versuch es in {seconds!t} wieder."),
    "address-tables": (
        "Die Benutzer deiner Adresse sind schon an {limit} {limit!p:offenem Tisch|offenen Tischen} "
        "Gastgeber oder Spieler, das Höchste für eine Adresse; verlass zuerst einen."),
    "need-four": "Zum Start braucht es vier Spieler; {count} sitzen.",
    "host-only": "Nur der Gastgeber, {host}, darf das (Option host).",
    "host-only-option": "Nur der Gastgeber, {host}, darf die Option {option} setzen.",
    "not-finished": "Das Spiel ist nicht vorbei; /reset räumt nur einen beendeten Tisch ab.",
    "unknown-option": "Unbekannte Option {name}; /option help zeigt sie alle.",
    "bad-option-value": "Die Option {name} nimmt {expected}, nicht {value!r}.",
    "turnier-rounds": (
        "Ein Turnier geht immer über {rounds} Runden und lässt sich daher nicht mit round verbinden: Stell "
        "zuerst round off oder turnier off."),
    "not-a-player": "{name} spielt nicht an diesem Tisch.",
    "host-command": "Das darf nur der Gastgeber, {host}.",
    "not-seated-here": "{name} sitzt nicht an diesem Tisch.",
    "barred-from-table": (
        "Der Gastgeber ({host}) hat dich für Tisch {table} gesperrt, bis er geschlossen wird."),
    "not-barred": "{name} ist für diesen Tisch nicht gesperrt.",
    "name-now-someone-else": (
        "{name} ist jetzt jemand anderes: der {name}, mit dem du gesprochen hast, ist gegangen, und "
        "ein Neuer hat den Namen. Deine Nachricht wurde nicht gesendet; sende sie noch einmal, um den "
        "neuen {name} zu erreichen."),
    "not-vanished": (
        "{name} ist weder verschwunden noch über die Bedenkzeit gekommen; nur so ein Spieler kann "
        "entfernt werden."),
    "vote-running": "Eine Abstimmung über das Entfernen von {name} läuft schon: /accept oder /refuse.",
    "remove-too-early": (
        "{name} kann noch zurückkommen: /remove geht in {seconds!t} (die Wartezeit des Tischs, /option "
        "grace)."),
    "no-vote": "Es gibt keine Abstimmung, an der du teilnehmen kannst.",
    "not-a-voter": "Darüber stimmen nur die anderen Spieler am Tisch ab.",
    "bomb-window": "Warte {seconds!t}, bevor du weiterspielst: Die anderen dürfen den Stich noch bomben.",
    "give-dragon-first": (
        "Du hast den Drachenstich: Verschenk ihn zuerst, /dragon left ({left}) oder /dragon right "
        "({right})."),
    "name-wish-first": "Sag zuerst deinen Wunsch: /wish RANK oder /wish none.",
    "give-cards-first": "Schupf zuerst deine drei Karten: /schupf NEXT PARTNER PREVIOUS.",
    "bad-dragon-target": (
        "Verschenk den Drachenstich mit /dragon left oder /dragon right (oder einer Platznummer oder einem "
        "Namen)."),
    # rooms and table routing (lobby/world.py, protocol/commands.py)
    "not-at-table": "Du bist an keinem Tisch; /room N betritt einen, /newroom tichu eröffnet einen.",
    "no-such-room": "Es gibt keinen Raum {number}; /listroom zeigt die Tische.",
    "no-such-page": "Es gibt keine Seite {page}; /listroom hat {pages} {pages!p:Seite|Seiten}.",
    "seat-held-here": (
        "Tisch {table} hält einen Platz für den Gast {name} frei, der sich vor dir dort hingesetzt hat; "
        "melde dich mit einem anderen Namen an, um zuzuschauen."),
    "unknown-game": "Hier gibt es kein Spiel {name}; /newroom tichu eröffnet einen Tichu-Tisch.",
    "unknown-setting": "Es gibt keine Einstellung {name}; /set color on|off ist eine.",
    "bad-setting-value": "Die Einstellung {name} nimmt {expected}, nicht {value!r}.",
    "unknown-language": "Die Sprache {value!r} gibt es hier nicht; /set lang nimmt {choices}.",
    "bad-width": "Die Breite ist eine Zahl von Spalten von {min} bis {max} oder auto, nicht {value!r}.",
    # machine mode (protocol/machine.py)
    "bad-id": "Eine Befehls-ID ist #ID mit 1 bis 32 Buchstaben, Ziffern, - oder _, nicht #{id}.",
    "unknown-request": "Eine Anfrage {request} gibt es nicht; {state} ist eine, und Befehle "
                       "beginnen mit / (/help zeigt sie).",
    "json-request": "Anfragen sind Befehlszeilen wie /play B5 oder {state}, keine JSON-Objekte; "
                    "docs/bots.md zeigt sie.",
    # bots at tables (lobby/table.py, lobby/bots)
    "unknown-strategy": "Es gibt keine Bot-Strategie {name}; wähle {choices}.",
    "bad-bot-level": (
        "{level} ist keine Bot-Stufe: expert denkt {low} bis {high} Sekunden pro Entscheidung (expert:2)."),
    "not-a-bot": "Auf Platz {seat} sitzt kein Bot.",
    # game records (lobby/records.py)
    "no-such-game": "Es gibt kein Spiel #{game}; /history zeigt die letzten Spiele.",
    "no-such-round": "Spiel #{game} hat keine Runde {round}; es hatte {rounds} {rounds!p:Runde|Runden}.",
    "no-tch-log": "Spiel #{game} hat kein BSW-Log: Es wurde mit /option log off gespielt.",
    # defences of the public port (protocol/guard.py)
    "server-full": "Der Server ist voll; bitte versuch es später wieder.",
    "too-many-connections": (
        "Zu viele Verbindungen von deiner Adresse (höchstens {limit}); diese wird geschlossen."),
    "too-many-guests": (
        "Zu viele Gäste sind online (höchstens {limit}); melde dich mit einem registrierten Namen an oder "
        "versuch es später."),
    "too-many-attempts": "Zu viele Passwortversuche von deiner Adresse; versuch es in {seconds!t} wieder.",
    "too-many-attempts-here": (
        "Zu viele Passwortversuche auf dieser Verbindung; versuch es in {seconds!t} wieder."),
    "account-wait": "Zu viele falsche Passwörter für {name}; der nächste Versuch geht in {seconds!t}.",
    "too-many-registrations": (
        "Zu viele neue Konten von deiner Adresse (höchstens {limit} pro Stunde); versuch es in {seconds!t} "
        "wieder."),
    "login-timeout": (
        "Du hast dich nicht innerhalb von {seconds!t} angemeldet; die Verbindung wird geschlossen."),
    "idle-warning": "Du hast lange nichts getippt; in {seconds!t} wirst du getrennt, wenn du nichts tippst.",
    "idle-timeout": "Getrennt nach {seconds!t} ohne Eingabe.",
    "flooding": (
        "Du schickst Zeilen zu schnell (mehr als {rate} pro Sekunde); Zeilen werden verworfen, bis du "
        "langsamer wirst."),
    "flood-disconnect": "Zu viele Zeilen zu schnell; die Verbindung wird geschlossen.",
    # moderation and mute lists (lobby/moderation.py)
    "not-allowed": "Nur wer die Rolle {role} hat, darf /{command} benutzen.",
    "not-yourself": "/{command} geht nicht bei dir selbst.",
    "unknown-role": "Es gibt keine Rolle {role}; wähle {choices}.",
    "not-registered-user": "{name} ist kein registrierter Name.",
    "unknown-list": "Es gibt keine Liste {name}; die Liste heißt mute (/showlist mute).",
    "already-muted": "{name} steht schon auf deiner Ignorierliste.",
    "not-muted": "{name} steht nicht auf deiner Ignorierliste.",
    "mute-list-full": (
        "Deine Ignorierliste ist voll ({limit} {limit!p:Name|Namen}); /sub mute NAME schafft Platz."),
    "silenced": "Ein Moderator hat dich in öffentlichen Räumen stummgeschaltet; /tell geht weiter.",
    "not-silenced": "{name} ist nicht stummgeschaltet.",
    "banned": "{name} ist gesperrt bis {until}: {reason}",
    "address-banned": (
        "Gäste von deiner Adresse sind gesperrt bis {until}: {reason}. Melde dich mit einem registrierten "
        "Namen an."),
    "not-banned": "{name} ist nicht gesperrt.",
    "shutting-down": "Der Server fährt herunter; keine neuen Spiele mehr.",
    # the database fails while the server runs (lobby/persistence.py)
    "game-not-saved": (
        "Der Server kann das Spiel an Tisch {table} nicht speichern (ein Schreiben in die Datenbank ist "
        "gescheitert; der Betreiber findet es im Log). Ihr könnt weiterspielen, aber das Spiel kann "
        "verloren gehen, wenn der Server stoppt."),
    "bad-card": "Keine Karte: {token!r}. Karten schreibt man etwa R10 GB SD BK RA Ma Hu Ph Dr.",
    # round.py / match.py
    "bad-seat": "Es gibt keinen Platz {seat!r}.",
    "bad-action": "Keine Aktion: {action}.",
    "wrong-phase": "Das geht jetzt nicht (Phase: {phase!w:phase}).",
    "round-over": "Die Runde ist vorbei.",
    "match-over": "Das Spiel ist vorbei.",
    "no-grand-tichu": "An diesem Tisch wird kein Großes Tichu gespielt.",
    "grand-already-decided": "Du hast dich beim Großen Tichu schon entschieden.",
    "grand-undecided": "Entscheide dich zuerst beim Großen Tichu (ja oder nein).",
    "already-called": "Du hast schon {call} angesagt.",
    "tichu-too-late": "Zu spät für Tichu: Du hast schon eine Karte gespielt.",
    "exchange-over": "Das Schupfen ist vorbei.",
    "already-exchanged": "Du hast deine drei Karten schon geschupft.",
    "exchange-three-cards": (
        "Schupf genau drei Karten: an den nächsten Spieler, deinen Partner und den vorigen Spieler (du "
        "hast {count} genannt)."),
    "exchange-incomplete": "Noch haben nicht alle ihre Karten geschupft.",
    "waiting-for-wish": "Warten, bis der Spieler mit dem Mah Jong einen Wunsch nennt.",
    "waiting-for-dragon": "Warten, bis Platz {seat} den Drachenstich verschenkt.",
    "you-are-out": "Du hast in dieser Runde keine Karten mehr.",
    "not-your-turn": (
        "Du bist nicht dran (Platz {turn} spielt); außer der Reihe darf nur eine Bombe auf den Tisch."),
    "must-lead": "Du spielst aus: Spiel etwas (passen geht nicht).",
    "must-fulfil-wish": "Der Wunsch bindet dich: Spiel {rank!w:a-rank}.",
    "bad-wish": "Kein Rang zum Wünschen: {rank!r}. Wünsch 2..10, B, D, K, A oder none.",
    "wish-without-mahjong": "Nur mit dem Mah Jong darf man sich etwas wünschen.",
    "no-wish-pending": "Du hast keinen Wunsch zu nennen.",
    "no-dragon-pending": "Es gibt keinen Drachenstich zu verschenken.",
    "not-your-dragon": "Den Drachenstich verschenkt Platz {seat}.",
    "dragon-to-opponent": "Der Drachenstich muss an einen Gegner gehen, nicht an Platz {seat}.",
    # cards.py
    "duplicate-card": "{card} ist zweimal genannt.",
    "bad-rank": "Kein Rang: {token!r}. Ränge sind 2..10, B (oder J), D (oder Q), K, A.",
    # cards.py: the rank-only shorthand of a play (`/play 7 7`)
    "ambiguous-cards": (
        "Welche {rank!w:ranks}? Jede Wahl bricht eine Bombe; nenn die Karten, z. B. {example}."),
    "missing-rank": "Du hast keine {count} {count!p:Karte|Karten} vom Rang {rank}.",
    # moves.py: why a play is refused
    "no-cards": "Nenn die Karten, die du spielst.",
    "cards-not-in-hand": "Du hast {cards} nicht auf der Hand.",
    "not-a-combination": "{cards} ist keine Kombination.",
    "bad-phoenix-reading": "Der Phönix kann in {cards} nicht für {rank!w:a-rank} stehen.",
    "dog-on-table": "Auf den Hund kann man nichts spielen, nicht einmal eine Bombe.",
    "dog-not-lead": "Den Hund kann man nur ausspielen, nicht auf einen Stich legen.",
    "phoenix-on-dragon": "Der Phönix kann nicht auf den Drachen gespielt werden.",
    "bomb-on-table": "{play} schlägt die Bombe {top} nicht: Das kann nur eine höhere Bombe.",
    "wrong-kind": (
        "{play} passt nicht auf {top}: {kind!w:kind-a} und {top_kind!w:kind-a} sind verschiedene "
        "Kombinationen."),
    "wrong-length": (
        "{play} passt nicht auf {top}: Ein Spiel braucht so viele Karten wie das, das es schlägt."),
    "too-low": "{play} schlägt {top} nicht.",
    "wish-not-followed": "Du musst {rank!w:a-rank} spielen: Der Wunsch ist offen (oder eine Bombe).",
    "not-a-bomb": "{cards} ist keine Bombe; außer der Reihe geht nur eine Bombe.",
    "bomb-on-empty-table": (
        "Eine Bombe wirft man nur ein, solange ein Spiel auf dem Tisch liegt; spiel sie aus, wenn du dran "
        "bist."),
    # ---- help texts: cmd-NAME, cmd-NAME-help, option-NAME ------------------------------------------
    "cmd-accept": "Beim laufenden /remove mit Ja stimmen.",
    "cmd-accept-help": (
        "Stimmt dafür, den verschwundenen Spieler zu entfernen, den der laufende\n/remove-Vorschlag nennt."),
    "cmd-add": "NAME auf eine deiner Listen setzen: /add mute NAME.",
    "cmd-add-help": (
        "/add mute NAME setzt NAME auf deine Ignorierliste (mute), wie auf BSW: Du\nsiehst nicht mehr, was "
        "NAME in Räumen sagt, noch was NAME dir zuflüstert, und\nein Flüstern von NAME an dich sieht für "
        "NAME aus, als wäre es angekommen. Die\nListe eines registrierten Namens wird gespeichert; die "
        "eines Gasts gilt,\nsolange der Gast online ist."),
    "cmd-addbot": (
        "Einen Bot (heuristic, wenn nicht genannt) auf SEAT oder den ersten freien Platz setzen, vor dem "
        "Start."),
    "cmd-addbot-help": (
        "Setzt einen Bot (heuristic, wenn nicht genannt) auf SEAT oder den ersten\nfreien Platz, vor dem "
        "Start; das darf der Gastgeber oder jeder, der sitzt.\nexpert denkt 0,5 s pro Entscheidung, "
        "expert:SECONDS so lange, wie du angibst\n(0,05 bis 10)."),
    "cmd-announce": "Moderatoren: TEXT allen sagen, die online sind.",
    "cmd-announce-help": (
        "Moderatoren und Admins: eine Zeile an alle, die online sind, wo sie auch sind.\nWird "
        "protokolliert."),
    "cmd-ban": "Moderatoren: NAME aussperren.",
    "cmd-ban-help": (
        "Moderatoren und Admins: NAME kann sich nicht mehr anmelden, für DURATION (90s,\n30m, 2h, 7d, 1w; "
        "eine bloße Zahl sind Minuten) oder, ohne Dauer (oder mit\nperm), bis /unban NAME; ist NAME "
        "online, wird NAME getrennt. Ein Gast, der\ngerade online ist, bringt auch seine Adresse in die "
        "Sperre: Von dort meldet\nsich so lange kein Gast an (registrierte Namen schon); /banlist zeigt "
        "es. Die\nSperre wird gespeichert. Ein Moderator kann keinen Moderator und keinen Admin\nsperren. "
        "Wird protokolliert."),
    "cmd-banlist": "Moderatoren: die Sperren auflisten.",
    "cmd-banlist-help": (
        "Moderatoren und Admins: jede geltende Sperre mit Ende, Grund und wer sie\nverhängt hat; die "
        "Sperre eines Gasts zeigt die Adresse, von der er kam (mit\ndem Namen gesperrt: Von dort meldet "
        "sich kein Gast an)."),
    "cmd-bmute": "Moderatoren: NAME in öffentlichen Räumen stummschalten (off: aufheben).",
    "cmd-bmute-help": (
        "Moderatoren und Admins: NAME darf in Räumen (der Lobby und den Tischräumen)\nnicht mehr sprechen; "
        "Flüstern geht weiter. /bmute NAME off hebt es auf. Wird\ngespeichert und protokolliert."),
    "cmd-bomb": "Bomben, auch außer der Reihe: /bomb S5 B5 G5 R5.",
    "cmd-bomb-help": (
        "Spielt eine Bombe (vier gleiche Karten oder eine Straße aus fünf oder mehr\nKarten einer Farbe) "
        "jederzeit, solange ein Stich auf dem Tisch liegt, auch\nwenn du nicht dran bist."),
    "cmd-dragon": "Einen mit dem Drachen gewonnenen Stich verschenken: /dragon left|right.",
    "cmd-dragon-help": (
        "Wer einen Stich mit dem Drachen gewinnt, gibt ihn einem Gegner: /dragon right\n(dem nächsten "
        "Spieler in der Reihenfolge) oder /dragon left (dem vorigen);\neine Platznummer oder ein Name geht "
        "auch. Mit der Option dragon fixed geht er\nvon selbst an den nächsten Gegner."),
    "cmd-finger": "Kontodaten, Statistik und Wertung von NAME.",
    "cmd-finger-help": (
        "Zeigt, ob NAME registriert ist und seit wann, wann NAME zuletzt da war und ob\nNAME gerade online "
        "ist (und in welchem Raum); bei registrierten Spielern auch\ndie Statistik (Spiele, Siege, Runden, "
        "Tichu- und Großes-Tichu-Ansagen und\n-Erfolge, Doppelsiege) und die Team-Elo-Wertung."),
    "cmd-grand": "Großes Tichu ansagen (nach deinen ersten 8 Karten).",
    "cmd-grand-help": (
        "Nach den ersten 8 Karten, bevor die letzten 6 ausgeteilt werden, antwortet\njeder Spieler mit "
        "/grand (Großes Tichu ansagen: 200 Punkte, wenn du als Erster\nrausgehst, sonst minus 200) oder "
        "/nogrand."),
    "cmd-help": "Die Befehle auflisten oder einen erklären.",
    "cmd-help-help": (
        "Ohne Argument zeigt es die Befehle, die du benutzen darfst, nach Gruppen\n(Lobby, Chat, Tische, "
        "Spiel, Archiv, Konto und für Moderatoren und Admins\nModeration). /hilfe COMMAND zeigt den Aufruf "
        "des Befehls, seine anderen Namen\nund eine längere Erklärung; eindeutige Anfänge gehen auch hier."),
    "cmd-history": "Deine (oder NAMEs) letzten Spiele.",
    "cmd-history-help": (
        "Zeigt die letzten zehn beendeten Spiele von NAME (ohne NAME: deine eigenen),\ndie neuesten "
        "zuerst: die Spielnummer (für /replay), Datum, Tisch, die beiden\nTeams mit dem Endstand, die Zahl "
        "der Runden, gewonnen oder verloren und ob das\nSpiel ungewertet war."),
    "cmd-iset": "Schnittstellen-Einstellung dieser Verbindung: /iset json 1|0.",
    "cmd-iset-help": (
        "/iset json 1 schaltet diese Verbindung in den Maschinenmodus: Ab dann ist jede\nZeile des Servers "
        "ein JSON-Objekt mit einem Feld type, und eine Befehlszeile\ndarf mit #ID beginnen (1 bis 32 "
        'Buchstaben, Ziffern, - oder _), die ihre\nAntwort als "id" wiederholt. /iset json 0 schaltet '
        "zurück auf Text. Eine erste\nZeile %json vor der Anmeldung tut dasselbe von Anfang an. Wird nie "
        'im Konto\ngespeichert; docs/protocol.md ("Machine mode") beschreibt jedes Objekt.'),
    "cmd-join": "An diesem Tisch Platz nehmen (erster freier Platz oder Platz 1..4).",
    "cmd-join-help": (
        "Setzt dich vor dem Start auf Platz SEAT (1 bis 4) oder, ohne SEAT, auf den\nersten freien Platz. "
        "Die Plätze 1 und 3 spielen zusammen gegen die Plätze 2\nund 4; gespielt wird 1, 2, 3, 4. Mit der "
        "Option tichujoin sind die ersten\nbeiden, die sich setzen, Partner; mit drawseat werden die "
        "Plätze beim Start\nausgelost."),
    "cmd-kick": "Moderatoren: NAME trennen.",
    "cmd-kick-help": (
        "Moderatoren und Admins: schließt die Verbindung von NAME mit REASON (NAME darf\nsich wieder "
        "anmelden; /ban hält NAME fern). Ein Moderator kann keinen\nModerator und keinen Admin "
        "hinauswerfen. Wird protokolliert."),
    "cmd-leave": "Deinen Platz vor dem Start aufgeben.",
    "cmd-leave-help": (
        "Gibt deinen Platz wieder frei; du bleibst im Raum und schaust zu. Nicht\nmöglich, während das "
        "Spiel läuft."),
    "cmd-listroom": "Die offenen Tische auflisten.",
    "cmd-listroom-help": (
        "Zeigt die offenen Tische: Nummer, Spiel, Zustand (wartet, spielt, beendet),\ndie Spieler nach "
        "Platz, die Optionen, die vom Standard abweichen, und wie\nviele zuschauen. Zehn Tische auf "
        "einmal: Bei mehr sagt die erste Zeile, wie\nviele es gibt und wie viele warten und spielen, und "
        "/listroom 2 zeigt die\nnächsten zehn."),
    "cmd-look": "Den Tisch (oder wo du bist) noch einmal zeigen.",
    "cmd-look-help": (
        "An einem Tisch: die ganze Ansicht noch einmal, wie sie jetzt ist: die Plätze\nmit den übrigen "
        "Karten und den Ansagen, der Stand, der Stich, der Wunsch,\ndeine Hand und wer dran ist, mit dem, "
        "was du tippen kannst (Zuschauer sehen\ndie öffentliche Ansicht, ohne Hände). Anderswo: der Raum, "
        "in dem du bist, und\nwie du einen Tisch findest. Im Maschinenmodus ist die Antwort das ganze\n"
        "state-Objekt. BSW- und MUD-Spieler kennen es als /l."),
    "cmd-manager": "Zurück in die Lobby (Raum 0).",
    "cmd-manager-help": (
        "Bringt dich zurück in die Lobby (Raum 0, das Dorf auf BSW). Vor dem Start gibt\ndas deinen Platz "
        "frei; verlässt du ein laufendes Spiel, bist du für die\nanderen verschwunden (/room N bringt dich "
        "zurück)."),
    "cmd-newroom": "Einen neuen Tisch eröffnen (GAME: tichu) und hingehen.",
    "cmd-newroom-help": (
        "Eröffnet einen neuen Tischraum für GAME (vorerst nur tichu, der Standard) mit\ndir als Gastgeber "
        "und bringt dich hin. Der Tisch bekommt die kleinste freie\nNummer; /listroom zeigt ihn. Dann "
        "setzt /join dich hin, /option setzt die\nOptionen, /start beginnt, wenn vier sitzen."),
    "cmd-nogrand": "Kein Großes Tichu ansagen (nach deinen ersten 8 Karten).",
    "cmd-nogrand-help": (
        "Lehnt Großes Tichu ab. Wenn alle vier geantwortet haben, werden die letzten 6\nKarten ausgeteilt."),
    "cmd-option": "Eine Tischoption vor dem Start setzen; /option help zeigt sie alle.",
    "cmd-option-help": (
        "/option help zeigt die Optionen mit ihren Werten. Vor dem Start setzt sie der\nGastgeber (oder, "
        "ohne die Option host, jeder, der sitzt): round X (höchstens X\nRunden, off), tichujoin (die "
        "ersten beiden, die sich setzen, sind Partner),\nturnier (9 Runden mit wechselnden Partnern, "
        "Siegpunkte), target N (der Stand,\nder das Spiel beendet, Standard {target}), drawseat (Plätze "
        "ausgelost), host\n(nur der Gastgeber startet und setzt Optionen), dragon fixed (der Drachenstich\n"
        "geht an den nächsten Gegner), bombwindow SECONDS (Zeit, einen gewonnenen Stich\nzu bomben, bevor "
        "es weitergeht), seed N (gleicher Seed, gleiche Karten; off\nfür zufälliges Geben; nur der "
        "Gastgeber setzt ihn; ein Spiel mit Seed ist\nungewertet), log (das beendete Spiel auch als "
        "BSW-.tch-Log speichern, on),\ngrace SECONDS (wie lange ein verschwundener Spieler zurückkommen "
        "darf, bevor\ndie anderen ihn mit /remove entfernen dürfen, Standard {grace}). Eine Option\nohne "
        "VALUE schaltet um; on/off setzen sie."),
    "cmd-pass": "Passen (nicht auf den aktuellen Stich spielen).",
    "cmd-pass-help": (
        "Passt beim aktuellen Stich. Nicht möglich, wenn du ausspielst oder der offene\nWunsch dich bindet."),
    "cmd-password": "Dein Passwort ändern.",
    "cmd-password-help": "Ändert das Passwort deines registrierten Namens von OLD auf NEW.",
    "cmd-play": "Karten spielen (BSW-Schreibweise), z. B. /play R10 G10 oder /play 7 7.",
    "cmd-play-help": (
        "Spielt CARDS in BSW-Schreibweise: Farbe S (Schwert), B (Pagode), G (Jade), R\n(Stern) und Rang "
        "2-10, B (Bube), D (Dame), K (König), A (Ass), oder Ma (Mah\nJong), Hu (Hund), Ph (Phönix), Dr "
        "(Drache). Ph=7 nennt den Rang, für den der\nPhönix steht, wo es nicht klar ist. Mit dem Mah Jong "
        "ein Wunsch dazu: /play Ma\nwish 8 (oder gleich danach /wish RANK). Die Kurzform nur mit Rängen "
        "(/play 7\n7) geht, wo sie eindeutig ist; sie wählt Karten, die keine Bombe brechen. Auch\nmit "
        "/play darf man außer der Reihe bomben."),
    "cmd-quit": "Den Server verlassen.",
    "cmd-quit-help": "Schließt deine Verbindung. Dein Konto (falls registriert) bleibt.",
    "cmd-rangliste": "Die besten Spieler nach Wertung (nur gewertete Spiele).",
    "cmd-rangliste-help": (
        "Die Rangliste: die Spieler mit der höchsten Team-Elo-Wertung (docs/rating.md),\nmit der Zahl "
        "ihrer gewerteten Spiele. Gewertet werden nur Spiele von vier\nregistrierten Spielern, nicht mit "
        "/startnosave begonnen und ohne festen Seed."),
    "cmd-refuse": "Beim laufenden /remove mit Nein stimmen.",
    "cmd-refuse-help": (
        "Stimmt dagegen, den verschwundenen Spieler zu entfernen, den der laufende\n/remove-Vorschlag "
        "nennt."),
    "cmd-register": "Den Namen registrieren, den du benutzt.",
    "cmd-register-help": (
        "Registriert deinen jetzigen Namen mit PASSWORD (4 bis 128 Zeichen, keine\nLeerzeichen). Ab dann "
        "fragt die Anmeldung mit diesem Namen nach dem Passwort,\nund niemand sonst kann ihn benutzen. "
        "Gastnamen (Guest1234) lassen sich nicht\nregistrieren: Melde dich zuerst mit einem eigenen Namen "
        "an."),
    "option-timer": (
        "Sekunden je Entscheidung, bevor für den Spieler entschieden wird (off; auto: 60 im gewerteten "
        "Spiel)"),
    "option-expects-timer": "Sekunden, 5 bis {high}, oder off oder auto",
    "cmd-unseat": "Der Gastgeber nimmt einem Spieler (oder Bot) an einem wartenden Tisch den Platz weg.",
    "cmd-unseat-help": (
        "Vor dem Start darf der Gastgeber jedem den Platz wegnehmen (wie bei BSW: /rauswerfen NAME); "
        "der Spieler bleibt als Zuschauer im Raum und darf sich wieder setzen, wenn er nicht mit "
        "/sperren gesperrt ist."),
    "cmd-bar": "Der Gastgeber sperrt einen Namen für den Tisch, bis er geschlossen wird.",
    "cmd-bar-help": (
        "Der Gastgeber sperrt NAME für diesen Tisch, bis er geschlossen wird (wie bei BSW: /sperren "
        "NAME): ein Platz an einem wartenden Tisch geht verloren, NAME kommt in die Lobby und darf "
        "weder in den Raum noch sich setzen. /entsperren NAME hebt die Sperre auf."),
    "cmd-unbar": "Der Gastgeber hebt die Sperre eines Namens für den Tisch auf.",
    "cmd-unbar-help": "Hebt die Sperre von NAME durch den Gastgeber auf (wie bei BSW: /entsperren NAME).",
    "cmd-remove": "Vorschlagen, einen während des Spiels verschwundenen Spieler zu entfernen.",
    "cmd-remove-help": (
        "Ist ein Spieler während eines Spiels verschwunden (Verbindung getrennt oder\nRaum verlassen), "
        "darf ein anderer Spieler vorschlagen, ihn zu entfernen; die\nanderen Spieler am Tisch stimmen mit "
        "/accept oder /refuse ab, und die Mehrheit\nentscheidet. Den Platz eines entfernten Spielers "
        "übernimmt ein Bot, der mit\nseinen Karten weiterspielt."),
    "cmd-removebot": "Den Bot auf SEAT vor dem Start wieder vom Tisch nehmen.",
    "cmd-removebot-help": "Nimmt den Bot auf SEAT vor dem Start wieder vom Tisch.",
    "cmd-replay": "Ein gespeichertes Spiel Runde für Runde zeigen.",
    "cmd-replay-help": (
        "Zeigt das gespeicherte Spiel GAME (die Nummer aus /history) Runde für Runde:\ndie Plätze, jede "
        "Hand, wie sie ausgeteilt wurde, die Ansagen, das Schupfen,\njedes Spiel, jedes Passen, jede "
        "Drachenvergabe und den Stand jeder Runde. Mit\nROUND nur diese Runde."),
    "cmd-reset": "Einen beendeten Tisch für ein neues Spiel abräumen.",
    "cmd-reset-help": (
        "Räumt nach dem Ende eines Spiels den Tisch fürs nächste ab: Wer noch da ist,\nbehält seinen "
        "Platz, die Optionen bleiben. Dann wieder /start."),
    "cmd-role": "Admins: NAME eine Rolle geben: admin, moderator oder none.",
    "cmd-role-help": (
        "Admins: macht den registrierten NAME zum Admin oder Moderator oder (none)\nwieder zum "
        "gewöhnlichen Spieler. Wird gespeichert und protokolliert. Den\nersten Admin bestimmt die "
        "Server-Option --admin."),
    "cmd-room": "In Raum NUMBER gehen (0 ist die Lobby; ein Tisch: zuschauen).",
    "cmd-room-help": (
        "Bringt dich in Raum NUMBER: 0 ist die Lobby, jeder andere Raum gehört zum\nTisch mit dieser "
        "Nummer. Wer einen Tischraum betritt, schaut dem Tisch zu (er\nsieht nur Öffentliches); /join "
        "nimmt dort einen Platz. Wer ein laufendes Spiel\nverlassen hat, kommt so zurück. /room N für den "
        "Raum, in dem du bist, zeigt\ndie /spielinfo des Tischs."),
    "cmd-schupf": "Schupfen: je eine Karte an den nächsten Spieler, den Partner, den vorigen Spieler.",
    "cmd-schupf-help": (
        "Gibt zu Beginn jeder Runde drei Karten ab, in dieser Reihenfolge: an den\nnächsten Spieler in der "
        "Reihenfolge (den Gegner nach dir), an deinen Partner,\nan den vorigen Spieler (den Gegner vor "
        "dir), wie in den Logs von BSW.\nBeispiel: /schupf R2 SA Hu. Die Kurzform nur mit Rängen geht "
        "(/schupf 2 A 3)."),
    "cmd-set": "Eine Einstellung dieser Verbindung ändern (color on|off, lang de|en|fr|es|da, width N|auto).",
    "cmd-set-help": (
        "Einstellungen dieser Verbindung (nur die Sprache wird gespeichert): /set color\non zeigt die "
        "Karten von Händen und Stichen in ANSI-Farben je Farbe (Schwert\nfett, Pagode blau, Jade grün, "
        "Stern rot, die Sonderkarten gelb); /set color\noff schaltet das wieder ab. /set lang "
        "de|en|fr|es|da wählt die Sprache von\nallem, was der Server dir sagt (English, Deutsch, Français, "
        "Español, Dansk);\nein registrierter Name behält sie für die nächste Anmeldung. /set width N\n"
        "bricht jede Zeile nach N Spalten um ({min_width} bis {max_width}); /set width\nauto nimmt wieder "
        "die Breite, die dein Telnet-Client meldet (NAWS), sonst\n{default_width}. /set bell on lässt die "
        "Terminalglocke klingeln, wenn du dran\nbist oder eine Entscheidung auf dich wartet."),
    "cmd-showlist": "Eine deiner Listen zeigen: /showlist mute.",
    "cmd-showlist-help": "/showlist mute zeigt die Namen auf deiner Ignorierliste.",
    "cmd-shutdown": "Admins: den Server nach einer Warnung stoppen.",
    "cmd-shutdown-help": (
        "Admins: warnt alle, dass der Server in SECONDS stoppt (Standard {default}),\nnimmt ab dann keine "
        "neuen Tische und Spiele mehr an und stoppt nach SECONDS\nsauber (jede Verbindung benachrichtigt "
        "und geschlossen, die Datenbank\ngeschlossen). Wird protokolliert."),
    "cmd-spielinfo": "Optionen, Plätze, Stand und Zustand des Tischs.",
    "cmd-spielinfo-help": (
        "Zeigt den Zustand des Tischs (wartet, spielt, beendet), seinen Gastgeber, die\nSpieler nach "
        "Platz, den Stand und die Runde, die Optionen, die vom Standard\nabweichen, wer zuschaut und nach "
        "dem Ende das Ergebnis."),
    "cmd-start": "Das Spiel starten, wenn vier Spieler sitzen.",
    "cmd-start-help": (
        "Startet das Spiel, sobald alle vier Plätze besetzt sind. Jeder, der sitzt,\ndarf starten, mit der "
        "Option host nur der Gastgeber. Plätze, Optionen und Seed\nstehen ab hier fest."),
    "cmd-startnosave": "Ein ungewertetes Spiel starten, das in keiner Statistik zählt.",
    "cmd-startnosave-help": (
        "Startet das Spiel wie /start, aber ungewertet, und es zählt in niemandes\nStatistik (gespeichert "
        "wird es trotzdem: /history und /replay zeigen es).\nSpiele mit Bots oder Gästen und Spiele mit "
        "festem Seed (/option seed) sind\nohnehin ungewertet."),
    "cmd-sub": "NAME von einer deiner Listen nehmen: /sub mute NAME.",
    "cmd-sub-help": "/sub mute NAME nimmt NAME wieder von deiner Ignorierliste.",
    "cmd-tchlog": "Ein gespeichertes Spiel als BSW-Logdatei (.tch).",
    "cmd-tchlog-help": (
        "Gibt das gespeicherte Spiel GAME (die Nummer aus /history) als .tch-Datei des\nLog-Archivs von "
        "BrettspielWelt aus, Zeile für Zeile, für die Werkzeuge, die\nBSW-Logs auswerten "
        '(docs/operations.md, "BSW logs"). Spiele mit /option log\noff haben keins.'),
    "cmd-tell": "NAME TEXT zuflüstern (auch: ;NAME TEXT).",
    "cmd-tell-help": (
        "Schickt einer Person, die online ist, eine private Nachricht, wo sie auch ist.\nNur NAME sieht "
        "sie; du siehst eine Bestätigung. ;NAME TEXT ist die Kurzform.\ntintin++ liest ; als eigenen "
        'Befehlstrenner (;Anna hi käme im Raum als "Anna\nhi" an): Flüstere dort mit /tell NAME TEXT oder '
        "tippe \\;NAME TEXT (tintin++\nschickt eine Zeile, die mit einem Backslash beginnt, unverändert)."),
    "cmd-tichu": "Tichu ansagen (vor deiner ersten Karte).",
    "cmd-tichu-help": (
        "Sagt Tichu an: 100 Punkte, wenn du als Erster rausgehst, sonst minus 100.\nMöglich jederzeit, "
        "bevor du deine erste Karte spielst (auch während des\nSchupfens), einmal pro Runde."),
    "cmd-unban": "Moderatoren: die Sperre von NAME aufheben.",
    "cmd-unban-help": "Moderatoren und Admins: NAME darf sich wieder anmelden. Wird protokolliert.",
    "cmd-whereis": "In welchem Raum NAME ist.",
    "cmd-whereis-help": (
        "Sagt, in welchem Raum (der Lobby oder dem Raum eines Tischs, mit seiner\nNummer) NAME ist."),
    "cmd-who": "Wer in deinem Raum ist.",
    "cmd-who-help": "Zeigt die Leute in dem Raum, in dem du bist (am Anfang die Lobby, Raum 0).",
    "cmd-wish": "Nach dem Mah Jong einen Rang wünschen (/wish none: kein Wunsch).",
    "cmd-wish-help": (
        "Gleich nachdem du das Mah Jong ohne Wunsch gespielt hast: /wish RANK (2 bis A)\noder /wish none. "
        "Der nächste Spieler, der eine Karte dieses Rangs hat und sie\nspielen kann, muss das tun, bis sie "
        "gespielt ist."),
    "cmd-wwho": "Alle, die online sind, und wo sie sind.",
    "cmd-wwho-help": "Zeigt alle, die online sind, mit dem Raum, in dem jeder ist; Gäste sind\nmarkiert.",
    # table options (lobby/table_options.py)
    "option-round": "höchstens X Runden (off: bis zum Zielstand)",
    "option-tichujoin": "die ersten beiden mit /join spielen zusammen",
    "option-turnier": "9 Runden, wechselnde Partner, Siegpunkte (nicht mit round)",
    "option-target": "der Stand, der das Spiel beendet",
    "option-drawseat": "die Plätze werden beim Start ausgelost",
    "option-host": "nur der Gastgeber startet und setzt Optionen",
    "option-dragon-fixed": "Drachenstich an den nächsten Gegner",
    "option-bombwindow": "Sekunden zum Bomben, bevor ein gewonnener Stich weitergeht",
    "option-seed": "gleicher Seed, gleiche Karten (off: zufällig)",
    "option-log": "das Spiel auch als BSW-Log speichern",
    "option-grace": "Sekunden, bevor ein verschwundener Spieler per /remove entfernt werden darf",
    # what an option takes (the error bad-option-value)
    "option-expects-flag": "on oder off",
    "option-expects-seconds": "Sekunden, 0 bis {high}",
    "option-expects-max_rounds": "eine Zahl von Runden",
    "option-expects-target": "einen Stand wie 500 oder 1000",
    "option-expects-seed": "eine ganze Zahl",
}
