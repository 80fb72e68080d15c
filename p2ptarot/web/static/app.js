// The browser table: draws the events of the peer application layer, sends commands back.
// Everything is built with textContent (names and sentences come from other players).
"use strict";
const TOKEN = "__TOKEN__";
const S = { names: [], seat: null, turn: null, answered: true, deadline: null, waiting: null,
            screen: null, finished: false, log: [], since: [], replay: null,
            standin: false, bots: new Set() };
const $ = (id) => document.getElementById(id);
// Every word of the page goes through t(msgid, {name: value}): the msgid is the English text, its
// translation comes from I18N (the .po catalogue of the page's language, inlined by the server);
// "{name}" placeholders are filled after translation. Extraction finds t("...") literals only.
function t(msgid, args) {
  const text = (typeof I18N === "object" && I18N[msgid]) || msgid;
  return args ? text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : text;
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

// ---- rules at hand: the panel, and a one-line hint on every card, place or move that has one
function helpFor(key) { return (S.rules && S.rules.help && key && S.rules.help[key]) || ""; }
function cardHelp(id) {
  if (!id) return "";
  const h = helpFor(id); if (h) return h;
  const parts = id.split("-");
  for (const k of [parts[0], parts[parts.length - 1]]) {
    if (["divine", "major", "guardian", "god"].includes(k) && S.rules.game !== "arcanum" && helpFor(k)) return helpFor(k);
  }
  return "";
}
function hint(text) { const h = $("hint"); h.textContent = text || ""; h.hidden = !text; }
function withHelp(node, text) {  // hover (mouse) or first tap (touch) shows the explanation
  if (!text) return node;
  node.title = (node.title ? node.title + " — " : "") + text;
  node.classList.add("has-help");
  node.addEventListener("mouseenter", () => hint(text));
  node.addEventListener("touchstart", () => hint(text), { passive: true });
  return node;
}
function drawRules() {
  const box = $("rulestext"); clear(box);
  const r = S.rules; $("rulesbtn").hidden = !r || !r.sections;
  if (!r || !r.sections) return;
  box.appendChild(el("h2", null, r.title));
  r.sections.forEach(([h, body]) => { box.appendChild(el("h3", null, h)); box.appendChild(el("p", null, body)); });
  const keys = Object.keys(r.help || {});
  if (keys.length) {
    box.appendChild(el("h3", null, t("Cards, places and moves")));
    const dl = el("dl");
    keys.forEach((k) => { dl.appendChild(el("dt", null, k)); dl.appendChild(el("dd", null, r.help[k])); });
    box.appendChild(dl);
  }
}

function cardEl(face, onClick) {
  const c = el("div", "card " + (face.kind || "") + " c-" + (face.colour || "grey"));
  c.title = face.name || "";
  withHelp(c, cardHelp(face.id));
  c.dataset.card = face.id || "";
  if (face.kind !== "back") {
    c.appendChild(el("span", "corner", face.corner));
    c.appendChild(el("span", "corner br", face.corner));
    c.appendChild(el("span", "sign", face.sign));
    c.appendChild(el("span", "big", face.kind === "trump" && face.big && face.big.length > 4 ? face.sign : face.big));
    if (face.title || face.kind === "figure") c.appendChild(el("span", "title", face.title || face.name));
  }
  if (face.owner) c.appendChild(el("span", "owner", face.owner));
  if (onClick) { c.classList.add("playable"); c.addEventListener("click", onClick); }
  return c;
}

function drawPlayers() {
  const box = $("players"); clear(box);
  const waiting = S.waiting && S.waiting.what === "move" ? S.waiting.seats : [];
  S.names.forEach((n, i) => {
    const p = el("span", "player", n + " · " + t("seat {n}", { n: i + 1 }) + (i === S.seat ? " " + t("(you)") : ""));
    p.dataset.seat = i;
    if (i === S.seat) p.classList.add("you");
    if (waiting.includes(i)) p.classList.add("turn");
    if (S.away && S.away.has(i)) p.classList.add("away");
    if (S.bots.has(i) || (i === S.seat && S.standin)) {  // a stand-in bot plays this seat now
      p.classList.add("stood-in");
      p.appendChild(el("span", "badge bot", t("bot")));
    }
    box.appendChild(p);
  });
}

function pad(n) { return (n < 10 ? "0" : "") + n; }
function clock() {
  const node = document.querySelector("#status .clock");
  if (!node || !S.deadline) return;
  const left = Math.max(0, Math.round(S.deadline - Date.now() / 1000));
  node.textContent = t("{time} left", { time: Math.floor(left / 60) + ":" + pad(left % 60) });
  node.classList.toggle("low", left <= 30);
}
setInterval(clock, 500);

function drawStatus() {
  const st = $("status"); clear(st);
  st.className = "status";
  if (S.replay) {
    const f = S.replay.frames[S.replay.pos];
    st.textContent = t("Replay, move {n} of {total}", { n: S.replay.pos + 1, total: S.replay.frames.length }) + " — " + said(f.name, f.by, f.sentence);
    return;
  }
  if (S.finished) { st.textContent = t("Game over"); return; }
  let text = S.lobby ? t("Choose a table to join") : S.room && !S.names.length ? lobbyStatus(S.room)
           : S.connected ? t("Waiting for the players to sit down…") : t("Connecting…");
  if (S.standin && !S.finished) { text = t("A bot plays for you — take your seat back whenever you like"); }
  else if (S.held) { text = t("Round {n} over: the next deal starts when you click Continue", { n: S.held }); st.classList.add("yours"); }
  else if (S.turn && !S.answered) {
    text = S.warning && S.warning.turn === S.turn.turn ? S.warning.text : t("Your move: choose below");
    st.classList.add("yours");
  }
  else if (S.waiting) {
    const who = S.waiting.names.join(", ");
    text = S.waiting.what === "move" ? t("Waiting for {names}", { names: who })
         : S.waiting.what === "between-rounds"
           ? t("Waiting for {names} (reading the round's result, or starting the next deal)", { names: who })
         : t("The table is busy ({what}): waiting for {names}", { what: S.waiting.what, names: who });
  } else if (S.names.length) text = t("Waiting for the table…");
  st.appendChild(el("span", "what", text));
  if (S.deadline && (S.waiting && S.waiting.what === "move" || S.turn && !S.answered)) {
    st.appendChild(el("span", "clock", "")); clock();
  }
}

// ---- the cards a seat may point at: its hand, and its own cards kept elsewhere ------------------------
// (an Arcanoid seat's face-up cards or its demon's hand, an Arcanum seat's hidden cards): a card a
// move names is clickable when the screen shows it, in the hand, a pile or the presenter's
// `pickable` piles; a move naming a card shown nowhere is listed as a button instead.
function shownFaces() {
  const out = new Map();
  const sc = S.screen || {};
  (sc.hand || []).forEach((f) => { if (f.id) out.set(f.id, { face: f, label: null, onboard: false, pile: -1 }); });
  // `onboard`: a pickable pile the game's board draws and lets click (Eleusis's shown "no play"
  // hand); `pile`: the index of the pile among sc.piles (an Arcanoid seat's face-up cards)
  (sc.pickable || []).map((p) => [p, -1]).concat((sc.piles || []).map((p, k) => [p, k]))
    .forEach(([p, pile]) => (p.cards || []).forEach((f) => {
      if (f.id && !out.has(f.id)) out.set(f.id, { face: f, label: p.label, onboard: !!p.onboard, pile });
    }));
  return out;
}
function seen(o, at) {
  if ((o.cards || []).length >= 2) return o.cards.every((c) => at.has(c));
  return !o.card || at.has(o.card);
}
// A group of moves is pointed at or listed whole, never split: Arcanoid's "call a card: swords"
// names cards mostly shown nowhere, so its calls of cards the hand holds are listed with the rest
// (not hidden behind a hand card whose click would also offer to discard or engage it).
function reachable(o, shown) {
  const at = shown || shownFaces();
  if (!seen(o, at)) return false;
  if (!S.turn || !(o.card || (o.cards || []).length >= 2)) return true;
  return S.turn.options.every((x) => x.group !== o.group || seen(x, at));
}
//: the cards named by this turn's moves that are not in the hand but shown elsewhere, by pile.
//: `single` (the hand strip): the cards one-card moves name, clicked beside the hand, but not
//: those the game's board lets click where they lie; a pile one of whose cards is named comes
//: beside the hand whole (and is not drawn among the piles: never the same card twice on screen).
//: Without `single` (the card picker): every named card, several-card moves' included.
function cardsBeyondHand(single) {
  if (!S.turn || S.answered) return [];
  const shown = shownFaces();
  const named = new Set();
  S.turn.options.forEach((o) => {
    if (!reachable(o, shown) || (single && !o.card)) return;
    (o.card ? [o.card] : []).concat(single ? [] : o.cards || []).forEach((c) => {
      const at = shown.get(c);
      if (at.label !== null && !(single && at.onboard)) named.add(c);
    });
  });
  const out = [...named].map((c) => shown.get(c));
  if (!single) return out;
  const piles = new Set(out.filter((b) => b.pile >= 0).map((b) => b.pile));
  const whole = [...piles].sort((a, b) => a - b).flatMap((k) => S.screen.piles[k].cards
    .filter((f) => f.id && shown.get(f.id).pile === k).map((f) => shown.get(f.id)));
  return out.filter((b) => b.pile < 0).concat(whole);
}

// A card a game's board draws (Eleusis's shown "no play" hand) that a one-card move names: clicked there.
function pointCard(f) {
  const opts = optionsByCard().get(f.id) || [];
  const c = cardEl(f, opts.length ? () => pickCard(f.id, opts) : null);
  if (opts.length === 1) c.dataset.option = opts[0];
  if (opts.length && selected() && S.sel.card === f.id) c.classList.add("chosen");
  return c;
}
function optionsByCard() {
  const m = new Map();
  if (!S.turn || S.answered) return m;
  const shown = shownFaces();  // a listed move (a call of a card the hand holds) is not a card's
  S.turn.options.forEach((o, k) => { if (o.card && reachable(o, shown)) { if (!m.has(o.card)) m.set(o.card, []); m.get(o.card).push(k + 1); } });
  return m;
}

function drawScreen() {
  const sc = S.screen;
  if (!sc) { $("handbox").hidden = true; return; }
  $("title").textContent = sc.title + (sc.round ? " — " + sc.round : "");
  // a board taller than a trick's table (Arcanum, arcanoïd, Eleusis, paris divins) comes under
  // the hand, so the hand and its Play stay on the first screen of a desk (a phone always does)
  $("board").classList.toggle("handfirst", !sc.tricktable);
  document.title = (S.turn && !S.answered ? "★ your move — " : "") + sc.title;
  const byCard = optionsByCard();
  const hand = $("hand"); clear(hand);
  $("handbox").hidden = S.seat === null || !(sc.hand || []).length;  // no empty "Your hand" between deals
  const beyond = cardsBeyondHand(true);  // several-card moves' cards are picked in the picker only
  if (beyond.length) $("handbox").hidden = S.seat === null;
  let pile = null, into = hand;
  (sc.hand || []).concat(beyond.map((b) => b.face)).forEach((f, k) => {
    const from = k >= (sc.hand || []).length ? beyond[k - (sc.hand || []).length].label : null;
    if (from !== null && from !== pile) {  // a pile's label and its cards wrap together
      pile = from; into = el("div", "handgroup"); hand.appendChild(into);
      into.appendChild(el("span", "handfrom", from));
    }
    const opts = byCard.get(f.id) || [];
    const c = cardEl(f, opts.length ? () => pickCard(f.id, opts) : null);
    if (opts.length === 1) c.dataset.option = opts[0];
    if (selected() && S.sel.card === f.id) c.classList.add("chosen");
    into.appendChild(c);
  });
  const piles = $("piles"); clear(piles);
  const moved = new Set(beyond.map((b) => b.pile));  // drawn beside the hand instead
  (sc.piles || []).forEach((p, k) => {
    if (moved.has(k)) return;
    const box = el("div", "pile"); box.appendChild(el("h3", null, p.label));
    const cards = el("div", "cards");
    p.cards.forEach((f) => cards.appendChild(cardEl(f, null)));
    box.appendChild(cards); piles.appendChild(box);
  });
  const gamebox = $("gamebox");
  const typing = gamebox.contains(document.activeElement) ? document.activeElement : null;
  const caret = typing && "selectionStart" in typing ? [typing.selectionStart, typing.selectionEnd] : null;
  clear(gamebox); clear($("pickbox"));
  const drawGame = GAME_SCREENS[sc.game];  // games/<game>.js: a game's own drawing (board, forms)
  if (drawGame) drawGame(sc, gamebox);
  if (typing && typing.isConnected) {  // a form kept across redraws keeps the player's caret
    typing.focus();
    if (caret) { try { typing.setSelectionRange(caret[0], caret[1]); } catch (err) { /* not text */ } }
  }
  $("text").textContent = sc.text || "";
}

// ---- play by pointing ------------------------------------------------------------------------------
// Pick a card of the hand (or several, in the picker), then a lit place of the table (a field, a
// location, a House, a figure); a one-line preview then waits for "Play" (or a second click on the
// same card). Only moves with neither a card nor a place are offered as buttons.
function selected() { return S.sel && S.turn && !S.answered && S.sel.turn === S.turn.turn ? S.sel : null; }
function previewed() { return S.preview && S.turn && !S.answered && S.preview.turn === S.turn.turn ? S.preview.index : null; }
function setSel(card, indexes) {
  S.sel = indexes && indexes.length ? { turn: S.turn ? S.turn.turn : null, card, options: indexes } : null;
  S.preview = S.sel && indexes.length === 1 ? { turn: S.sel.turn, index: indexes[0] } : null;
}
function highlight(indexes) { setSel(selected() ? S.sel.card : null, indexes); }  // games/board.js narrows with a board click
function pickCard(id, opts) {
  if (selected() && S.sel.card === id) {  // the same card again: play the previewed move, or put the card back
    const k = previewed();
    if (k !== null) { play(k); return; }
    setSel(null, null);
  } else setSel(id, opts);
  drawAll();
}
// "Hana: plays …" ("Hana : joue …" in French, a space before the colon)
function said(name, by, sentence) {
  return t("{name}: {move}", { name: name + (by === "bot" ? " " + t("[bot]") : ""), move: sentence });
}
function pointable(o) { return reachable(o) && !!(o.card || (o.targets || []).length || (o.cards || []).length >= 2); }
function moveButton(o, k) {
  const b = el("button", "move", o.sentence);
  b.dataset.option = k;
  withHelp(b, o.help);
  b.addEventListener("click", () => play(k));
  return b;
}

function drawMoves() {
  const box = $("moves"); clear(box);
  if (!S.turn || S.answered) return;
  const k = previewed();
  if (k !== null) {  // the one-line preview of the pointed move, before it is played
    const bar = el("div", "preview"); bar.id = "preview";
    bar.appendChild(el("span", "what", "▶ " + S.turn.options[k - 1].sentence));
    const go = el("button", "confirm", t("Play")); go.id = "confirm"; go.addEventListener("click", () => play(k));
    const no = el("button", "cancel", t("Cancel")); no.addEventListener("click", () => { setSel(null, null); drawAll(); });
    bar.appendChild(go); bar.appendChild(no); box.appendChild(bar);
    return;
  }
  const sel = selected();
  const choice = targetChoices();
  if (choice) {  // a place with several moves to it (the figures that can go there): one button each
    const head = el("div", "pickbar");
    const what = t("{place}: choose one, here or on the table", { place: choice.place });
    head.appendChild(el("span", null, sel.card ? t("{name}: {move}", { name: cardName(sel.card), move: what }) : what));
    const no = el("button", "cancel", t("Cancel")); no.addEventListener("click", () => { setSel(null, null); drawAll(); });
    head.appendChild(no); box.appendChild(head);
    const row = el("div", "buttons chooser"); row.id = "target-chooser";
    choice.choices.forEach((c) => {
      const b = el("button", "move choice", c.label);
      b.title = S.turn.options[c.k - 1].sentence; b.dataset.option = c.k; b.dataset.target = c.target;
      b.addEventListener("click", () => { highlight([c.k]); drawAll(); });
      row.appendChild(b);
    });
    box.appendChild(row);
    return;
  }
  let rows;
  if (sel) {  // a card (or cards) picked: its moves without a place, the places are lit on the table
    const ks = sel.options;
    const placed = ks.filter((i) => (S.turn.options[i - 1].targets || []).length);
    rows = ks.filter((i) => !(S.turn.options[i - 1].targets || []).length || ks.length <= 10);
    // never a wall: the table's places, or the card picker (several-card moves), narrow further
    const several = (i) => (S.turn.options[i - 1].cards || []).length >= 2;
    const picking = rows.length > 10 && rows.some(several);
    if (picking) rows = rows.filter((i) => !several(i));
    if (placed.length && rows.length > 10) rows = [];
    const say = placed.length ? (rows.length ? t("point at a lit place on the table, or choose:") : t("point at a lit place on the table"))
      : picking ? t("Pick the cards above, then play them") + (rows.length ? " — " + t("or:") : "")
      : t("choose:");
    const head = el("div", "pickbar");
    head.appendChild(el("span", null, (sel.card ? t("{name}: {move}", { name: cardName(sel.card), move: say }) : say)));
    const no = el("button", "cancel", t("Cancel")); no.addEventListener("click", () => { setSel(null, null); drawAll(); });
    head.appendChild(no); box.appendChild(head);
  } else {
    rows = S.turn.options.map((o, i) => i + 1).filter((i) => !pointable(S.turn.options[i - 1]));
    if (S.turn.options.some(pointable)) {
      const places = S.turn.options.some((o) => !o.card && (o.targets || []).length);
      const shown = shownFaces();  // a card the game's board lets click, or one beside the hand
      const lit = S.turn.options.some((o) => pointable(o) && o.card && shown.get(o.card).onboard);
      const held = S.turn.options.some((o) => pointable(o) && o.card && !shown.get(o.card).onboard);
      // several-card moves only (Arcanum's discard down to 7): the hand is not clickable, the picker is
      const picker = S.turn.options.every((o) => !pointable(o) || (!o.card && !(o.targets || []).length));
      const say = picker ? t("Pick the cards above, then play them")
        : places && !S.turn.options.some((o) => o.card) ? t("Point at the lit places on the table")  // Arcanum's Fields
        : places && lit ? t("Pick a card of your hand, a lit card or a lit place on the table")
        : places ? t("Pick a card of your hand or a lit place on the table")
        : lit && held ? t("Pick a card of your hand or a lit card on the table")
        : lit ? t("Pick a lit card on the table") : t("Pick a card of your hand");
      box.appendChild(el("div", "pickbar", rows.length ? say + " — " + t("or:") : say));
    }
  }
  let group = null, gbox = null;
  rows.forEach((i) => {
    const o = S.turn.options[i - 1];
    if (o.group !== group) {
      group = o.group; gbox = el("div", "group"); box.appendChild(gbox);
      const n = rows.filter((x) => S.turn.options[x - 1].group === group).length;
      if (n > 10) {  // a long group stays folded until asked for
        const d = el("details"); d.appendChild(el("summary", null, group + " — " + t("{n} choices", { n })));
        const key = S.turn.turn + "/" + group; S.unfolded = S.unfolded || new Set();
        d.open = S.unfolded.has(key);
        d.addEventListener("toggle", () => { if (d.open) S.unfolded.add(key); else S.unfolded.delete(key); });
        gbox.appendChild(d); gbox = d;
      } else gbox.appendChild(el("h3", null, group));
    }
    gbox.appendChild(moveButton(o, i));
  });
}
function cardName(id) {
  const f = shownFaces().get(id);
  return f ? f.face.name : id;
}

// what the log last drew: an event that adds no line redraws no line (a long game's log is the
// page's largest list, and most events — a seat's waiting, a new view — add nothing to it)
const drawnLog = { log: null, length: -1, since: null };
function drawLog() {
  if (drawnLog.log === S.log && drawnLog.length === S.log.length && drawnLog.since === S.since) return;
  drawnLog.log = S.log; drawnLog.length = S.log.length; drawnLog.since = S.since;
  const log = $("log"); clear(log);
  S.log.slice(-200).forEach((e) => log.appendChild(el("li", e.cls, e.text)));
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  log.scrollTop = log.scrollHeight;  // the log scrolls on its own: "since your last turn" stays in view
  const since = $("since"); clear(since);
  S.since.forEach((t) => since.appendChild(el("li", null, t)));
}

function addLog(text, cls) { S.log.push({ text, cls: cls || "" }); }

function resultsTable(headers, rows, winners) {
  const tbl = el("table", "results");
  const hr = el("tr"); headers.forEach((h) => hr.appendChild(el("th", null, h))); tbl.appendChild(hr);
  rows.forEach((r, i) => {
    const tr = el("tr", winners && winners[i] ? "winner" : "");
    r.forEach((c) => tr.appendChild(el("td", null, c))); tbl.appendChild(tr);
  });
  return tbl;
}

function drawStandIn() {
  const playing = S.seat !== null && S.names.length && !S.finished && !S.replay;
  $("botplay").hidden = !playing || S.standin;
  $("takeback").hidden = !playing || !S.standin;
}

function drawAll() { drawPlayers(); drawStatus(); drawScreen(); drawMoves(); drawLog(); drawStandIn(); }
// events whose handler changes only what some parts draw: those parts alone are redrawn (a
// `waiting` comes with nearly every step of the table; it sets S.waiting and S.deadline, which
// only the players' row and the status line show; another seat's `move` only adds a log line —
// its effect on the table comes as a `view`)
const REDRAW = {
  waiting() { drawPlayers(); drawStatus(); },
  move(e) { if (e.seat === S.seat) drawAll(); else drawLog(); },
};

let sock = null;
function play(index) {
  if (!S.turn || S.answered) return;
  S.answered = true;
  sock.send(JSON.stringify({ cmd: "move", turn: S.turn.turn, index }));
  drawAll();
}
function send(obj) { if (sock && sock.readyState === 1) sock.send(JSON.stringify(obj)); }

const handlers = {
  table(e) {
    S.names = e.names; S.seat = e.seat; S.away = new Set(); $("lobby").hidden = true;
    if (e.seat === null) { $("leave").hidden = true; $("chat").hidden = true; $("sincetitle").textContent = t("Spectating: the public table"); }
    addLog(t("Table: {title}", { title: e.title }) + " — " + e.names.map((n, i) => t("{name} (seat {n})", { name: n, n: i + 1 })).join(", "), "notice");
    if (e.rule && e.seat !== null) { addLog(t("Time: {rule}", { rule: e.rule }), "notice"); S.rule = e.rule; }
    // the rules in the page's language (LANG: ?lang=, --lang or the browser's) when written in it
    S.rules = e.rules ? (e.rules[LANG] || e.rules.en || null) : null; drawRules();
  },
  clock(e) {  // the move's time runs out: told in the status line and the log, never as an error
    S.warning = { turn: S.turn ? S.turn.turn : null, text: e.text };
    addLog(e.text, "warning");
  },
  restart() { location.reload(); },  // a new table in this page (back to the lobby, a rematch)
  lobby(e) { S.lobbyApp = true; drawLobby(e); },
  tables(e) { S.lobbyApp = true; drawTables(e); },
  view(e) { S.screen = e.screen; },
  turn(e) {
    S.turn = e; S.answered = false; S.deadline = e.deadline || S.deadline;
    S.since = e.since.length ? e.since.slice() : [t("nothing new")];
  },
  move(e) {
    addLog(said(e.name, e.by, e.sentence) + (e.automatic ? " " + t("(automatic)") : ""), e.seat === S.seat ? "mine" : "");
    if (e.seat === S.seat) {
      S.answered = true;
      // the player plays on: a round's result still up has been read (it never outstays its round)
      const box = $("results");
      if (box.classList.contains("roundover")) { clear(box); box.classList.remove("roundover"); S.held = null; }
    }
  },
  waiting(e) { S.waiting = e; S.deadline = e.deadline; },
  presence(e) {
    if (e.status === "stand-in" || e.status === "back") {
      if (e.status === "stand-in") S.bots.add(e.seat); else S.bots.delete(e.seat);
      addLog(e.status === "stand-in" ? t("{name}'s seat is played by a bot until {name} comes back", { name: e.name }) : t("{name} is back", { name: e.name }), "presence");
      return;
    }
    if (e.status === "left") S.away.add(e.seat); else S.away.delete(e.seat);
    addLog(e.status === "left" ? t("{name} left the table (they can come back)", { name: e.name }) : e.status === "rejoined" ? t("{name} is back", { name: e.name }) : t("{name} joined", { name: e.name }), "presence");
  },
  notice(e) { addLog(e.text, "notice"); },
  standin(e) {
    S.standin = e.active;
    if (e.active) S.answered = true;  // an open turn is the bot's now
    addLog(e.active ? t("A bot plays your seat ({reason}) until you take it back", { reason: e.reason }) : t("You have your seat back"), "presence");
  },
  chat(e) { addLog("<" + e.name + "> " + e.text, "chat"); },
  error(e) { addLog(e.text, "notice"); },
  round(e) {
    const keys = Object.keys(e.result);  // the record's keys, worded by the catalogue (app/results.py COLUMNS)
    addLog(t("Round {n} over:", { n: e.number }) + " " + keys.map((k) => t(k) + " " + e.result[k]).join(", "), "notice");
    const box = $("results"); clear(box);
    box.classList.add("roundover");
    box.appendChild(el("h2", null, t("Round {n} over", { n: e.number })));
    const on = el("button", "confirm", t("Continue")); on.id = "continue";
    on.addEventListener("click", () => {
      if (S.seat !== null) send({ cmd: "continue" });  // the next deal waits for this click
      S.held = null; drawStatus();
      clear(box); box.classList.remove("roundover");
    });
    box.appendChild(on);
    box.appendChild(el("span", "holdnote")).id = "holdnote";
    // one row per column of the record: a long rule or score list wraps, a phone needs no scroll
    const tbl = el("table", "results byline"); tbl.id = "round-result";
    keys.forEach((k) => { const tr = el("tr"); tr.appendChild(el("th", null, t(k))); tr.appendChild(el("td", null, String(e.result[k]))); tbl.appendChild(tr); });
    box.appendChild(tbl);
    const tk = "totals" in e.result ? [] : Object.keys(e.totals || {});  // not twice
    if (tk.length) box.appendChild(resultsTable([t("player"), t("total") + (e.note ? " *" : "")], tk.map((k) => [k, e.totals[k]])));
    if (e.note) box.appendChild(el("p", "footnote", "* " + e.note)).id = "totals-note";
    if ((e.details || []).length) {  // e.g. Eleusis: each judgment re-checked against the opened rule
      const lines = e.details.slice();  // a heading line (it ends with ":") heads the list, not an item of it
      if (lines.length > 1 && lines[0].trim().endsWith(":")) box.appendChild(el("p", "detailshead", lines.shift().trim()));
      const d = el("ul", "rounddetails"); d.id = "round-details";
      lines.forEach((line) => d.appendChild(el("li", line.includes(t("(misjudged)")) ? "bad" : null, line.trim())));
      box.appendChild(d);
    }
    if (!S.replay && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });  // in sight, wherever the table is
  },
  hold(e) {  // the next deal waits for our Continue (held), or the table goes on
    S.held = e.held && S.seat !== null && !S.standin ? e.number : null;
    drawStatus();
    const note = $("holdnote"); if (!note) return;
    note.textContent = S.held ? " " + t("the next deal waits for you") : "";
  },
  finished(e) {
    S.finished = true; S.turn = null;
    const box = $("results"); clear(box);
    box.id = "results"; box.appendChild(el("h2", null, t("Final standings")));
    if (e.personal) box.appendChild(el("p", "personal", e.personal));
    const place = (r) => LANG === "fr" ? r + (r === 1 ? "er" : "e") : r + (r % 10 === 1 && r % 100 !== 11 ? "st" : r % 10 === 2 && r % 100 !== 12 ? "nd" : r % 10 === 3 && r % 100 !== 13 ? "rd" : "th");
    box.appendChild(resultsTable([t("place"), t("player"), t("seat"), e.score_label || t("score"), ""],
      e.standings.map((s, i) => [place(s.rank || i + 1), s.name, t("seat {n}", { n: s.seat + 1 }), s.score, s.winner ? t("winner") : ""]),
      e.standings.map((s) => s.winner)));
    if (LOBBY_APP && S.seat !== null) {  // p2ptarot web: the page goes on after the game
      const row = el("div", "afterbar");
      const back = el("button", null, t("Back to the lobby")); back.id = "tolobby";
      const again = S.seat === 0 ? el("button", "confirm", t("Rematch")) : null;
      const once = (cmd) => {  // one click, one command: both buttons are done with
        if (back.disabled) return;
        back.disabled = true; if (again) again.disabled = true;
        send({ cmd });
      };
      back.addEventListener("click", () => once("lobby"));
      row.appendChild(back);
      if (again) {
        again.id = "rematch";
        again.addEventListener("click", () => once("rematch"));
        row.appendChild(again);
      }
      box.appendChild(row);
    }
    if (e.rounds && e.rounds.length) {
      const keys = Object.keys(e.rounds[0]);
      box.appendChild(el("h2", null, t("Rounds")));
      box.appendChild(resultsTable([t("round")].concat(keys), e.rounds.map((r, i) => [i + 1].concat(keys.map((k) => r[k])))));
    }
    const w = e.standings.filter((s) => s.winner).map((s) => s.name);
    const and = " " + t("and") + " ";
    addLog(w.length ? t("Game over: {names} won", { names: w.join(and) }) : t("Game over: no winner"), "notice");
  },
  aborted(e) {
    S.finished = true; S.turn = null;
    const b = $("banner"); b.hidden = false;
    b.textContent = e.blame_name ? t("Game aborted: {name} (seat {n}) is blamed: {reason}", { name: e.blame_name, n: e.blame + 1, reason: e.reason }) : t("Game aborted: {reason}", { reason: e.reason });
    addLog(b.textContent, "presence");
  },
};

// ---- replay ------------------------------------------------------------------------------------
function replayStep(k) {
  const R = S.replay; if (!R) return;
  R.pos = Math.max(0, Math.min(R.frames.length - 1, k));
  const f = R.frames[R.pos];
  S.screen = f.screen;
  S.log = [{ text: R.verdict, cls: "notice" }];
  R.frames.slice(0, R.pos + 1).forEach((x) => {
    S.log.push({ text: said(x.name, x.by, x.sentence), cls: x.by === "bot" ? "bot" : "" });
    (x.marks || []).forEach((m) => S.log.push({ text: m, cls: "notice" }));
  });
  S.since = [said(f.name, f.by, f.sentence)];
  $("rpos").textContent = t("move {n} / {total}", { n: R.pos + 1, total: R.frames.length });
  drawAll();
}

function connect() {
  sock = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?token=" + encodeURIComponent(TOKEN));
  sock.onopen = () => { S.connected = true; drawStatus(); };
  sock.onmessage = (m) => {
    let e; try { e = JSON.parse(m.data); } catch (err) { return; }
    if (e.type === "replay") {
      S.replay = { frames: e.frames, pos: 0, verdict: e.verdict }; S.names = e.names; S.seat = null; S.away = new Set();
      if (!e.frames.length) { $("status").textContent = e.verdict; return; }
      $("replaybar").hidden = false; $("leave").hidden = true; $("chat").hidden = true; $("sincetitle").textContent = t("This move");
      replayStep(0); return;
    }
    const h = handlers[e.type]; if (h) h(e);
    (REDRAW[e.type] || drawAll)(e);
  };
  sock.onclose = () => { if (!S.finished) { $("status").textContent = t("Disconnected from your peer"); } };
}
