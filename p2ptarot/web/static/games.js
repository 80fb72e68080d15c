// Per-game drawing beyond the generic screen (hand, piles, moves): GAME_SCREENS[game](screen, box)
// draws into the #gamebox element under the piles, e.g. a board or a form for a composed move.
"use strict";
const GAME_SCREENS = {};

// ---- shared: clickable board fields ------------------------------------------------------------
// A field ("loc-3", "house-cups", a figure id) is clickable when a legal move acts on it. A click
// narrows the options (those a hand-card click picked, if any): one left is played, several are
// highlighted among the move buttons.
function optionsOn(target) {
  if (!S.turn || S.answered) return [];
  const picked = selected() ? S.sel.options : null;
  const out = [];
  S.turn.options.forEach((o, k) => {
    // with nothing picked, a place starts only the moves that need no card (pick the card first)
    const free = !o.card && !((o.cards || []).length >= 2);
    if ((o.targets || []).includes(target) && (picked ? picked.includes(k + 1) : free)) out.push(k + 1);
  });
  return out;
}
function fieldClick(node, target) {
  node.dataset.target = target;
  if (!S.turn || S.answered) return;
  const any = S.turn.options.some((o) => (o.targets || []).includes(target));
  if (!any) return;
  node.classList.add("target");
  if (optionsOn(target).length) node.classList.add("live");
  if (selected() && !optionsOn(target).length) node.classList.add("dim");
  node.addEventListener("click", (ev) => {
    ev.stopPropagation();
    let opts = optionsOn(target);
    if (!opts.length) { setSel(null, null); opts = optionsOn(target); }  // a new choice starts over
    if (opts.length) { highlight(opts); drawAll(); }  // one left: its preview waits for "Play"
  });
}

// ---- Arcanum: the city, the prestige tracks, the players -----------------------------------------
const RANK_SHORT = { knave: "J", knight: "C", queen: "Q", king: "K", page: "P" };
const HOUSE_SIGN = { swords: "⚔", wands: "⚚", cups: "♥", coins: "⛀" };

function arcanumSymbols(symbols) {
  const box = el("div", "symbols");
  Object.keys(symbols).sort().forEach((s) => {
    const sign = HOUSE_SIGN[s] || RANK_SHORT[s] || s;
    const chip = el("span", "sym " + (HOUSE_SIGN[s] ? "c-" + ({ swords: "steel", wands: "green", cups: "red", coins: "gold" })[s] : "rank"),
                    sign + (symbols[s] > 1 ? "×" + symbols[s] : ""));
    chip.title = symbols[s] + " × " + s;
    box.appendChild(chip);
  });
  return box;
}

GAME_SCREENS.arcanum = function (sc, box) {
  const b = sc.board; if (!b) return;
  const root = el("div", "arcanum"); root.id = "arcanum-board";
  const head = el("div", "arc-head");
  head.appendChild(el("span", "arc-turn", "Turn " + b.turn + " of " + b.turns));
  head.appendChild(el("span", null, "scorings after turns " + b.scoring_turns.join(", ")));
  head.appendChild(el("span", null, "phase: " + b.phase));
  head.appendChild(el("span", null, "decks: " + b.decks.minor + " minors, " + b.decks.major + " majors"));
  if (b.devil) head.appendChild(el("span", "devil", "the Devil doubles every change"));
  root.appendChild(head);
  if (b.decision) root.appendChild(el("div", "arc-decision", "Waiting for " + (b.decision.actor === b.seat ? "you" : b.decision.who) + ": " + b.decision.text));
  if (b.last_scoring) {
    root.appendChild(el("div", "arc-scoring", (b.last_scoring.world ? "World" : "House") + " scoring of turn " + b.last_scoring.turn + ": " +
      b.players.map((p) => p.name + " +" + (b.last_scoring.vp[p.seat] || 0)).join(", ")));
  }
  // the prestige tracks
  const tracks = el("div", "tracks");
  b.prestige.forEach((t) => {
    const row = el("div", "track c-" + ({ swords: "steel", wands: "green", cups: "red", coins: "gold" })[t.house]);
    row.appendChild(el("span", "tname", t.sign + " " + t.house));
    const cells = el("span", "cells");
    for (let v = 0; v <= t.max; v++) cells.appendChild(el("span", "cell" + (v === t.value ? " at" : v < t.value ? " on" : ""), v === t.value ? String(v) : ""));
    row.appendChild(cells);
    row.appendChild(el("span", "tval", t.value));
    row.dataset.house = t.house;
    fieldClick(row, "house-" + t.house);
    tracks.appendChild(row);
  });
  root.appendChild(tracks);
  // the city
  const city = el("div", "city");
  b.locations.forEach((l) => {
    const tile = el("div", "loc" + (l.frozen ? " frozen" : ""));
    tile.appendChild(el("div", "lname", l.number + " · " + l.name));
    tile.appendChild(arcanumSymbols(l.symbols));
    const figs = el("div", "figs");
    l.figures.forEach((f) => {
      const tok = el("span", "fig c-" + ({ swords: "steel", wands: "green", cups: "red", coins: "gold" })[f.house], f.sign + (RANK_SHORT[f.rank] || f.rank));
      tok.title = f.label;
      fieldClick(tok, f.id);
      figs.appendChild(tok);
    });
    tile.appendChild(figs);
    if (l.frozen) tile.appendChild(el("div", "frozenmark", "frozen by the Tower"));
    withHelp(tile, helpFor("loc-" + l.number));
    fieldClick(tile, "loc-" + l.number);
    city.appendChild(tile);
  });
  root.appendChild(city);
  root.appendChild(el("div", "legend", "Symbols: ⚔ swords · ⚚ wands · ♥ cups · ⛀ coins · K king · Q queen · C knight · J knave " +
    "(each symbol matching the figure that enters gives its House +1 prestige). Hover or tap a location for its effect."));
  // the players
  const t = el("table", "results arc-players");
  const hr = el("tr"); ["", "player", "VP", "hand", "hidden", "figures held"].forEach((h) => hr.appendChild(el("th", null, h))); t.appendChild(hr);
  b.players.forEach((p) => {
    const tr = el("tr", (p.you ? "you" : "") + (p.active ? " active" : ""));
    tr.dataset.seat = p.seat;
    tr.appendChild(el("td", null, (p.active ? "▶" : "") + (p.first ? " 1st" : "")));
    tr.appendChild(el("td", null, p.name + (p.you ? " (you)" : "")));
    const vp = el("td", "vp", p.vp); vp.dataset.seat = p.seat; tr.appendChild(vp);
    const minors = p.hand.filter((c) => c.kind === "minor").length;
    tr.appendChild(el("td", null, p.hand.length + " (" + minors + " minor" + (minors === 1 ? "" : "s") + ", " + (p.hand.length - minors) + " major" + (p.hand.length - minors === 1 ? "" : "s") + ")"));
    const hid = el("td", "hidden");
    if (p.hidden_faces.some((f) => f.id)) {
      const row = el("div", "cards mini");
      p.hidden_faces.forEach((f) => { const c = cardEl(f, null); if (f.face_up) c.classList.add("faceup"); row.appendChild(c); });
      hid.appendChild(row);
    } else hid.textContent = p.hidden.length + " face down" + (p.hidden.some((c) => c.face_up) ? ", some face up" : "");
    tr.appendChild(hid);
    tr.appendChild(el("td", null, p.held_figures.map((f) => f.replace(/^fig-/, "").replace("-", " ")).join(", ") || "-"));
    t.appendChild(tr);
  });
  root.appendChild(t);
  box.appendChild(root);
  cardPicker(sc, box);
};

// ---- Eleusis: the layout, the players, the dealer's rule and hint, a player's run ---------------
// The forms keep their own nodes across redraws (the page redraws on every event), so what the
// player types survives a chat line or a presence change arriving meanwhile.
const ELEUSIS = { forms: {}, run: [], runTurn: null, reply: null };

function sendWrite(form, fields) {
  if (!S.turn || S.answered) return;
  send(Object.assign({ cmd: "write", turn: S.turn.turn, form }, fields));
}

handlers.form = function (e) {
  ELEUSIS.reply = e;
  addLog((e.ok ? "" : "not taken: ") + e.text, "notice");
  if (e.played) { S.answered = true; ELEUSIS.forms = {}; ELEUSIS.run = []; }
};

function replyBox(form) {
  const box = el("div", "formreply"); box.id = form + "-result";
  const r = ELEUSIS.reply;
  if (!r || r.form !== form) return box;
  box.classList.add(r.ok ? "ok" : "bad");
  box.appendChild(el("div", "msg", (r.line ? "line " + r.line + ", column " + r.column + ": " : "") + r.text));
  if (r.line && r.excerpt !== undefined) {
    const pre = el("pre", "caret");
    pre.textContent = r.excerpt + "\n" + " ".repeat(Math.max(0, r.column - 1)) + "^";
    box.appendChild(pre);
  }
  return box;
}

function keptForm(key, build) {
  const k = key + "@" + (S.turn ? S.turn.turn : "");
  if (!ELEUSIS.forms[k]) { ELEUSIS.forms = { [k]: build() }; }
  return ELEUSIS.forms[k];
}

function ruleForm(ev) {
  const node = keptForm("rule", () => {
    const f = el("div", "eform"); f.id = "rule-form";
    f.appendChild(el("h3", null, "Write your secret rule (ERL — see spec/ERL.md)"));
    f.appendChild(el("p", "help", "The rule says which card may follow the main line: c is the candidate, p1 the last card, p2 the one before…; e.g. accept c.color != p1.color. Check it, then commit it: the other players never see it until the end of the round."));
    const pick = el("select"); pick.id = "erl-examples";
    const first = el("option", null, "load an example rule…"); first.value = ""; pick.appendChild(first);
    ev.examples.forEach((x, i) => { const o = el("option", null, x.name + " (difficulty " + x.difficulty + ")"); o.value = String(i); pick.appendChild(o); });
    const ta = el("textarea"); ta.id = "erl-text"; ta.rows = 5; ta.spellcheck = false;
    ta.placeholder = "accept c.color != p1.color";
    const count = el("span", "count", "");
    const recount = () => {
      const n = new TextEncoder().encode(ta.value).length;
      count.textContent = n + " / " + ev.max_rule_bytes + " bytes";
      count.classList.toggle("bad", n > ev.max_rule_bytes);
    };
    pick.addEventListener("change", () => { if (pick.value !== "") { ta.value = ev.examples[Number(pick.value)].text; recount(); } });
    ta.addEventListener("input", recount);
    f.appendChild(pick); f.appendChild(ta); f.appendChild(count);
    const row = el("div", "buttons");
    const check = el("button", "write", "Check the rule"); check.id = "erl-check";
    const commit = el("button", "write primary", "Commit this rule"); commit.id = "erl-commit";
    const tooBig = () => new TextEncoder().encode(ta.value).length > ev.max_rule_bytes;
    check.addEventListener("click", () => { if (!tooBig()) sendWrite("rule", { text: ta.value, check: true }); });
    commit.addEventListener("click", () => { if (!tooBig()) sendWrite("rule", { text: ta.value }); });
    row.appendChild(check); row.appendChild(commit); f.appendChild(row);
    f.appendChild(el("div", "slot"));
    recount();
    return f;
  });
  node.replaceChild(replyBox("rule"), node.lastChild);
  return node;
}

function hintForm(ev) {
  const node = keptForm("hint", () => {
    const f = el("div", "eform"); f.id = "hint-form";
    f.appendChild(el("h3", null, "Give the players a hint (optional)"));
    f.appendChild(el("p", "help", "Structured hints are checked against your rule when it is opened: only true ones can be chosen. A free-text hint is table talk."));
    ev.hints.forEach((h) => {
      const lab = el("label", "hint" + (h.holds ? "" : " off"));
      const box = el("input"); box.type = "checkbox"; box.value = h.hint; box.disabled = !h.holds;
      lab.appendChild(box); lab.appendChild(document.createTextNode(" " + h.hint + (h.holds ? "" : " (false of your rule)")));
      f.appendChild(lab);
    });
    const txt = el("input"); txt.id = "hint-text"; txt.maxLength = ev.max_hint_text; txt.placeholder = "free-text hint (or nothing)";
    f.appendChild(txt);
    const give = el("button", "write primary", "Give this hint"); give.id = "hint-give";
    give.addEventListener("click", () => {
      const choices = Array.from(f.querySelectorAll("input[type=checkbox]:checked")).map((b) => b.value);
      sendWrite("hint", { choices, text: txt.value });
    });
    f.appendChild(give); f.appendChild(el("div", "slot"));
    return f;
  });
  node.replaceChild(replyBox("hint"), node.lastChild);
  return node;
}

function runForm(ev) {
  if (ELEUSIS.runTurn !== S.turn.turn) { ELEUSIS.run = []; ELEUSIS.runTurn = S.turn.turn; }
  const f = el("div", "eform"); f.id = "run-form";
  f.appendChild(el("h3", null, "Or play a run of 2 to " + ev.max_run + " cards: click them in order"));
  const cards = el("div", "cards"); cards.id = "run-cards";
  ev.hand.slice().sort((a, b) => (a.face.order || 0) - (b.face.order || 0)).forEach((h) => {
    const at = ELEUSIS.run.indexOf(h.handle);
    const c = cardEl(h.face, () => {
      const k = ELEUSIS.run.indexOf(h.handle);
      if (k >= 0) ELEUSIS.run.splice(k, 1);
      else if (ELEUSIS.run.length < ev.max_run) ELEUSIS.run.push(h.handle);
      drawScreen();
    });
    c.dataset.handle = h.handle;
    if (at >= 0) { c.classList.add("chosen"); c.appendChild(el("span", "order", at + 1)); }
    cards.appendChild(c);
  });
  f.appendChild(cards);
  const chosen = ELEUSIS.run.map((hd) => ev.hand.find((h) => h.handle === hd)).filter(Boolean);
  f.appendChild(el("div", "runline", chosen.length ? "Run: " + chosen.map((h) => h.face.name).join(" → ") : "No card chosen yet"));
  const row = el("div", "buttons");
  const go = el("button", "write primary", "Play the run"); go.id = "run-play";
  go.disabled = chosen.length < 2;
  go.addEventListener("click", () => sendWrite("run", { handles: ELEUSIS.run.slice() }));
  const reset = el("button", "write", "Clear"); reset.addEventListener("click", () => { ELEUSIS.run = []; drawScreen(); });
  row.appendChild(go); row.appendChild(reset); f.appendChild(row);
  f.appendChild(replyBox("run"));
  return f;
}

function eleusisLayout(ev) {
  const box = el("div", "layout"); box.id = "eleusis-layout";
  box.appendChild(el("div", "lcaption", "main line →\nwrong plays ↓"));
  ev.columns.forEach((col, i) => {
    const c = el("div", "lcol");
    const main = cardEl(col.main, null); main.dataset.n = col.main.n;
    if (col.main.marker) main.classList.add("marker");
    c.appendChild(main);
    col.side.forEach((block) => {
      const b = el("div", "block" + (block.length > 1 ? " run" : ""));
      block.forEach((p) => { const x = cardEl(p, null); if (p.marker) x.classList.add("marker"); b.appendChild(x); });
      c.appendChild(b);
    });
    box.appendChild(c);
  });
  return box;
}

GAME_SCREENS.eleusis = function (sc, box) {
  const ev = sc.eleusis; if (!ev) return;
  const root = el("div", "eleusis");
  const head = el("div", "arc-head");
  const dealer = ev.players.find((p) => p.dealer);
  head.appendChild(el("span", "arc-turn", ev.phase_text));
  head.appendChild(el("span", null, "dealer: " + (dealer ? dealer.name + (dealer.you ? " (you)" : "") : "-")));
  head.appendChild(el("span", null, "layout " + ev.size + " cards, stock " + ev.stock));
  if (ev.sudden_death) head.appendChild(el("span", "devil", "SUDDEN DEATH"));
  root.appendChild(head);
  const hints = ev.hints_given.concat(ev.hint_text ? ['"' + ev.hint_text + '"'] : []);
  if (hints.length) root.appendChild(el("div", "arc-scoring", "Hints: " + hints.join("; ")));
  if (ev.rule) {
    root.appendChild(el("div", "help", ev.seat === ev.dealer && ev.phase !== "over" ? "Your secret rule (only you see it until it is opened):" : "The rule:"));
    root.appendChild(el("pre", "rule", ev.rule));
  }
  if (ev.last_event) root.appendChild(el("div", "arc-decision", ev.last_event));
  if (ev.pending && /judge|call|answer|pick/.test(ev.phase)) {  // the play being judged
    const p = el("div", "pile"); const who = ev.players[ev.pending.seat];
    p.appendChild(el("h3", null, (who ? who.name : "?") + (ev.pending.no_play ? " declares “no play”, showing" : " plays") + (ev.pending.call ? " — the Sage calls " + ev.pending.call : "")));
    const cs = el("div", "cards"); ev.pending.cards.forEach((f) => cs.appendChild(cardEl(f, null))); p.appendChild(cs);
    root.appendChild(p);
  }
  if (ev.columns.length) root.appendChild(eleusisLayout(ev));
  const t = el("table", "results arc-players");
  const hr = el("tr"); ["player", "cards", "", "total"].forEach((h) => hr.appendChild(el("th", null, h))); t.appendChild(hr);
  ev.players.forEach((p) => {
    const tr = el("tr", (p.you ? "you" : "") + (p.seat === ev.current && ev.phase === "play" ? " active" : ""));
    tr.dataset.seat = p.seat;
    tr.appendChild(el("td", null, p.name + (p.you ? " (you)" : "")));
    tr.appendChild(el("td", null, p.dealer ? "—" : p.cards));
    tr.appendChild(el("td", null, [p.dealer && "dealer", p.sage && "Sage", p.false_prophet && "false prophet", p.eliminated && "eliminated"].filter(Boolean).join(", ")));
    tr.appendChild(el("td", "vp", p.total));
    t.appendChild(tr);
  });
  root.appendChild(t);
  const open = S.turn && !S.answered && ev.seat !== null;
  if (open && ev.phase === "rule" && ev.seat === ev.dealer) root.appendChild(ruleForm(ev));
  if (open && ev.phase === "hint" && ev.seat === ev.dealer) root.appendChild(hintForm(ev));
  if (open && ev.phase === "play" && ev.seat === ev.current && ev.hand.length >= 2) root.appendChild(runForm(ev));
  box.appendChild(root);
  if (ev.seat === ev.dealer) $("handbox").hidden = true;  // the dealer holds no cards
};

// ---- Les paris divins: a card, then a bet field; the seats' stakes --------------------------------
GAME_SCREENS["paris-divins"] = function (sc, box) {
  const w = sc.wager; if (!w) return;
  const root = el("div", "wager"); root.id = "wager-board";
  root.appendChild(el("div", "arc-head", "Now: " + w.phase));
  if (w.choice) {
    const mine = el("div", "pile"); mine.appendChild(el("h3", null, "your card, bet on " + w.choice.bet));
    const cs = el("div", "cards"); cs.appendChild(cardEl(w.choice.card, null)); mine.appendChild(cs);
    root.appendChild(mine);
  }
  const open = S.turn && !S.answered;
  if (open) root.appendChild(el("div", "help", "Click a card of your hand, then the category you bet on."));
  const fields = el("div", "bets");
  w.bets.forEach((b) => {
    const f = el("div", "bet"); f.appendChild(el("div", "bname", b.bet)); f.appendChild(el("div", "bbeats", b.beats));
    fieldClick(f, "bet-" + b.bet);
    fields.appendChild(f);
  });
  root.appendChild(fields);
  const t = el("table", "results arc-players");
  const hr = el("tr"); ["player", "", "stake", "supply", "reserve", "rounds won"].forEach((h) => hr.appendChild(el("th", null, h))); t.appendChild(hr);
  w.seats.forEach((s) => {
    const tr = el("tr", (s.you ? "you" : "") + (s.active && !s.chosen ? " active" : ""));
    tr.dataset.seat = s.seat;
    tr.appendChild(el("td", null, s.name + (s.you ? " (you)" : "")));
    tr.appendChild(el("td", null, !s.active ? "out" : s.chosen ? "has chosen" : "choosing…"));
    [s.stake, s.supply, s.reserve, s.rounds_won].forEach((v) => tr.appendChild(el("td", "vp", v)));
    t.appendChild(tr);
  });
  root.appendChild(t);
  w.history.forEach((line) => root.appendChild(el("div", "arc-scoring", line)));
  box.appendChild(root);
};

// ---- games drawn by the generic screen: the presenter's table summary stays in view ---------------
// (scores, fields and their totals, roses, who leads: what the piles alone do not say). The header
// and the hand (drawn as cards already) are left out.
function tableSummary(sc, box) {
  const lines = (sc.text || "").split("\n");
  const keep = [];
  let skipping = false;
  lines.forEach((line, i) => {
    if (i === 0 && /^==/.test(line)) return;
    if (/^Your (demon's )?hand/.test(line)) { skipping = true; return; }
    if (skipping && /^ {4}/.test(line)) return;
    skipping = false;
    keep.push(line);
  });
  if (!keep.length) return;
  const d = el("div", "summary"); d.id = "table-summary";
  d.appendChild(el("pre", null, keep.join("\n")));
  box.appendChild(d);
}
// ---- trick games (sinople, trois roses): seats around a table, the trick in the middle ------------
function trickTable(sc, box) {
  const T = sc.tricktable; if (!T) { tableSummary(sc, box); return; }
  const n = T.seats.length;
  const me = T.seats.findIndex((p) => p.you);
  const table = el("div", "tricktable"); table.id = "trick-table";
  const felt = el("div", "felt");
  const centre = el("div", "centre");
  centre.appendChild(el("div", "ctext", T.centre));
  const trick = el("div", "cards trick");
  felt.appendChild(centre);
  T.seats.forEach((p, i) => {
    // our seat at the bottom, the others clockwise around the table
    const k = ((i - (me < 0 ? 0 : me)) + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    const x = 50 + 36 * Math.cos(angle), y = 50 + 40 * Math.sin(angle);
    const seat = el("div", "tseat" + (p.you ? " you" : "") + (p.to_play ? " turn" : ""));
    seat.dataset.seat = p.seat;
    seat.style.left = x + "%"; seat.style.top = y + "%";
    seat.appendChild(el("div", "tname", p.name + (p.you ? " (you)" : "") + (p.dealer ? " · dealer" : "")));
    const chips = el("div", "chips");
    if (p.hand !== null && p.hand !== undefined) chips.appendChild(el("span", "chip", "hand " + p.hand));
    p.stats.forEach(([label, value]) => chips.appendChild(el("span", "chip", label + ": " + value)));
    seat.appendChild(chips);
    felt.appendChild(seat);
    if (p.card) { const c = cardEl(p.card, null); c.appendChild(el("span", "owner", p.name)); trick.appendChild(c); }
  });
  centre.appendChild(trick);
  table.appendChild(felt);
  if (T.last) table.appendChild(el("div", "tlast", T.last));
  box.appendChild(table);
}
["sinople", "trois-roses"].forEach((g) => { GAME_SCREENS[g] = trickTable; });

// ---- Arcanoïd: the four fields side by side ------------------------------------------------------
const FIELD_COLOUR = { swords: "steel", wands: "green", cups: "red", coins: "gold" };
GAME_SCREENS.arcanoid = function (sc, box) {
  const F = sc.fields; if (!F) { tableSummary(sc, box); return; }
  const root = el("div", "arcanoid"); root.id = "fields-board";
  F.status.forEach((line) => root.appendChild(el("div", "arc-head", line)));
  const grid = el("div", "fieldsgrid");
  F.fields.forEach((f) => {
    const col = el("div", "field c-" + FIELD_COLOUR[f.field]); col.dataset.field = f.field;
    fieldClick(col, "field-" + f.field);
    col.appendChild(el("div", "fname", f.sign + " " + f.field));
    f.notes.forEach((n) => col.appendChild(el("div", "fnote", n)));
    if (!f.entries.length && !f.notes.length) col.appendChild(el("div", "fnote", "nobody engaged yet"));
    f.entries.forEach((e) => {
      const ent = el("div", "entry" + (e.you ? " you" : "") + (e.kind === "cards" ? "" : " out"));
      ent.appendChild(el("div", "who", e.who));
      if (e.cards.length) { const cs = el("div", "cards mini"); e.cards.forEach((c) => cs.appendChild(cardEl(c, null))); ent.appendChild(cs); }
      ent.appendChild(el("div", "worth", e.text));
      col.appendChild(ent);
    });
    grid.appendChild(col);
  });
  root.appendChild(grid);
  const lines = (F.players || []).concat(F.score);
  if (lines.length) root.appendChild(el("pre", "score", lines.join("\n")));
  box.appendChild(root);
  cardPicker(sc, box);
};

// ---- several cards at once (discard three, hide two, engage a pair, load the Chariot) -------------
// Click cards to pick them; the moves naming all of them are outlined; when exactly one move names
// exactly them, "Play these cards" plays it.
const PICK = { turn: null, cards: [] };
function sameCards(a, b) { return a.length === b.length && a.slice().sort().join("|") === b.slice().sort().join("|"); }
function cardPicker(sc, box) {
  if (!S.turn || S.answered) return;
  const multi = S.turn.options.map((o, k) => [o, k + 1]).filter(([o]) => (o.cards || []).length >= 2);
  if (!multi.length) return;
  if (PICK.turn !== S.turn.turn) { PICK.turn = S.turn.turn; PICK.cards = []; }
  const f = el("div", "eform"); f.id = "card-picker";
  f.appendChild(el("h3", null, "Moves with several cards: click the cards, then play them"));
  const cards = el("div", "cards");
  const usable = new Set(); multi.forEach(([o]) => o.cards.forEach((c) => usable.add(c)));
  (sc.hand || []).filter((h) => usable.has(h.id)).forEach((h) => {
    const at = PICK.cards.indexOf(h.id);
    const c = cardEl(h, () => {
      const k = PICK.cards.indexOf(h.id);
      if (k >= 0) PICK.cards.splice(k, 1); else PICK.cards.push(h.id);
      pickHighlight(); drawAll();
    });
    if (at >= 0) { c.classList.add("chosen"); c.appendChild(el("span", "order", at + 1)); }
    cards.appendChild(c);
  });
  f.appendChild(cards);
  const exact = multi.filter(([o]) => sameCards(o.cards, PICK.cards));
  const wider = multi.filter(([o]) => PICK.cards.every((c) => o.cards.includes(c)));
  f.appendChild(el("div", "runline", !PICK.cards.length ? "No card picked yet"
    : exact.length === 1 ? exact[0][0].sentence
    : exact.length > 1 ? exact.length + " moves name exactly these cards: choose one below (outlined)"
    : wider.length ? wider.length + " moves name these cards and more: pick more"
    : "no move names all these cards"));
  const row = el("div", "buttons");
  const go = el("button", "write primary", "Play these cards"); go.id = "pick-play";
  go.disabled = exact.length !== 1;
  go.addEventListener("click", () => { if (exact.length === 1) play(exact[0][1]); });
  const reset = el("button", "write", "Clear"); reset.addEventListener("click", () => { PICK.cards = []; pickHighlight(); drawAll(); });
  row.appendChild(go); row.appendChild(reset); f.appendChild(row);
  box.appendChild(f);
}
function pickHighlight() {
  if (!S.turn || S.answered || !PICK.cards.length) { setSel(null, null); return; }
  const idx = [];
  S.turn.options.forEach((o, k) => { if ((o.cards || []).length >= 2 && PICK.cards.every((c) => o.cards.includes(c))) idx.push(k + 1); });
  const exact = idx.filter((k) => sameCards(S.turn.options[k - 1].cards, PICK.cards));
  setSel(null, exact.length ? exact : idx);  // exactly these cards on several fields: the fields are lit
  drawMoves();
}
