/* The Tichu web client: the lobby's machine mode over one WebSocket (docs/protocol.md,
   "Machine mode"; docs/web.md). One message is one machine-mode line, both ways. Everything the
   page shows comes from the server's objects: the table's `state` (kept up to date with each
   `update`), events and replies. Its own words come from /strings/LANG.json (the catalog's
   web-* keys). No request goes to any other host. */
"use strict";
(function () {
  // the first message: machine mode, protocol 4 (the newest, as tichu_bot asks for; docs/protocol.md
  // "Versions"): the whole `state` on arrival, then `update`s; the move timer, rated games, the
  // host's bar and namesakes as objects of their own
  const PROTOCOL_SWITCH = "%json 4";
  const LANGS = ["en", "de", "fr", "es", "da"];
  const SUIT_SYMBOL = { S: "\u2660", B: "\u25C6", G: "\u2663", R: "\u2605" };
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A"];
  const SPECIAL = { Ma: "1", Hu: "\u2192", Ph: "\u2736", Dr: "\u2742" };
  const $ = (id) => document.getElementById(id);
  const store = window.sessionStorage;

  const app = {
    ws: null, ids: 0, pending: {}, strings: {}, lang: "en",
    name: null, password: null, wanted: null,   // who logs in (and again after a drop)
    loggedIn: false, leaving: false, retries: 0, offline: false,
    langSent: false, atLoginPrompt: false, confirm: null, tables: null, roundDetail: null,
    room: null, state: null, selected: new Set(), exchange: { left: null, partner: null, right: null },
    optionNames: [], pollTimer: null, lines: 0,
  };
  window.tichuApp = app;                       // for the browser tests and curious players

  // ---- words -------------------------------------------------------------------------------
  function t(key, params) {
    let s = app.strings[key] || key;
    if (params) for (const k of Object.keys(params)) s = s.split("{" + k + "}").join(String(params[k]));
    return s;
  }
  // "1 card" / "3 cards": the language's plural rule picks KEY-one or KEY
  function tn(key, count, params) {
    let rule = "other";
    try { rule = new Intl.PluralRules(app.lang).select(count); } catch (e) { /* other */ }
    const k = rule === "one" && app.strings[key + "-one"] ? key + "-one" : key;
    return t(k, Object.assign({ count: count }, params || {}));
  }
  // a rank as the reader's language writes it on a card (English J Q K A, German B D K A);
  // the notation typed and sent stays BSW's (B D K A)
  function rankLetter(rank) {
    const letters = (app.strings["web-ranks"] || RANKS.join(" ")).split(" ");
    const i = RANKS.indexOf(String(rank));
    return i >= 0 && letters[i] ? letters[i] : String(rank);
  }
  // a number as a person reads it: a minus sign, not a dash ("-100 - 200" read as a range)
  function num(n) { n = Number(n) || 0; return n < 0 ? "\u2212" + Math.abs(n) : String(n); }
  function signed(n) { n = Number(n) || 0; return n > 0 ? "+" + n : num(n); }
  // a template whose parameters may be elements (cards in the middle of a sentence)
  function tNodes(key, params) {
    const x = el("span");
    const parts = (app.strings[key] || key).split(/(\{\w+\})/);
    for (const part of parts) {
      const m = part.match(/^\{(\w+)\}$/);
      const v = m && params && m[1] in params ? params[m[1]] : null;
      if (v instanceof Node) x.append(v);
      else if (m && v !== null) x.append(String(v));
      else if (part) x.append(part);
    }
    return x;
  }
  // a typed card in the letters the page shows (English J Q, German B D, French V D R ...) or in
  // BSW's notation (B D K A), to BSW's notation as the server takes it; null: no card
  function typedCard(word) {
    const w = word.split("=")[0].toUpperCase();
    for (const sp of Object.keys(SPECIAL)) if (sp.toUpperCase() === w) return sp;
    const suit = w[0], rank = w.slice(1);
    if (!SUIT_SYMBOL[suit] || !rank) return null;
    const shown = (app.strings["web-ranks"] || RANKS.join(" ")).toUpperCase().split(" ");
    const i = shown.indexOf(rank);
    if (i >= 0) return suit + RANKS[i];
    if (RANKS.includes(rank)) return suit + rank;
    if (rank === "T") return suit + "10";
    return null;
  }
  // why a typed word is no card: a letter that is no suit, or no rank in the letters shown
  // (French V D R A: the English Q of a queen is D there); null when it reads as a card
  const ENGLISH_FACES = { J: "B", Q: "D", K: "K", A: "A" };
  function notACard(word) {
    if (typedCard(word)) return null;
    const w = word.split("=")[0].toUpperCase();
    if (!SUIT_SYMBOL[w[0]]) {
      return t("web-unknown-suit", { letter: w[0] || word,
        suits: Object.entries(SUIT_SYMBOL).map(([k, v]) => v + k).join(" ") });
    }
    const rank = w.slice(1), meant = ENGLISH_FACES[rank];
    if (meant) return t("web-unknown-rank-as", { letter: rank, name: rankName(meant), shown: rankLetter(meant) });
    return t("web-unknown-rank", { letter: rank || word,
      ranks: "2-10 " + (app.strings["web-ranks"] || RANKS.join(" ")).split(" ").slice(9).join(" ") });
  }
  // cards in words as the page shows them: BSW's SB (sword jack) is SJ in English
  function shownCards(text) {
    return splitCards(text).map((c) => {
      const [bare, as] = c.split("=");
      const shown = SPECIAL[bare] ? bare : bare[0] + rankLetter(bare.slice(1));
      return as ? shown + "=" + rankLetter(as) : shown;
    }).join(" ");
  }
  function rankName(rank) { return app.strings["web-rank-name-" + rank] || rankLetter(rank); }
  function seconds(n) { return tn("web-duration-second", Number(n) || 0); }
  function place(n) { return app.strings["web-place-" + n] || String(n); }
  // the words of every language, fetched when the language menu is opened (five small files):
  // a switch then words the page in the same moment, so nothing moves under a click aimed
  // right after it (the review's lost click on "Mesa nueva": the words, and with them the
  // header's wrapping and the lobby's place, came a fetch later)
  const stringCache = {};
  app.stringCache = stringCache;
  async function fetchStrings(lang) {
    if (stringCache[lang]) return stringCache[lang];
    const r = await fetch("strings/" + lang + ".json", { cache: "no-cache" });
    if (!r.ok) throw new Error("no strings for " + lang);
    stringCache[lang] = await r.json();
    return stringCache[lang];
  }
  function prefetchStrings() { for (const l of LANGS) fetchStrings(l).catch(() => {}); }
  let langAsked = 0;                       // the last switch wins, whatever arrives later
  function loadStrings(lang) {
    const asked = ++langAsked;
    if (stringCache[lang]) { useStrings(lang, stringCache[lang]); return Promise.resolve(); }
    return fetchStrings(lang).then((s) => { if (asked === langAsked) useStrings(lang, s); },
      () => { if (asked === langAsked) useStrings(app.lang, app.strings); });   // keep ours
  }
  function useStrings(lang, strings) {
    app.strings = strings; app.lang = lang;
    document.documentElement.lang = app.lang;
    for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const el of document.querySelectorAll("[data-tp]")) el.placeholder = t(el.dataset.tp);
    renderLegend();
    renderBanner();
    renderStatus();
    if (app.tables) renderTables(app.tables);   // the table list in the new language at once
    render();
  }

  // ---- the connection ------------------------------------------------------------------------
  function status(text) { app.statusNote = null; $("status").textContent = text || ""; }
  // a status in the page's words: worded again when the language changes
  function statusT(key, params) { app.statusNote = { key: key, params: params }; renderStatus(); }
  function renderStatus() {
    const n = app.statusNote;
    if (n) $("status").textContent = t(n.key, n.params);
    $("seat-key-note").textContent = app.keyNote ? t(app.keyNote) : "";
  }
  // the seat key's box: usable only while nothing is on its way (a key typed meanwhile would
  // be lost: the answer to the one before empties the box), with its note in the page's words
  // (checking..., wrong key)
  function keyForm(busy, note) {
    $("seat-key-input").disabled = busy; $("seat-key-button").disabled = busy;
    app.keyNote = note || null;
    renderStatus();
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(scheme + "//" + location.host + "/ws");
    let opened = false;
    app.ws = ws;
    if (!app.refused) statusT("web-connecting");   // (why the last try was refused stays)
    app.langSent = false; app.atLoginPrompt = false;
    ws.onopen = () => { opened = true; app.retries = 0; app.refused = false; ws.send(PROTOCOL_SWITCH); };
    ws.onmessage = (m) => { let o; try { o = JSON.parse(m.data); } catch (e) { return; } receive(o); };
    ws.onclose = () => {
      if (app.ws !== ws) return;
      app.ws = null; app.loggedIn = false; app.pending = {};
      if (app.keyTyped) { app.keyTyped = null; keyForm(false); }     // never checked: ask again
      if (app.leaving) {
        app.leaving = false; show("login");
        if (app.leaveNote) statusT(app.leaveNote.key, app.leaveNote.params); else status("");
        app.leaveNote = null;
        return;
      }
      // the table's buttons wait for the connection: nothing they would send arrives
      app.offline = true; lockOffline();
      if (opened) statusT("web-reconnecting");
      else whyRefused();                      // never opened: refused before the upgrade?
      if (app.hold) return;                   // the tests' line held down (app.resume)
      const wait = Math.min(8000, 300 * Math.pow(2, app.retries++));
      setTimeout(connect, wait);
    };
  }
  // a WebSocket the server refuses (too many connections from this address, the server full,
  // connecting too often) gets an HTTP answer that a script never sees; a plain GET of the
  // WebSocket's path says why (docs/web.md), and the page says it in the reader's words
  async function whyRefused() {
    let code = null;
    try {
      const r = await fetch("ws", { cache: "no-store" });
      if (r.status === 503 || r.status === 429) code = ((await r.text()).match(/\[([a-z-]+)\]/) || [])[1] || null;
    } catch (e) { /* the server cannot be reached at all */ }
    if (app.ws && app.ws.readyState === 1) return;      // connected meanwhile
    const key = code && app.strings["web-refused-" + code] ? "web-refused-" + code : "web-cannot-connect";
    app.refused = true;
    statusT(key);
  }
  function send(line, then) {
    if (!app.ws || app.ws.readyState !== 1) return;
    const id = "c" + (++app.ids);
    if (then) app.pending[id] = then;
    app.ws.send("#" + id + " " + line);
  }

  // ---- what the server sends -----------------------------------------------------------------
  function receive(o) {
    if (o.id && app.pending[o.id]) { const f = app.pending[o.id]; delete app.pending[o.id]; f(o); }
    const h = HANDLERS[o.type];
    if (h) h(o);
    else if (o.type && (o.type.startsWith("game-") || o.type.startsWith("table-"))) gameEvent(o);
  }
  const HANDLERS = {
    prompt(o) {
      if (o.prompt === "login") {
        // the language first, so that a refusal of the log-in (a wrong password) is in it too
        if (!app.langSent) { app.langSent = true; app.ws.send("/set lang " + app.lang); return; }
        if (!app.wanted) {
          app.atLoginPrompt = true; show("login");
          // a guest seat's explanation stays while its key is asked for
          if (app.heldNote && !$("seat-key-form").hidden) statusT(app.heldNote.key, app.heldNote.params);
          else status("");
          return;
        }
        app.atLoginPrompt = false;
        app.ws.send(app.wanted);
      } else if (o.prompt === "password") {
        if (app.password) { app.ws.send("#pw " + app.password); return; }
        // no password in hand (a reload: it is never kept): nothing is sent, which would
        // count as a wrong one; the form asks for it
        const name = app.wanted;
        app.wanted = null; app.leaving = true; app.leaveNote = { key: "web-password-again" }; app.ws.close();
        $("login-name").value = name || "";
        show("login");
        statusT("web-password-again");
        $("login-password").focus();
      } else if (o.prompt === "seat-key") {
        const key = keyFor(app.wanted);
        if (key) {
          app.ws.send("#key " + key);
          // a key typed in the box: connected, no longer "Connecting..." (its note says checking)
          if (app.keyTyped && app.heldNote) statusT(app.heldNote.key, app.heldNote.params);
          return;
        }
        // a running game holds this guest's seat, and this tab has not its key (another tab,
        // the storage cleared, the name typed): an empty key is never sent (the seat is not
        // ours to take, and a key that is no key is refused); the form, for another name
        const held = app.seatAsked || {};
        const note = { key: "web-seat-key-missing", params: { name: held.name || app.wanted, table: held.table || "?" } };
        app.wanted = null; app.leaving = true; app.leaveNote = note; app.ws.close();
        store.removeItem("tichu-name"); store.removeItem("tichu-guest");
        $("login-name").value = "";
        show("login");
        statusT(note.key, note.params);
        app.heldNote = note;
        keyForm(false);
        // the key shown at the table ("Your key to come back to this seat"), typed here: the
        // seat comes back in this tab too
        app.heldSeat = note.params.name;
        $("seat-key-form").hidden = false;
        $("seat-key-input").value = "";
        $("seat-key-input").focus();
      }
    },
    // a running game holds the seat of the guest being logged in: its key is asked next
    "seat-key-asked"(o) { app.seatAsked = o; },
    "seat-key-asked-late"(o) { app.seatAsked = o; },
    "logged-in": (o) => loggedIn(o.name, false),
    "logged-in-guest": (o) => loggedIn(o.name, true),
    error(o) {
      if (!app.loggedIn && o.code === "wrong-seat-key" && app.keyTyped) {
        // a key typed in the form, and wrong: the form again, its explanation kept, the page's
        // own words (the server's tell a telnet user what to type at the login prompt), and
        // the wrong key forgotten
        store.removeItem("tichu-key-" + app.keyTyped.toLowerCase());
        app.keyTyped = null; app.wanted = null;
        show("login"); $("seat-key-form").hidden = !app.heldSeat;
        if (app.heldNote) statusT(app.heldNote.key, app.heldNote.params);
        keyForm(false, "web-seat-key-wrong");
        $("seat-key-input").value = ""; $("seat-key-input").focus();
        return;
      }
      if (!app.loggedIn && app.keyTyped) { app.keyTyped = null; keyForm(false); }
      if (!app.loggedIn && ["reserved-name", "seat-held", "wrong-seat-key", "name-in-use"].includes(o.code)
          && app.wanted && app.wanted !== "guest" && !app.password) {
        app.wanted = "guest";      // a drawn guest name without its seat: a fresh guest
        return;
      }
      if (!app.loggedIn && ["wrong-password", "password-needs-tls", "bad-name", "banned",
                            "too-many-attempts", "account-wait"].includes(o.code)) {
        app.wanted = null; app.password = null; show("login");
        store.removeItem("tichu-name");
      }
      toast(o.message);
      logLine(o.message, "error");
    },
    room(o) {
      // another table, or none: nothing of the last one stays (its log with the hidden cards
      // received, trick, seats, score, banner, option form); a reconnect to the same table keeps it
      const before = app.room ? app.room.table : null;
      if (o.table === null || o.table !== before) clearTable();
      app.room = o;
      if (o.table === null) { app.state = null; show("lobby"); refreshLobby(); }
      else { show("table"); send("/look"); }
      render();
    },
    state(o) { app.state = o; syncSelection(); render(); },
    update(o) {
      if (!app.state || app.state.table !== o.table) return;
      const s = Object.assign({}, app.state);
      for (const k of Object.keys(o)) {
        if (k === "trick_add") s.trick = (s.trick || []).concat(o[k]);
        else if (k !== "type" && k !== "unset") s[k] = o[k];
      }
      for (const k of o.unset || []) delete s[k];
      app.state = s; syncSelection(); render();
    },
    who() { /* the lobby lists everyone online (wwho) */ },
    wwho(o) {
      if (app.room && app.room.table === null) {
        fillList($("who"), (o.users || []).map((u) => u.name));
      }
    },
    listroom(o) { app.tables = o.tables || []; renderTables(app.tables); },
    says(o) { logLine([b(o.name), " " + o.text], "says"); },
    tells(o) { logLine([b(o.name + " \u2192 " + app.name), " " + o.text], "says"); },
    told(o) { logLine([b(app.name + " \u2192 " + o.name), " " + o.text], "says"); },
    enters() { if (app.room && app.room.table === null) send("/wwho"); },
    leaves() { if (app.room && app.room.table === null) send("/wwho"); },
    "table-seat-key"(o) { if (o.name === app.name) { saveKey(o.name, o.key); render(); } },
    registered(o) { logLine(t("web-registered", { name: o.name })); },
    history: showHistory,
    replay: showReplay,
    // protocol 4: speech by a newcomer under the name of somebody who sat at this table
    "says-namesake"(o) { logLine([b(t("web-namesake", { name: o.name })), " " + o.text], "says"); },
    "namesake-notice"(o) { logLine(t("web-namesake-notice", { name: o.name }), "error"); },
    "namesake-writes"(o) { logLine(t("web-namesake-writes", { name: o.name }), "error"); },
    // a friend's news (/notify in telnet): the server words them
    "friend-online"(o) { logLine(o.text); },
    "friend-offline"(o) { logLine(o.text); },
    "friend-game-started"(o) { logLine(o.text); },
    "friend-game-over"(o) { logLine(o.text); },
    bye() { app.leaving = true; },
    shutdown(o) { toast(o.text); },
    replaced(o) { app.leaving = true; toast(o.text); },
  };

  function loggedIn(name, guest) {
    app.heldSeat = null; app.heldNote = null; app.keyTyped = null; $("seat-key-form").hidden = true;
    keyForm(false);
    app.name = name; app.loggedIn = true; app.wanted = name; app.seatAsked = null;
    // a reload logs a guest in again (its seat with its key); a registered name only comes
    // back into the form: its password is never stored
    store.setItem("tichu-name", name);
    store.setItem("tichu-guest", guest ? "1" : "0");
    app.offline = false; unlockOffline();
    $("me").textContent = name;
    status("");
    send("/set lang " + app.lang);
  }

  // everything the page shows of one table, gone (another table, or the lobby)
  function clearTable() {
    app.state = null; app.banner = null; app.roundDetail = null; app.confirm = null;
    app.selected.clear(); app.exchange = { left: null, partner: null, right: null };
    app.optionNames = []; app.optionShown = null;
    for (const id of ["table-log", "trick", "actions", "join-seats", "hand", "option-name",
                      "wish-ranks", "seat-top", "seat-left", "seat-right", "seat-me"]) $(id).replaceChildren();
    for (const id of ["table-title", "round", "score", "wish-open", "options-shown", "option-about", "key"]) $(id).textContent = "";
    $("option-value").value = "";
    for (const id of ["setup", "schupf", "wish", "dragon", "watching"]) $(id).hidden = true;
    renderBanner();
  }

  // ---- guests' keys: a seat comes back after a drop or a reload -------------------------------
  function keyFor(name) { return name ? store.getItem("tichu-key-" + name.toLowerCase()) : null; }
  function saveKey(name, key) { store.setItem("tichu-key-" + name.toLowerCase(), key); }

  // ---- views ----------------------------------------------------------------------------------
  function show(view) {
    for (const v of ["login", "lobby", "table"]) $(v).hidden = v !== view;
    $("logout").hidden = view === "login";
    if (view === "login") $("me").textContent = "";   // nobody is logged in
    $("history-button").hidden = view === "login";
    clearInterval(app.pollTimer);
    if (view === "lobby") app.pollTimer = setInterval(refreshLobby, 15000);
  }
  // while the connection is down every control of the lobby and the table is disabled (and
  // marked, so that the reconnect enables exactly those again; render() then decides anew)
  function lockOffline() {
    for (const x of document.querySelectorAll("main button, main input, main select")) {
      if (!x.disabled) { x.disabled = true; x.dataset.offline = "1"; }
    }
    document.body.classList.add("offline");
  }
  function unlockOffline() {
    for (const x of document.querySelectorAll("[data-offline]")) { x.disabled = false; delete x.dataset.offline; }
    document.body.classList.remove("offline");
  }
  function refreshLobby() { send("/wwho"); send("/listroom"); }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function b(text) { return el("b", null, text); }
  function button(text, onclick, cls) {
    const x = el("button", cls, text); x.type = "button"; x.addEventListener("click", onclick); return x;
  }
  function fillList(ul, items) { ul.replaceChildren(...items.map((n) => el("li", null, n))); }
  let toastTimer = null;
  function toast(text) {
    const x = $("toast"); x.textContent = text; x.hidden = false;
    clearTimeout(toastTimer); toastTimer = setTimeout(() => { x.hidden = true; }, 5000);
  }
  function logLine(parts, cls) {
    const log = app.room && app.room.table !== null ? $("table-log") : $("lobby-log");
    const li = el("li", cls);
    for (const p of [].concat(parts)) li.append(typeof p === "string" ? document.createTextNode(p) : p);
    log.append(li);
    app.lines++;                               // every line ever logged (the tests count them)
    while (log.children.length > 200) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  // ---- cards ----------------------------------------------------------------------------------
  // beside the card input: how to type a card in the letters the cards show
  function renderLegend() {
    const suits = Object.entries(SUIT_SYMBOL).map(([k, v]) => v + k).join(" ");
    $("card-legend").textContent = t("web-card-legend", { suits: suits,
      ranks: (app.strings["web-ranks"] || RANKS.join(" ")).split(" ").slice(9).join(" ") });
  }
  function splitCards(text) { return (text || "").split(" ").filter(Boolean); }
  function cardElement(code, mini) {
    const x = el(mini ? "span" : "button", "card" + (mini ? " mini" : ""));
    const bare = code.split("=")[0];
    x.dataset.card = bare;
    if (SPECIAL[bare]) {
      x.classList.add("suit-X");
      const as = code.split("=")[1];           // a Phoenix played as a rank: Ph=7
      x.append(el("small", null, SPECIAL[bare]), document.createTextNode(bare + (as ? "=" + rankLetter(as) : "")));
      x.title = bare;
    } else {
      const suit = bare[0];
      x.classList.add("suit-" + suit);
      // symbol, letter and colour: readable without telling the colours apart
      x.append(el("small", null, (SUIT_SYMBOL[suit] || "?") + suit), document.createTextNode(rankLetter(bare.slice(1))));
      x.title = bare;                          // the notation to type
    }
    if (!mini) x.type = "button";
    return x;
  }
  function cardsElement(text, cls) {
    const span = el("span", cls || "play");
    for (const c of splitCards(text)) span.append(cardElement(c, true));
    return span;
  }
  function bareSet(text) { return splitCards(text.split(" wish ")[0]).map((c) => c.split("=")[0]).sort().join(" "); }

  // ---- the table ------------------------------------------------------------------------------
  function mySeat() { const s = app.state; return s && s.seat !== null && s.seat !== undefined ? s.seat : null; }
  function syncSelection() {
    const hand = new Set(splitCards(app.state && app.state.hand));
    for (const c of [...app.selected]) if (!hand.has(c)) app.selected.delete(c);
    for (const k of Object.keys(app.exchange)) if (!hand.has(app.exchange[k])) app.exchange[k] = null;
    if (app.state && app.state.phase !== "exchange") app.exchange = { left: null, partner: null, right: null };
  }
  function seatName(i) { const s = app.state; return (s && s.names && s.names[i]) || t("web-free"); }
  function render() {
    renderView();
    if (app.offline) lockOffline();          // what it drew anew waits for the line too
  }
  function renderView() {
    if (!app.room) return;
    if (app.room.table === null) return;
    const s = app.state;
    $("table-title").textContent = t("web-table", { table: app.room.table });
    if (!s) return;
    const me = mySeat();
    const base = me === null ? 0 : me;
    const places = { me: base, right: (base + 1) % 4, top: (base + 2) % 4, left: (base + 3) % 4 };
    const playing = s.status === "playing";
    $("round").textContent = s.round_no ? t("web-round", { round: s.round_no }) : "";
    const team = base % 2;
    // both sides alike, by their players' names ("you and Bea" for yours; a spectator's
    // first side is seats 1 and 3)
    if (!s.scores) $("score").textContent = "";
    else {
      $("score").textContent = t("web-score-sides", { side_a: sideName(team), a: num(s.scores[team]),
        b: num(s.scores[1 - team]), side_b: sideName(1 - team) });
    }
    $("wish-open").textContent = s.wish ? t("web-wish-open", { rank: rankName(RANKS[s.wish - 2] || s.wish) }) : "";
    for (const [where, i] of Object.entries(places)) renderSeat($("seat-" + where), i, where, me);
    renderTrick();
    $("setup").hidden = s.status !== "waiting";
    if (s.status === "waiting") renderSetup(me);
    // the host who has not sat down is no spectator: what a host does next
    const hosting = me === null && s.status === "waiting" && !!app.name && !!s.host
      && s.host.toLowerCase() === app.name.toLowerCase();
    $("watching").textContent = t(hosting ? "web-host-hint" : "web-watching");
    $("watching").dataset.t = hosting ? "web-host-hint" : "web-watching";
    $("watching").hidden = me !== null;
    $("hand-area").hidden = me === null || !s.hand;
    renderHand();
    renderActions(me);
    const key = me !== null ? keyFor(app.name) : null;
    $("key").textContent = key && s.status !== "finished" ? t("web-key", { key: key }) : "";
  }
  function renderSeat(box, i, where, me) {
    const s = app.state;
    box.replaceChildren();
    box.className = "seat";
    box.dataset.seat = String(i);
    const name = s.names ? s.names[i] : null;
    // words with separators between them (a screen reader read "1aliceyou"), and the whole
    // seat as one label
    const said = [t("web-seat", { seat: i + 1 }), name || t("web-free")];
    const tag = (text) => { box.append(" ", el("span", "tag", text)); said.push(text); };
    box.append(el("span", "num", String(i + 1)), " ");     // the seat's number, free or not
    box.append(el("span", "name", name || t("web-free")));
    if (i === me) tag(t("web-you"));
    else if (me !== null && i === (me + 2) % 4) tag(t("web-partner"));
    if (name && s.bots && s.bots[name]) tag(t("web-bot"));
    if (name && (s.gone || []).includes(name)) { box.classList.add("gone"); tag(t("web-gone")); }
    const line = el("div", "small");
    const out = (s.out || []).indexOf(i);
    if (out >= 0) line.append(t("web-out", { place: place(out + 1) }) + " ");
    else if (s.cards_left) line.append(tn("web-cards-left", s.cards_left[i]) + " ");
    box.append(line);
    said.push(line.textContent.trim());
    const call = s.calls ? s.calls[i] : null;
    if (call) { box.append(el("div", "call", call === "grand" ? t("web-grand") : t("web-tichu"))); said.push(box.lastChild.textContent); }
    if (s.turn === i && s.status === "playing") { box.classList.add("turn"); box.append(el("div", "small", t("web-turn"))); said.push(t("web-turn")); }
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", said.filter(Boolean).join(", "));
  }
  function renderTrick() {
    const s = app.state, box = $("trick");
    box.replaceChildren();
    if (s.trick_won && s.trick && s.trick.length && s.phase === "play") {
      // the trick is over (won, with a bomb too): its winner leads; it is no longer shown
      box.append(el("div", "small won", t("web-trick-won", { name: seatName(s.holder) })));
      return;
    }
    for (const p of (s.trick || []).slice(-4)) {
      const row = cardsElement(p.cards);
      row.prepend(el("span", "who", seatName(p.seat)));
      box.append(row);
    }
  }
  function renderSetup(me) {
    const s = app.state;
    const joins = $("join-seats");
    joins.replaceChildren();
    for (let i = 0; i < 4; i++) {
      if (!s.names[i] && me === null) joins.append(button(t("web-sit") + " (" + t("web-seat", { seat: i + 1 }) + ")", () => send("/join " + (i + 1))));
    }
    const names = Object.keys(s.options || {});
    if (names.join() !== app.optionNames.join()) {
      app.optionNames = names;
      $("option-name").replaceChildren(...names.map((n) => { const o = el("option", null, n); o.value = n; return o; }));
    }
    $("options-shown").textContent = optionsLine(s.options);
    $("start").hidden = me === null;
    $("stand-up").hidden = me === null;
    $("add-bot-row").hidden = (s.names || []).filter(Boolean).length >= 4;   // a full table
    const name = $("option-name").value;      // what the chosen option takes: a line of its own
    // the value box shows this table's value of the chosen option (never one typed at another
    // table): filled anew when the option, the table or the value changes
    const shown = app.room.table + " " + name + " " + (s.options || {})[name];
    if (app.optionShown !== shown) {
      app.optionShown = shown;
      const v = (s.options || {})[name];
      $("option-value").value = v === undefined || v === null ? "" : String(v);
    }
    aboutOption($("option-about"), app.strings["web-option-about-" + name] || "");
    $("option-value").placeholder = t("web-value");
  }
  // an option's hint, the value typed to turn it off (`off`, the same in every language) as a
  // keyword in code style, the rest in the reader's words
  function aboutOption(box, text) {
    box.replaceChildren(...text.split(/\b(off)\b/).map((part, i) => i % 2 ? el("code", "keyword", part) : document.createTextNode(part)));
  }
  function renderHand() {
    const s = app.state, hand = $("hand");
    hand.replaceChildren();
    const given = new Set(Object.values(app.exchange).filter(Boolean));
    for (const c of splitCards(s.hand)) {
      const x = cardElement(c, false);
      if (app.selected.has(c)) x.classList.add("selected");
      x.setAttribute("aria-pressed", app.selected.has(c) ? "true" : "false");
      if (given.has(c)) x.classList.add("given");
      x.addEventListener("click", () => toggle(c));
      hand.append(x);
    }
  }
  function toggle(c) {
    const s = app.state;
    if (s && s.phase === "exchange") app.selected.clear();
    if (app.selected.has(c)) app.selected.delete(c); else app.selected.add(c);
    render();
  }
  function matchingPlays() {
    const s = app.state;
    const want = [...app.selected].sort().join(" ");
    return (s.legal || []).filter((p) => !p.includes(" wish ") && bareSet(p) === want);
  }
  function renderActions(me) {
    const s = app.state, box = $("actions");
    box.replaceChildren();
    $("schupf").hidden = true; $("wish").hidden = true; $("dragon").hidden = true;
    if (me === null || s.status !== "playing") {
      if (s.status === "finished" && me !== null) box.append(button(t("web-reset"), () => send("/reset")));
      return;
    }
    const phase = s.phase;
    // a call is no default: the safe choice comes first and plain, the call apart, and the
    // call takes a second tap to confirm it
    if (phase === "grand" && s.grand_decided && !s.grand_decided[me]) {
      box.append(button(t("web-no-grand"), () => send("/nogrand")));
      box.append(callButton("grand", "/grand"));
    }
    const noCardPlayed = s.cards_left && s.cards_left[me] === 14 && !(s.trick || []).some((p) => p.seat === me);
    if ((phase === "exchange" || phase === "play") && s.calls && !s.calls[me] && noCardPlayed
        && s.grand_decided && s.grand_decided[me]) {
      box.append(callButton("tichu", "/tichu"));
    }
    if (phase === "exchange" && !s.given) renderSchupf(me);
    if (phase === "play" && s.turn === me && (s.legal || []).length) {
      const plays = matchingPlays();
      if (plays.length <= 1) {
        const x = button(t("web-play"), () => { if (plays.length) play(plays[0]); }, "primary");
        x.id = "play"; x.disabled = plays.length === 0; box.append(x);
      } else {
        for (const p of plays) {           // one per reading of the Phoenix, in words
          const as = (p.match(/Ph=(\w+)/) || [])[1];
          const x = button(as ? t("web-play-as", { rank: rankName(as) }) : t("web-play") + " " + shownCards(p), () => play(p), "primary");
          box.append(x);
        }
      }
    }
    if (phase === "play" && s.can_pass) { const x = button(t("web-pass"), () => send("/pass")); x.id = "pass"; box.append(x); }
    // a bomb whenever you hold one: out of turn the state's `bombs`, on your turn the legal
    // plays that are bombs (four of a rank, or five or more of a suit in a row)
    const bombs = (s.bombs || []).concat(phase === "play" && s.turn === me ? (s.legal || []).filter(isBomb) : []);
    for (const bomb of bombs) box.append(button(t("web-bomb", { cards: shownCards(bomb) }), () => send("/bomb " + bomb), "bomb"));
    if (phase === "wish" && s.wish_pending === me) {
      $("wish").hidden = false;
      const ranks = $("wish-ranks");
      ranks.replaceChildren(...RANKS.map((r) => { const x = button(rankLetter(r), () => send("/wish " + r)); x.title = rankName(r); x.dataset.rank = r; return x; }),
        button(t("web-no-wish"), () => send("/wish none")));
    }
    if (phase === "dragon" && s.holder === me) {
      $("dragon").hidden = false;
      $("dragon-left").textContent = "\u2190 " + seatName((me + 3) % 4);
      $("dragon-right").textContent = seatName((me + 1) % 4) + " \u2192";
    }
  }
  function callButton(call, line) {
    const asked = app.confirm === call;
    const x = button(asked ? t("web-confirm-" + call) : t(call === "grand" ? "web-grand" : "web-tichu"), () => {
      if (app.confirm === call) { app.confirm = null; send(line); return; }
      app.confirm = call; render();
      clearTimeout(app.confirmTimer);
      app.confirmTimer = setTimeout(() => { if (app.confirm === call) { app.confirm = null; render(); } }, 5000);
    }, "tichu call" + (asked ? " asked" : ""));
    x.id = "call-" + call;
    return x;
  }
  function isBomb(p) {
    const cards = splitCards(p);
    if (cards.some((c) => SPECIAL[c.split("=")[0]])) return false;
    if (cards.length === 4) return cards.every((c) => c.slice(1) === cards[0].slice(1));
    return cards.length >= 5 && cards.every((c) => c[0] === cards[0][0]);
  }
  function play(p) { app.selected.clear(); send("/play " + p); }
  function renderSchupf(me) {
    $("schupf").hidden = false;
    const to = { left: (me + 3) % 4, partner: (me + 2) % 4, right: (me + 1) % 4 };
    for (const k of Object.keys(to)) {
      const x = $("give-" + k);
      x.replaceChildren(document.createTextNode(t("web-give-" + k) + " (" + seatName(to[k]) + ") "));
      if (app.exchange[k]) x.append(cardElement(app.exchange[k], true));
    }
    $("give").disabled = !(app.exchange.left && app.exchange.partner && app.exchange.right);
  }
  function assign(slot) {
    const [card] = [...app.selected];
    if (!card) return;
    for (const k of Object.keys(app.exchange)) if (app.exchange[k] === card) app.exchange[k] = null;
    app.exchange[slot] = card;
    app.selected.clear();
    render();
  }

  // ---- events as lines ------------------------------------------------------------------------
  function gameEvent(o, names) {
    const line = eventLine(o, names);
    if (Array.isArray(line)) line.forEach((x) => logLine(x));
    else if (line) logLine(line);
    // to this player alone; the table is gone (its room too: the lobby comes next)
    if (["table-timer-warning", "table-closed-by"].includes(o.type) && line) toast(line);
    if (o.type === "game-round-over") {
      app.roundDetail = o;                     // its breakdown goes with the round's score
    } else if (o.type === "game-round-score") {
      banner("web-round-over", roundParams(o), roundDetail(myTeam()));
    } else if (o.type === "game-match-over") {
      const detail = app.banner && app.banner.key === "web-round-over" ? app.banner.detail : null;
      const params = sidesParams(o.scores);
      if (o.winner === null || o.winner === undefined) banner("web-game-over-shared", params, detail);
      else banner("web-game-over-won", Object.assign(params, { winners: { side: o.winner } }), detail);
    } else if (["game-round-start", "table-started", "table-reset"].includes(o.type)) {
      app.banner = null; renderBanner();
    }
  }
  function eventLine(o, names) {
    const who = (i) => (names ? names[i] : seatName(i)) || "?";
    switch (o.type) {
      case "game-play": {
        const x = el("span"); x.append(t("web-ev-play", { name: who(o.seat), cards: "" }), cardsElement(o.cards));
        const as = ((o.cards || "").match(/Ph=(\w+)/) || [])[1];
        if (as) x.append(" " + t("web-ev-phoenix", { rank: rankName(as) }));   // which reading
        return x;
      }
      case "game-pass": return t("web-ev-pass", { name: who(o.seat) });
      case "game-tichu": return t("web-ev-tichu", { name: who(o.seat) });
      case "game-grand": return o.call ? t("web-ev-grand", { name: who(o.seat) }) : null;
      case "game-wish": return o.rank ? t("web-ev-wish", { name: who(o.seat), rank: rankName(RANKS[o.rank - 2] || o.rank) }) : null;
      case "game-trick-taken": return t("web-ev-trick", { name: who(o.seat), points: o.points });
      case "game-dragon-given": return t("web-ev-dragon", { name: who(o.seat), to: who(o.to) });
      case "game-out": return t("web-ev-out", { name: who(o.seat), place: place(o.place) });
      case "game-exchange-given": {
        if (!o.given) return t("web-ev-exchange", { name: who(o.seat) });
        // a replay's: which card went to whom (the given cards: next, partner, previous)
        const given = splitCards(o.given);
        return given.slice(0, 3).map((card, k) =>
          tNodes("web-ev-gave", { name: who(o.seat), card: cardsElement(card), to: who((o.seat + k + 1) % 4) }));
      }
      case "game-exchange-received": {
        // one line a card: from whom (the cards in the letters the page shows)
        return Object.entries(o.cards || {}).map(([from, card]) =>
          tNodes("web-ev-received-from", { card: cardsElement(card), name: who(Number(from)) }));
      }
      // (a replay's: seats 1 and 3 first)
      case "game-round-score": return t("web-round-over", resolveSides(roundParams(o, names ? 0 : myTeam()), names));
      // protocol 4's table objects
      case "table-timer-warning": return t("web-ev-timer-warning", { seconds: seconds(o.seconds) });
      case "table-timed-out": return t("web-ev-timed-out", { name: o.name, seconds: seconds(o.seconds) });
      case "table-timed-out-rated": return t("web-ev-timed-out-rated", { name: o.name, seconds: seconds(o.seconds), count: o.count, needed: o.needed });
      case "table-remove-needs-partner": return t("web-ev-remove-needs-partner", { target: o.target, partner: o.partner });
      case "table-remove-needs-all": return t("web-ev-remove-needs-all", { target: o.target });
      case "table-rated": return t("web-ev-rated", { grace: seconds(o.grace) });
      case "table-unrated": return app.strings["web-ev-unrated-" + o.reason] || null;
      case "table-unseated": return t("web-ev-unseated", { by: o.by, seat: o.seat, name: o.name });
      case "table-barred": return t("web-ev-barred", { by: o.by, name: o.name });
      case "table-unbarred": return t("web-ev-unbarred", { by: o.by, name: o.name });
      case "table-closed-by": return t("web-ev-closed-by", { table: o.table, by: o.by, reason: o.reason || "" });
      default: return null;
    }
  }
  // the end of a round or of the game: kept as words and values, so that a language switch
  // translates it again; a new game (or round) takes it away
  function banner(key, params, detail) { app.banner = { key: key, params: params, detail: detail || null }; renderBanner(); }
  // every score on the page in one order: the reader's side first (a spectator's: seats 1 and
  // 3), each side named ("you and Bea 35 : 65 Bert and Dirk"), as in the header
  function myTeam() { return (mySeat() || 0) % 2; }
  function sidesParams(scores, team) {
    if (team === undefined) team = myTeam();
    return { side_a: { side: team }, side_b: { side: 1 - team }, a: num(scores[team]), b: num(scores[1 - team]) };
  }
  function roundParams(o, team) {
    if (team === undefined) team = myTeam();
    return Object.assign(sidesParams(o.score, team), { round: o.round, total_a: num(o.scores[team]), total_b: num(o.scores[1 - team]) });
  }
  // the sides' names in the words of now (a language switch words them anew); a replay's by
  // its own seats' names
  function resolveSides(params, names) {
    const out = Object.assign({}, params);
    for (const k of Object.keys(out)) {
      const v = out[k];
      if (v && typeof v === "object" && "side" in v) {
        out[k] = names ? t("web-side", { a: names[v.side], b: names[v.side + 2] }) : sideName(v.side);
      }
    }
    return out;
  }
  // a side by its players' names: "you and Bea" for the reader's own, else "Bot1 and Bot3"
  function sideName(side) {
    const me = mySeat();
    if (me !== null && me % 2 === side) return t("web-side-you", { partner: seatName((me + 2) % 4) });
    return t("web-side", { a: seatName(side), b: seatName(side + 2) });
  }
  // the round's breakdown as the server gave it (game-round-over), from the reader's side
  function roundDetail(team) {
    const d = app.roundDetail;
    if (!d || !d.card_points) return null;
    return { cards_us: num(d.card_points[team]), cards_them: num(d.card_points[1 - team]),
      double_us: num(d.card_points[team]), double_them: num(d.card_points[1 - team]),
      tichu_us: signed((d.tichu || [0, 0])[team]), tichu_them: signed((d.tichu || [0, 0])[1 - team]),
      double: d.double_victory === null || d.double_victory === undefined ? null : d.double_victory };
  }
  function renderBanner() {
    const x = app.banner;
    $("banner").hidden = !x;
    if (!x) { $("banner-text").textContent = ""; $("banner-detail").textContent = ""; return; }
    $("banner-text").textContent = t(x.key, resolveSides(x.params));
    const d = x.detail;
    // a double victory scores no card points: its 200 are the double victory's own
    let detail = d ? t(d.double !== null ? "web-round-detail-double" : "web-round-detail", d) : "";
    if (d && d.double !== null) detail += " " + t("web-double-victory", { side: sideName(d.double) });
    $("banner-detail").textContent = detail;
  }

  // ---- the lobby's table list --------------------------------------------------------------------
  // "round off · log on": the option's name as typed in /option, its value in the reader's words
  function optionsLine(options) {
    return Object.entries(options || {}).map(([k, v]) =>
      k + " " + (app.strings["web-value-" + v] || v)).join(" \u00B7 ");
  }
  function renderTables(tables) {
    const ul = $("tables");
    ul.replaceChildren();
    if (!tables.length) ul.append(el("li", "small", t("web-no-tables")));
    for (const tb of tables) {
      const li = el("li");
      li.dataset.table = String(tb.table);
      li.append(b(t("web-table", { table: tb.table })), el("span", "small", app.strings["web-state-" + tb.state] ? t("web-state-" + tb.state) : tb.state));
      const seats = (tb.seats || []).map((n, i) => (i + 1) + " " + (n || t("web-free"))).join(" | ");
      li.append(el("span", null, seats));
      const mine = app.name && (tb.seats || []).some((n) => n && n.toLowerCase() === app.name.toLowerCase());
      const go = button(t(mine ? "web-back-to-seat" : "web-watch"), () => send("/room " + tb.table));
      go.className = mine ? "back-to-seat" : "watch";
      li.append(go);
      if ((tb.seats || []).some((n) => !n) && tb.state === "waiting") {
        li.append(button(t("web-sit"), () => { send("/room " + tb.table); send("/join"); }));
      }
      const opts = optionsLine(tb.options);
      li.append(el("span", "small opts", opts + (opts ? " \u00B7 " : "") + t("web-spectators", { count: tb.spectators || 0 })));
      ul.append(li);
    }
    if (app.offline) lockOffline();
  }

  // ---- records: history and replay ---------------------------------------------------------------
  function dialog(nodes) { $("dialog-body").replaceChildren(...nodes); $("dialog").hidden = false; }
  function showHistory(o) {
    const rows = (o.games || []).map((g) => {
      const tr = el("tr");
      const date = new Date(g.ended_at * 1000).toLocaleString(app.lang);
      tr.append(el("td", null, t("web-game", { game: g.game })), el("td", null, date),
        el("td", null, g.players.join(", ")), el("td", "score", g.scores.map(num).join(" : ")),
        el("td", null, g.won ? t("web-won") : t("web-lost")));
      const td = el("td"); td.append(button(t("web-replay"), () => send("/replay " + g.game))); tr.append(td);
      return tr;
    });
    const table = el("table"); table.append(...rows);
    dialog([el("h2", null, t("web-history")), rows.length ? table : el("p", null, t("web-no-games"))]);
  }
  function showReplay(o) {
    const nodes = [el("h2", null, t("web-game", { game: o.game }))];
    for (const r of o.rounds || []) {
      const div = el("div", "replay-round");
      div.append(el("h3", null, t("web-round", { round: r.round })));
      const hands = el("div", "hands");
      (r.hands || []).forEach((h, i) => {
        const d = el("div"); d.append(t("web-dealt", { name: r.seats[i], cards: "" }), cardsElement(h)); hands.append(d);
      });
      div.append(hands);
      const ol = el("ol", "log");
      for (const e of r.events || []) {
        const line = eventLine(e, r.seats);
        for (const x of [].concat(line || [])) { const li = el("li"); li.append(x); ol.append(li); }
      }
      div.append(ol);
      nodes.push(div);
    }
    dialog(nodes);
  }

  // ---- the controls ------------------------------------------------------------------------------
  function startLogin(name, password) {
    app.wanted = name || "guest"; app.password = password || null;
    if (app.ws && app.ws.readyState === 1) {
      // the name goes at the login prompt (still on its way: the prompt sends it)
      if (app.atLoginPrompt) { app.atLoginPrompt = false; app.ws.send(app.wanted); }
    } else if (!app.ws) connect();
  }
  function wire() {
    $("login-form").addEventListener("submit", (e) => {
      e.preventDefault();
      startLogin($("login-name").value.trim(), $("login-password").value);
      $("login-password").value = "";
    });
    $("seat-key-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const key = $("seat-key-input").value.trim();
      if (!key || !app.heldSeat) { $("seat-key-input").focus(); return; }   // never an empty key
      if (app.keyTyped) return;                 // one key at a time (the box is disabled)
      saveKey(app.heldSeat, key);
      app.keyTyped = app.heldSeat;
      keyForm(true, "web-seat-key-checking");   // the server pauses after a wrong key
      startLogin(app.heldSeat, null);
    });
    $("guest-button").addEventListener("click", () => startLogin($("login-name").value.trim() || "guest", null));
    $("logout").addEventListener("click", () => {
      app.wanted = null; app.password = null; store.removeItem("tichu-name"); store.removeItem("tichu-guest");
      app.leaving = true; send("/quit");
    });
    $("history-button").addEventListener("click", () => send("/history"));
    $("dialog-close").addEventListener("click", () => { $("dialog").hidden = true; });
    $("banner-close").addEventListener("click", () => { app.banner = null; renderBanner(); });
    $("lang").addEventListener("focus", prefetchStrings);
    $("lang").addEventListener("pointerdown", prefetchStrings);
    $("lang").addEventListener("change", (e) => {
      const lang = e.target.value;
      localStorage.setItem("tichu-lang", lang);
      loadStrings(lang).then(() => {
        if (app.loggedIn) send("/set lang " + lang);
        else if (app.ws && app.atLoginPrompt) { app.atLoginPrompt = false; app.ws.send("/set lang " + lang); }
      });
    });
    $("new-table").addEventListener("click", () => send("/newroom tichu"));
    $("refresh").addEventListener("click", refreshLobby);
    $("to-lobby").addEventListener("click", () => send("/manager"));
    $("add-bot").addEventListener("click", () => send("/addbot " + $("bot-level").value));
    $("option-name").addEventListener("change", render);
    $("option-set").addEventListener("click", () => {
      const v = $("option-value").value.trim();
      send("/option " + $("option-name").value + (v ? " " + v : ""));
    });
    $("start").addEventListener("click", () => send("/start"));
    $("stand-up").addEventListener("click", () => send("/leave"));
    for (const k of ["left", "partner", "right"]) $("give-" + k).addEventListener("click", () => assign(k));
    $("give").addEventListener("click", () => {
      const x = app.exchange;
      send("/schupf " + x.right + " " + x.partner + " " + x.left);   // NEXT PARTNER PREVIOUS
    });
    $("dragon-left").addEventListener("click", () => send("/dragon left"));
    $("dragon-right").addEventListener("click", () => send("/dragon right"));
    $("card-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const hand = new Set(splitCards(app.state && app.state.hand));
      app.selected.clear();
      const unknown = [], why = [];
      for (const w of splitCards($("card-input").value.trim())) {
        const c = typedCard(w);              // the page's letters (J Q in English) or BSW's
        if (c && hand.has(c)) app.selected.add(c);
        else if (c) unknown.push(w);
        else why.push(notACard(w));          // no card at all: which letter, and what it is here
      }
      if (unknown.length) why.push(t("web-unknown-cards", { cards: unknown.join(" ") }));
      if (why.length) toast(why.join(" "));
      $("card-input").value = "";
      render();
    });
    for (const form of document.querySelectorAll("form.say")) {
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const input = form.querySelector("input");
        const text = input.value.trim();
        if (text) send(text);                  // a line that is no command is speech
        input.value = "";
      });
    }
  }

  // ---- start ----------------------------------------------------------------------------------------
  function start() {
    wire();
    let lang = localStorage.getItem("tichu-lang") || "";
    const asked = new URLSearchParams(location.search).get("lang");
    if (asked) lang = asked;
    if (!LANGS.includes(lang)) lang = (navigator.language || "en").slice(0, 2);
    if (!LANGS.includes(lang)) lang = "en";
    $("lang").value = lang;
    loadStrings(lang);
    const name = store.getItem("tichu-name");
    if (name && store.getItem("tichu-guest") === "1") { app.wanted = name; connect(); }   // a reload: back in, the seat too
    else if (name) { $("login-name").value = name; $("login-password").focus(); }      // a registered name: the form, nothing sent
  }
  // the tests' dropped line; held: it stays down until app.resume()
  app.dropConnection = (hold) => { app.hold = !!hold; if (app.ws) app.ws.close(); };
  app.resume = () => { app.hold = false; if (!app.ws) connect(); };
  document.addEventListener("DOMContentLoaded", start);
})();
