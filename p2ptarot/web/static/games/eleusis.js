// Eleusis (present/eleusis.py)
"use strict";

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
  addLog((e.ok ? "" : t("not taken:") + " ") + e.text, "notice");
  if (e.played) { S.answered = true; ELEUSIS.forms = {}; ELEUSIS.run = []; }
};

function replyBox(form) {
  const box = el("div", "formreply"); box.id = form + "-result";
  const r = ELEUSIS.reply;
  if (!r || r.form !== form) return box;
  box.classList.add(r.ok ? "ok" : "bad");
  box.appendChild(el("div", "msg", r.text + (r.line ? " " + t("(line {line}, column {column})", { line: r.line, column: r.column }) : "")));
  if (r.line && r.excerpt && r.excerpt.trim()) {  // an empty line (the rule ended early): no box
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
    f.appendChild(el("h3", null, t("Write your secret rule (ERL — see spec/ERL.md)")));
    f.appendChild(el("p", "help", t("The rule says which card may follow the main line: c is the candidate, p1 the last card, p2 the one before…; e.g. accept c.color != p1.color. Check it, then commit it: the other players never see it until the end of the round.")));
    const pick = el("select"); pick.id = "erl-examples";
    const first = el("option", null, t("load an example rule…")); first.value = ""; pick.appendChild(first);
    ev.examples.forEach((x, i) => { const o = el("option", null, x.name + " (" + t("difficulty {n}", { n: x.difficulty }) + ")"); o.value = String(i); pick.appendChild(o); });
    const ta = el("textarea"); ta.id = "erl-text"; ta.rows = 5; ta.spellcheck = false;
    ta.placeholder = "accept c.color != p1.color";
    const count = el("span", "count", "");
    const recount = () => {
      const n = new TextEncoder().encode(ta.value).length;
      count.textContent = t("{n} / {max} bytes", { n, max: ev.max_rule_bytes });
      count.classList.toggle("bad", n > ev.max_rule_bytes);
    };
    pick.addEventListener("change", () => { if (pick.value !== "") { ta.value = ev.examples[Number(pick.value)].text; recount(); } });
    ta.addEventListener("input", recount);
    f.appendChild(pick); f.appendChild(ta); f.appendChild(count);
    const row = el("div", "buttons");
    const check = el("button", "write", t("Check the rule")); check.id = "erl-check";
    const commit = el("button", "write primary", t("Commit this rule")); commit.id = "erl-commit";
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
    f.appendChild(el("h3", null, t("Give the players a hint (optional)")));
    f.appendChild(el("p", "help", t("Structured hints are checked against your rule when it is opened: only true ones can be chosen. A free-text hint is table talk.")));
    ev.hints.forEach((h) => {
      const lab = el("label", "hint" + (h.holds ? "" : " off"));
      const box = el("input"); box.type = "checkbox"; box.value = h.hint; box.disabled = !h.holds;
      lab.appendChild(box); lab.appendChild(document.createTextNode(" " + h.hint + (h.holds ? "" : " " + t("(false of your rule)"))));
      f.appendChild(lab);
    });
    const txt = el("input"); txt.id = "hint-text"; txt.maxLength = ev.max_hint_text; txt.placeholder = t("free-text hint (or nothing)");
    f.appendChild(txt);
    const give = el("button", "write primary", t("Give this hint")); give.id = "hint-give";
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

// A run is picked from the hand itself: "Play a run…" swaps the hand for the same cards to click
// in order (never a second row of the hand above it), "Back to one card" swaps it back.
function runForm(ev) {
  if (ELEUSIS.runTurn !== S.turn.turn) { ELEUSIS.run = []; ELEUSIS.runTurn = S.turn.turn; ELEUSIS.runOpen = false; }
  if (!ELEUSIS.runOpen) {
    const bar = el("div", "buttons runbar");
    const open = el("button", "write", t("Or play a run of 2 to {max} cards…", { max: ev.max_run })); open.id = "run-open";
    open.addEventListener("click", () => { ELEUSIS.runOpen = true; drawScreen(); });
    bar.appendChild(open);
    return bar;
  }
  const f = el("div", "eform"); f.id = "run-form";
  f.appendChild(el("h3", null, t("Your hand: click the run's cards in order (2 to {max})", { max: ev.max_run })));
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
  f.appendChild(el("div", "runline", chosen.length ? t("Run: {cards}", { cards: chosen.map((h) => h.face.name).join(" → ") }) : t("No card chosen yet")));
  const row = el("div", "buttons");
  const go = el("button", "write primary", t("Play the run")); go.id = "run-play";
  go.disabled = chosen.length < 2;
  go.addEventListener("click", () => sendWrite("run", { handles: ELEUSIS.run.slice() }));
  const reset = el("button", "write", t("Clear")); reset.addEventListener("click", () => { ELEUSIS.run = []; drawScreen(); });
  const back = el("button", "write quiet", t("Back to one card")); back.id = "run-close";
  back.addEventListener("click", () => { ELEUSIS.run = []; ELEUSIS.runOpen = false; drawScreen(); });
  row.appendChild(go); row.appendChild(reset); row.appendChild(back); f.appendChild(row);
  f.appendChild(replyBox("run"));
  return f;
}

function eleusisLayout(ev) {
  const box = el("div", "layout"); box.id = "eleusis-layout";
  box.appendChild(el("div", "lcaption", t("main line →") + "\n" + t("wrong plays ↓")));
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
  head.appendChild(el("span", null, t("dealer: {name}", { name: dealer ? dealer.name + (dealer.you ? " " + t("(you)") : "") : "-" })));
  head.appendChild(el("span", null, t("layout {n} cards, stock {stock}", { n: ev.size, stock: ev.stock })));
  if (ev.sudden_death) head.appendChild(el("span", "devil", t("SUDDEN DEATH")));
  root.appendChild(head);
  const hints = ev.hints_given.concat(ev.hint_text ? ['"' + ev.hint_text + '"'] : []);
  if (hints.length) root.appendChild(el("div", "arc-scoring", t("Hints: {hints}", { hints: hints.join("; ") })));
  if (ev.rule) {
    root.appendChild(el("div", "help", ev.seat === ev.dealer && ev.phase !== "over" ? t("Your secret rule (only you see it until it is opened):") : t("The rule:")));
    root.appendChild(el("pre", "rule", ev.rule));
  }
  if (ev.last_event) root.appendChild(el("div", "arc-decision", ev.last_event));
  if (ev.pending && /judge|call|answer|pick/.test(ev.phase)) {  // the play being judged
    const p = el("div", "pile"); const who = ev.players[ev.pending.seat];
    p.appendChild(el("h3", null, (who ? who.name : "?") + " " + (ev.pending.no_play ? t("declares “no play”, showing") : t("plays")) + (ev.pending.call ? " — " + t("the Sage calls {verdict}", { verdict: t(ev.pending.call) }) : "")));
    const cs = el("div", "cards"); ev.pending.cards.forEach((f) => cs.appendChild(pointCard(f))); p.appendChild(cs);  // the "pick": a click names one
    root.appendChild(p);
  }
  if (ev.columns.length) root.appendChild(eleusisLayout(ev));
  const tbl = el("table", "results arc-players");
  const hr = el("tr"); [t("player"), t("cards"), "", t("total")].forEach((h) => hr.appendChild(el("th", null, h))); tbl.appendChild(hr);
  ev.players.forEach((p) => {
    const tr = el("tr", (p.you ? "you" : "") + (p.seat === ev.current && ev.phase === "play" ? " active" : ""));
    tr.dataset.seat = p.seat;
    tr.appendChild(el("td", null, p.name + (p.you ? " " + t("(you)") : "")));
    tr.appendChild(el("td", null, p.dealer ? "—" : p.cards));
    tr.appendChild(el("td", null, [p.dealer && t("dealer"), p.sage && t("Sage"), p.false_prophet && t("false prophet"), p.eliminated && t("eliminated")].filter(Boolean).join(", ")));
    tr.appendChild(el("td", "vp", p.total));
    tbl.appendChild(tr);
  });
  root.appendChild(tbl);
  const open = S.turn && !S.answered && ev.seat !== null;
  if (open && ev.phase === "rule" && ev.seat === ev.dealer) root.appendChild(ruleForm(ev));
  if (open && ev.phase === "hint" && ev.seat === ev.dealer) root.appendChild(hintForm(ev));
  const running = open && ev.phase === "play" && ev.seat === ev.current && ev.hand.length >= 2;
  if (running) root.appendChild(runForm(ev));
  box.appendChild(root);
  if (running && ELEUSIS.runOpen) $("handbox").hidden = true;  // the run's cards are the hand
  if (ev.seat === ev.dealer) $("handbox").hidden = true;  // the dealer holds no cards
};
