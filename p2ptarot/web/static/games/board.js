// Shared per-game drawing: GAME_SCREENS[game](screen, box) draws into the #gamebox element under
// the piles (a board, a form for a composed move); clickable fields, the several-card picker and the
// text summary are shared by the games' modules (games/<game>.js, paired with present/<game>.py).
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
    const free = !pointable(o) || (!o.card && !((o.cards || []).length >= 2));
    if ((o.targets || []).includes(target) && (picked ? picked.includes(k + 1) : free)) out.push(k + 1);
  });
  return out;
}
// The fields every narrowed move acts on: those already chosen by the clicks so far.
function chosenTargets() {
  const sel = selected();
  if (!sel) return [];
  const lists = sel.options.map((k) => S.turn.options[k - 1].targets || []);
  return lists.reduce((a, b) => a.filter((x) => b.includes(x)));
}
// A click outside the narrowed moves starts over, keeping the board choices that agree with it:
// after "swords +1, wands 0", a click on "swords -1" keeps "wands 0" (Arcanum's Fields); after a
// hand card, it starts over from the place alone.
function regroup(target) {
  const keep = selected() && S.sel.card === null ? chosenTargets() : [];
  setSel(null, null);
  const opts = optionsOn(target);
  if (!keep.length || !opts.length) return opts;
  const score = (k) => keep.filter((x) => (S.turn.options[k - 1].targets || []).includes(x)).length;
  const best = Math.max(...opts.map(score));
  return opts.filter((k) => score(k) === best);
}
function fieldClick(node, target) {
  node.dataset.target = target;
  if (!S.turn || S.answered) return;
  const any = S.turn.options.some((o) => (o.targets || []).includes(target));
  if (!any) return;
  node.classList.add("target");
  if (optionsOn(target).length) node.classList.add("live");
  if (chosenTargets().includes(target)) node.classList.add("picked");  // part of the choice so far
  else if (selected() && !optionsOn(target).length) node.classList.add("dim");
  node.addEventListener("click", (ev) => {
    ev.stopPropagation();
    let opts = optionsOn(target);
    if (!opts.length) opts = regroup(target);  // a new choice starts over (keeping what agrees)
    if (opts.length) { highlight(opts); drawAll(); }  // one left: its preview waits for "Play"
  });
}

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

// ---- several cards at once (discard three, hide two, engage a pair, load the Chariot) -------------
// Click cards to pick them; the moves naming all of them are outlined; when exactly one move names
// exactly them, "Play these cards" plays it.
const PICK = { turn: null, cards: [] };
function sameCards(a, b) { return a.length === b.length && a.slice().sort().join("|") === b.slice().sort().join("|"); }
// The picker is drawn where the hand is, in its place (never a second row of the hand): open at
// once when several-card moves are all the turn offers (Arcanum's discard down to 7), else behind
// "Play several cards together…" while the hand's cards play one at a time.
function cardPicker(sc, box) {
  box = $("pickbox") || box;
  if (!S.turn || S.answered) return;
  const multi = S.turn.options.map((o, k) => [o, k + 1]).filter(([o]) => (o.cards || []).length >= 2 && reachable(o));
  if (!multi.length) return;
  if (PICK.turn !== S.turn.turn) { PICK.turn = S.turn.turn; PICK.cards = []; PICK.open = false; }
  const alone = !S.turn.options.some((o) => o.card);  // no card plays alone: the picker is the hand
  if (!alone && !PICK.open) {
    const bar = el("div", "buttons pickopen");
    const open = el("button", "write", t("Play several cards together…")); open.id = "pick-open";
    open.addEventListener("click", () => { PICK.open = true; setSel(null, null); drawAll(); });
    bar.appendChild(open); box.appendChild(bar);
    return;
  }
  $("handbox").hidden = true;  // the picker's rows are the hand's cards
  const f = el("div", "eform"); f.id = "card-picker";
  f.appendChild(el("h3", null, t("Your cards: click the cards to play together, then play them")));
  const usable = new Set(); multi.forEach(([o]) => o.cards.forEach((c) => usable.add(c)));
  // the hand's cards, and the seat's own cards kept elsewhere where a move names them (Arcanum's
  // hidden cards for the Sun or Temperance, an Arcanoid seat's face-up cards), a row each
  const elsewhere = new Map();
  cardsBeyondHand().forEach((b) => { if (!elsewhere.has(b.label)) elsewhere.set(b.label, []); elsewhere.get(b.label).push(b.face); });
  const fromHand = t("from your hand");
  const rows = [[fromHand, sc.hand || []]].concat([...elsewhere])
    .map(([head, faces]) => [head, faces.filter((h) => usable.has(h.id))]).filter(([, faces]) => faces.length);
  rows.forEach(([head, faces]) => {  // a row's origin is said unless it is the hand alone
    if (rows.length > 1 || head !== fromHand) f.appendChild(el("div", "pickfrom", head));
    const cards = el("div", "cards");
    faces.forEach((h) => {
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
  });
  const exact = multi.filter(([o]) => sameCards(o.cards, PICK.cards));
  const wider = multi.filter(([o]) => PICK.cards.every((c) => o.cards.includes(c)));
  f.appendChild(el("div", "runline", !PICK.cards.length ? t("No card picked yet")
    : exact.length === 1 ? exact[0][0].sentence
    : exact.length > 1 ? t("{n} moves name exactly these cards: choose one below (outlined)", { n: exact.length })
    : wider.length ? t("{n} moves name these cards and more: pick more", { n: wider.length })
    : t("no move names all these cards")));
  const row = el("div", "buttons");
  const go = el("button", "write primary", t("Play these cards")); go.id = "pick-play";
  go.disabled = exact.length !== 1;
  go.addEventListener("click", () => { if (exact.length === 1) play(exact[0][1]); });
  const reset = el("button", "write", t("Clear")); reset.addEventListener("click", () => { PICK.cards = []; pickHighlight(); drawAll(); });
  row.appendChild(go); row.appendChild(reset);
  if (!alone) {
    const back = el("button", "write quiet", t("Back to one card")); back.id = "pick-close";
    back.addEventListener("click", () => { PICK.cards = []; PICK.open = false; pickHighlight(); drawAll(); });
    row.appendChild(back);
  }
  f.appendChild(row);
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
