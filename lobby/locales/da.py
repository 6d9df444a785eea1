"""The Danish catalog: every English key of lobby/messages.py, the same placeholders."""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # ---- informational messages --------------------------------------------------------------------
    # connection and login (protocol/session.py)
    "greeting": "Velkommen til Tichu-lobbyen. Log ind med dit navn, eller skriv guest.",
    # the same in every language: how to switch, in a few words of each
    "greeting-languages": "In English: /set lang en · Auf Deutsch: /set lang de\n"
                          "En français : /set lang fr · En español: /set lang es\n"
                          "På dansk: /set lang da",
    "motd": "{text}",
    "login-prompt": "navn: ",
    "password-prompt": "adgangskode: ",
    "guest-confirm": (
        "\"{name}\" er ikke et registreret navn. Tryk Enter for at spille som gæsten {name}, eller skriv "
        "et andet navn: "),
    "typed-ahead-dropped": "(Den linje blev ikke brugt: det kunne være en adgangskode skrevet for tidligt.)",
    "seat-key-prompt": "nøgle: ",
    "seat-key-asked": (
        "Bord {table} holder pladsen for gæsten {name}: skriv den nøgle, du fik, da du satte dig (en tom "
        "linje: tilbage til login)."),
    "seat-key-asked-late": (
        "Bord {table} holder pladsen for gæsten {name}: skriv den nøgle, du fik, da du satte dig, for at "
        "få den tilbage (en tom linje: log ind som {name} uden den)."),
    "logged-in-guest":
        "Hej {name}! Du er gæst; /register PASSWORD gemmer navnet til dig. Skriv /help for kommandoerne.",
    "logged-in": "Velkommen tilbage, {name}! Skriv /help for kommandoerne.",
    "replaced": "Du loggede ind som {name} fra en anden forbindelse; denne lukkes.",
    "name-reclaimed": (
        "Gæsten {name} kom tilbage med nøglen til sin plads, og navnet er gæstens; log ind igen med et "
        "andet navn."),
    "bye": "Farvel, {name}.",
    "shutdown": "Serveren lukker ned. Farvel.",
    "registered": "{name} er registreret nu. Log næste gang ind med dette navn og din adgangskode.",
    "password-changed": "Din adgangskode er ændret.",
    # rooms and chat (lobby/world.py)
    "enters": "{name} kommer ind i {room}.",
    "leaves": "{name} forlader {room}.",
    "says": "<{name}> {text}",
    "tells": "{name} hvisker til dig: {text}",
    "told": "Du hvisker til {name}: {text}",
    "who": "I {room} ({count}): {names}",
    "look": "Du er i {room} sammen med {count} {count!p:anden|andre} her.",
    "look-alone": "Du er i {room}; der er ingen andre her.",
    "look-tables": (
        "{tables} {tables!p:åbent bord|åbne borde}: /listroom viser listen, /room N ser på et "
        "bord, /newroom åbner et nyt."),
    "look-no-tables": "Ingen borde er åbne: /newroom åbner et.",
    "who-bot": "{name} (bot)",
    "wwho": "{count} online:",
    "wwho-line": "  {name:<16} {room}{guest}",
    "wwho-guest": " (gæst)",
    "finger": "{name}:",
    "finger-registered": "  registreret siden {registered_at}, sidst set: {last_seen}",
    "finger-guest": "  gæst (ikke registreret)",
    "finger-online": "  online nu, i {room}",
    "finger-offline": "  ikke online",
    "finger-client": "  din klient: {client}",
    "never": "aldrig",
    # durations (`{seconds!t}` in a template; lobby.messages.duration)
    "duration-second": "{n} sekund",
    "duration-seconds": "{n} sekunder",
    "duration-minute": "{n} minut",
    "duration-minutes": "{n} minutter",
    "duration-hour": "{n} time",
    "duration-hours": "{n} timer",
    # rooms and tables in the world (lobby/world.py, protocol/commands.py)
    "newroom": (
        "Du åbner bord {table} (Tichu) og er dets vært: /join sætter dig, /option help viser "
        "indstillingerne, /manager fører dig tilbage til lobbyen."),
    "listroom": "Borde ({count}):",
    "listroom-empty": "Ingen borde er åbne; /newroom tichu åbner et.",
    "listroom-page":
        "Borde {first}-{last} af {count} ({waiting} venter, {playing} spiller), side {page} af {pages}:",
    "listroom-more": "/listroom {next} viser de næste {per_page}.",
    "listroom-line": "  {table:>3} {game} {state:<8} {seating}",
    "listroom-details": "      {options}; {spectators} ser på",
    "whereis": "{name} er i {room} (rum {number}).",
    "game-waiting-for-you": "Dit spil ved bord {table} fortsætter uden dig: /room {table} fører dig tilbage.",
    "setting": "{name} er nu {value}.",
    "setting-lang": "Sprog: {language}. /set lang de|en|fr|es|da skifter.",
    # the languages by their own names (the same in every catalog)
    "language-en": "English",
    "language-de": "Deutsch",
    "language-fr": "Français",
    "language-es": "Español",
    "language-da": "Dansk",
    # the rooms' names (lobby/world.py names them in English for the machine mode's data)
    "room-lobby": "lobbyen",
    "room-table": "rummet ved bord {number}",
    "iset": "Grænsefladeindstillingen {name} er nu {value}.",
    # help (protocol/commands.py)
    "help": (
        "Kommandoer (/ er valgfri, entydige forkortelser virker; tekst uden / siges i dit rum, ;NAME "
        "TEXT hvisker):"),
    "help-group": "{group}: {commands}",
    "help-group-lobby": "Lobby",
    "help-group-chat": "Chat",
    "help-group-tables": "Borde",
    "help-group-play": "Spil",
    "help-group-records": "Arkiv",
    "help-group-account": "Konto",
    "help-group-moderation": "Moderation",
    "help-group-other": "Andet",
    "help-footer": "/help COMMAND fortæller mere om en kommando.",
    "help-command": "{usage}",
    "help-aliases": "  også: {aliases}",
    # tables (lobby/table.py events, rendered by protocol/render_table.py)
    "table-joined": "{name} sætter sig på plads {seat}.",
    "table-seat-key": "Mister du forbindelsen, så log ind som {name} og giv nøglen {key}.",
    "table-left": "{name} forlader plads {seat}.",
    "table-started": "Bord {table}: spillet begynder, {team0} mod {team1}.",
    "table-option-set": "{name} sætter {option} til {value}.",
    "table-options": "Indstillinger for bord {table} (/option NAME [VALUE] før start):",
    "table-option-line": "  {option:<13} {value:<6} {about}",
    "table-info": "Bord {table}: {state}, vært {host}.",
    "table-info-seats": "  Pladser: {seating}",
    "table-info-score": "  Stilling efter {rounds} {rounds!p:runde|runder}: {score}",
    "table-info-score-none": "  Stilling: {score} (ingen runder spillet endnu)",
    "table-info-options": "  Indstillinger: {options}",
    "table-info-watching": "  Tilskuere: {names}",
    "table-reset": "{name} rydder bordet til et nyt spil: /join, derefter /start.",
    "table-vanished": (
        "{name} er forsvundet; spillet venter på vedkommende. Efter {grace!t} kan de andre spillere "
        "bruge /remove {name}."),
    "table-back": "{name} er tilbage.",
    "table-remove-proposed": (
        "{name} foreslår at fjerne {target}: /accept eller /refuse ({needed} "
        "{needed!p:stemme|stemmer} kræves)."),
    "table-vote": "{name} stemmer {vote} til at fjerne {target}.",
    "table-remove-refused": "{target} bliver: fjernelsen blev afvist.",
    "table-vote-ended": "Afstemningen om at fjerne {name} er slut.",
    "table-rated": (
        "Ratet spil: den, der forlader det og ikke er tilbage inden for {grace!t} i alt, taber det."),
    "table-unrated": "Dette spil tæller ikke med i ratingen: {reason!w:why-unrated}.",
    "why-unrated-nosave": "det blev startet med /startnosave",
    "why-unrated-seed": "dets kort følger af startværdien fra /option seed",
    "why-unrated-bots": "en bot spiller med",
    "why-unrated-guests": "ikke alle fire spillere er registrerede",
    "history-abandoned": " (opgivet)",
    "history-left": ", forladt af: {names}",
    "finger-left": "  forlod {left} af {games} {games!p:påbegyndt spil|påbegyndte spil}",
    "ranking-left": ", forladt {left}",
    "table-timer-warning": (
        "Skynd dig: {seconds!t} tilbage til din beslutning, så bliver den truffet for dig."),
    "table-timed-out": (
        "{name} løb tør for tid ({seconds!t}); beslutningen træffes for {name}. De andre kan nu bruge "
        "/remove {name}."),
    "table-info-timer": "Betænkningstid: {seconds!t} pr. beslutning.",
    "table-info-timer-off": "Betænkningstid: slået fra.",
    "table-info-rated": "Dette spil tæller med i ratingen.",
    "table-info-left": "Har forladt spillet (og taber det): {names}.",
    "table-unseated": "{by} (værten) tager plads {seat} fra {name}.",
    "table-barred": "{by} (værten) udelukker {name} fra dette bord, indtil det lukkes.",
    "table-unbarred": "{by} (værten) ophæver udelukkelsen af {name}.",
    "namesake-notice": (
        "{name} har før talt med en anden under dit navn; dette er den første besked til dig."),
    "says-namesake": "<{name} (ny, ikke den {name}, der sad her)> {text}",
    "table-abandoned": "{target} blev fjernet; spillet er opgivet ved stillingen {score}.",
    "table-window-closed": "{name} kan fortsætte nu.",
    "table-window-closed-you": "Du kan fortsætte nu.",
    "table-new-host": "{name} er nu vært ved dette bord.",
    "table-seeded": "Seed {seed}, sat af værten {host}: den, der kender det, kender alle hænder.",
    "table-bot-added": "{by} sætter {name} ({strategy}-bot) på plads {seat}.",
    "table-bot-removed": "{by} fjerner {name} fra plads {seat}.",
    "table-bot-takes-over": "{target} blev fjernet; {name} spiller videre på plads {seat}.",
    "vote-yes": "ja",
    "vote-no": "nej",
    "table-view": "Bord {table}: {state}.",
    "table-look": "Bord {table} lige nu:",
    "options-default": "standardindstillinger",
    "options-defaults": "standard",
    "table-state-waiting": "venter",
    "table-state-playing": "spiller",
    "table-state-finished": "afsluttet",
    "view-seats": "Pladser: {seating}",
    "view-waiting": "/join [SEAT] sætter dig; /start når fire sidder; /option help viser indstillingerne.",
    "view-players": "{players}",
    "view-player-out": "ude som {place}",
    "view-call-tichu": "T!",
    "view-call-grand": "GT!",
    "view-gone": "(væk)",
    "view-score": "Runde {round_no} | {score}",
    "view-trick": "Stik: {plays}",
    "view-trick-empty": "Stik: tomt",
    "view-trick-won": "Stik: {plays} - vundet af {name}",
    "view-trick-more": "... {plays}",
    "view-wish": "Ønske: {rank!w:rank}",
    "view-with-wish": "{line}  |  {wish}",
    "view-hand": "Din hånd: {cards}",
    "view-received": "Modtaget: {gifts}",
    "view-turn": "{name} har turen.",
    "view-cards-left": "({count} tilbage)",
    "view-your-turn": "Din tur: /play CARDS eller /pass",
    "view-your-lead": "Du spiller ud: /play CARDS",
    "view-your-turn-wish": "Din tur: /play CARDS med {rank!w:a-rank} (ønsket), eller en bombe",
    "view-your-lead-wish": "Du spiller ud: /play CARDS med {rank!w:a-rank} (ønsket), eller en bombe",
    "view-bombs": "Du kan bombe: /bomb {cards}",
    "view-bomb-window": "{name} kan fortsætte om {seconds!t}: tid til bomber.",
    "view-bomb-window-you": "Du kan fortsætte om {seconds!t}: de andre kan stadig bombe.",
    "view-grand": "Grand Tichu? /grand eller /nogrand",
    "view-grand-wait": "Venter på svar om Grand Tichu: {names}",
    "view-exchange": "Bytte: /schupf NEXT PARTNER PREVIOUS ({next}, {partner}, {previous})",
    "view-exchange-wait": "Venter på byttet: {names}",
    "view-wish-prompt": "Dit ønske: /wish RANK eller /wish none",
    "view-wish-wait": "Venter på ønsket fra {name}.",
    "view-dragon": "Giv Dragens stik væk: /dragon left ({left}) eller /dragon right ({right})",
    "view-dragon-wait": "Venter på, at {name} giver Dragens stik væk.",
    "view-tichu-hint": "(/tichu melder Tichu)",
    "view-finished": "Spillet er slut. {outcome}",
    "view-play-again": "For at spille igen: /reset rydder bordet, og /start giver et nyt spil.",
    "view-abandoned": "Spillet blev opgivet ({name} fjernet).",
    "game-round-start": "Runde {round} begynder.",
    "game-deal": "Dine første 8 kort: {cards}",
    "game-deal-all": "Dine kort: {cards}",
    "game-deal-rest": "Dine sidste 6 kort: {cards}",
    "game-grand": "{name} melder GRAND TICHU!",
    "game-grand-no": "{name} melder ikke Grand Tichu.",
    "game-tichu": "{name} melder TICHU!",
    "game-exchange-phase": "Bytte: alle giver tre kort.",
    "game-exchange-given": "{name} har givet tre kort.",
    "game-exchange-received": "Du får {gifts}.",
    "game-gift-from": "{card} fra {name}",
    "game-play-phase": "{name} har Mahjong og spiller ud.",
    "game-play-phase-you": "Du har Mahjong og spiller ud.",
    "game-play": "{name} spiller {cards}.",
    "game-play-bomb": "{name} BOMBER {cards}!",
    "game-wish": "{name} ønsker {rank!w:a-rank}.",
    "game-wish-none": "{name} ønsker ingenting.",
    "game-wish-fulfilled": "{name} opfylder ønsket: {rank!w:a-rank}.",
    "game-pass": "{name} melder pas.",
    "game-trick-won": "{name} vinder stikket.",
    "game-trick-won-dragon": "{name} vinder Dragens stik og skal give det til en modstander.",
    "game-dragon-given": "{name} giver Dragens stik til {to_name}.",
    "game-dog": "Hunden giver udspillet til {name}.",
    "game-out": "{name} er ude ({place}).",
    "place-1": "1.",
    "place-2": "2.",
    "place-3": "3.",
    "place-4": "4.",
    "place-n": "{place}.",
    "seat-unnamed": "plads {seat}",
    # card notation itself (B D K A) stays BSW's
    "rank-2": "2",
    "a-rank-2": "en 2'er",
    "ranks-2": "2'ere",
    "rank-3": "3",
    "a-rank-3": "en 3'er",
    "ranks-3": "3'ere",
    "rank-4": "4",
    "a-rank-4": "en 4'er",
    "ranks-4": "4'ere",
    "rank-5": "5",
    "a-rank-5": "en 5'er",
    "ranks-5": "5'ere",
    "rank-6": "6",
    "a-rank-6": "en 6'er",
    "ranks-6": "6'ere",
    "rank-7": "7",
    "a-rank-7": "en 7'er",
    "ranks-7": "7'ere",
    "rank-8": "8",
    "a-rank-8": "en 8'er",
    "ranks-8": "8'ere",
    "rank-9": "9",
    "a-rank-9": "en 9'er",
    "ranks-9": "9'ere",
    "rank-10": "10",
    "a-rank-10": "en 10'er",
    "ranks-10": "10'ere",
    "rank-B": "knægt",
    "a-rank-B": "en knægt",
    "ranks-B": "knægte",
    "rank-D": "dame",
    "a-rank-D": "en dame",
    "ranks-D": "damer",
    "rank-K": "konge",
    "a-rank-K": "en konge",
    "ranks-K": "konger",
    "rank-A": "es",
    "a-rank-A": "et es",
    "ranks-A": "esser",
    # kinds of plays (`{kind!w:kind-a}`, an engine refusal)
    "kind-a-single": "et enkeltkort",
    "kind-a-pair": "et par",
    "kind-a-triple": "tre ens",
    "kind-a-fullhouse": "et fuldt hus",
    "kind-a-straight": "en række",
    "kind-a-stairs": "en trappe af par",
    "kind-a-bomb": "en bombe",
    "kind-a-dog": "Hunden",
    # the phases of a round (`{phase!w:phase}`)
    "phase-grand": "Grand Tichu-svar",
    "phase-exchange": "byttet",
    "phase-play": "spillet",
    "phase-wish": "ønsket",
    "phase-dragon": "overdragelsen af Dragens stik",
    "phase-finished": "runden er slut",
    # words that fill other messages (lobby.messages.Msg)
    "role-operator": "serverens operatør",
    "until-further-notice": "videre",
    "names-and": "{names} og {name}",
    "names-or": "{names} eller {name}",
    "game-round-over": "Runden er slut. Rækkefølge: {order}.",
    "game-round-over-double": "Runden er slut: dobbeltsejr til {team}! Rækkefølge: {order}.",
    "game-round-cards": "  Kortpoint: {score}",
    "game-round-call-won": "  {call} meldt af {name} lykkedes: +{points}",
    "game-round-call-lost": "  {call} meldt af {name} mislykkedes: -{points}",
    "call-tichu": "Tichu",
    "call-grand": "Grand Tichu",
    "game-round-total": "  Denne runde:  {score}",
    "game-round-score": "Stilling efter runde {round}: {score}",
    "game-victory-points": "Sejrspoint: {points}",
    "game-match-over": "Spillet er slut efter {rounds} {rounds!p:runde|runder}: {outcome}",
    "game-winner": "{names} vinder med {score}.",
    "game-shared": "Delt sejr ved {score}.",
    "game-turnier-winner": "{names} vinder.",
    "game-turnier-points": "Sejrspoint/Tichu-point: {points}",
    # game records, statistics, ratings (lobby/records.py data, protocol/render_records.py)
    "history-header": "Seneste spil for {name}:",
    "history-line": (
        "  #{game} {date} bord {table}: {team0} {score0}:{score1} {team1}, {rounds} "
        "{rounds!p:runde|runder}, {outcome}{unrated}"),
    "history-none": "{name} har ingen afsluttede spil.",
    "history-won": "vundet",
    "history-lost": "tabt",
    "history-shared": "delt",
    "history-unrated": " (uden rating)",
    "replay-header": (
        "Spil #{game}, bord {table}, {date}: {team0} mod {team1}, {rounds} "
        "{rounds!p:runde|runder}."),
    "replay-round": "Runde {round}: pladser {seating}",
    "replay-hand": "{name}: {cards}",
    "replay-exchange": "{name} giver {gifts}.",
    "replay-gift": "{card} til {name}",
    "tchlog-header": "Spil #{game} som BSW-log (.tch), {count} {count!p:linje|linjer}:",
    "ranking-header": "Rangliste (Team Elo, kun spil med rating):",
    "ranking-line": "  {place:>3}. {name:<16} {rating:>5}  ({games} {games!p:spil|spil})",
    "ranking-none": "Ingen har spillet et spil med rating endnu.",
    # reconnecting and restoring (lobby/world.py, lobby/persistence.py)
    "game-rejoined": "Du er tilbage på din plads ved bord {table}; spillet fortsætter.",
    "finger-stats":
        "  spil {games} (vundet {wins}), med rating {rated_games} (vundet {rated_wins}), runder {rounds}",
    "finger-calls": (
        "  Tichu {tichu_made}/{tichu_calls}, Grand Tichu {grand_made}/{grand_calls}, dobbeltsejre "
        "{double_victories}, først ude {first_out}"),
    "finger-rating":
        "  rating {rating} efter {rated_games} {rated_games!p:spil|spil} med rating (bedste {peak})",
    "finger-no-games": "  ingen afsluttede spil endnu",
    # mute lists and moderation (lobby/moderation.py)
    "muted": "{name} er nu på din ignoreringsliste: du ser hverken vedkommendes tale eller hvisken.",
    "unmuted": "{name} er fjernet fra din ignoreringsliste.",
    "mute-list": "Din ignoreringsliste ({count}): {names}",
    "mute-list-empty": "Din ignoreringsliste er tom; /add mute NAME tilføjer et navn.",
    "role-set": "{name} har nu rollen {role}.",
    "role-changed": "{by} gav dig rollen {role}.",
    "kick-done": "{name} blev smidt ud.",
    "kicked": "{by} smed dig ud: {reason}",
    "ban-done": "{name} er udelukket indtil {until}.",
    "banned-now": "{by} har udelukket dig indtil {until}: {reason}",
    "unban-done": "Udelukkelsen af {name} er ophævet.",
    "ban-list": "Udelukkelser ({count}):",
    "ban-list-line": "  {name} indtil {until}, af {by}: {reason}",
    "ban-list-address": "    og gæster fra {address}",
    "ban-list-empty": "Ingen er udelukket.",
    "silenced-set": "{name} må ikke tale i offentlige rum nu.",
    "unsilenced": "{name} må tale i offentlige rum igen.",
    "you-silenced": "{by} har gjort dig tavs i offentlige rum; /tell virker stadig.",
    "you-unsilenced": "{by} lader dig tale i offentlige rum igen.",
    "announcement": "*** {by} meddeler: {text}",
    "shutdown-warning": "*** Serveren lukker ned om {seconds!t} ({reason}; {by}). Ingen nye spil starter.",
    # ---- errors (the keys are the error codes) -----------------------------------------------------
    # protocol / session
    "line-too-long": "Linjen er for lang ({length} bytes, grænse {limit}); den blev kasseret.",
    "unknown-command": "Ukendt kommando /{name}. Skriv /help for en liste over kommandoer.",
    "ambiguous-command": "Tvetydig kommando /{name}: kan være {candidates}.",
    "bad-arguments": "Brug: {usage}",
    "internal-error": "Intern fejl under din kommando; den er logget, og intet er ændret.",
    # login and accounts (protocol/session.py, protocol/commands.py)
    "bad-name": (
        "{name} er ikke et gyldigt navn: 3 til 16 tegn, hvert et ASCII-bogstav a-z eller A-Z, et ciffer "
        "0-9, _ eller -."),
    "reserved-name": "Navnet {name} er reserveret; vælg et andet navn (eller skriv guest).",
    "name-in-use": "{name} er allerede online; vælg et andet navn.",
    "seat-held":
        "Bord {table} holder pladsen for gæsten {name}: giv pladsens nøgle, eller vælg et andet navn.",
    "wrong-seat-key": "Forkert nøgle.",
    "wrong-password": "Forkert adgangskode.",
    "too-many-failures": "For mange mislykkede loginforsøg; forbindelsen lukkes.",
    "bad-password": "En adgangskode har {min} til {max} tegn og ingen mellemrum.",
    "already-registered": "Du er allerede registreret; /password OLD NEW ændrer din adgangskode.",
    "not-registered": "Du er ikke registreret; /register PASSWORD registrerer dit navn.",
    "name-held-for-guest": (
        "Bord {table} holder en gæsteplads under navnet {name}; navnet kan registreres, når det spil er "
        "slut."),
    "name-taken": "Navnet {name} er blevet registreret i mellemtiden; log ind igen med et andet navn.",
    "busy": "Dine tidligere kommandoer er stadig i gang; denne linje blev kasseret.",
    # chat
    "not-online": "{name} er ikke online.",
    "invisible-text": (
        "Der er intet synligt tilbage af din besked: kontrol- og formateringstegn (som U+202E) fjernes "
        "fra det, du siger."),
    "no-such-user": "Ingen ved navn {name} er online eller registreret.",
    # tables (lobby/table.py)
    "game-running": "Spillet er i gang; det er kun muligt før start.",
    "game-finished": "Spillet er slut; /reset rydder bordet til et nyt spil.",
    "no-game": "Der er intet spil i gang ved dette bord.",
    "not-seated": "Du sidder ikke ved dette bord; /join giver dig en plads.",
    "already-seated": "Du sidder allerede på plads {seat}.",
    "no-such-seat": "Der er ingen plads {seat}; pladserne er 1 til 4.",
    "seat-taken": "Plads {seat} er optaget af {name}.",
    "table-full": "Alle fire pladser er optaget; du kan se på.",
    "too-many-tables": (
        "Du er allerede vært for eller sidder ved {limit} {limit!p:åbent bord|åbne borde} (bord "
        "{tables}); forlad et først, eller lad dets spil slutte."),
    "seat-limit": (
        "Du sidder allerede ved bord {tables}, og man sidder ved {limit} {limit!p:bord|borde} ad gangen; "
        "forlad det først, eller lad dets spil slutte."),
    "tables-too-fast": (
        "Du har åbnet {limit} {limit!p:bord|borde} inden for det sidste minut, det højeste antal pr. "
        "bruger; prøv igen om {seconds!t}."),
    "address-tables": (
        "Brugerne fra din adresse er allerede vært for eller sidder ved {limit} {limit!p:åbent bord|åbne "
        "borde}, det højeste antal pr. adresse; forlad et først."),
    "need-four": "Der skal fire spillere til at starte; {count} sidder.",
    "host-only": "Kun værten, {host}, må gøre det (indstillingen host).",
    "host-only-option": "Kun værten, {host}, må sætte indstillingen {option}.",
    "not-finished": "Spillet er ikke slut; /reset rydder kun et afsluttet bord.",
    "unknown-option": "Ukendt indstilling {name}; /option help viser dem.",
    "bad-option-value": "Indstillingen {name} forventer {expected}, ikke {value!r}.",
    "turnier-rounds": (
        "Turnier (turnering) spilles altid over {rounds} runder og kan derfor ikke kombineres med round: "
        "sæt først round eller turnier til off."),
    "not-a-player": "{name} spiller ikke ved dette bord.",
    "host-command": "Kun værten, {host}, må gøre det.",
    "not-seated-here": "{name} sidder ikke ved dette bord.",
    "barred-from-table": "Værten ({host}) har udelukket dig fra bord {table}, indtil det lukkes.",
    "not-barred": "{name} er ikke udelukket fra dette bord.",
    "name-now-someone-else": (
        "{name} er en anden nu: den {name}, du talte med, er gået, og en ny har navnet. Din besked "
        "blev ikke sendt; send den igen for at nå den nye {name}."),
    "not-vanished": (
        "{name} er hverken forsvundet eller løbet tør for tid; kun sådan en spiller kan fjernes."),
    "vote-running": "Der er allerede en afstemning om at fjerne {name}: /accept eller /refuse.",
    "remove-too-early": (
        "{name} kan stadig komme tilbage: /remove er muligt om {seconds!t} (bordets ventetid, /option "
        "grace)."),
    "no-vote": "Der er ingen afstemning at svare på.",
    "not-a-voter": "Kun de andre spillere ved bordet stemmer om dette.",
    "bomb-window": "Vent {seconds!t}, før du fortsætter: de andre kan stadig bombe stikket.",
    "give-dragon-first": (
        "Du har vundet Dragens stik: giv det væk først, /dragon left ({left}) eller /dragon "
        "right ({right})."),
    "name-wish-first": "Sig dit ønske først: /wish RANK eller /wish none.",
    "give-cards-first": "Giv dine tre kort først: /schupf NEXT PARTNER PREVIOUS.",
    "bad-dragon-target":
        "Giv Dragens stik væk med /dragon left eller /dragon right (eller et pladsnummer eller et navn).",
    # rooms and table routing (lobby/world.py, protocol/commands.py)
    "not-at-table": "Du er ikke ved et bord; /room N går ind til et, /newroom tichu åbner et.",
    "no-such-room": "Der er intet rum {number}; /listroom viser bordene.",
    "no-such-page": "Der er ingen side {page}; /listroom har {pages} {pages!p:side|sider}.",
    "seat-held-here": (
        "Bord {table} holder en plads for gæsten {name}, som satte sig der før dig; log ind med et andet "
        "navn for at se på."),
    "unknown-game": "Her findes intet spil {name}; /newroom tichu åbner et Tichu-bord.",
    "unknown-setting": "Der er ingen indstilling {name}; /set color on|off er én af dem.",
    "bad-setting-value": "Indstillingen {name} forventer {expected}, ikke {value!r}.",
    "unknown-language": "Her findes intet sprog {value!r}; /set lang kender {choices}.",
    "bad-width": "Bredden er et antal kolonner fra {min} til {max}, eller auto, ikke {value!r}.",
    # machine mode (protocol/machine.py)
    "bad-id": "Et kommando-id er #ID med 1 til 32 bogstaver, cifre, - eller _, ikke #{id}.",
    "unknown-request": "Forespørgslen {request} findes ikke; {state} er en, og kommandoer "
                       "begynder med / (/help viser dem).",
    "json-request": "Forespørgsler er kommandolinjer som /play B5 eller {state}, ikke "
                    "JSON-objekter; docs/bots.md viser dem.",
    # bots at tables (lobby/table.py, lobby/bots)
    "unknown-strategy": "Der er ingen bot-strategi {name}; vælg {choices}.",
    "bad-bot-level": (
        "{level} er ikke et bot-niveau: expert tænker fra {low} til {high} sekunder pr. beslutning "
        "(expert:2)."),
    "not-a-bot": "Der sidder ingen bot på plads {seat}.",
    # game records (lobby/records.py)
    "no-such-game": "Der er intet spil #{game}; /history viser de seneste spil.",
    "no-such-round": (
        "Spil #{game} har ingen runde {round}; det havde {rounds} "
        "{rounds!p:runde|runder}."),
    "no-tch-log": "Spil #{game} har ingen BSW-log: det blev spillet med /option log off.",
    # defences of the public port (protocol/guard.py)
    "server-full": "Serveren er fuld; prøv igen senere.",
    "too-many-connections": "For mange forbindelser fra din adresse (højst {limit}); denne lukkes.",
    "too-many-guests": (
        "For mange gæster er online (højst {limit}); log ind med et registreret navn, eller prøv igen "
        "senere."),
    "too-many-attempts": "For mange forsøg med adgangskode fra din adresse; prøv igen om {seconds!t}.",
    "too-many-attempts-here":
        "For mange forsøg med adgangskode på denne forbindelse; prøv igen om {seconds!t}.",
    "account-wait": "For mange forkerte adgangskoder for {name}; næste forsøg er muligt om {seconds!t}.",
    "too-many-registrations":
        "For mange nye konti fra din adresse (højst {limit} i timen); prøv igen om {seconds!t}.",
    "login-timeout": "Du loggede ikke ind inden for {seconds!t}; forbindelsen lukkes.",
    "idle-warning": (
        "Du har ikke skrevet noget i lang tid; du bliver afbrudt om {seconds!t}, medmindre du skriver "
        "noget."),
    "idle-timeout": "Afbrudt efter {seconds!t} uden aktivitet.",
    "flooding": (
        "Du sender linjer for hurtigt (mere end {rate} i sekundet); linjer kasseres, indtil du sænker "
        "farten."),
    "flood-disconnect": "For mange linjer for hurtigt; forbindelsen lukkes.",
    # moderation and mute lists (lobby/moderation.py)
    "not-allowed": "Kun en bruger med rollen {role} må bruge /{command}.",
    "not-yourself": "Du kan ikke bruge /{command} på dig selv.",
    "unknown-role": "Der er ingen rolle {role}; vælg {choices}.",
    "not-registered-user": "{name} er ikke et registreret navn.",
    "unknown-list": "Der er ingen liste {name}; listen hedder mute (/showlist mute).",
    "already-muted": "{name} er allerede på din ignoreringsliste.",
    "not-muted": "{name} er ikke på din ignoreringsliste.",
    "mute-list-full": (
        "Din ignoreringsliste er fuld ({limit} {limit!p:navn|navne}); /sub mute NAME "
        "giver plads."),
    "silenced": "En moderator har gjort dig tavs i offentlige rum; /tell virker stadig.",
    "not-silenced": "{name} er ikke gjort tavs.",
    "banned": "{name} er udelukket indtil {until}: {reason}",
    "address-banned":
        "Gæster fra din adresse er udelukket indtil {until}: {reason}. Log ind med et registreret navn.",
    "not-banned": "{name} er ikke udelukket.",
    "shutting-down": "Serveren lukker ned; ingen nye spil starter.",
    # the database fails while the server runs (lobby/persistence.py)
    "game-not-saved": (
        "Serveren kan ikke gemme spillet ved bord {table} (en skrivning til databasen mislykkedes; "
        "operatøren kan se det i loggen). Du kan spille videre, men spillet kan gå tabt, hvis serveren "
        "stopper."),
    "bad-card": "Ikke et kort: {token!r}. Kort skrives som R10 GB SD BK RA Ma Hu Ph Dr.",
    # round.py / match.py
    "bad-seat": "Der er ingen plads {seat!r}.",
    "bad-action": "Ikke en handling: {action}.",
    "wrong-phase": "Det er ikke muligt nu (fase: {phase!w:phase}).",
    "round-over": "Runden er slut.",
    "match-over": "Spillet er slut.",
    "no-grand-tichu": "Grand Tichu spilles ikke ved dette bord.",
    "grand-already-decided": "Du har allerede svaret på Grand Tichu.",
    "grand-undecided": "Svar først på Grand Tichu (ja eller nej).",
    "already-called": "Du har allerede meldt {call}.",
    "tichu-too-late": "For sent til Tichu: du har allerede spillet et kort.",
    "exchange-over": "Byttet er slut.",
    "already-exchanged": "Du har allerede givet dine tre kort.",
    "exchange-three-cards":
        "Giv præcis tre kort: til den næste spiller, din makker og den forrige spiller (du angav {count}).",
    "exchange-incomplete": "Ikke alle har givet deres kort endnu.",
    "waiting-for-wish": "Venter på, at spilleren med Mahjong siger sit ønske.",
    "waiting-for-dragon": "Venter på, at plads {seat} giver Dragens stik væk.",
    "you-are-out": "Du har ingen kort tilbage i denne runde.",
    "not-your-turn":
        "Det er ikke din tur (plads {turn} spiller); uden for tur må kun en bombe spilles på bordet.",
    "must-lead": "Du spiller ud: spil noget (du kan ikke melde pas).",
    "must-fulfil-wish": "Ønsket binder dig: spil {rank!w:a-rank}.",
    "bad-wish": "Ikke en værdi at ønske: {rank!r}. Ønsk 2..10, B, D, K, A eller none.",
    "wish-without-mahjong": "Kun et udspil med Mahjong kan komme med et ønske.",
    "no-wish-pending": "Du har intet ønske at komme med.",
    "no-dragon-pending": "Der er intet stik med Dragen at give væk.",
    "not-your-dragon": "Det er plads {seat}, der skal give Dragens stik væk.",
    "dragon-to-opponent": "Dragens stik skal gå til en modstander, ikke til plads {seat}.",
    # cards.py
    "duplicate-card": "{card} er angivet to gange.",
    "bad-rank": "Ikke en værdi: {token!r}. Værdierne er 2..10, B (eller J), D (eller Q), K, A.",
    # cards.py: the rank-only shorthand of a play (`/play 7 7`)
    "ambiguous-cards": (
        "Hvilke {rank!w:ranks}? Ethvert valg bryder en bombe; angiv kortene, fx "
        "{example}."),
    "missing-rank": "Du har ikke {count} {count!p:kort|kort} af værdien {rank}.",
    # moves.py: why a play is refused
    "no-cards": "Angiv de kort, du vil spille.",
    "cards-not-in-hand": "Du har ikke {cards}.",
    "not-a-combination": "{cards} er ikke en kombination.",
    "bad-phoenix-reading": "Fønix kan ikke stå for {rank!w:a-rank} i {cards}.",
    "dog-on-table": "Intet kan spilles på Hunden, heller ikke en bombe.",
    "dog-not-lead": "Hunden kan kun spilles ud, ikke lægges på et stik.",
    "phoenix-on-dragon": "Fønix kan ikke spilles på Dragen.",
    "bomb-on-table": "{play} slår ikke bomben {top}: det gør kun en større bombe.",
    "wrong-kind": (
        "{play} kan ikke spilles på {top}: {kind!w:kind-a} kan ikke lægges på "
        "{top_kind!w:kind-a}."),
    "wrong-length":
        "{play} kan ikke spilles på {top}: et udspil skal have lige så mange kort som det, det slår.",
    "too-low": "{play} slår ikke {top}.",
    "wish-not-followed": "Du skal spille {rank!w:a-rank}: det åbne ønske (eller en bombe).",
    "not-a-bomb": "{cards} er ikke en bombe; kun en bombe kan spilles uden for tur.",
    "bomb-on-empty-table":
        "En bombe kan kun smides ind, mens der ligger et udspil på bordet; spil den ud i din tur.",
    # ---- help texts: cmd-NAME, cmd-NAME-help, option-NAME ------------------------------------------
    "cmd-accept": "Stem ja til den igangværende /remove.",
    "cmd-accept-help":
        "Stemmer for at fjerne den forsvundne spiller, som det igangværende /remove-forslag nævner.",
    "cmd-add": "Føj NAME til en af dine lister: /add mute NAME.",
    "cmd-add-help": (
        "/add mute NAME sætter NAME på din ignoreringsliste (mute), som på BSW: du ser\n"
        "ikke længere, hvad NAME siger i rummene, eller NAMEs hvisken, og en hvisken\n"
        "fra NAME til dig ser ud til at være sendt. Listen for et registreret navn\n"
        "gemmes; en gæsts liste varer, så længe gæsten er online."),
    "cmd-addbot":
        "Sæt en bot (heuristic, hvis ingen nævnes) på SEAT eller den første ledige plads, før start.",
    "cmd-addbot-help": (
        "Sætter en bot (heuristic, hvis ingen strategi nævnes) på plads SEAT eller den\n"
        "første ledige plads, før start; værten eller enhver spiller ved bordet. expert\n"
        "tænker 0,5 s pr. beslutning, expert:SECONDS så længe du angiver (0.05 til 10)."),
    "cmd-announce": "Moderatorer: sig TEXT til alle, der er online.",
    "cmd-announce-help":
        "Moderatorer og admins: en linje til alle, der er online, uanset hvor de er. Logges.",
    "cmd-ban": "Moderatorer: hold NAME ude.",
    "cmd-ban-help": (
        "Moderatorer og admins: NAME kan ikke længere logge ind, i DURATION (90s, 30m,\n"
        "2h, 7d, 1w; et tal alene betyder minutter) eller, uden varighed (eller med\n"
        "perm), indtil /unban NAME; NAME afbrydes, hvis online. En gæst, der er online\n"
        "nu, trækker også sin adresse med ind i udelukkelsen: ingen gæst logger ind\n"
        "derfra i den tid (registrerede navne kan stadig); /banlist viser det.\n"
        "Udelukkelsen gemmes. En moderator kan ikke udelukke en moderator eller en\n"
        "admin. Logges."),
    "cmd-banlist": "Moderatorer: vis udelukkelserne.",
    "cmd-banlist-help": (
        "Moderatorer og admins: hver gældende udelukkelse med slutning, grund og hvem\n"
        "der gav den; en gæsts udelukkelse viser adressen, den kom fra (udelukket\n"
        "sammen med navnet: ingen gæst logger ind derfra)."),
    "cmd-bmute": "Moderatorer: gør NAME tavs i offentlige rum (off: fortryd).",
    "cmd-bmute-help": (
        "Moderatorer og admins: NAME må ikke længere tale i rummene (lobbyen og\n"
        "bordenes rum); hvisken virker stadig. /bmute NAME off ophæver det. Gemmes;\n"
        "logges."),
    "cmd-bomb": "Bomb, også uden for tur: /bomb S5 B5 G5 R5.",
    "cmd-bomb-help": (
        "Spiller en bombe (fire ens, eller en farvefølge på fem eller flere kort) når\n"
        "som helst, mens et stik ligger på bordet, også når det ikke er din tur."),
    "cmd-dragon": "Giv et stik vundet med Dragen væk: /dragon left|right.",
    "cmd-dragon-help": (
        "Den, der vinder et stik med Dragen, giver det til en modstander: /dragon right\n"
        "(den næste spiller i turrækkefølgen) eller /dragon left (den forrige); et\n"
        "pladsnummer eller et navn virker også. Med indstillingen dragon fixed går det\n"
        "automatisk til den næste modstander."),
    "cmd-finger": "Kontooplysninger, statistik og rating for NAME.",
    "cmd-finger-help": (
        "Viser, om NAME er registreret og siden hvornår, hvornår NAME sidst blev set,\n"
        "og om NAME er online nu (og i hvilket rum); for en registreret spiller også\n"
        "statistikken (spil, sejre, runder, Tichu- og Grand Tichu-meldinger og\n"
        "succeser, dobbeltsejre) og Team Elo-ratingen."),
    "cmd-grand": "Meld Grand Tichu (efter dine første 8 kort).",
    "cmd-grand-help": (
        "Efter de første 8 kort, før de sidste 6 gives, svarer hver spiller /grand\n"
        "(meld Grand Tichu: 200 point, hvis du går ud først, ellers minus 200) eller\n"
        "/nogrand."),
    "cmd-help": "Vis kommandoerne, eller forklar en.",
    "cmd-help-help": (
        "Uden argument vises de kommandoer, du må bruge, i grupper (lobby, chat, borde,\n"
        "spil, arkiv, konto, og moderation for moderatorer og admins). /help COMMAND\n"
        "viser kommandoens brug, aliasser og en længere forklaring; entydige\n"
        "forkortelser virker også her."),
    "cmd-history": "Dine (eller NAMEs) seneste spil.",
    "cmd-history-help": (
        "Viser de sidste ti afsluttede spil for NAME (uden NAME: dine egne), nyeste\n"
        "først: spilnummeret (til /replay), dato, bord, de to hold med slutstillingen,\n"
        "antal runder, vundet eller tabt, og om spillet var uden rating."),
    "cmd-iset": "Grænsefladeindstilling for denne forbindelse: /iset json 1|0.",
    "cmd-iset-help": (
        "/iset json 1 skifter denne forbindelse til maskintilstand: derefter er hver\n"
        "linje, serveren sender, ét JSON-objekt med et type-felt, og en kommandolinje\n"
        "kan begynde med #ID (1 til 32 bogstaver, cifre, - eller _), som svaret\n"
        "gentager som \"id\". /iset json 0 skifter tilbage til tekst. En første linje\n"
        "%json før login gør det samme fra starten. Gemmes aldrig på kontoen;\n"
        "docs/protocol.md (\"Machine mode\") beskriver hvert objekt."),
    "cmd-join": "Tag en plads ved dette bord (første ledige, eller plads 1..4).",
    "cmd-join-help": (
        "Sætter dig på plads SEAT (1 til 4) eller, uden SEAT, den første ledige plads,\n"
        "før start. Plads 1 og 3 spiller sammen mod plads 2 og 4; der spilles i\n"
        "rækkefølgen 1, 2, 3, 4. Med indstillingen tichujoin er de to første, der\n"
        "sætter sig, makkere; med drawseat trækkes pladserne ved start."),
    "cmd-kick": "Moderatorer: afbryd NAME.",
    "cmd-kick-help": (
        "Moderatorer og admins: lukker NAMEs forbindelse med REASON (NAME kan logge ind\n"
        "igen; /ban holder NAME ude). En moderator kan ikke smide en moderator eller en\n"
        "admin ud. Logges."),
    "cmd-leave": "Opgiv din plads før start.",
    "cmd-leave-help":
        "Frigør din plads igen; du bliver i rummet og ser på. Ikke muligt, mens spillet er i gang.",
    "cmd-listroom": "Vis de åbne borde.",
    "cmd-listroom-help": (
        "Viser de åbne borde: deres nummer, spil, tilstand (venter, spiller,\n"
        "afsluttet), spillerne efter plads, de indstillinger, der afviger fra standard,\n"
        "og hvor mange der ser på. Tyve borde ad gangen: er der flere, siger første\n"
        "linje, hvor mange der er, og hvor mange der venter og spiller, og /listroom 2\n"
        "viser de næste tyve."),
    "cmd-look": "Vis bordet (eller hvor du er) igen.",
    "cmd-look-help": (
        "Ved et bord: hele visningen igen, som den er nu: pladserne med de resterende\n"
        "kort og meldingerne, stillingen, stikket, ønsket, din hånd og hvis tur det er,\n"
        "med hvad du skal skrive (en tilskuer ser den offentlige visning uden hænder).\n"
        "Andre steder: rummet, du er i, og hvordan du finder et bord. I maskintilstand\n"
        "er svaret hele state-objektet. BSW- og MUD-spillere kender det som /l."),
    "cmd-manager": "Tilbage til lobbyen (rum 0).",
    "cmd-manager-help": (
        "Fører dig tilbage til lobbyen (rum 0, BSW's landsby). Før et spil starter,\n"
        "frigør det din plads; forlader du et spil i gang, forsvinder du for de andre\n"
        "spillere (/room N fører dig tilbage)."),
    "cmd-newroom": "Åbn et nyt bord (GAME: tichu) og gå derhen.",
    "cmd-newroom-help": (
        "Åbner et nyt bordrum for GAME (indtil videre kun tichu, standard) med dig som\n"
        "vært og flytter dig derhen. Bordet får det laveste ledige nummer; /listroom\n"
        "viser det. Derefter sætter /join dig, /option sætter indstillingerne, /start\n"
        "begynder, når fire sidder."),
    "cmd-nogrand": "Meld ikke Grand Tichu (efter dine første 8 kort).",
    "cmd-nogrand-help": "Afslår Grand Tichu. Når alle fire har svaret, gives de sidste 6 kort.",
    "cmd-option": "Sæt en bordindstilling før start; /option help viser dem.",
    "cmd-option-help": (
        "/option help viser indstillingerne med deres aktuelle værdier. Før start\n"
        "sætter værten (eller, uden indstillingen host, enhver spiller ved bordet) dem:\n"
        "round X (højst X runder, off), tichujoin (de to første, der sætter sig, er\n"
        "makkere), turnier (turnering: 9 runder med skiftende makkere, sejrspoint),\n"
        "target N (den score, der afslutter spillet, standard {target}), drawseat\n"
        "(tilfældige pladser), host (kun værten starter og sætter indstillinger),\n"
        "dragon fixed (Dragens stik går til den næste modstander), bombwindow SECONDS\n"
        "(tid til at bombe et vundet stik, før spillet går videre), seed N (samme seed,\n"
        "samme kort; off for tilfældig kortgivning; kun værten sætter det; et spil med\n"
        "seed er uden rating), log (gem også det afsluttede spil som BSW-log .tch, on),\n"
        "grace SECONDS (hvor længe en forsvundet spiller kan komme tilbage, før de\n"
        "andre kan fjerne vedkommende med /remove, standard {grace}). En\n"
        "til/fra-indstilling uden VALUE skifter; on/off sætter den."),
    "cmd-pass": "Meld pas (spil ikke på det aktuelle stik).",
    "cmd-pass-help": (
        "Melder pas på det aktuelle stik. Ikke muligt, når du spiller ud, eller når det åbne ønske "
        "binder dig."),
    "cmd-password": "Skift din adgangskode.",
    "cmd-password-help": "Ændrer adgangskoden til dit registrerede navn fra OLD til NEW.",
    "cmd-play": "Spil kort (BSW-notation), fx /play R10 G10 eller /play 7 7.",
    "cmd-play-help": (
        "Spiller CARDS i BSW-notation: farve S (Schwert, sværd), B (Pagode), G (Jade),\n"
        "R (Stern, stjerne) og værdi 2-10, B (Bube, knægt), D (Dame), K (Koenig,\n"
        "konge), A (As, es), eller Ma (Mahjong), Hu (Hund), Ph (Fønix), Dr (Drage).\n"
        "Ph=7 angiver den værdi, Fønix står for, hvor det ikke er klart. Med Mahjong\n"
        "tilføjer du et ønske: /play Ma wish 8 (eller /wish RANK lige efter).\n"
        "Kortformen med kun værdier (/play 7 7) accepteres, hvor den er entydig; den\n"
        "vælger kort, der ikke bryder en bombe. En bombe kan også spilles uden for tur\n"
        "med /play."),
    "cmd-quit": "Forlad serveren.",
    "cmd-quit-help": "Lukker din forbindelse. Din konto (hvis registreret) bliver.",
    "cmd-rangliste": "De bedste spillere efter rating (kun spil med rating).",
    "cmd-rangliste-help": (
        "Ranglisten: spillerne med den højeste Team Elo-rating (docs/rating.md) og\n"
        "deres antal spil med rating. Kun spil med fire registrerede spillere, ikke\n"
        "startet med /startnosave og uden fast seed, får rating."),
    "cmd-refuse": "Stem nej til den igangværende /remove.",
    "cmd-refuse-help":
        "Stemmer imod at fjerne den forsvundne spiller, som det igangværende /remove-forslag nævner.",
    "cmd-register": "Registrer det navn, du bruger.",
    "cmd-register-help": (
        "Registrerer dit nuværende navn med PASSWORD (4 til 128 tegn, ingen mellemrum).\n"
        "Derefter beder et login med dette navn om adgangskoden, og ingen andre kan\n"
        "bruge det. Gæstenavne (Guest1234) kan ikke registreres: log først ind med dit\n"
        "eget navn."),
    "option-timer": (
        "sekunder pr. beslutning, før den træffes for spilleren (off; auto: 60 i et ratet spil)"),
    "option-expects-timer": "sekunder, 5 til {high}, eller off eller auto",
    "cmd-unseat": "Værten tager pladsen fra en spiller (eller bot) ved et ventende bord.",
    "cmd-unseat-help": (
        "Før starten kan værten tage pladsen fra hvem som helst (BSW: /rauswerfen NAME); spilleren "
        "bliver i rummet som tilskuer og kan sætte sig igen, medmindre /bar udelukker dem."),
    "cmd-bar": "Værten udelukker et navn fra bordet, indtil det lukkes.",
    "cmd-bar-help": (
        "Værten udelukker NAME fra dette bord, indtil det lukkes (BSW: /sperren NAME): en plads ved et "
        "ventende bord mistes, NAME sendes til lobbyen og må hverken komme ind i rummet eller sætte "
        "sig. /unbar NAME ophæver det."),
    "cmd-unbar": "Værten ophæver udelukkelsen af et navn.",
    "cmd-unbar-help": "Ophæver værtens udelukkelse af NAME (BSW: /entsperren NAME).",
    "cmd-remove": "Foreslå at fjerne en spiller, der forsvandt under spillet.",
    "cmd-remove-help": (
        "Når en spiller er forsvundet (afbrudt eller gået ud af rummet) under et spil,\n"
        "kan en anden spiller foreslå at fjerne vedkommende; de andre spillere ved\n"
        "bordet stemmer med /accept eller /refuse, og flertallet afgør det. En fjernet\n"
        "spillers plads overtages af en bot, der spiller videre med vedkommendes kort."),
    "cmd-removebot": "Tag botten på SEAT af bordet igen, før start.",
    "cmd-removebot-help": "Tager botten på plads SEAT af bordet igen, før start.",
    "cmd-replay": "Vis et gemt spil runde for runde.",
    "cmd-replay-help": (
        "Viser det gemte spil GAME (nummeret, /history viser) runde for runde:\n"
        "pladserne, hver hånd som givet, meldingerne, byttet, hvert udspil, hvert pas\n"
        "og hver overdragelse af Dragens stik, og hver rundes stilling. Med ROUND kun\n"
        "den runde."),
    "cmd-reset": "Ryd et afsluttet bord til et nyt spil.",
    "cmd-reset-help": (
        "Når et spil er slut, rydder det bordet til næste spil: spillerne, der stadig\n"
        "er her, beholder deres pladser, og indstillingerne bliver. Derefter /start\n"
        "igen."),
    "cmd-role": "Admins: giv NAME en rolle: admin, moderator eller none.",
    "cmd-role-help": (
        "Admins: gør det registrerede navn NAME til admin eller moderator, eller (none)\n"
        "til almindelig spiller igen. Gemmes; logges. Den første admin kommer fra\n"
        "serverens --admin-indstilling."),
    "cmd-room": "Gå til rum NUMBER (0 er lobbyen; et bord: se på det).",
    "cmd-room-help": (
        "Flytter dig til rum NUMBER: 0 er lobbyen, hvert andet rum hører til bordet med\n"
        "det nummer. At gå ind i et bords rum betyder at se på bordet (du ser kun\n"
        "offentlig information); /join tager en plads der. En spiller, der forlod et\n"
        "spil i gang, kommer tilbage på denne måde. /room N for det rum, du er i, viser\n"
        "bordets /spielinfo."),
    "cmd-schupf": "Bytte: et kort hver til næste spiller, makker, forrige spiller.",
    "cmd-schupf-help": (
        "Giver tre kort ved starten af hver runde, i denne rækkefølge: til den næste\n"
        "spiller i turrækkefølgen (modstanderen efter dig), til din makker, til den\n"
        "forrige spiller (modstanderen før dig), som i BSW's logs. Eksempel: /schupf R2\n"
        "SA Hu. Kortformen med kun værdier virker (/schupf 2 A 3)."),
    "cmd-set": ("Skift en indstilling for denne forbindelse (color on|off, "
                "lang de|en|fr|es|da, width N|auto)."),
    "cmd-set-help": (
        "Indstillinger for denne forbindelse (kun sproget gemmes): /set color on viser\n"
        "kortene på hænder og stik med én ANSI-farve pr. kortfarve (Schwert fed, Pagode\n"
        "blå, Jade grøn, Stern rød, specialkortene gule); /set color off slår det fra\n"
        "igen. /set lang de|en|fr|es|da vælger sproget for alt, hvad serveren fortæller\n"
        "dig (English, Deutsch, Français, Español, Dansk); et registreret navn beholder\n"
        "det til næste login."
        " /set width N bryder hver linje ved N kolonner ({min_width} til {max_width}); "
        "/set width auto går tilbage til den bredde, din telnet-klient oplyser (NAWS), "
        "eller {default_width}. /set bell on ringer med terminalens klokke, når det "
        "er din tur, eller en beslutning venter på dig."),
    "cmd-showlist": "Vis en af dine lister: /showlist mute.",
    "cmd-showlist-help": "/showlist mute viser navnene på din ignoreringsliste.",
    "cmd-shutdown": "Admins: stop serveren efter en advarsel.",
    "cmd-shutdown-help": (
        "Admins: advarer alle om, at serveren stopper om SECONDS (standard {default}),\n"
        "afviser fra da af nye borde og nye spil, og stopper efter SECONDS pænt (hver\n"
        "forbindelse underrettet og lukket, databasen lukket). Logges."),
    "cmd-spielinfo": "Bordets indstillinger, pladser, stilling og tilstand.",
    "cmd-spielinfo-help": (
        "Viser bordets tilstand (venter, spiller, afsluttet), dets vært, spillerne\n"
        "efter plads, stillingen og runden, de indstillinger, der afviger fra standard,\n"
        "hvem der ser på, og efter slutningen resultatet."),
    "cmd-start": "Start spillet, når fire spillere sidder.",
    "cmd-start-help": (
        "Starter spillet, så snart alle fire pladser er optaget. Enhver spiller ved\n"
        "bordet kan starte, eller kun værten med indstillingen host. Pladserne,\n"
        "indstillingerne og seed ligger fast herfra."),
    "cmd-startnosave": "Start et spil uden rating, der ikke tæller i nogen statistik.",
    "cmd-startnosave-help": (
        "Starter spillet som /start, men uden rating, og det tæller ikke i nogens\n"
        "statistik (det gemmes stadig: /history og /replay viser det). Spil med bots\n"
        "eller gæster og spil med fast seed (/option seed) er alligevel uden rating."),
    "cmd-sub": "Tag NAME af en af dine lister: /sub mute NAME.",
    "cmd-sub-help": "/sub mute NAME tager NAME af din ignoreringsliste igen.",
    "cmd-tchlog": "Et gemt spil som BSW-logfil (.tch).",
    "cmd-tchlog-help": (
        "Viser det gemte spil GAME (nummeret, /history viser) som .tch-filen fra\n"
        "BrettspielWelts logarkiv, linje for linje, til de værktøjer, der analyserer\n"
        "BSW-logs (docs/operations.md, \"BSW logs\"). Spil spillet med /option log off\n"
        "har ingen."),
    "cmd-tell": "Hvisk TEXT til NAME (også: ;NAME TEXT).",
    "cmd-tell-help": (
        "Sender en privat besked til én person, der er online, uanset hvor. Kun NAME\n"
        "ser den; du ser en bekræftelse. ;NAME TEXT er den korte form. tintin++ læser ;\n"
        "som sin egen kommandoseparator (;Anna hej ville nå rummet som talen \"Anna\n"
        "hej\"): hvisk der med /tell NAME TEXT, eller skriv \\;NAME TEXT (tintin++ sender\n"
        "en linje, der begynder med en omvendt skråstreg, som den er)."),
    "cmd-tichu": "Meld Tichu (før dit første kort).",
    "cmd-tichu-help": (
        "Melder Tichu: 100 point, hvis du går ud først, ellers minus 100. Muligt når\n"
        "som helst, før du spiller dit første kort (også under byttet), én gang pr.\n"
        "runde."),
    "cmd-unban": "Moderatorer: ophæv udelukkelsen af NAME.",
    "cmd-unban-help": "Moderatorer og admins: NAME kan logge ind igen. Logges.",
    "cmd-whereis": "Hvilket rum NAME er i.",
    "cmd-whereis-help": "Fortæller, hvilket rum (lobbyen eller et bords rum, med nummer) NAME er i.",
    "cmd-who": "Hvem er i dit rum.",
    "cmd-who-help": "Viser folkene i det rum, du er i (først lobbyen, rum 0).",
    "cmd-wish": "Ønsk en værdi efter at have spillet Mahjong (/wish none: intet ønske).",
    "cmd-wish-help": (
        "Lige efter du har spillet Mahjong uden ønske: /wish RANK (2 til A) eller /wish\n"
        "none. Den næste spiller, der har et kort af den værdi og kan spille det, skal\n"
        "gøre det, indtil det er spillet."),
    "cmd-wwho": "Alle, der er online, og hvor de er.",
    "cmd-wwho-help": "Viser alle, der er online, med det rum, hver enkelt er i; gæster er markeret.",
    # table options (lobby/table_options.py)
    "option-round": "højst X runder (off: spil til målet)",
    "option-tichujoin": "de to første til /join spiller sammen",
    "option-turnier": "9 runder, skiftende makkere, sejrspoint (ikke med round)",
    "option-target": "den score, der afslutter spillet",
    "option-drawseat": "pladserne trækkes tilfældigt ved start",
    "option-host": "kun værten starter og sætter indstillinger",
    "option-dragon-fixed": "Dragens stik til næste modstander",
    "option-bombwindow": "sekunder til at bombe, før et vundet stik går videre",
    "option-seed": "samme seed, samme kort (off: tilfældigt)",
    "option-log": "gem også spillet som BSW-log",
    "option-grace": "sekunder, før en forsvundet spiller kan fjernes (/remove)",
    # what an option takes (the error bad-option-value)
    "option-expects-flag": "on eller off",
    "option-expects-seconds": "sekunder, 0 til {high}",
    "option-expects-max_rounds": "et antal runder",
    "option-expects-target": "en score som 500 eller 1000",
    "option-expects-seed": "et helt tal",
}
