"""The French catalog: every English key of lobby/messages.py, the same placeholders."""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # ---- informational messages --------------------------------------------------------------------
    # connection and login (protocol/session.py)
    "greeting": "Bienvenue au lobby Tichu. Connecte-toi avec ton nom, ou tape guest.",
    # the same in every language: how to switch, in a few words of each
    "greeting-languages": "In English: /set lang en · Auf Deutsch: /set lang de\n"
                          "En français : /set lang fr · En español: /set lang es\n"
                          "På dansk: /set lang da",
    "motd": "{text}",
    "login-prompt": "nom : ",
    "password-prompt": "mot de passe : ",
    "guest-confirm": (
        "« {name} » n'est pas un nom inscrit. Appuie sur Entrée pour jouer en tant qu'invité {name}, ou "
        "tape un autre nom : "),
    "typed-ahead-dropped":
        "(Cette ligne n'a pas été utilisée : c'était peut-être un mot de passe tapé trop tôt.)",
    "seat-key-prompt": "clé : ",
    "seat-key-asked": (
        "La table {table} garde la place de l'invité {name} : tape la clé reçue en t'asseyant (ligne "
        "vide : retour à la connexion)."),
    "seat-key-asked-late": (
        "La table {table} garde la place de l'invité {name} : tape la clé reçue en t'asseyant pour la "
        "reprendre (ligne vide : connexion comme {name} sans elle)."),
    "logged-in-guest":
        "Salut {name} ! Tu es invité ; /register PASSWORD te réserve ce nom. Tape /help pour les commandes.",
    "logged-in": "Bon retour, {name} ! Tape /help pour les commandes.",
    "replaced": "Tu t'es connecté en tant que {name} depuis une autre connexion ; celle-ci est fermée.",
    "name-reclaimed": (
        "L'invité {name} est revenu avec la clé de sa place, et le nom lui revient ; reconnecte-toi sous "
        "un autre nom."),
    "bye": "Au revoir, {name}.",
    "shutdown": "Le serveur s'arrête. Au revoir.",
    "registered":
        "{name} est maintenant inscrit. La prochaine fois, connecte-toi avec ce nom et ton mot de passe.",
    "password-changed": "Ton mot de passe a été changé.",
    # rooms and chat (lobby/world.py)
    "enters": "{name} entre dans {room}.",
    "leaves": "{name} quitte {room}.",
    "says": "<{name}> {text}",
    "tells": "{name} te chuchote : {text}",
    "told": "Tu chuchotes à {name} : {text}",
    "who": "Dans {room} ({count}) : {names}",
    "look": "Tu es dans {room}, avec {count} {count!p:autre personne|autres personnes} ici.",
    "look-alone": "Tu es dans {room} ; personne d'autre n'est là.",
    "look-tables": (
        "{tables} {tables!p:table ouverte|tables ouvertes} : /listroom en donne la liste, /room "
        "N en regarde une, /newroom en ouvre une autre."),
    "look-no-tables": "Aucune table ouverte : /newroom en ouvre une.",
    "who-bot": "{name} (bot)",
    "wwho": "{count} en ligne :",
    "wwho-line": "  {name:<16} {room}{guest}",
    "wwho-guest": " (invité)",
    "finger": "{name} :",
    "finger-registered": "  inscrit depuis {registered_at}, dernière visite : {last_seen}",
    "finger-guest": "  invité (non inscrit)",
    "finger-online": "  en ligne, dans {room}",
    "finger-offline": "  hors ligne",
    "finger-client": "  ton client : {client}",
    "never": "jamais",
    # durations (`{seconds!t}` in a template; lobby.messages.duration)
    "duration-second": "{n} seconde",
    "duration-seconds": "{n} secondes",
    "duration-minute": "{n} minute",
    "duration-minutes": "{n} minutes",
    "duration-hour": "{n} heure",
    "duration-hours": "{n} heures",
    # rooms and tables in the world (lobby/world.py, protocol/commands.py)
    "newroom": (
        "Tu ouvres la table {table} (Tichu) et tu en es l'hôte : /join pour t'asseoir, /option help "
        "liste les options, /manager ramène au lobby."),
    "listroom": "Tables ({count}) :",
    "listroom-empty": "Aucune table ouverte ; /newroom tichu en ouvre une.",
    "listroom-page": (
        "Tables {first}-{last} sur {count} ({waiting} en attente, {playing} en jeu), page {page} sur "
        "{pages} :"),
    "listroom-more": "/listroom {next} affiche les {per_page} suivantes.",
    "listroom-line": "  {table:>3} {game} {state:<8} {seating}",
    "listroom-details": "      {options} ; spectateurs : {spectators}",
    "whereis": "{name} est dans {room} (salle {number}).",
    "game-waiting-for-you": "Ta partie à la table {table} continue sans toi : /room {table} t'y ramène.",
    "setting": "Réglage {name} : {value}.",
    "setting-lang": "Langue : {language}. /set lang de|en|fr|es|da pour en changer.",
    # the languages by their own names (the same in every catalog)
    "language-en": "English",
    "language-de": "Deutsch",
    "language-fr": "Français",
    "language-es": "Español",
    "language-da": "Dansk",
    # the rooms' names (lobby/world.py names them in English for the machine mode's data)
    "room-lobby": "le lobby",
    "room-table": "la salle de la table {number}",
    "iset": "Réglage d'interface {name} : {value}.",
    # help (protocol/commands.py)
    "help": (
        "Commandes (le / est facultatif, un début unique suffit ; le texte sans / est dit dans ta salle, "
        ";NAME TEXT chuchote) :"),
    "help-group": "{group} : {commands}",
    "help-group-lobby": "Lobby",
    "help-group-chat": "Discussion",
    "help-group-tables": "Tables",
    "help-group-play": "Jeu",
    "help-group-records": "Archives",
    "help-group-account": "Compte",
    "help-group-moderation": "Modération",
    "help-group-other": "Autres",
    "help-footer": "/help COMMAND en dit plus sur une commande.",
    "help-command": "{usage}",
    "help-aliases": "  aussi : {aliases}",
    # tables (lobby/table.py events, rendered by protocol/render_table.py)
    "table-joined": "{name} s'assied à la place {seat}.",
    "table-seat-key": "Si ta connexion est perdue, connecte-toi comme {name} et donne la clé {key}.",
    "table-left": "{name} quitte la place {seat}.",
    "table-started": "Table {table} : la partie commence, {team0} contre {team1}.",
    "table-option-set": "{name} règle {option} sur {value}.",
    "table-options": "Options de la table {table} (/option NAME [VALUE] avant le début) :",
    "table-option-line": "  {option:<13} {value:<6} {about}",
    "table-info": "Table {table} : {state}, hôte {host}.",
    "table-info-seats": "  Places : {seating}",
    "table-info-score": "  Score après {rounds} {rounds!p:manche|manches} : {score}",
    "table-info-score-none": "  Score : {score} (aucune manche jouée pour l'instant)",
    "table-info-options": "  Options : {options}",
    "table-info-watching": "  Spectateurs : {names}",
    "table-reset": "{name} libère la table pour une nouvelle partie : /join, puis /start.",
    "table-vanished": (
        "{name} a disparu ; la partie l'attend. Après {grace!t}, les autres joueurs peuvent faire "
        "/remove {name}."),
    "table-back": "{name} est de retour.",
    "table-remove-proposed":
        "{name} propose de retirer {target} : /accept ou /refuse (il faut {needed} {needed!p:voix|voix}).",
    "table-vote": "{name} vote {vote} sur le retrait de {target}.",
    "table-remove-refused": "{target} reste : le retrait a été refusé.",
    "table-vote-ended": "Le vote sur le retrait de {name} est terminé.",
    "table-rated": "Partie classée : qui la quitte sans revenir en {grace!t} au total la perd.",
    "table-unrated": "Cette partie ne compte pas pour le classement : {reason!w:why-unrated}.",
    "why-unrated-nosave": "elle a été lancée avec /startnosave",
    "why-unrated-seed": "ses donnes découlent de la graine de /option seed",
    "why-unrated-bots": "un bot y joue",
    "why-unrated-guests": "les quatre joueurs ne sont pas tous inscrits",
    "history-abandoned": " (abandonnée)",
    "history-left": ", quittée par : {names}",
    "finger-left": "  a quitté {left} des {games} {games!p:partie commencée|parties commencées}",
    "ranking-left": ", parties quittées : {left}",
    "table-timer-warning": (
        "Dépêche-toi : il te reste {seconds!t} pour ta décision, ensuite elle sera prise pour toi."),
    "table-timed-out": (
        "{name} a dépassé son temps ({seconds!t}) ; la décision est prise à sa place. Les autres "
        "peuvent maintenant faire /remove {name}."),
    "table-info-timer": "Minuteur : {seconds!t} par décision.",
    "table-info-timer-off": "Minuteur : désactivé.",
    "table-info-rated": "Cette partie compte pour le classement.",
    "table-info-left": "Ont quitté la partie (et la perdent) : {names}.",
    "table-unseated": "{by} (l'hôte) retire la place {seat} à {name}.",
    "table-barred": "{by} (l'hôte) exclut {name} de cette table jusqu'à sa fermeture.",
    "table-unbarred": "{by} (l'hôte) lève l'exclusion de {name}.",
    "namesake-notice": (
        "{name} parlait avant à quelqu'un d'autre sous ton nom ; voici son premier message pour toi."),
    "says-namesake": "<{name} (nouveau, pas le {name} qui était assis ici)> {text}",
    "table-abandoned": "{target} a été retiré ; la partie est abandonnée à {score}.",
    "table-window-closed": "{name} peut continuer maintenant.",
    "table-window-closed-you": "Tu peux continuer maintenant.",
    "table-new-host": "{name} est maintenant l'hôte de cette table.",
    "table-seeded": "Graine {seed}, fixée par l'hôte {host} : qui la connaît connaît toutes les mains.",
    "table-bot-added": "{by} installe {name} (bot {strategy}) à la place {seat}.",
    "table-bot-removed": "{by} retire {name} de la place {seat}.",
    "table-bot-takes-over": "{target} a été retiré ; {name} continue à la place {seat}.",
    "vote-yes": "oui",
    "vote-no": "non",
    "table-view": "Table {table} : {state}.",
    "table-look": "La table {table} en ce moment :",
    "options-default": "options par défaut",
    "options-defaults": "par défaut",
    "table-state-waiting": "en attente",
    "table-state-playing": "en jeu",
    "table-state-finished": "terminée",
    "view-seats": "Places : {seating}",
    "view-waiting": "/join [SEAT] pour t'asseoir ; /start à quatre ; /option help liste les options.",
    "view-players": "{players}",
    "view-player-out": "fini {place}",
    "view-call-tichu": "T!",
    "view-call-grand": "GT!",
    "view-gone": "(parti)",
    "view-score": "Manche {round_no} | {score}",
    "view-trick": "Pli : {plays}",
    "view-trick-empty": "Pli : vide",
    "view-trick-won": "Pli : {plays} - remporté par {name}",
    "view-trick-more": "... {plays}",
    "view-wish": "Souhait : {rank!w:rank}",
    "view-with-wish": "{line}  |  {wish}",
    "view-hand": "Ta main : {cards}",
    "view-received": "Reçu : {gifts}",
    "view-turn": "À {name} de jouer.",
    "view-cards-left": "({count} en main)",
    "view-your-turn": "À toi de jouer : /play CARDS ou /pass",
    "view-your-lead": "Tu as la main : /play CARDS",
    "view-your-turn-wish": "À toi de jouer : /play CARDS avec {rank!w:a-rank} (le souhait), ou une bombe",
    "view-your-lead-wish": "Tu as la main : /play CARDS avec {rank!w:a-rank} (le souhait), ou une bombe",
    "view-bombs": "Tu peux poser une bombe : /bomb {cards}",
    "view-bomb-window": "{name} pourra continuer dans {seconds!t} : place aux bombes.",
    "view-bomb-window-you": (
        "Tu pourras continuer dans {seconds!t} : les autres peuvent encore poser une bombe."),
    "view-grand": "Grand Tichu ? /grand ou /nogrand",
    "view-grand-wait": "On attend la réponse au Grand Tichu : {names}",
    "view-exchange": "Échange : /schupf NEXT PARTNER PREVIOUS ({next}, {partner}, {previous})",
    "view-exchange-wait": "On attend l'échange : {names}",
    "view-wish-prompt": "Ton souhait : /wish RANK ou /wish none",
    "view-wish-wait": "On attend le souhait de {name}.",
    "view-dragon": "Donne le pli du Dragon : /dragon left ({left}) ou /dragon right ({right})",
    "view-dragon-wait": "On attend que {name} donne le pli du Dragon.",
    "view-tichu-hint": "(/tichu pour annoncer Tichu)",
    "view-finished": "Partie terminée. {outcome}",
    "view-play-again": (
        "Pour rejouer : /reset libère la table, puis /start distribue une nouvelle partie."),
    "view-abandoned": "La partie a été abandonnée ({name} retiré).",
    "game-round-start": "La manche {round} commence.",
    "game-deal": "Tes 8 premières cartes : {cards}",
    "game-deal-all": "Tes cartes : {cards}",
    "game-deal-rest": "Tes 6 dernières cartes : {cards}",
    "game-grand": "{name} annonce GRAND TICHU !",
    "game-grand-no": "{name} n'annonce pas de Grand Tichu.",
    "game-tichu": "{name} annonce TICHU !",
    "game-exchange-phase": "Échange : chacun donne trois cartes.",
    "game-exchange-given": "{name} a donné ses trois cartes.",
    "game-exchange-received": "Tu reçois {gifts}.",
    "game-gift-from": "{card} de {name}",
    "game-play-phase": "{name} a le Mahjongg et commence.",
    "game-play-phase-you": "Tu as le Mahjongg et tu commences.",
    "game-play": "{name} joue {cards}.",
    "game-play-bomb": "{name} pose une BOMBE : {cards} !",
    "game-wish": "{name} souhaite {rank!w:a-rank}.",
    "game-wish-none": "{name} ne fait pas de souhait.",
    "game-wish-fulfilled": "{name} remplit le souhait : {rank!w:a-rank}.",
    "game-pass": "{name} passe.",
    "game-trick-won": "{name} remporte le pli.",
    "game-trick-won-dragon": "{name} remporte le pli du Dragon et doit le donner à un adversaire.",
    "game-dragon-given": "{name} donne le pli du Dragon à {to_name}.",
    "game-dog": "Le Chien donne la main à {name}.",
    "game-out": "{name} a fini ({place}).",
    "place-1": "1er",
    "place-2": "2e",
    "place-3": "3e",
    "place-4": "4e",
    "place-n": "{place}e",
    "seat-unnamed": "place {seat}",
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
    "rank-B": "Valet",
    "a-rank-B": "un Valet",
    "ranks-B": "Valets",
    "rank-D": "Dame",
    "a-rank-D": "une Dame",
    "ranks-D": "Dames",
    "rank-K": "Roi",
    "a-rank-K": "un Roi",
    "ranks-K": "Rois",
    "rank-A": "As",
    "a-rank-A": "un As",
    "ranks-A": "As",
    # kinds of plays (`{kind!w:kind-a}`, an engine refusal)
    "kind-a-single": "une carte simple",
    "kind-a-pair": "une paire",
    "kind-a-triple": "un brelan",
    "kind-a-fullhouse": "un full",
    "kind-a-straight": "une suite",
    "kind-a-stairs": "une suite de paires",
    "kind-a-bomb": "une bombe",
    "kind-a-dog": "le Chien",
    # the phases of a round (`{phase!w:phase}`)
    "phase-grand": "les annonces de Grand Tichu",
    "phase-exchange": "l'échange",
    "phase-play": "le jeu",
    "phase-wish": "le souhait",
    "phase-dragon": "le don du pli du Dragon",
    "phase-finished": "manche terminée",
    # words that fill other messages (lobby.messages.Msg)
    "role-operator": "l'opérateur du serveur",
    "until-further-notice": "nouvel ordre",
    "names-and": "{names} et {name}",
    "names-or": "{names} ou {name}",
    "game-round-over": "Fin de la manche. Ordre : {order}.",
    "game-round-over-double": "Fin de la manche : double victoire pour {team} ! Ordre : {order}.",
    "game-round-cards": "  Points des cartes : {score}",
    "game-round-call-won": "  {call} de {name} réussi : +{points}",
    "game-round-call-lost": "  {call} de {name} raté : -{points}",
    "call-tichu": "Tichu",
    "call-grand": "Grand Tichu",
    "game-round-total": "  Cette manche :  {score}",
    "game-round-score": "Score après la manche {round} : {score}",
    "game-victory-points": "Points de victoire : {points}",
    "game-match-over": "Partie terminée après {rounds} {rounds!p:manche|manches} : {outcome}",
    "game-winner": "{names} gagnent {score}.",
    "game-shared": "Victoire partagée à {score}.",
    "game-turnier-winner": "{names} gagnent.",
    "game-turnier-points": "Points de victoire/points Tichu : {points}",
    # game records, statistics, ratings (lobby/records.py data, protocol/render_records.py)
    "history-header": "Dernières parties de {name} :",
    "history-line": (
        "  #{game} {date} table {table} : {team0} {score0}:{score1} {team1}, {rounds} "
        "{rounds!p:manche|manches}, {outcome}{unrated}"),
    "history-none": "{name} n'a aucune partie terminée.",
    "history-won": "gagnée",
    "history-lost": "perdue",
    "history-shared": "partagée",
    "history-unrated": " (non classée)",
    "replay-header": (
        "Partie #{game}, table {table}, {date} : {team0} contre {team1}, {rounds} "
        "{rounds!p:manche|manches}."),
    "replay-round": "Manche {round} : places {seating}",
    "replay-hand": "{name} : {cards}",
    "replay-exchange": "{name} donne {gifts}.",
    "replay-gift": "{card} à {name}",
    "tchlog-header": "Partie #{game} en log BSW (.tch), {count} {count!p:ligne|lignes} :",
    "ranking-header": "Rangliste (Team Elo, parties classées seulement) :",
    "ranking-line": "  {place:>3}. {name:<16} {rating:>5}  ({games} {games!p:partie|parties})",
    "ranking-none": "Personne n'a encore joué de partie classée.",
    # reconnecting and restoring (lobby/world.py, lobby/persistence.py)
    "game-rejoined": "Te revoilà à ta place à la table {table} ; la partie continue.",
    "finger-stats": (
        "  parties {games} (gagnées {wins}), classées {rated_games} (gagnées {rated_wins}), manches "
        "{rounds}"),
    "finger-calls": (
        "  Tichu {tichu_made}/{tichu_calls}, Grand Tichu {grand_made}/{grand_calls}, doubles victoires "
        "{double_victories}, premier à finir {first_out}"),
    "finger-rating":
        "  Elo {rating} après {rated_games} {rated_games!p:partie classée|parties classées} (record {peak})",
    "finger-no-games": "  aucune partie terminée pour l'instant",
    # mute lists and moderation (lobby/moderation.py)
    "muted": "{name} est maintenant dans ta liste d'ignorés : tu ne verras plus ses messages.",
    "unmuted": "{name} n'est plus dans ta liste d'ignorés.",
    "mute-list": "Ta liste d'ignorés ({count}) : {names}",
    "mute-list-empty": "Ta liste d'ignorés est vide ; /add mute NAME ajoute un nom.",
    "role-set": "{name} a maintenant le rôle {role}.",
    "role-changed": "{by} t'a donné le rôle {role}.",
    "kick-done": "{name} a été expulsé.",
    "kicked": "Tu as été expulsé par {by} : {reason}",
    "ban-done": "{name} est banni jusqu'à {until}.",
    "banned-now": "Tu as été banni par {by} jusqu'à {until} : {reason}",
    "unban-done": "Le bannissement de {name} est levé.",
    "ban-list": "Bannissements ({count}) :",
    "ban-list-line": "  {name} jusqu'à {until}, par {by} : {reason}",
    "ban-list-address": "    et les invités de {address}",
    "ban-list-empty": "Personne n'est banni.",
    "silenced-set": "{name} ne peut plus parler dans les salles publiques.",
    "unsilenced": "{name} peut de nouveau parler dans les salles publiques.",
    "you-silenced": "{by} t'a rendu muet dans les salles publiques ; /tell fonctionne encore.",
    "you-unsilenced": "{by} te rend la parole dans les salles publiques.",
    "announcement": "*** {by} annonce : {text}",
    "shutdown-warning":
        "*** Le serveur s'arrête dans {seconds!t} ({reason} ; {by}). Plus aucune nouvelle partie.",
    # ---- errors (the keys are the error codes) -----------------------------------------------------
    # protocol / session
    "line-too-long": "Ligne trop longue ({length} octets, limite {limit}) ; elle a été ignorée.",
    "unknown-command": "Commande inconnue /{name}. Tape /help pour la liste des commandes.",
    "ambiguous-command": "Commande ambiguë /{name} : peut-être {candidates}.",
    "bad-arguments": "Usage : {usage}",
    "internal-error": "Erreur interne pendant ta commande ; elle est consignée et rien n'a changé.",
    # login and accounts (protocol/session.py, protocol/commands.py)
    "bad-name": (
        "{name} n'est pas un nom valide : 3 à 16 caractères, chacun une lettre ASCII a-z ou A-Z, un "
        "chiffre 0-9, _ ou -."),
    "reserved-name": "Le nom {name} est réservé ; choisis-en un autre (ou tape guest).",
    "name-in-use": "{name} est déjà en ligne ; choisis un autre nom.",
    "seat-held":
        "La table {table} garde la place de l'invité {name} : donne sa clé, ou choisis un autre nom.",
    "wrong-seat-key": "Mauvaise clé.",
    "wrong-password": "Mauvais mot de passe.",
    "too-many-failures": "Trop d'échecs de connexion ; la connexion est fermée.",
    "bad-password": "Un mot de passe a de {min} à {max} caractères, sans espace.",
    "already-registered": "Tu es déjà inscrit ; /password OLD NEW change ton mot de passe.",
    "not-registered": "Tu n'es pas inscrit ; /register PASSWORD inscrit ton nom.",
    "name-held-for-guest": (
        "La table {table} garde une place d'invité au nom de {name} ; ce nom pourra être inscrit une "
        "fois cette partie terminée."),
    "name-taken": "Le nom {name} a été inscrit entre-temps ; reconnecte-toi avec un autre nom.",
    "busy": "Tes commandes précédentes sont encore en cours ; cette ligne a été ignorée.",
    # chat
    "not-online": "{name} n'est pas en ligne.",
    "invisible-text": (
        "Il ne reste rien de visible dans ton message : les caractères de contrôle et de mise en forme "
        "(comme U+202E) sont retirés de ce que tu dis."),
    "no-such-user": "Personne du nom de {name} n'est en ligne ou inscrit.",
    # tables (lobby/table.py)
    "game-running": "La partie est en cours ; ce n'est possible qu'avant le début.",
    "game-finished": "La partie est terminée ; /reset libère la table pour une nouvelle partie.",
    "no-game": "Aucune partie en cours à cette table.",
    "not-seated": "Tu n'es pas assis à cette table ; /join pour prendre une place.",
    "already-seated": "Tu es déjà à la place {seat}.",
    "no-such-seat": "Il n'y a pas de place {seat} ; les places vont de 1 à 4.",
    "seat-taken": "La place {seat} est prise par {name}.",
    "table-full": "Les quatre places sont prises ; tu peux regarder.",
    "too-many-tables": (
        "Tu es déjà hôte ou joueur à {limit} {limit!p:table ouverte|tables ouvertes} (table {tables}) ; "
        "quittes-en une, ou attends la fin de sa partie."),
    "seat-limit": (
        "Tu es déjà assis à la table {tables}, et on ne peut s'asseoir qu'à {limit} "
        "{limit!p:table|tables} à la fois ; quitte-la, ou attends la fin de sa partie."),
    "tables-too-fast": (
        "Tu as ouvert {limit} {limit!p:table|tables} dans la dernière minute, le maximum "
        "permis ; réessaie dans {seconds!t}."),
    "address-tables": (
        "Les utilisateurs de ton adresse sont déjà hôtes ou joueurs à {limit} "
        "{limit!p:table ouverte|tables ouvertes}, le maximum pour une adresse ; "
        "quittes-en une d'abord."),
    "need-four": "Il faut quatre joueurs pour commencer ; {count} assis.",
    "host-only": "Seul l'hôte, {host}, peut faire ça (option host).",
    "host-only-option": "Seul l'hôte, {host}, peut régler l'option {option}.",
    "not-finished": "La partie n'est pas terminée ; /reset ne libère qu'une table terminée.",
    "unknown-option": "Option inconnue {name} ; /option help les liste.",
    "bad-option-value": "L'option {name} attend {expected}, pas {value!r}.",
    "turnier-rounds": (
        "Le mode turnier (tournoi) se joue toujours en {rounds} manches ; il ne se combine pas avec "
        "round : mets d'abord round ou turnier sur off."),
    "not-a-player": "{name} ne joue pas à cette table.",
    "host-command": "Seul l'hôte, {host}, peut faire cela.",
    "not-seated-here": "{name} n'est pas assis à cette table.",
    "barred-from-table": "L'hôte ({host}) t'a exclu de la table {table} jusqu'à sa fermeture.",
    "not-barred": "{name} n'est pas exclu de cette table.",
    "name-now-someone-else": (
        "{name} est quelqu'un d'autre maintenant : le {name} à qui tu parlais est parti et un nouveau "
        "venu a pris le nom. Ton message n'a pas été envoyé ; renvoie-le pour joindre le nouveau "
        "{name}."),
    "not-vanished": "{name} n'a ni disparu ni dépassé son temps ; seul un tel joueur peut être retiré.",
    "vote-running": "Un vote sur le retrait de {name} est déjà en cours : /accept ou /refuse.",
    "remove-too-early": (
        "{name} peut encore revenir : /remove sera possible dans {seconds!t} (le délai de grâce de la "
        "table, /option grace)."),
    "no-vote": "Il n'y a aucun vote en cours.",
    "not-a-voter": "Seuls les autres joueurs de la table votent là-dessus.",
    "bomb-window":
        "Attends {seconds!t} avant de continuer : les autres peuvent encore poser une bombe sur le pli.",
    "give-dragon-first": (
        "Tu as remporté le pli du Dragon : donne-le d'abord, /dragon left ({left}) ou /dragon right "
        "({right})."),
    "name-wish-first": "Fais d'abord ton souhait : /wish RANK ou /wish none.",
    "give-cards-first": "Donne d'abord tes trois cartes : /schupf NEXT PARTNER PREVIOUS.",
    "bad-dragon-target":
        "Donne le pli du Dragon avec /dragon left ou /dragon right (ou un numéro de place ou un nom).",
    # rooms and table routing (lobby/world.py, protocol/commands.py)
    "not-at-table": "Tu n'es à aucune table ; /room N en rejoint une, /newroom tichu en ouvre une.",
    "no-such-room": "Il n'y a pas de salle {number} ; /listroom liste les tables.",
    "no-such-page": "Il n'y a pas de page {page} ; /listroom a {pages} {pages!p:page|pages}.",
    "seat-held-here": (
        "La table {table} garde une place pour l'invité {name}, assis là avant toi ; connecte-toi avec "
        "un autre nom pour la regarder."),
    "unknown-game": "Il n'y a pas de jeu {name} ici ; /newroom tichu ouvre une table de Tichu.",
    "unknown-setting": "Il n'y a pas de réglage {name} ; /set color on|off en est un.",
    "bad-setting-value": "Le réglage {name} attend {expected}, pas {value!r}.",
    "unknown-language": "Il n'y a pas de langue {value!r} ici ; /set lang accepte {choices}.",
    "bad-width": "La largeur est un nombre de colonnes de {min} à {max}, ou auto, pas {value!r}.",
    # machine mode (protocol/machine.py)
    "bad-id": "Un id de commande s'écrit #ID avec 1 à 32 lettres, chiffres, - ou _, pas #{id}.",
    "unknown-request": "La requête {request} n'existe pas ; {state} en est une, et les "
                       "commandes commencent par / (/help les liste).",
    "json-request": "Les requêtes sont des lignes de commande comme /play B5 ou {state}, pas "
                    "des objets JSON ; docs/bots.md les montre.",
    # bots at tables (lobby/table.py, lobby/bots)
    "unknown-strategy": "Il n'y a pas de stratégie de bot {name} ; choisis {choices}.",
    "bad-bot-level": "{level} n'est pas un niveau de bot : expert réfléchit de {low} à {high} "
                     "secondes par décision (expert:2).",
    "not-a-bot": "Il n'y a pas de bot à la place {seat}.",
    # game records (lobby/records.py)
    "no-such-game": "Il n'y a pas de partie #{game} ; /history liste les parties récentes.",
    "no-such-round":
        "La partie #{game} n'a pas de manche {round} ; elle a eu {rounds} {rounds!p:manche|manches}.",
    "no-tch-log": "La partie #{game} n'a pas de log BSW : elle a été jouée avec /option log off.",
    # defences of the public port (protocol/guard.py)
    "server-full": "Le serveur est plein ; réessaie plus tard.",
    "too-many-connections": "Trop de connexions depuis ton adresse (au plus {limit}) ; celle-ci est fermée.",
    "too-many-guests": (
        "Trop d'invités en ligne (au plus {limit}) ; connecte-toi avec un nom inscrit, ou réessaie plus "
        "tard."),
    "too-many-attempts": "Trop d'essais de mot de passe depuis ton adresse ; réessaie dans {seconds!t}.",
    "too-many-attempts-here":
        "Trop d'essais de mot de passe sur cette connexion ; réessaie dans {seconds!t}.",
    "account-wait": "Trop de mauvais mots de passe pour {name} ; prochain essai possible dans {seconds!t}.",
    "too-many-registrations": (
        "Trop de nouveaux comptes depuis ton adresse (au plus {limit} par heure) ; réessaie dans "
        "{seconds!t}."),
    "login-timeout": "Tu ne t'es pas connecté en {seconds!t} ; fermeture de la connexion.",
    "idle-warning":
        "Tu n'as rien tapé depuis longtemps ; tu seras déconnecté dans {seconds!t} si tu ne tapes rien.",
    "idle-timeout": "Déconnecté après {seconds!t} d'inactivité.",
    "flooding": (
        "Tu envoies des lignes trop vite (plus de {rate} par seconde) ; elles sont ignorées jusqu'à ce "
        "que tu ralentisses."),
    "flood-disconnect": "Trop de lignes trop vite ; fermeture de la connexion.",
    # moderation and mute lists (lobby/moderation.py)
    "not-allowed": "Seul un utilisateur avec le rôle {role} peut utiliser /{command}.",
    "not-yourself": "Tu ne peux pas utiliser /{command} sur toi-même.",
    "unknown-role": "Il n'y a pas de rôle {role} ; choisis {choices}.",
    "not-registered-user": "{name} n'est pas un nom inscrit.",
    "unknown-list": "Il n'y a pas de liste {name} ; la liste s'appelle mute (/showlist mute).",
    "already-muted": "{name} est déjà dans ta liste d'ignorés.",
    "not-muted": "{name} n'est pas dans ta liste d'ignorés.",
    "mute-list-full": (
        "Ta liste d'ignorés est pleine ({limit} {limit!p:nom|noms}) ; /sub mute NAME fait "
        "de la place."),
    "silenced": "Un modérateur t'a rendu muet dans les salles publiques ; /tell fonctionne encore.",
    "not-silenced": "{name} n'est pas rendu muet.",
    "banned": "{name} est banni jusqu'à {until} : {reason}",
    "address-banned": (
        "Les invités de ton adresse sont bannis jusqu'à {until} : {reason}. Connecte-toi avec un nom "
        "inscrit."),
    "not-banned": "{name} n'est pas banni.",
    "shutting-down": "Le serveur s'arrête ; plus aucune nouvelle partie.",
    # the database fails while the server runs (lobby/persistence.py)
    "game-not-saved": (
        "Le serveur ne peut pas enregistrer la partie de la table {table} (une écriture dans la base a "
        "échoué ; l'opérateur la trouvera dans le journal). Tu peux continuer, mais la partie risque "
        "d'être perdue si le serveur s'arrête."),
    "bad-card": "Pas une carte : {token!r}. Les cartes s'écrivent R10 GB SD BK RA Ma Hu Ph Dr.",
    # round.py / match.py
    "bad-seat": "Il n'y a pas de place {seat!r}.",
    "bad-action": "Pas une action : {action}.",
    "wrong-phase": "Ce n'est pas possible maintenant (phase : {phase!w:phase}).",
    "round-over": "La manche est terminée.",
    "match-over": "La partie est terminée.",
    "no-grand-tichu": "Le Grand Tichu ne se joue pas à cette table.",
    "grand-already-decided": "Tu as déjà répondu pour le Grand Tichu.",
    "grand-undecided": "Réponds d'abord pour le Grand Tichu (oui ou non).",
    "already-called": "Tu as déjà annoncé {call}.",
    "tichu-too-late": "Trop tard pour Tichu : tu as déjà joué une carte.",
    "exchange-over": "L'échange est terminé.",
    "already-exchanged": "Tu as déjà donné tes trois cartes.",
    "exchange-three-cards": (
        "Donne exactement trois cartes : au joueur suivant, à ton partenaire et au joueur précédent (tu "
        "en as nommé {count})."),
    "exchange-incomplete": "Tout le monde n'a pas encore donné ses cartes.",
    "waiting-for-wish": "On attend que le joueur du Mahjongg fasse son souhait.",
    "waiting-for-dragon": "On attend que la place {seat} donne le pli du Dragon.",
    "you-are-out": "Tu n'as plus de cartes dans cette manche.",
    "not-your-turn": (
        "Ce n'est pas ton tour (la place {turn} joue) ; hors tour, seule une bombe peut être posée sur "
        "la table."),
    "must-lead": "Tu as la main : joue quelque chose (tu ne peux pas passer).",
    "must-fulfil-wish": "Le souhait t'oblige : joue {rank!w:a-rank}.",
    "bad-wish": "Pas une hauteur à souhaiter : {rank!r}. Souhaite 2..10, B, D, K, A ou none.",
    "wish-without-mahjong": "Seul un coup avec le Mahjongg peut faire un souhait.",
    "no-wish-pending": "Tu n'as pas de souhait à faire.",
    "no-dragon-pending": "Il n'y a pas de pli du Dragon à donner.",
    "not-your-dragon": "C'est à la place {seat} de donner le pli du Dragon.",
    "dragon-to-opponent": "Le pli du Dragon doit aller à un adversaire, pas à la place {seat}.",
    # cards.py
    "duplicate-card": "{card} apparaît deux fois.",
    "bad-rank": "Pas une hauteur : {token!r}. Les hauteurs sont 2..10, B (ou J), D (ou Q), K, A.",
    # cards.py: the rank-only shorthand of a play (`/play 7 7`)
    "ambiguous-cards": (
        "Quelles cartes jouer parmi tes {rank!w:ranks} ? Chaque choix casse une bombe ; nomme les "
        "cartes, p. ex. {example}."),
    "missing-rank": "Tu n'as pas {count} {count!p:carte|cartes} de hauteur {rank}.",
    # moves.py: why a play is refused
    "no-cards": "Nomme les cartes à jouer.",
    "cards-not-in-hand": "Tu n'as pas {cards} en main.",
    "not-a-combination": "{cards} n'est pas une combinaison.",
    "bad-phoenix-reading": "Le Phénix ne peut pas remplacer {rank!w:a-rank} dans {cards}.",
    "dog-on-table": "Rien ne se joue sur le Chien, pas même une bombe.",
    "dog-not-lead": "Le Chien ne se joue qu'en entame, pas sur un pli.",
    "phoenix-on-dragon": "Le Phénix ne peut pas être joué sur le Dragon.",
    "bomb-on-table": "{play} ne bat pas la bombe {top} : seule une bombe plus forte le peut.",
    "wrong-kind": (
        "{play} ne peut pas être joué sur {top} : {kind!w:kind-a} ne va pas sur "
        "{top_kind!w:kind-a}."),
    "wrong-length":
        "{play} ne peut pas être joué sur {top} : il faut autant de cartes que la combinaison à battre.",
    "too-low": "{play} ne bat pas {top}.",
    "wish-not-followed": "Tu dois jouer {rank!w:a-rank} : le souhait en cours (ou une bombe).",
    "not-a-bomb": "{cards} n'est pas une bombe ; hors tour, seule une bombe peut être jouée.",
    "bomb-on-empty-table": (
        "Hors tour, une bombe ne se pose que sur une combinaison déjà sur la table ; à ton tour, tu peux "
        "entamer avec."),
    # ---- help texts: cmd-NAME, cmd-NAME-help, option-NAME ------------------------------------------
    "cmd-accept": "Voter oui au /remove en cours.",
    "cmd-accept-help": "Vote pour le retrait du joueur disparu nommé par la proposition /remove en cours.",
    "cmd-add": "Ajouter NAME à une de tes listes : /add mute NAME.",
    "cmd-add-help": (
        "/add mute NAME met NAME dans ta liste d'ignorés (mute), comme sur BSW : tu ne\n"
        "vois plus ce que NAME dit dans les salles ni ses messages privés, et pour NAME\n"
        "ses messages privés ont l'air d'être envoyés. La liste d'un nom inscrit est\n"
        "enregistrée ; celle d'un invité dure tant qu'il est en ligne."),
    "cmd-addbot": (
        "Asseoir un bot (heuristic par défaut) à la place SEAT ou à la première place libre, avant le "
        "début."),
    "cmd-addbot-help": (
        "Assied un bot (heuristic si aucune stratégie n'est nommée) à la place SEAT ou\n"
        "à la première place libre, avant le début ; l'hôte ou tout joueur assis.\n"
        "expert réfléchit 0,5 s par décision, expert:SECONDS le temps que tu indiques\n"
        "(de 0.05 à 10)."),
    "cmd-announce": "Modérateurs : dire TEXT à tous ceux qui sont en ligne.",
    "cmd-announce-help":
        "Modérateurs et admins : une ligne à tous ceux qui sont en ligne, où qu'ils soient. Consigné.",
    "cmd-ban": "Modérateurs : bannir NAME.",
    "cmd-ban-help": (
        "Modérateurs et admins : NAME ne peut plus se connecter, pendant DURATION (90s,\n"
        "30m, 2h, 7d, 1w ; un nombre seul compte en minutes) ou, sans durée (ou avec\n"
        "perm), jusqu'à /unban NAME ; NAME est déconnecté s'il est en ligne. Un invité\n"
        "en ligne entraîne aussi son adresse dans le bannissement : aucun invité ne se\n"
        "connecte de là pendant ce temps (les noms inscrits le peuvent toujours) ;\n"
        "/banlist l'affiche. Le bannissement est enregistré. Un modérateur ne peut\n"
        "bannir ni un modérateur ni un admin. Consigné."),
    "cmd-banlist": "Modérateurs : lister les bannissements.",
    "cmd-banlist-help": (
        "Modérateurs et admins : chaque bannissement en vigueur avec sa fin, sa raison\n"
        "et son auteur ; celui d'un invité montre l'adresse d'où il venait (bannie avec\n"
        "le nom : aucun invité ne se connecte de là)."),
    "cmd-bmute": "Modérateurs : rendre NAME muet dans les salles publiques (off : annuler).",
    "cmd-bmute-help": (
        "Modérateurs et admins : NAME ne peut plus parler dans les salles (le lobby et\n"
        "les salles des tables) ; les messages privés marchent encore. /bmute NAME off\n"
        "lève la mesure. Enregistré ; consigné."),
    "cmd-bomb": "Poser une bombe, même hors tour : /bomb S5 B5 G5 R5.",
    "cmd-bomb-help": (
        "Joue une bombe (un carré, ou une suite de cinq cartes ou plus d'une même\n"
        "couleur) à tout moment tant qu'un pli est sur la table, même quand ce n'est\n"
        "pas ton tour."),
    "cmd-dragon": "Donner un pli remporté avec le Dragon : /dragon left|right.",
    "cmd-dragon-help": (
        "Qui remporte un pli avec le Dragon le donne à un adversaire : /dragon right\n"
        "(le joueur suivant dans l'ordre du jeu) ou /dragon left (le précédent) ; un\n"
        "numéro de place ou un nom marche aussi. Avec l'option dragon fixed, il va\n"
        "automatiquement à l'adversaire suivant."),
    "cmd-finger": "Compte, statistiques et classement Elo de NAME.",
    "cmd-finger-help": (
        "Indique si NAME est inscrit et depuis quand, quand NAME a été vu pour la\n"
        "dernière fois, et si NAME est en ligne (et dans quelle salle) ; pour un joueur\n"
        "inscrit aussi les statistiques (parties, victoires, manches, Tichu et Grand\n"
        "Tichu annoncés et réussis, doubles victoires) et le classement Team Elo."),
    "cmd-grand": "Annoncer Grand Tichu (après tes 8 premières cartes).",
    "cmd-grand-help": (
        "Après les 8 premières cartes, avant la distribution des 6 dernières, chaque\n"
        "joueur répond /grand (annoncer Grand Tichu : 200 points si tu finis premier,\n"
        "moins 200 sinon) ou /nogrand."),
    "cmd-help": "Lister les commandes, ou en expliquer une.",
    "cmd-help-help": (
        "Sans argument, liste les commandes que tu peux utiliser, par groupes (lobby,\n"
        "discussion, tables, jeu, archives, compte, et modération pour les modérateurs et\n"
        "les admins). /help COMMAND montre l'usage de la commande, ses alias et une\n"
        "explication plus longue ; un début unique suffit ici aussi."),
    "cmd-history": "Tes parties récentes (ou celles de NAME).",
    "cmd-history-help": (
        "Liste les dix dernières parties terminées de NAME (sans NAME : les tiennes),\n"
        "la plus récente d'abord : le numéro de partie (pour /replay), la date, la\n"
        "table, les deux équipes avec le score final, le nombre de manches, gagnée ou\n"
        "perdue, et si la partie était non classée."),
    "cmd-iset": "Réglage d'interface de cette connexion : /iset json 1|0.",
    "cmd-iset-help": (
        "/iset json 1 passe cette connexion en mode machine : dès lors chaque ligne\n"
        "envoyée par le serveur est un objet JSON avec un champ type, et une ligne de\n"
        "commande peut commencer par #ID (1 à 32 lettres, chiffres, - ou _) que sa\n"
        "réponse répète dans \"id\". /iset json 0 revient au texte. Une première ligne\n"
        "%json avant la connexion fait de même dès le départ. Jamais enregistré dans le\n"
        "compte ; docs/protocol.md (\"Machine mode\") décrit chaque objet."),
    "cmd-join": "Prendre une place à cette table (la première libre, ou la place 1..4).",
    "cmd-join-help": (
        "T'assied à la place SEAT (1 à 4) ou, sans SEAT, à la première place libre,\n"
        "avant le début. Les places 1 et 3 jouent ensemble contre les places 2 et 4 ;\n"
        "on joue dans l'ordre 1, 2, 3, 4. Avec l'option tichujoin, les deux premiers à\n"
        "s'asseoir sont partenaires ; avec drawseat, les places sont tirées au sort au\n"
        "début."),
    "cmd-kick": "Modérateurs : déconnecter NAME.",
    "cmd-kick-help": (
        "Modérateurs et admins : ferme la connexion de NAME avec REASON (NAME peut se\n"
        "reconnecter ; /ban le tient à l'écart). Un modérateur ne peut expulser ni un\n"
        "modérateur ni un admin. Consigné."),
    "cmd-leave": "Quitter ta place avant le début.",
    "cmd-leave-help":
        "Libère ta place ; tu restes dans la salle et tu regardes. Impossible pendant la partie.",
    "cmd-listroom": "Lister les tables ouvertes.",
    "cmd-listroom-help": (
        "Liste les tables ouvertes : leur numéro, le jeu, l'état (en attente, en jeu,\n"
        "terminée), les joueurs par place, les options qui diffèrent des valeurs par\n"
        "défaut, et le nombre de spectateurs. Vingt tables à la fois : s'il y en a\n"
        "plus, la première ligne dit combien il y en a, combien attendent et combien\n"
        "jouent, et /listroom 2 montre les vingt suivantes."),
    "cmd-look": "Montrer de nouveau la table (ou l'endroit où tu es).",
    "cmd-look-help": (
        "À une table : toute la vue telle qu'elle est maintenant : les places avec les\n"
        "cartes restantes et les annonces, le score, le pli, le souhait, ta main et à\n"
        "qui c'est de jouer, avec ce qu'il faut taper (un spectateur voit la vue\n"
        "publique, sans les mains). Ailleurs : la salle où tu es et comment trouver une\n"
        "table. En mode machine, la réponse est l'objet state complet. Les joueurs de\n"
        "BSW et des MUD la connaissent sous /l."),
    "cmd-manager": "Retourner au lobby (salle 0).",
    "cmd-manager-help": (
        "Te ramène au lobby (salle 0, le village de BSW). Avant le début d'une partie,\n"
        "cela libère ta place ; quitter une partie en cours te fait disparaître pour\n"
        "les autres joueurs (/room N t'y ramène)."),
    "cmd-newroom": "Ouvrir une nouvelle table (GAME : tichu) et y aller.",
    "cmd-newroom-help": (
        "Ouvre une nouvelle salle de table pour GAME (seulement tichu pour l'instant,\n"
        "par défaut) dont tu es l'hôte, et t'y emmène. La table reçoit le plus petit\n"
        "numéro libre ; /listroom l'affiche. Ensuite /join pour t'asseoir, /option\n"
        "règle les options, /start commence quand quatre sont assis."),
    "cmd-nogrand": "Ne pas annoncer Grand Tichu (après tes 8 premières cartes).",
    "cmd-nogrand-help":
        "Refuse le Grand Tichu. Quand les quatre ont répondu, les 6 dernières cartes sont distribuées.",
    "cmd-option": "Régler une option de table avant le début ; /option help les liste.",
    "cmd-option-help": (
        "/option help liste les options avec leurs valeurs actuelles. Avant le début,\n"
        "l'hôte (ou, sans l'option host, tout joueur assis) les règle : round X (au\n"
        "plus X manches, off), tichujoin (les deux premiers à s'asseoir sont\n"
        "partenaires), turnier (tournoi : 9 manches, partenaires tournants, points de\n"
        "victoire), target N (le score qui termine la partie, par défaut {target}),\n"
        "drawseat (places tirées au sort), host (seul l'hôte commence et règle les\n"
        "options), dragon fixed (le pli du Dragon va à l'adversaire suivant),\n"
        "bombwindow SECONDS (délai pour poser une bombe sur un pli remporté avant de\n"
        "continuer), seed N (même graine, mêmes cartes ; off pour une donne au hasard ;\n"
        "seul l'hôte la fixe ; une partie avec graine n'est pas classée), log (garder\n"
        "aussi la partie terminée en log BSW .tch, on), grace SECONDS (combien de temps\n"
        "un joueur disparu peut revenir avant que les autres puissent le retirer par\n"
        "/remove, par défaut {grace}). Une option on/off sans VALUE s'inverse ; on ou\n"
        "off la règle."),
    "cmd-pass": "Passer (ne pas jouer sur le pli en cours).",
    "cmd-pass-help":
        "Passe sur le pli en cours. Impossible quand tu as la main, ou quand le souhait en cours t'oblige.",
    "cmd-password": "Changer ton mot de passe.",
    "cmd-password-help": "Change le mot de passe de ton nom inscrit de OLD en NEW.",
    "cmd-play": "Jouer des cartes (notation BSW), p. ex. /play R10 G10 ou /play 7 7.",
    "cmd-play-help": (
        "Joue CARDS en notation BSW : couleur S (Schwert, épée), B (Pagode), G (Jade),\n"
        "R (Stern, étoile) et hauteur 2-10, B (Bube, valet), D (Dame), K (Koenig, roi),\n"
        "A (As), ou Ma (Mahjongg), Hu (Chien), Ph (Phénix), Dr (Dragon). Ph=7 nomme le\n"
        "hauteur que remplace le Phénix quand ce n'est pas clair. Avec le Mahjongg,\n"
        "ajoute un souhait : /play Ma wish 8 (ou /wish RANK juste après). L'écriture\n"
        "par hauteur seule (/play 7 7) est acceptée quand elle est sans ambiguïté ;\n"
        "elle choisit des cartes qui ne cassent pas de bombe. Une bombe peut aussi être\n"
        "jouée hors tour avec /play."),
    "cmd-quit": "Quitter le serveur.",
    "cmd-quit-help": "Ferme ta connexion. Ton compte (si tu es inscrit) reste.",
    "cmd-rangliste": "Les meilleurs joueurs au classement (parties classées seulement).",
    "cmd-rangliste-help": (
        "Le classement : les joueurs au plus haut Elo (Team Elo, docs/rating.md), avec\n"
        "leur nombre de parties classées. Seules les parties de quatre joueurs\n"
        "inscrits, non lancées par /startnosave et sans graine fixée, sont classées."),
    "cmd-refuse": "Voter non au /remove en cours.",
    "cmd-refuse-help": "Vote contre le retrait du joueur disparu nommé par la proposition /remove en cours.",
    "cmd-register": "Inscrire le nom que tu utilises.",
    "cmd-register-help": (
        "Inscrit ton nom actuel avec PASSWORD (4 à 128 caractères, sans espace).\n"
        "Ensuite, se connecter avec ce nom demande le mot de passe, et personne d'autre\n"
        "ne peut l'utiliser. Les noms d'invité (Guest1234) ne peuvent pas être\n"
        "inscrits : connecte-toi d'abord avec un nom à toi."),
    "option-timer": (
        "secondes par décision avant qu'elle soit prise pour le joueur (off ; auto : 60 en partie "
        "classée)"),
    "option-expects-timer": "des secondes, de 5 à {high}, ou off ou auto",
    "cmd-unseat": "L'hôte retire sa place à un joueur (ou un bot) d'une table en attente.",
    "cmd-unseat-help": (
        "Avant le début, l'hôte peut retirer sa place à n'importe qui (BSW : /rauswerfen NAME) ; le "
        "joueur reste dans la salle comme spectateur et peut se rasseoir, sauf s'il est exclu avec "
        "/bar."),
    "cmd-bar": "L'hôte exclut un nom de la table jusqu'à sa fermeture.",
    "cmd-bar-help": (
        "L'hôte exclut NAME de cette table jusqu'à sa fermeture (BSW : /sperren NAME) : sa place à une "
        "table en attente lui est retirée, NAME est renvoyé au lobby et ne peut ni entrer dans la "
        "salle ni s'asseoir. /unbar NAME lève l'exclusion."),
    "cmd-unbar": "L'hôte lève l'exclusion d'un nom.",
    "cmd-unbar-help": "Lève l'exclusion de NAME par l'hôte (BSW : /entsperren NAME).",
    "cmd-remove": "Proposer de retirer un joueur disparu pendant la partie.",
    "cmd-remove-help": (
        "Quand un joueur a disparu (déconnecté ou sorti de la salle) pendant une\n"
        "partie, un autre joueur peut proposer de le retirer ; les autres joueurs assis\n"
        "votent avec /accept ou /refuse, et la majorité décide. La place d'un joueur\n"
        "retiré est reprise par un bot qui continue avec ses cartes."),
    "cmd-removebot": "Retirer le bot de la place SEAT, avant le début.",
    "cmd-removebot-help": "Retire le bot de la place SEAT, avant le début.",
    "cmd-replay": "Montrer une partie enregistrée manche par manche.",
    "cmd-replay-help": (
        "Affiche la partie enregistrée GAME (le numéro que montre /history) manche par\n"
        "manche : les places, chaque main distribuée, les annonces, l'échange, chaque\n"
        "coup, chaque passe, chaque don du pli du Dragon, et le score de chaque manche.\n"
        "Avec ROUND, seulement cette manche."),
    "cmd-reset": "Libérer une table terminée pour une nouvelle partie.",
    "cmd-reset-help": (
        "Après la fin d'une partie, libère la table pour la suivante : les joueurs\n"
        "encore là gardent leur place, les options restent. Puis /start à nouveau."),
    "cmd-role": "Admins : donner un rôle à NAME : admin, moderator ou none.",
    "cmd-role-help": (
        "Admins : fait du nom inscrit NAME un admin ou un modérateur, ou (none) de\n"
        "nouveau un joueur ordinaire. Enregistré ; consigné. Le premier admin vient de\n"
        "l'option --admin du serveur."),
    "cmd-room": "Aller dans la salle NUMBER (0 est le lobby ; une table : la regarder).",
    "cmd-room-help": (
        "T'emmène dans la salle NUMBER : 0 est le lobby, chaque autre salle appartient\n"
        "à la table de ce numéro. Entrer dans la salle d'une table, c'est regarder la\n"
        "table (tu ne vois que les informations publiques) ; /join y prend une place.\n"
        "Un joueur qui a quitté une partie en cours y revient ainsi. /room N pour la\n"
        "salle où tu es affiche le /spielinfo de la table."),
    "cmd-schupf": "Échange : une carte au suivant, au partenaire, au précédent.",
    "cmd-schupf-help": (
        "Donne trois cartes au début de chaque manche, dans cet ordre : au joueur\n"
        "suivant dans l'ordre du jeu (l'adversaire après toi), à ton partenaire, au\n"
        "joueur précédent (l'adversaire avant toi), comme dans les logs de BSW.\n"
        "Exemple : /schupf R2 SA Hu. L'écriture par hauteur seule marche\n"
        "(/schupf 2 A 3)."),
    "cmd-set": "Changer un réglage de cette connexion (color on|off, lang de|en|fr|es|da, width N|auto).",
    "cmd-set-help": (
        "Réglages de cette connexion (seule la langue est enregistrée) : /set color on\n"
        "montre les cartes des mains et des plis avec une teinte ANSI par couleur\n"
        "(Schwert en gras, Pagode en bleu, Jade en vert, Stern en rouge, les cartes\n"
        "spéciales en jaune) ; /set color off les désactive. /set lang de|en|fr|es|da\n"
        "choisit la langue de tout ce que le serveur te dit (English, Deutsch,\n"
        "Français, Español, Dansk) ; un nom inscrit la garde pour la prochaine\n"
        "connexion."
        " /set width N coupe chaque ligne à N colonnes ({min_width} à {max_width}) ; "
        "/set width auto revient à la largeur que ton client telnet indique (NAWS), "
        "ou {default_width}. /set bell on fait sonner la cloche du terminal quand "
        "c'est à toi de jouer ou qu'une décision t'attend."),
    "cmd-showlist": "Afficher une de tes listes : /showlist mute.",
    "cmd-showlist-help": "/showlist mute affiche les noms de ta liste d'ignorés.",
    "cmd-shutdown": "Admins : arrêter le serveur après un avertissement.",
    "cmd-shutdown-help": (
        "Admins : prévient tout le monde que le serveur s'arrête dans SECONDS (par\n"
        "défaut {default}), refuse dès lors les nouvelles tables et parties, et après\n"
        "SECONDS s'arrête proprement (chaque connexion prévenue et fermée, la base\n"
        "fermée). Consigné."),
    "cmd-spielinfo": "Options, places, scores et état de la table.",
    "cmd-spielinfo-help": (
        "Montre l'état de la table (en attente, en jeu, terminée), son hôte, les\n"
        "joueurs par place, le score et la manche, les options qui diffèrent des\n"
        "valeurs par défaut, les spectateurs, et après la fin le résultat."),
    "cmd-start": "Commencer la partie quand quatre joueurs sont assis.",
    "cmd-start-help": (
        "Commence la partie dès que les quatre places sont prises. Tout joueur assis\n"
        "peut commencer, ou seulement l'hôte avec l'option host. Les places, les\n"
        "options et la graine sont alors fixées."),
    "cmd-startnosave": "Commencer une partie non classée, hors de toute statistique.",
    "cmd-startnosave-help": (
        "Commence la partie comme /start, mais elle n'est pas classée et ne compte dans\n"
        "les statistiques de personne (elle est quand même enregistrée : /history et\n"
        "/replay la montrent). Les parties avec des bots ou des invités, et celles avec\n"
        "une graine fixée (/option seed), ne sont de toute façon pas classées."),
    "cmd-sub": "Retirer NAME d'une de tes listes : /sub mute NAME.",
    "cmd-sub-help": "/sub mute NAME retire NAME de ta liste d'ignorés.",
    "cmd-tchlog": "Une partie enregistrée en fichier log BSW (.tch).",
    "cmd-tchlog-help": (
        "Affiche la partie enregistrée GAME (le numéro que montre /history) comme le\n"
        "fichier .tch des archives de logs de BrettspielWelt, ligne par ligne, pour les\n"
        "outils qui analysent les logs BSW (docs/operations.md, \"BSW logs\"). Les\n"
        "parties jouées avec /option log off n'en ont pas."),
    "cmd-tell": "Chuchoter TEXT à NAME (aussi : ;NAME TEXT).",
    "cmd-tell-help": (
        "Envoie un message privé à une personne en ligne, où qu'elle soit. Seul NAME le\n"
        "voit ; tu reçois une confirmation. ;NAME TEXT est la forme courte. tintin++\n"
        "lit ; comme son propre séparateur de commandes (;Anna salut arriverait dans la\n"
        "salle comme la phrase \"Anna salut\") : là, chuchote avec /tell NAME TEXT, ou\n"
        "tape \\;NAME TEXT (tintin++ envoie tel quel une ligne qui commence par une\n"
        "barre oblique inverse)."),
    "cmd-tichu": "Annoncer Tichu (avant ta première carte).",
    "cmd-tichu-help": (
        "Annonce Tichu : 100 points si tu finis premier, moins 100 sinon. Possible à\n"
        "tout moment avant de jouer ta première carte (aussi pendant l'échange), une\n"
        "fois par manche."),
    "cmd-unban": "Modérateurs : lever le bannissement de NAME.",
    "cmd-unban-help": "Modérateurs et admins : NAME peut de nouveau se connecter. Consigné.",
    "cmd-whereis": "Dans quelle salle se trouve NAME.",
    "cmd-whereis-help":
        "Indique dans quelle salle (le lobby ou la salle d'une table, avec son numéro) se trouve NAME.",
    "cmd-who": "Qui est dans ta salle.",
    "cmd-who-help": "Liste les personnes de la salle où tu es (au départ le lobby, salle 0).",
    "cmd-wish": "Faire un souhait après avoir joué le Mahjongg (/wish none : aucun).",
    "cmd-wish-help": (
        "Juste après avoir joué le Mahjongg sans souhait : /wish RANK (2 à A) ou /wish\n"
        "none. Le prochain joueur qui a une carte de cette hauteur et peut la jouer\n"
        "doit le faire, jusqu'à ce qu'elle soit jouée."),
    "cmd-wwho": "Tous ceux qui sont en ligne, et où ils sont.",
    "cmd-wwho-help":
        "Liste tous ceux qui sont en ligne, avec la salle où chacun se trouve ; les invités sont signalés.",
    # table options (lobby/table_options.py)
    "option-round": "au plus X manches (off : jusqu'au score visé)",
    "option-tichujoin": "les deux premiers à faire /join jouent ensemble",
    "option-turnier": "9 manches, partenaires tournants, points de victoire (pas avec round)",
    "option-target": "le score qui termine la partie",
    "option-drawseat": "places tirées au sort au début",
    "option-host": "seul l'hôte commence et règle les options",
    "option-dragon-fixed": "pli du Dragon à l'adversaire suivant",
    "option-bombwindow": "secondes pour poser une bombe sur un pli gagné",
    "option-seed": "même graine, mêmes cartes (off : au hasard)",
    "option-log": "garder aussi la partie en log BSW",
    "option-grace": "secondes avant de pouvoir retirer un disparu (/remove)",
    # what an option takes (the error bad-option-value)
    "option-expects-flag": "on ou off",
    "option-expects-seconds": "des secondes, de 0 à {high}",
    "option-expects-max_rounds": "un nombre de manches",
    "option-expects-target": "un score comme 500 ou 1000",
    "option-expects-seed": "un nombre entier",
}
