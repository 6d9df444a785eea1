"""The Spanish catalog: every English key of lobby/messages.py, the same placeholders."""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # ---- informational messages --------------------------------------------------------------------
    # connection and login (protocol/session.py)
    "greeting": "Te damos la bienvenida al lobby de Tichu. Entra con tu nombre, o escribe guest.",
    # the same in every language: how to switch, in a few words of each
    "greeting-languages": "In English: /set lang en · Auf Deutsch: /set lang de\n"
                          "En français : /set lang fr · En español: /set lang es\n"
                          "På dansk: /set lang da",
    "motd": "{text}",
    "login-prompt": "nombre: ",
    "password-prompt": "contraseña: ",
    "guest-confirm": (
        "\"{name}\" no es un nombre registrado. Pulsa Intro para jugar como el invitado {name}, o escribe "
        "otro nombre: "),
    "typed-ahead-dropped": "(Esa línea no se usó: podría ser una contraseña escrita antes de tiempo.)",
    "seat-key-prompt": "clave: ",
    "seat-key-asked": (
        "La mesa {table} guarda la posición del invitado {name}: escribe la clave que recibiste al "
        "sentarte (una línea vacía: volver al inicio de sesión)."),
    "seat-key-asked-late": (
        "La mesa {table} guarda la posición del invitado {name}: escribe la clave que recibiste al "
        "sentarte para recuperarla (una línea vacía: entrar como {name} sin ella)."),
    "logged-in-guest": (
        "¡Hola, {name}! Eres invitado; /register PASSWORD te guarda este nombre. Escribe /help para ver "
        "los comandos."),
    "logged-in": "¡Hola de nuevo, {name}! Escribe /help para ver los comandos.",
    "replaced": "Has entrado como {name} desde otra conexión; esta se cierra.",
    "name-reclaimed": (
        "El invitado {name} ha vuelto con la clave de su posición, y el nombre es suyo; entra de nuevo "
        "con otro nombre."),
    "bye": "Adiós, {name}.",
    "shutdown": "El servidor se está apagando. Adiós.",
    "registered": "{name} ya está registrado. La próxima vez entra con este nombre y tu contraseña.",
    "password-changed": "Se ha cambiado tu contraseña.",
    # rooms and chat (lobby/world.py)
    "enters": "{name} entra en {room}.",
    "leaves": "{name} sale de {room}.",
    "says": "<{name}> {text}",
    "tells": "{name} te susurra: {text}",
    "told": "Susurras a {name}: {text}",
    "who": "En {room} ({count}): {names}",
    "look": "Estás en {room}, con {count} {count!p:persona más|personas más} aquí.",
    "look-alone": "Estás en {room}; no hay nadie más.",
    "look-tables": (
        "{tables} {tables!p:mesa abierta|mesas abiertas}: /listroom muestra la lista, /room N "
        "mira una mesa, /newroom abre otra."),
    "look-no-tables": "No hay mesas abiertas: /newroom abre una.",
    "who-bot": "{name} (bot)",
    "wwho": "{count} en línea:",
    "wwho-line": "  {name:<16} {room}{guest}",
    "wwho-guest": " (invitado)",
    "finger": "{name}:",
    "finger-registered": "  registrado desde {registered_at}, última visita: {last_seen}",
    "finger-guest": "  invitado (no registrado)",
    "finger-online": "  en línea ahora, en {room}",
    "finger-offline": "  desconectado",
    "finger-client": "  tu cliente: {client}",
    "never": "nunca",
    # durations (`{seconds!t}` in a template; lobby.messages.duration)
    "duration-second": "{n} segundo",
    "duration-seconds": "{n} segundos",
    "duration-minute": "{n} minuto",
    "duration-minutes": "{n} minutos",
    "duration-hour": "{n} hora",
    "duration-hours": "{n} horas",
    # rooms and tables in the world (lobby/world.py, protocol/commands.py)
    "newroom": (
        "Abres la mesa {table} (Tichu) y eres su anfitrión: /join para sentarte, /option help lista las "
        "opciones, /manager vuelve al lobby."),
    "listroom": "Mesas ({count}):",
    "listroom-empty": "No hay mesas abiertas; /newroom tichu abre una.",
    "listroom-page": (
        "Mesas {first}-{last} de {count} ({waiting} esperando, {playing} jugando), página {page} de "
        "{pages}:"),
    "listroom-more": "/listroom {next} muestra las {per_page} siguientes.",
    "listroom-line": "  {table:>3} {game} {state:<8} {seating}",
    "listroom-details": "      {options}; {spectators} mirando",
    "whereis": "{name} está en {room} (sala {number}).",
    "game-waiting-for-you": "Tu partida en la mesa {table} sigue sin ti: /room {table} te devuelve a ella.",
    "setting": "Ajuste {name}: {value}.",
    "setting-lang": "Idioma: {language}. /set lang de|en|fr|es|da lo cambia.",
    # the languages by their own names (the same in every catalog)
    "language-en": "English",
    "language-de": "Deutsch",
    "language-fr": "Français",
    "language-es": "Español",
    "language-da": "Dansk",
    # the rooms' names (lobby/world.py names them in English for the machine mode's data)
    "room-lobby": "el lobby",
    "room-table": "la sala de la mesa {number}",
    "iset": "Ajuste de interfaz {name}: {value}.",
    # help (protocol/commands.py)
    "help": (
        "Comandos (la / es opcional, basta un prefijo único; el texto sin / se dice en tu sala, ;NAME "
        "TEXT susurra):"),
    "help-group": "{group}: {commands}",
    "help-group-lobby": "Lobby",
    "help-group-chat": "Charla",
    "help-group-tables": "Mesas",
    "help-group-play": "Juego",
    "help-group-records": "Historial",
    "help-group-account": "Cuenta",
    "help-group-moderation": "Moderación",
    "help-group-other": "Otros",
    "help-footer": "/help COMMAND explica un comando.",
    "help-command": "{usage}",
    "help-aliases": "  también: {aliases}",
    # tables (lobby/table.py events, rendered by protocol/render_table.py)
    "table-joined": "{name} se sienta en la posición {seat}.",
    "table-seat-key": "Si pierdes la conexión, entra como {name} y da la clave {key}.",
    "table-left": "{name} deja la posición {seat}.",
    "table-started": "Mesa {table}: empieza la partida, {team0} contra {team1}.",
    "table-option-set": "{name} pone {option} en {value}.",
    "table-options": "Opciones de la mesa {table} (/option NAME [VALUE] antes de empezar):",
    "table-option-line": "  {option:<13} {value:<6} {about}",
    "table-info": "Mesa {table}: {state}, anfitrión {host}.",
    "table-info-seats": "  Posiciones: {seating}",
    "table-info-score": "  Puntuación tras {rounds} {rounds!p:ronda|rondas}: {score}",
    "table-info-score-none": "  Puntuación: {score} (aún no se ha jugado ninguna ronda)",
    "table-info-options": "  Opciones: {options}",
    "table-info-watching": "  Mirando: {names}",
    "table-reset": "{name} prepara la mesa para una nueva partida: /join, después /start.",
    "table-vanished": (
        "{name} ha desaparecido; la partida le espera. Tras {grace!t} los demás jugadores pueden hacer "
        "/remove {name}."),
    "table-back": "{name} ha vuelto.",
    "table-remove-proposed": (
        "{name} propone retirar a {target}: /accept o /refuse ({needed} {needed!p:voto necesario|votos "
        "necesarios})."),
    "table-vote": "{name} vota {vote} sobre retirar a {target}.",
    "table-remove-refused": "{target} se queda: se rechazó la retirada.",
    "table-vote-ended": "Termina la votación sobre retirar a {name}.",
    "table-rated": "Partida puntuable: quien la deje y no vuelva en {grace!t} en total la pierde.",
    "table-unrated": "Esta partida no puntúa: {reason!w:why-unrated}.",
    "why-unrated-nosave": "se empezó con /startnosave",
    "why-unrated-seed": "sus repartos salen de la semilla de /option seed",
    "why-unrated-bots": "juega un bot",
    "why-unrated-guests": "no todos los cuatro jugadores están registrados",
    "history-abandoned": " (abandonada)",
    "history-left": ", la dejó: {names}",
    "finger-left": "  abandonó {left} de {games} {games!p:partida empezada|partidas empezadas}",
    "ranking-left": ", abandonos: {left}",
    "table-timer-warning": "Date prisa: te quedan {seconds!t} para decidir; después se decidirá por ti.",
    "table-timed-out": (
        "{name} agotó su tiempo ({seconds!t}); se decide por {name}. Los demás ya pueden usar /remove "
        "{name}."),
    "table-info-timer": "Temporizador: {seconds!t} por decisión.",
    "table-info-timer-off": "Temporizador: desactivado.",
    "table-info-rated": "Esta partida puntúa.",
    "table-info-left": "Abandonaron la partida (y la pierden): {names}.",
    "table-unseated": "{by} (el anfitrión) le quita el asiento {seat} a {name}.",
    "table-barred": "{by} (el anfitrión) veta a {name} en esta mesa hasta que se cierre.",
    "table-unbarred": "{by} (el anfitrión) levanta el veto a {name}.",
    "namesake-notice": (
        "{name} hablaba antes con otra persona con tu nombre; este es su primer mensaje para ti."),
    "says-namesake": "<{name} (nuevo, no el {name} que se sentó aquí)> {text}",
    "table-abandoned": "{target} fue retirado; la partida se abandona con {score}.",
    "table-window-closed": "{name} ya puede seguir.",
    "table-window-closed-you": "Ya puedes seguir.",
    "table-new-host": "{name} es ahora el anfitrión de esta mesa.",
    "table-seeded": "Semilla {seed}, fijada por el anfitrión {host}: quien la conoce conoce todas las manos.",
    "table-bot-added": "{by} sienta a {name} (bot {strategy}) en la posición {seat}.",
    "table-bot-removed": "{by} quita a {name} de la posición {seat}.",
    "table-bot-takes-over": "{target} fue retirado; {name} sigue jugando en la posición {seat}.",
    "vote-yes": "sí",
    "vote-no": "no",
    "table-view": "Mesa {table}: {state}.",
    "table-look": "La mesa {table} ahora mismo:",
    "options-default": "opciones predeterminadas",
    "options-defaults": "predeterminadas",
    "table-state-waiting": "esperando",
    "table-state-playing": "jugando",
    "table-state-finished": "terminada",
    "view-seats": "Posiciones: {seating}",
    "view-waiting":
        "/join [SEAT] para sentarte; /start con cuatro sentados; /option help lista las opciones.",
    "view-players": "{players}",
    "view-player-out": "{place} en terminar",
    "view-call-tichu": "T!",
    "view-call-grand": "GT!",
    "view-gone": "(ausente)",
    "view-score": "Ronda {round_no} | {score}",
    "view-trick": "Baza: {plays}",
    "view-trick-empty": "Baza: vacía",
    "view-trick-won": "Baza: {plays} - ganada por {name}",
    "view-trick-more": "... {plays}",
    "view-wish": "Deseo: {rank!w:rank}",
    "view-with-wish": "{line}  |  {wish}",
    "view-hand": "Tu mano: {cards}",
    "view-received": "Recibido: {gifts}",
    "view-turn": "Turno de {name}.",
    "view-cards-left": "({count} en mano)",
    "view-your-turn": "Tu turno: /play CARDS o /pass",
    "view-your-lead": "Sales tú: /play CARDS",
    "view-your-turn-wish": "Tu turno: /play CARDS con {rank!w:a-rank} (el deseo), o una bomba",
    "view-your-lead-wish": "Sales tú: /play CARDS con {rank!w:a-rank} (el deseo), o una bomba",
    "view-bombs": "Puedes tirar una bomba: /bomb {cards}",
    "view-bomb-window": "{name} podrá seguir en {seconds!t}: tiempo para bombas.",
    "view-bomb-window-you": "Podrás seguir en {seconds!t}: los demás aún pueden tirar una bomba.",
    "view-grand": "¿Gran Tichu? /grand o /nogrand",
    "view-grand-wait": "Esperando la respuesta al Gran Tichu: {names}",
    "view-exchange": "Intercambio: /schupf NEXT PARTNER PREVIOUS ({next}, {partner}, {previous})",
    "view-exchange-wait": "Esperando el intercambio: {names}",
    "view-wish-prompt": "Tu deseo: /wish RANK o /wish none",
    "view-wish-wait": "Esperando el deseo de {name}.",
    "view-dragon": "Entrega la baza del Dragón: /dragon left ({left}) o /dragon right ({right})",
    "view-dragon-wait": "Esperando a que {name} entregue la baza del Dragón.",
    "view-tichu-hint": "(/tichu anuncia Tichu)",
    "view-finished": "Fin de la partida. {outcome}",
    "view-play-again": (
        "Para jugar otra vez: /reset prepara la mesa y /start reparte una nueva partida."),
    "view-abandoned": "La partida se abandonó ({name} retirado).",
    "game-round-start": "Empieza la ronda {round}.",
    "game-deal": "Tus 8 primeras cartas: {cards}",
    "game-deal-all": "Tus cartas: {cards}",
    "game-deal-rest": "Tus 6 últimas cartas: {cards}",
    "game-grand": "¡{name} anuncia GRAN TICHU!",
    "game-grand-no": "{name} no anuncia Gran Tichu.",
    "game-tichu": "¡{name} anuncia TICHU!",
    "game-exchange-phase": "Intercambio: cada uno entrega tres cartas.",
    "game-exchange-given": "{name} ha entregado tres cartas.",
    "game-exchange-received": "Recibes {gifts}.",
    "game-gift-from": "{card} de {name}",
    "game-play-phase": "{name} tiene el Mahjongg y sale.",
    "game-play-phase-you": "Tienes el Mahjongg y sales tú.",
    "game-play": "{name} juega {cards}.",
    "game-play-bomb": "¡{name} tira una BOMBA: {cards}!",
    "game-wish": "{name} desea {rank!w:a-rank}.",
    "game-wish-none": "{name} no desea nada.",
    "game-wish-fulfilled": "{name} cumple el deseo: {rank!w:a-rank}.",
    "game-pass": "{name} pasa.",
    "game-trick-won": "{name} gana la baza.",
    "game-trick-won-dragon": "{name} gana la baza del Dragón y debe entregarla a un rival.",
    "game-dragon-given": "{name} entrega la baza del Dragón a {to_name}.",
    "game-dog": "El Perro da la mano a {name}.",
    "game-out": "{name} se queda sin cartas ({place}).",
    "place-1": "1.º",
    "place-2": "2.º",
    "place-3": "3.º",
    "place-4": "4.º",
    "place-n": "{place}.º",
    "seat-unnamed": "posición {seat}",
    # card notation itself (B D K A) stays BSW's
    "rank-2": "2",
    "a-rank-2": "un 2",
    "ranks-2": "2",
    "rank-3": "3",
    "a-rank-3": "un 3",
    "ranks-3": "3",
    "rank-4": "4",
    "a-rank-4": "un 4",
    "ranks-4": "4",
    "rank-5": "5",
    "a-rank-5": "un 5",
    "ranks-5": "5",
    "rank-6": "6",
    "a-rank-6": "un 6",
    "ranks-6": "6",
    "rank-7": "7",
    "a-rank-7": "un 7",
    "ranks-7": "7",
    "rank-8": "8",
    "a-rank-8": "un 8",
    "ranks-8": "8",
    "rank-9": "9",
    "a-rank-9": "un 9",
    "ranks-9": "9",
    "rank-10": "10",
    "a-rank-10": "un 10",
    "ranks-10": "10",
    "rank-B": "Jota",
    "a-rank-B": "una Jota",
    "ranks-B": "Jotas",
    "rank-D": "Reina",
    "a-rank-D": "una Reina",
    "ranks-D": "Reinas",
    "rank-K": "Rey",
    "a-rank-K": "un Rey",
    "ranks-K": "Reyes",
    "rank-A": "As",
    "a-rank-A": "un As",
    "ranks-A": "Ases",
    # kinds of plays (`{kind!w:kind-a}`, an engine refusal)
    "kind-a-single": "una carta simple",
    "kind-a-pair": "una pareja",
    "kind-a-triple": "un trío",
    "kind-a-fullhouse": "un full",
    "kind-a-straight": "una escalera",
    "kind-a-stairs": "una escalera de parejas",
    "kind-a-bomb": "una bomba",
    "kind-a-dog": "el Perro",
    # the phases of a round (`{phase!w:phase}`)
    "phase-grand": "el Gran Tichu",
    "phase-exchange": "el intercambio",
    "phase-play": "el juego",
    "phase-wish": "el deseo",
    "phase-dragon": "la entrega de la baza del Dragón",
    "phase-finished": "ronda terminada",
    # words that fill other messages (lobby.messages.Msg)
    "role-operator": "el operador del servidor",
    "until-further-notice": "nuevo aviso",
    "names-and": "{names} y {name}",
    "names-or": "{names} o {name}",
    "game-round-over": "Fin de la ronda. Orden: {order}.",
    "game-round-over-double": "Fin de la ronda: ¡victoria doble para {team}! Orden: {order}.",
    "game-round-cards": "  Puntos de cartas: {score}",
    "game-round-call-won": "  {call} de {name} conseguido: +{points}",
    "game-round-call-lost": "  {call} de {name} fallado: -{points}",
    "call-tichu": "Tichu",
    "call-grand": "Gran Tichu",
    "game-round-total": "  Esta ronda:  {score}",
    "game-round-score": "Puntuación tras la ronda {round}: {score}",
    "game-victory-points": "Puntos de victoria: {points}",
    "game-match-over": "Fin de la partida tras {rounds} {rounds!p:ronda|rondas}: {outcome}",
    "game-winner": "{names} ganan por {score}.",
    "game-shared": "Victoria compartida con {score}.",
    "game-turnier-winner": "{names} ganan.",
    "game-turnier-points": "Puntos de victoria/puntos Tichu: {points}",
    # game records, statistics, ratings (lobby/records.py data, protocol/render_records.py)
    "history-header": "Partidas recientes de {name}:",
    "history-line": (
        "  #{game} {date} mesa {table}: {team0} {score0}:{score1} {team1}, {rounds} "
        "{rounds!p:ronda|rondas}, {outcome}{unrated}"),
    "history-none": "{name} no tiene partidas terminadas.",
    "history-won": "ganada",
    "history-lost": "perdida",
    "history-shared": "compartida",
    "history-unrated": " (sin puntuar)",
    "replay-header": (
        "Partida #{game}, mesa {table}, {date}: {team0} contra {team1}, {rounds} "
        "{rounds!p:ronda|rondas}."),
    "replay-round": "Ronda {round}: posiciones {seating}",
    "replay-hand": "{name}: {cards}",
    "replay-exchange": "{name} entrega {gifts}.",
    "replay-gift": "{card} a {name}",
    "tchlog-header": "Partida #{game} como log de BSW (.tch), {count} {count!p:línea|líneas}:",
    "ranking-header": "Rangliste (Team Elo, solo partidas puntuadas):",
    "ranking-line": "  {place:>3}. {name:<16} {rating:>5}  ({games} {games!p:partida|partidas})",
    "ranking-none": "Nadie ha jugado aún una partida puntuada.",
    # reconnecting and restoring (lobby/world.py, lobby/persistence.py)
    "game-rejoined": "Vuelves a tu posición en la mesa {table}; la partida sigue.",
    "finger-stats": (
        "  partidas {games} (ganadas {wins}), puntuadas {rated_games} (ganadas {rated_wins}), rondas "
        "{rounds}"),
    "finger-calls": (
        "  Tichu {tichu_made}/{tichu_calls}, Gran Tichu {grand_made}/{grand_calls}, victorias dobles "
        "{double_victories}, primero en terminar {first_out}"),
    "finger-rating": (
        "  Elo {rating} tras {rated_games} {rated_games!p:partida puntuada|partidas puntuadas} (máximo "
        "{peak})"),
    "finger-no-games": "  aún sin partidas terminadas",
    # mute lists and moderation (lobby/moderation.py)
    "muted": "{name} está ahora en tu lista de ignorados: no verás lo que dice ni sus susurros.",
    "unmuted": "{name} ya no está en tu lista de ignorados.",
    "mute-list": "Tu lista de ignorados ({count}): {names}",
    "mute-list-empty": "Tu lista de ignorados está vacía; /add mute NAME añade un nombre.",
    "role-set": "{name} tiene ahora el rol {role}.",
    "role-changed": "{by} te ha dado el rol {role}.",
    "kick-done": "{name} fue expulsado.",
    "kicked": "{by} te ha expulsado: {reason}",
    "ban-done": "{name} está vetado hasta {until}.",
    "banned-now": "{by} te ha vetado hasta {until}: {reason}",
    "unban-done": "Se levanta el veto a {name}.",
    "ban-list": "Vetos ({count}):",
    "ban-list-line": "  {name} hasta {until}, por {by}: {reason}",
    "ban-list-address": "    y los invitados de {address}",
    "ban-list-empty": "No hay nadie vetado.",
    "silenced-set": "{name} ya no puede hablar en las salas públicas.",
    "unsilenced": "{name} puede volver a hablar en las salas públicas.",
    "you-silenced": "{by} te ha silenciado en las salas públicas; /tell sigue funcionando.",
    "you-unsilenced": "{by} te deja volver a hablar en las salas públicas.",
    "announcement": "*** {by} anuncia: {text}",
    "shutdown-warning":
        "*** El servidor se apaga en {seconds!t} ({reason}; {by}). No empiezan partidas nuevas.",
    # ---- errors (the keys are the error codes) -----------------------------------------------------
    # protocol / session
    "line-too-long": "Línea demasiado larga ({length} bytes, límite {limit}); se ha descartado.",
    "unknown-command": "Comando desconocido /{name}. Escribe /help para ver la lista de comandos.",
    "ambiguous-command": "Comando ambiguo /{name}: puede ser {candidates}.",
    "bad-arguments": "Uso: {usage}",
    "internal-error": "Error interno al procesar tu comando; quedó registrado y no ha cambiado nada.",
    # login and accounts (protocol/session.py, protocol/commands.py)
    "bad-name": (
        "{name} no es un nombre válido: de 3 a 16 caracteres, cada uno una letra ASCII a-z o A-Z, una "
        "cifra 0-9, _ o -."),
    "reserved-name": "El nombre {name} está reservado; elige otro nombre (o escribe guest).",
    "name-in-use": "{name} ya está en línea; elige otro nombre.",
    "seat-held": "La mesa {table} guarda la posición del invitado {name}: da su clave, o elige otro nombre.",
    "wrong-seat-key": "Clave incorrecta.",
    "wrong-password": "Contraseña incorrecta.",
    "too-many-failures": "Demasiados intentos de entrada fallidos; se cierra la conexión.",
    "bad-password": "Una contraseña tiene de {min} a {max} caracteres y ningún espacio.",
    "already-registered": "Ya estás registrado; /password OLD NEW cambia tu contraseña.",
    "not-registered": "No estás registrado; /register PASSWORD registra tu nombre.",
    "name-held-for-guest": (
        "La mesa {table} guarda una posición de invitado con el nombre {name}; el nombre podrá "
        "registrarse cuando termine esa partida."),
    "name-taken": "El nombre {name} se ha registrado mientras tanto; entra de nuevo con otro nombre.",
    "busy": "Aún se procesan tus comandos anteriores; esta línea se ha descartado.",
    # chat
    "not-online": "{name} no está en línea.",
    "invisible-text": (
        "No queda nada visible de tu mensaje: los caracteres de control y de formato (como U+202E) se "
        "quitan de lo que dices."),
    "no-such-user": "Nadie llamado {name} está en línea ni registrado.",
    # tables (lobby/table.py)
    "game-running": "La partida está en curso; eso solo es posible antes de empezar.",
    "game-finished": "La partida ha terminado; /reset prepara la mesa para una nueva.",
    "no-game": "No hay ninguna partida en curso en esta mesa.",
    "not-seated": "No estás sentado en esta mesa; /join para sentarte.",
    "already-seated": "Ya estás en la posición {seat}.",
    "no-such-seat": "No existe la posición {seat}; las posiciones van de 1 a 4.",
    "seat-taken": "La posición {seat} la ocupa {name}.",
    "table-full": "Las cuatro posiciones están ocupadas; puedes mirar.",
    "too-many-tables": (
        "Ya eres anfitrión o jugador en {limit} {limit!p:mesa abierta|mesas abiertas} (mesa {tables}); "
        "deja una, o espera a que termine su partida."),
    "seat-limit": (
        "Ya estás sentado en la mesa {tables}, y cada usuario se sienta en {limit} {limit!p:mesa|mesas} "
        "a la vez; déjala, o espera a que termine su partida."),
    "tables-too-fast": (
        "Has abierto {limit} {limit!p:mesa|mesas} en el último minuto, el máximo por "
        "usuario; inténtalo de nuevo en {seconds!t}."),
    "address-tables": (
        "Los usuarios de tu dirección ya son anfitriones o jugadores en {limit} "
        "{limit!p:mesa abierta|mesas abiertas}, el máximo por dirección; deja una "
        "primero."),
    "need-four": "Hacen falta cuatro jugadores para empezar; sentados: {count}.",
    "host-only": "Solo el anfitrión, {host}, puede hacer eso (opción host).",
    "host-only-option": "Solo el anfitrión, {host}, puede cambiar la opción {option}.",
    "not-finished": "La partida no ha terminado; /reset solo prepara una mesa terminada.",
    "unknown-option": "Opción desconocida {name}; /option help las lista.",
    "bad-option-value": "La opción {name} admite {expected}, no {value!r}.",
    "turnier-rounds": (
        "El modo turnier (torneo) siempre se juega a {rounds} rondas, así que no se combina con round: "
        "pon primero round o turnier en off."),
    "not-a-player": "{name} no juega en esta mesa.",
    "host-command": "Solo el anfitrión, {host}, puede hacer eso.",
    "not-seated-here": "{name} no está sentado en esta mesa.",
    "barred-from-table": "El anfitrión ({host}) te ha vetado en la mesa {table} hasta que se cierre.",
    "not-barred": "{name} no está vetado en esta mesa.",
    "name-now-someone-else": (
        "{name} es otra persona ahora: el {name} con quien hablabas se fue y alguien nuevo tiene el "
        "nombre. Tu mensaje no se envió; mándalo otra vez para llegar al nuevo {name}."),
    "not-vanished": (
        "{name} ni ha desaparecido ni ha agotado su tiempo; solo se puede retirar a un jugador así."),
    "vote-running": "Ya hay una votación para retirar a {name}: /accept o /refuse.",
    "remove-too-early": (
        "{name} aún puede volver: /remove será posible en {seconds!t} (el tiempo de gracia de la mesa, "
        "/option grace)."),
    "no-vote": "No hay ninguna votación a la que responder.",
    "not-a-voter": "Solo votan los demás jugadores de la mesa.",
    "bomb-window": "Espera {seconds!t} antes de seguir: los demás aún pueden tirar una bomba sobre la baza.",
    "give-dragon-first": (
        "Has ganado la baza del Dragón: entrégala primero, /dragon left ({left}) o /dragon "
        "right ({right})."),
    "name-wish-first": "Di primero tu deseo: /wish RANK o /wish none.",
    "give-cards-first": "Entrega primero tus tres cartas: /schupf NEXT PARTNER PREVIOUS.",
    "bad-dragon-target":
        "Entrega la baza del Dragón con /dragon left o /dragon right (o un número de posición o un nombre).",
    # rooms and table routing (lobby/world.py, protocol/commands.py)
    "not-at-table": "No estás en ninguna mesa; /room N entra en una, /newroom tichu abre una.",
    "no-such-room": "No existe la sala {number}; /listroom lista las mesas.",
    "no-such-page": "No existe la página {page}; /listroom tiene {pages} {pages!p:página|páginas}.",
    "seat-held-here": (
        "La mesa {table} guarda una posición para el invitado {name}, que se sentó antes que tú; entra "
        "con otro nombre para mirarla."),
    "unknown-game": "Aquí no hay ningún juego {name}; /newroom tichu abre una mesa de Tichu.",
    "unknown-setting": "No existe el ajuste {name}; /set color on|off es uno.",
    "bad-setting-value": "El ajuste {name} admite {expected}, no {value!r}.",
    "unknown-language": "Aquí no existe el idioma {value!r}; /set lang admite {choices}.",
    "bad-width": "El ancho es un número de columnas de {min} a {max}, o auto, no {value!r}.",
    # machine mode (protocol/machine.py)
    "bad-id": "Un id de comando es #ID con 1 a 32 letras, cifras, - o _, no #{id}.",
    "unknown-request": "No existe la petición {request}; {state} es una, y los comandos "
                       "empiezan por / (/help los lista).",
    "json-request": "Las peticiones son líneas de comando como /play B5 o {state}, no objetos "
                    "JSON; docs/bots.md las muestra.",
    # bots at tables (lobby/table.py, lobby/bots)
    "unknown-strategy": "No existe la estrategia de bot {name}; elige {choices}.",
    "bad-bot-level": "{level} no es un nivel de bot: expert piensa de {low} a {high} segundos "
                     "por decisión (expert:2).",
    "not-a-bot": "En la posición {seat} no hay ningún bot.",
    # game records (lobby/records.py)
    "no-such-game": "No existe la partida #{game}; /history lista las partidas recientes.",
    "no-such-round": (
        "La partida #{game} no tiene ronda {round}; tuvo {rounds} "
        "{rounds!p:ronda|rondas}."),
    "no-tch-log": "La partida #{game} no tiene log de BSW: se jugó con /option log off.",
    # defences of the public port (protocol/guard.py)
    "server-full": "El servidor está lleno; inténtalo más tarde.",
    "too-many-connections": "Demasiadas conexiones desde tu dirección (máximo {limit}); esta se cierra.",
    "too-many-guests": (
        "Demasiados invitados en línea (máximo {limit}); entra con un nombre registrado, o inténtalo más "
        "tarde."),
    "too-many-attempts":
        "Demasiados intentos de contraseña desde tu dirección; inténtalo de nuevo en {seconds!t}.",
    "too-many-attempts-here":
        "Demasiados intentos de contraseña en esta conexión; inténtalo de nuevo en {seconds!t}.",
    "account-wait":
        "Demasiadas contraseñas incorrectas para {name}; el próximo intento será posible en {seconds!t}.",
    "too-many-registrations": (
        "Demasiadas cuentas nuevas desde tu dirección (máximo {limit} por hora); inténtalo de nuevo en "
        "{seconds!t}."),
    "login-timeout": "No has entrado en {seconds!t}; se cierra la conexión.",
    "idle-warning": "Hace mucho que no escribes nada; se te desconectará en {seconds!t} si no escribes algo.",
    "idle-timeout": "Desconectado tras {seconds!t} sin actividad.",
    "flooding": (
        "Envías líneas demasiado rápido (más de {rate} por segundo); se descartan hasta que vayas más "
        "despacio."),
    "flood-disconnect": "Demasiadas líneas demasiado rápido; se cierra la conexión.",
    # moderation and mute lists (lobby/moderation.py)
    "not-allowed": "Solo un usuario con el rol {role} puede usar /{command}.",
    "not-yourself": "No puedes usar /{command} contigo mismo.",
    "unknown-role": "No existe el rol {role}; elige {choices}.",
    "not-registered-user": "{name} no es un nombre registrado.",
    "unknown-list": "No existe la lista {name}; la lista es mute (/showlist mute).",
    "already-muted": "{name} ya está en tu lista de ignorados.",
    "not-muted": "{name} no está en tu lista de ignorados.",
    "mute-list-full": (
        "Tu lista de ignorados está llena ({limit} {limit!p:nombre|nombres}); /sub mute "
        "NAME hace sitio."),
    "silenced": "Un moderador te ha silenciado en las salas públicas; /tell sigue funcionando.",
    "not-silenced": "{name} no está silenciado.",
    "banned": "{name} está vetado hasta {until}: {reason}",
    "address-banned": (
        "Los invitados de tu dirección están vetados hasta {until}: {reason}. Entra con un nombre "
        "registrado."),
    "not-banned": "{name} no está vetado.",
    "shutting-down": "El servidor se está apagando; no empiezan partidas nuevas.",
    # the database fails while the server runs (lobby/persistence.py)
    "game-not-saved": (
        "El servidor no puede guardar la partida de la mesa {table} (falló una escritura en la base de "
        "datos; el operador lo verá en el registro). Puedes seguir jugando, pero la partida puede "
        "perderse si el servidor se detiene."),
    "bad-card": "No es una carta: {token!r}. Las cartas se escriben así: R10 GB SD BK RA Ma Hu Ph Dr.",
    # round.py / match.py
    "bad-seat": "No existe la posición {seat!r}.",
    "bad-action": "No es una acción: {action}.",
    "wrong-phase": "Eso no es posible ahora (fase: {phase!w:phase}).",
    "round-over": "La ronda ha terminado.",
    "match-over": "La partida ha terminado.",
    "no-grand-tichu": "En esta mesa no se juega Gran Tichu.",
    "grand-already-decided": "Ya has respondido al Gran Tichu.",
    "grand-undecided": "Responde primero al Gran Tichu (sí o no).",
    "already-called": "Ya has anunciado {call}.",
    "tichu-too-late": "Demasiado tarde para Tichu: ya has jugado una carta.",
    "exchange-over": "El intercambio ha terminado.",
    "already-exchanged": "Ya has entregado tus tres cartas.",
    "exchange-three-cards": (
        "Entrega exactamente tres cartas: al siguiente jugador, a tu compañero y al jugador anterior "
        "(has indicado {count})."),
    "exchange-incomplete": "Todavía no todos han entregado sus cartas.",
    "waiting-for-wish": "Esperando a que el jugador del Mahjongg diga su deseo.",
    "waiting-for-dragon": "Esperando a que la posición {seat} entregue la baza del Dragón.",
    "you-are-out": "No te quedan cartas en esta ronda.",
    "not-your-turn": (
        "No es tu turno (juega la posición {turn}); fuera de turno solo se puede tirar una bomba sobre "
        "la mesa."),
    "must-lead": "Sales tú: juega algo (no puedes pasar).",
    "must-fulfil-wish": "El deseo te obliga: juega {rank!w:a-rank}.",
    "bad-wish": "No es un valor que desear: {rank!r}. Desea 2..10, B, D, K, A o none.",
    "wish-without-mahjong": "Solo una jugada con el Mahjongg puede expresar un deseo.",
    "no-wish-pending": "No tienes ningún deseo que expresar.",
    "no-dragon-pending": "No hay ninguna baza del Dragón que entregar.",
    "not-your-dragon": "La baza del Dragón la entrega la posición {seat}.",
    "dragon-to-opponent": "La baza del Dragón debe ir a un rival, no a la posición {seat}.",
    # cards.py
    "duplicate-card": "{card} aparece dos veces.",
    "bad-rank": "No es un valor: {token!r}. Los valores son 2..10, B (o J), D (o Q), K, A.",
    # cards.py: the rank-only shorthand of a play (`/play 7 7`)
    "ambiguous-cards":
        "¿Qué {rank!w:ranks}? Cualquier elección rompe una bomba; indica las cartas, p. ej. {example}.",
    "missing-rank": "No tienes {count} {count!p:carta|cartas} de valor {rank}.",
    # moves.py: why a play is refused
    "no-cards": "Indica las cartas que quieres jugar.",
    "cards-not-in-hand": "No tienes {cards}.",
    "not-a-combination": "{cards} no es una combinación.",
    "bad-phoenix-reading": "El Fénix no puede hacer de {rank!w:a-rank} en {cards}.",
    "dog-on-table": "Sobre el Perro no se puede jugar nada, ni siquiera una bomba.",
    "dog-not-lead": "El Perro solo se puede jugar al salir, no sobre una baza.",
    "phoenix-on-dragon": "El Fénix no se puede jugar sobre el Dragón.",
    "bomb-on-table": "{play} no supera la bomba {top}: solo una bomba mayor lo hace.",
    "wrong-kind": (
        "{play} no se puede jugar sobre {top}: {kind!w:kind-a} no va sobre "
        "{top_kind!w:kind-a}."),
    "wrong-length":
        "{play} no se puede jugar sobre {top}: una jugada debe tener tantas cartas como la que supera.",
    "too-low": "{play} no supera a {top}.",
    "wish-not-followed": "Debes jugar {rank!w:a-rank}: el deseo pendiente (o una bomba).",
    "not-a-bomb": "{cards} no es una bomba; fuera de turno solo se puede jugar una bomba.",
    "bomb-on-empty-table": (
        "Fuera de turno, una bomba solo se puede tirar si hay una jugada en la mesa; en tu turno puedes "
        "salir con ella."),
    # ---- help texts: cmd-NAME, cmd-NAME-help, option-NAME ------------------------------------------
    "cmd-accept": "Votar sí al /remove en curso.",
    "cmd-accept-help":
        "Vota a favor de retirar al jugador desaparecido que nombra la propuesta /remove en curso.",
    "cmd-add": "Añadir NAME a una de tus listas: /add mute NAME.",
    "cmd-add-help": (
        "/add mute NAME pone a NAME en tu lista de ignorados (mute), como en BSW: ya no\n"
        "ves lo que NAME dice en las salas ni sus susurros, y a NAME sus susurros le\n"
        "parecen enviados. La lista de un nombre registrado se guarda; la de un\n"
        "invitado dura mientras esté en línea."),
    "cmd-addbot": (
        "Sentar un bot (heuristic si no se indica otro) en SEAT o en la primera posición libre, antes de "
        "empezar."),
    "cmd-addbot-help": (
        "Sienta un bot (heuristic si no se indica otra estrategia) en la posición SEAT\n"
        "o en la primera libre, antes de empezar; lo puede hacer el anfitrión o\n"
        "cualquier jugador sentado. expert piensa 0,5 s por decisión, expert:SECONDS el\n"
        "tiempo que le des (de 0.05 a 10)."),
    "cmd-announce": "Moderadores: decir TEXT a todos los que están en línea.",
    "cmd-announce-help": (
        "Moderadores y admins: una línea para todos los que están en línea, estén donde estén. Queda "
        "registrado."),
    "cmd-ban": "Moderadores: vetar a NAME.",
    "cmd-ban-help": (
        "Moderadores y admins: NAME ya no puede entrar, durante DURATION (90s, 30m, 2h,\n"
        "7d, 1w; un número solo son minutos) o, sin duración (o con perm), hasta /unban\n"
        "NAME; si NAME está en línea, se le desconecta. Un invitado en línea arrastra\n"
        "también su dirección al veto: ningún invitado entra desde ella durante ese\n"
        "tiempo (los nombres registrados sí); /banlist lo muestra. El veto se guarda.\n"
        "Un moderador no puede vetar a un moderador ni a un admin. Queda registrado."),
    "cmd-banlist": "Moderadores: listar los vetos.",
    "cmd-banlist-help": (
        "Moderadores y admins: cada veto vigente con su fin, su motivo y quién lo puso;\n"
        "el veto de un invitado muestra la dirección de la que vino (vetada con el\n"
        "nombre: ningún invitado entra desde ella)."),
    "cmd-bmute": "Moderadores: silenciar a NAME en las salas públicas (off: deshacer).",
    "cmd-bmute-help": (
        "Moderadores y admins: NAME ya no puede hablar en las salas (el lobby y las\n"
        "salas de las mesas); los susurros siguen funcionando. /bmute NAME off lo\n"
        "levanta. Se guarda; queda registrado."),
    "cmd-bomb": "Tirar una bomba, también fuera de turno: /bomb S5 B5 G5 R5.",
    "cmd-bomb-help": (
        "Juega una bomba (un póker, o una escalera de color de cinco o más cartas) en\n"
        "cualquier momento mientras haya una baza en la mesa, también cuando no es tu\n"
        "turno."),
    "cmd-dragon": "Entregar una baza ganada con el Dragón: /dragon left|right.",
    "cmd-dragon-help": (
        "Quien gana una baza con el Dragón la entrega a un rival: /dragon right (el\n"
        "siguiente jugador en el orden de juego) o /dragon left (el anterior); también\n"
        "vale un número de posición o un nombre. Con la opción dragon fixed va\n"
        "automáticamente al siguiente rival."),
    "cmd-finger": "Datos de la cuenta, estadísticas y Elo de NAME.",
    "cmd-finger-help": (
        "Muestra si NAME está registrado y desde cuándo, cuándo se le vio por última\n"
        "vez, y si está en línea ahora (y en qué sala); para un jugador registrado\n"
        "también las estadísticas (partidas, victorias, rondas, Tichu y Gran Tichu\n"
        "anunciados y conseguidos, victorias dobles) y el Elo (Team Elo)."),
    "cmd-grand": "Anunciar Gran Tichu (tras tus 8 primeras cartas).",
    "cmd-grand-help": (
        "Tras las 8 primeras cartas, antes de repartir las 6 restantes, cada jugador\n"
        "responde /grand (anunciar Gran Tichu: 200 puntos si te quedas sin cartas el\n"
        "primero, menos 200 si no) o /nogrand."),
    "cmd-help": "Listar los comandos, o explicar uno.",
    "cmd-help-help": (
        "Sin argumento, lista los comandos que puedes usar, por grupos (lobby, charla,\n"
        "mesas, juego, historial, cuenta, y moderación para moderadores y admins). /help\n"
        "COMMAND muestra el uso del comando, sus alias y una explicación más larga;\n"
        "aquí también basta un prefijo único."),
    "cmd-history": "Tus partidas recientes (o las de NAME).",
    "cmd-history-help": (
        "Lista las diez últimas partidas terminadas de NAME (sin NAME: las tuyas), de\n"
        "la más reciente a la más antigua: el número de partida (para /replay), la\n"
        "fecha, la mesa, los dos equipos con la puntuación final, el número de rondas,\n"
        "ganada o perdida, y si la partida no puntuaba."),
    "cmd-iset": "Ajuste de interfaz de esta conexión: /iset json 1|0.",
    "cmd-iset-help": (
        "/iset json 1 pasa esta conexión al modo máquina: desde entonces cada línea que\n"
        "envía el servidor es un objeto JSON con un campo type, y una línea de comando\n"
        "puede empezar con #ID (1 a 32 letras, cifras, - o _) que su respuesta repite\n"
        "como \"id\". /iset json 0 vuelve al texto. Una primera línea %json antes de\n"
        "entrar hace lo mismo desde el principio. Nunca se guarda en la cuenta;\n"
        "docs/protocol.md (\"Machine mode\") describe cada objeto."),
    "cmd-join": "Sentarte en esta mesa (primera posición libre, o posición 1..4).",
    "cmd-join-help": (
        "Te sienta en la posición SEAT (1 a 4) o, sin SEAT, en la primera libre, antes\n"
        "de empezar. Las posiciones 1 y 3 juegan juntas contra la 2 y la 4; se juega en\n"
        "el orden 1, 2, 3, 4. Con la opción tichujoin los dos primeros en sentarse son\n"
        "compañeros; con drawseat las posiciones se sortean al empezar."),
    "cmd-kick": "Moderadores: desconectar a NAME.",
    "cmd-kick-help": (
        "Moderadores y admins: cierra la conexión de NAME con REASON (NAME puede volver\n"
        "a entrar; /ban lo mantiene fuera). Un moderador no puede expulsar a un\n"
        "moderador ni a un admin. Queda registrado."),
    "cmd-leave": "Dejar tu posición antes de empezar.",
    "cmd-leave-help": "Libera tu posición; te quedas en la sala mirando. No es posible durante la partida.",
    "cmd-listroom": "Listar las mesas abiertas.",
    "cmd-listroom-help": (
        "Lista las mesas abiertas: su número, juego, estado (esperando, jugando,\n"
        "terminada), los jugadores por posición, las opciones que difieren de las\n"
        "predeterminadas, y cuántos miran. Veinte mesas cada vez: si hay más, la\n"
        "primera línea dice cuántas hay y cuántas esperan y juegan, y /listroom 2\n"
        "muestra las veinte siguientes."),
    "cmd-look": "Mostrar otra vez la mesa (o dónde estás).",
    "cmd-look-help": (
        "En una mesa: toda la vista tal como está ahora: las posiciones con las cartas\n"
        "que quedan y los anuncios, la puntuación, la baza, el deseo, tu mano y de\n"
        "quién es el turno, con lo que hay que escribir (un espectador ve la vista\n"
        "pública, sin manos). En otro sitio: la sala en la que estás y cómo encontrar\n"
        "una mesa. En modo máquina la respuesta es el objeto state completo. Los\n"
        "jugadores de BSW y de los MUD lo conocen como /l."),
    "cmd-manager": "Volver al lobby (sala 0).",
    "cmd-manager-help": (
        "Te devuelve al lobby (sala 0, el pueblo de BSW). Antes de empezar una partida\n"
        "libera tu posición; salir de una partida en curso te hace desaparecer para los\n"
        "demás jugadores (/room N te devuelve a ella)."),
    "cmd-newroom": "Abrir una mesa nueva (GAME: tichu) e ir a ella.",
    "cmd-newroom-help": (
        "Abre una nueva sala de mesa para GAME (por ahora solo tichu, el valor por\n"
        "defecto) contigo como anfitrión, y te lleva allí. La mesa recibe el menor\n"
        "número libre; /listroom la muestra. Después /join para sentarte, /option\n"
        "cambia las opciones, /start empieza cuando hay cuatro sentados."),
    "cmd-nogrand": "No anunciar Gran Tichu (tras tus 8 primeras cartas).",
    "cmd-nogrand-help":
        "Renuncia al Gran Tichu. Cuando los cuatro han respondido, se reparten las 6 cartas restantes.",
    "cmd-option": "Cambiar una opción de la mesa antes de empezar; /option help las lista.",
    "cmd-option-help": (
        "/option help lista las opciones con sus valores actuales. Antes de empezar, el\n"
        "anfitrión (o, sin la opción host, cualquier jugador sentado) las cambia: round\n"
        "X (como mucho X rondas, off), tichujoin (los dos primeros en sentarse son\n"
        "compañeros), turnier (torneo: 9 rondas con compañeros rotativos, puntos de\n"
        "victoria), target N (la puntuación que termina la partida, por defecto\n"
        "{target}), drawseat (posiciones al azar), host (solo el anfitrión empieza y\n"
        "cambia opciones), dragon fixed (la baza del Dragón va al siguiente rival),\n"
        "bombwindow SECONDS (tiempo para tirar una bomba sobre una baza ganada antes de\n"
        "seguir), seed N (misma semilla, mismas cartas; off para repartos al azar; solo\n"
        "la fija el anfitrión; una partida con semilla no puntúa), log (guardar también\n"
        "la partida terminada como log .tch de BSW, on), grace SECONDS (cuánto tiempo\n"
        "puede volver un jugador desaparecido antes de que los demás puedan retirarlo\n"
        "con /remove, por defecto {grace}). Una opción on/off sin VALUE se alterna;\n"
        "on/off la fijan."),
    "cmd-pass": "Pasar (no jugar sobre la baza actual).",
    "cmd-pass-help":
        "Pasa en la baza actual. No es posible cuando sales tú, ni cuando te obliga el deseo pendiente.",
    "cmd-password": "Cambiar tu contraseña.",
    "cmd-password-help": "Cambia la contraseña de tu nombre registrado de OLD a NEW.",
    "cmd-play": "Jugar cartas (notación BSW), p. ej. /play R10 G10 o /play 7 7.",
    "cmd-play-help": (
        "Juega CARDS en notación BSW: palo S (Schwert, espada), B (Pagode, pagoda), G\n"
        "(Jade), R (Stern, estrella) y valor 2-10, B (Bube, jota), D (Dame, reina), K\n"
        "(Koenig, rey), A (As), o Ma (Mahjongg), Hu (Perro), Ph (Fénix), Dr (Dragón).\n"
        "Ph=7 indica el valor que toma el Fénix cuando no está claro. Con el Mahjongg\n"
        "añade un deseo: /play Ma wish 8 (o /wish RANK justo después). La forma corta\n"
        "solo con valores (/play 7 7) se acepta cuando no es ambigua; elige cartas que\n"
        "no rompan una bomba. Una bomba también se puede jugar fuera de turno con\n"
        "/play."),
    "cmd-quit": "Salir del servidor.",
    "cmd-quit-help": "Cierra tu conexión. Tu cuenta (si estás registrado) se conserva.",
    "cmd-rangliste": "Los mejores jugadores por Elo (solo partidas puntuadas).",
    "cmd-rangliste-help": (
        "La clasificación: los jugadores con el Elo (Team Elo) más alto\n"
        "(docs/rating.md), con su número de partidas puntuadas. Solo puntúan las\n"
        "partidas de cuatro jugadores registrados, no empezadas con /startnosave y sin\n"
        "semilla fija."),
    "cmd-refuse": "Votar no al /remove en curso.",
    "cmd-refuse-help":
        "Vota en contra de retirar al jugador desaparecido que nombra la propuesta /remove en curso.",
    "cmd-register": "Registrar el nombre que usas.",
    "cmd-register-help": (
        "Registra tu nombre actual con PASSWORD (de 4 a 128 caracteres, sin espacios).\n"
        "Desde entonces, entrar con este nombre pide la contraseña, y nadie más puede\n"
        "usarlo. Los nombres de invitado (Guest1234) no se pueden registrar: entra\n"
        "primero con un nombre propio."),
    "option-timer": (
        "segundos por decisión antes de que se tome por el jugador (off; auto: 60 en partida "
        "puntuable)"),
    "option-expects-timer": "segundos, de 5 a {high}, u off o auto",
    "cmd-unseat": "El anfitrión quita el asiento a un jugador (o bot) en una mesa que espera.",
    "cmd-unseat-help": (
        "Antes del inicio el anfitrión puede quitar el asiento a cualquiera (BSW: /rauswerfen NAME); "
        "el jugador se queda en la sala mirando y puede volver a sentarse, salvo que se le vete con "
        "/bar."),
    "cmd-bar": "El anfitrión veta un nombre en la mesa hasta que se cierre.",
    "cmd-bar-help": (
        "El anfitrión veta a NAME en esta mesa hasta que se cierre (BSW: /sperren NAME): pierde su "
        "asiento en una mesa que espera, vuelve al vestíbulo y no puede ni entrar en la sala ni "
        "sentarse. /unbar NAME levanta el veto."),
    "cmd-unbar": "El anfitrión levanta el veto a un nombre.",
    "cmd-unbar-help": "Levanta el veto del anfitrión a NAME (BSW: /entsperren NAME).",
    "cmd-remove": "Proponer retirar a un jugador que desapareció durante la partida.",
    "cmd-remove-help": (
        "Cuando un jugador ha desaparecido (desconectado o fuera de la sala) durante\n"
        "una partida, otro jugador puede proponer retirarlo; los demás jugadores\n"
        "sentados votan con /accept o /refuse, y decide la mayoría. La posición de un\n"
        "jugador retirado la ocupa un bot que sigue jugando con sus cartas."),
    "cmd-removebot": "Quitar de la mesa el bot de la posición SEAT, antes de empezar.",
    "cmd-removebot-help": "Quita de la mesa el bot de la posición SEAT, antes de empezar.",
    "cmd-replay": "Mostrar una partida guardada ronda a ronda.",
    "cmd-replay-help": (
        "Muestra la partida guardada GAME (el número que da /history) ronda a ronda:\n"
        "las posiciones, cada mano tal como se repartió, los anuncios, el intercambio,\n"
        "cada jugada, cada pase y cada entrega de la baza del Dragón, y la puntuación\n"
        "de cada ronda. Con ROUND, solo esa ronda."),
    "cmd-reset": "Preparar una mesa terminada para una nueva partida.",
    "cmd-reset-help": (
        "Cuando una partida ha terminado, prepara la mesa para la siguiente: los\n"
        "jugadores que siguen aquí conservan su posición, las opciones se mantienen.\n"
        "Después, /start otra vez."),
    "cmd-role": "Admins: dar un rol a NAME: admin, moderator o none.",
    "cmd-role-help": (
        "Admins: convierte el nombre registrado NAME en admin o moderador, o (none) de\n"
        "nuevo en jugador normal. Se guarda; queda registrado. El primer admin viene de\n"
        "la opción --admin del servidor."),
    "cmd-room": "Ir a la sala NUMBER (0 es el lobby; una mesa: mirarla).",
    "cmd-room-help": (
        "Te lleva a la sala NUMBER: 0 es el lobby, cada una de las demás salas\n"
        "pertenece a la mesa con ese número. Entrar en la sala de una mesa es mirar la\n"
        "mesa (solo ves la información pública); /join toma allí una posición. Un\n"
        "jugador que salió de una partida en curso vuelve a ella así. /room N de la\n"
        "sala en la que estás muestra el /spielinfo de la mesa."),
    "cmd-schupf": "Intercambio: una carta al siguiente, al compañero, al anterior.",
    "cmd-schupf-help": (
        "Entrega tres cartas al principio de cada ronda, en este orden: al siguiente\n"
        "jugador en el orden de juego (el rival después de ti), a tu compañero, al\n"
        "jugador anterior (el rival antes de ti), como en los logs de BSW. Ejemplo:\n"
        "/schupf R2 SA Hu. La forma corta con valores también vale (/schupf 2 A 3)."),
    "cmd-set": "Cambiar un ajuste de esta conexión (color on|off, lang de|en|fr|es|da, width N|auto).",
    "cmd-set-help": (
        "Ajustes de esta conexión (solo se guarda el idioma): /set color on muestra las\n"
        "cartas de las manos y las bazas en colores ANSI por palo (Schwert en negrita,\n"
        "Pagode en azul, Jade en verde, Stern en rojo, las especiales en amarillo);\n"
        "/set color off lo desactiva. /set lang de|en|fr|es|da elige el idioma de todo\n"
        "lo que te dice el servidor (English, Deutsch, Français, Español, Dansk); un\n"
        "nombre registrado lo conserva para la próxima vez."
        " /set width N corta cada línea a N columnas ({min_width} a {max_width}); "
        "/set width auto vuelve al ancho que indica tu cliente telnet (NAWS), o "
        "{default_width}. /set bell on hace sonar el timbre del terminal cuando te "
        "toca o una decisión te espera."),
    "cmd-showlist": "Mostrar una de tus listas: /showlist mute.",
    "cmd-showlist-help": "/showlist mute muestra los nombres de tu lista de ignorados.",
    "cmd-shutdown": "Admins: detener el servidor tras un aviso.",
    "cmd-shutdown-help": (
        "Admins: avisa a todos de que el servidor se detiene en SECONDS (por defecto\n"
        "{default}), rechaza desde entonces mesas y partidas nuevas, y tras SECONDS se\n"
        "detiene de forma ordenada (cada conexión avisada y cerrada, la base de datos\n"
        "cerrada). Queda registrado."),
    "cmd-spielinfo": "Opciones, posiciones, puntuación y estado de la mesa.",
    "cmd-spielinfo-help": (
        "Muestra el estado de la mesa (esperando, jugando, terminada), su anfitrión,\n"
        "los jugadores por posición, la puntuación y la ronda, las opciones que\n"
        "difieren de las predeterminadas, quién mira, y al final el resultado."),
    "cmd-start": "Empezar la partida cuando haya cuatro jugadores sentados.",
    "cmd-start-help": (
        "Empieza la partida cuando las cuatro posiciones están ocupadas. Puede\n"
        "empezarla cualquier jugador sentado, o solo el anfitrión con la opción host.\n"
        "Las posiciones, las opciones y la semilla quedan fijadas desde aquí."),
    "cmd-startnosave": "Empezar una partida sin puntuar, fuera de toda estadística.",
    "cmd-startnosave-help": (
        "Empieza la partida como /start, pero no puntúa y no cuenta en las estadísticas\n"
        "de nadie (se guarda igualmente: /history y /replay la muestran). Las partidas\n"
        "con bots o invitados, y las que tienen una semilla fija (/option seed), no\n"
        "puntúan de todos modos."),
    "cmd-sub": "Quitar NAME de una de tus listas: /sub mute NAME.",
    "cmd-sub-help": "/sub mute NAME quita a NAME de tu lista de ignorados.",
    "cmd-tchlog": "Una partida guardada como fichero de log de BSW (.tch).",
    "cmd-tchlog-help": (
        "Muestra la partida guardada GAME (el número que da /history) como el fichero\n"
        ".tch del archivo de logs de BrettspielWelt, línea a línea, para las\n"
        "herramientas que analizan logs de BSW (docs/operations.md, \"BSW logs\"). Las\n"
        "partidas jugadas con /option log off no lo tienen."),
    "cmd-tell": "Susurrar TEXT a NAME (también: ;NAME TEXT).",
    "cmd-tell-help": (
        "Envía un mensaje privado a una persona en línea, esté donde esté. Solo NAME lo\n"
        "ve; tú ves una confirmación. ;NAME TEXT es la forma corta. tintin++ lee ; como\n"
        "su propio separador de comandos (;Anna hola llegaría a la sala como la frase\n"
        "\"Anna hola\"): allí, susurra con /tell NAME TEXT, o escribe \\;NAME TEXT\n"
        "(tintin++ envía tal cual una línea que empieza por una barra invertida)."),
    "cmd-tichu": "Anunciar Tichu (antes de tu primera carta).",
    "cmd-tichu-help": (
        "Anuncia Tichu: 100 puntos si te quedas sin cartas el primero, menos 100 si no.\n"
        "Posible en cualquier momento antes de jugar tu primera carta (también durante\n"
        "el intercambio), una vez por ronda."),
    "cmd-unban": "Moderadores: levantar el veto a NAME.",
    "cmd-unban-help": "Moderadores y admins: NAME puede volver a entrar. Queda registrado.",
    "cmd-whereis": "En qué sala está NAME.",
    "cmd-whereis-help": "Dice en qué sala (el lobby o la sala de una mesa, con su número) está NAME.",
    "cmd-who": "Quién está en tu sala.",
    "cmd-who-help": "Lista las personas de la sala en la que estás (al principio el lobby, sala 0).",
    "cmd-wish": "Desear un valor tras jugar el Mahjongg (/wish none: ningún deseo).",
    "cmd-wish-help": (
        "Justo después de jugar el Mahjongg sin deseo: /wish RANK (2 a A) o /wish none.\n"
        "El siguiente jugador que tenga una carta de ese valor y pueda jugarla debe\n"
        "hacerlo, hasta que se juegue."),
    "cmd-wwho": "Todos los que están en línea, y dónde están.",
    "cmd-wwho-help": (
        "Lista a todos los que están en línea, con la sala en la que está cada uno; los invitados van "
        "marcados."),
    # table options (lobby/table_options.py)
    "option-round": "como mucho X rondas (off: hasta la meta)",
    "option-tichujoin": "los dos primeros en hacer /join juegan juntos",
    "option-turnier": "9 rondas, compañeros rotativos, puntos de victoria (no con round)",
    "option-target": "la puntuación que termina la partida",
    "option-drawseat": "las posiciones se sortean al empezar",
    "option-host": "solo el anfitrión empieza y cambia opciones",
    "option-dragon-fixed": "baza del Dragón al siguiente rival",
    "option-bombwindow": "segundos para tirar bomba sobre una baza ganada",
    "option-seed": "misma semilla, mismas cartas (off: al azar)",
    "option-log": "guardar también la partida como log de BSW",
    "option-grace": "segundos antes de poder retirar a un ausente",
    # what an option takes (the error bad-option-value)
    "option-expects-flag": "on u off",
    "option-expects-seconds": "segundos, de 0 a {high}",
    "option-expects-max_rounds": "un número de rondas",
    "option-expects-target": "una puntuación como 500 o 1000",
    "option-expects-seed": "un número entero",
}
