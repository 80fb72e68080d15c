// Arcanum (present/arcanum.py)
"use strict";

// ---- Arcanum: the city, the prestige tracks, the players -----------------------------------------
// the court letters of the faces (present/faces.py court_letter), in the page's language: a msgid
// "K|king" reads "K" in English, "R|roi" in French (the word after "|" says which letter it is)
const RANK_SHORT = { knave: t("J|knave").split("|")[0], knight: t("N|knight").split("|")[0],
                     queen: t("Q|queen").split("|")[0], king: t("K|king").split("|")[0], page: t("P|page").split("|")[0] };
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

// the board's fields by name, for the chooser of the figure to move (games/board.js targetChoices)
GAME_TARGET_NAMES.arcanum = function (sc) {
  const names = new Map();
  const b = sc && sc.board; if (!b) return names;
  b.locations.forEach((l) => names.set("loc-" + l.number, l.number + " · " + l.name));
  Object.entries(b.figure_labels || {}).forEach(([id, label]) => {
    const [, house, rank] = id.split("-");
    names.set(id, (HOUSE_SIGN[house] || "") + (RANK_SHORT[rank] || rank) + " " + label);
  });
  return names;
};

GAME_SCREENS.arcanum = function (sc, box) {
  const b = sc.board; if (!b) return;
  const root = el("div", "arcanum"); root.id = "arcanum-board";
  const head = el("div", "arc-head");
  head.appendChild(el("span", "arc-turn", t("Turn {n} of {total}", { n: b.turn, total: b.turns })));
  head.appendChild(el("span", null, t("scorings after turns {turns}", { turns: b.scoring_turns.join(", ") })));
  head.appendChild(el("span", null, t("phase: {phase}", { phase: b.phase })));
  head.appendChild(el("span", null, t("decks: {minor} minors, {major} majors", { minor: b.decks.minor, major: b.decks.major })));
  if (b.devil) head.appendChild(el("span", "devil", t("the Devil doubles every change")));
  root.appendChild(head);
  if (b.decision) {  // a blind decision (the Sun: every other player) waits for us while our turn is open
    const who = S.turn && !S.answered || b.decision.actor === b.seat ? t("you") : b.decision.who;
    root.appendChild(el("div", "arc-decision", t("{name}: {move}", { name: t("Waiting for {names}", { names: who }), move: b.decision.text })));
  }
  if (b.last_scoring) {
    root.appendChild(el("div", "arc-scoring", (b.last_scoring.world ? t("World scoring of turn {n}:", { n: b.last_scoring.turn }) : t("House scoring of turn {n}:", { n: b.last_scoring.turn })) + " " +
      b.players.map((p) => p.name + " +" + (b.last_scoring.vp[p.seat] || 0)).join(", ")));
  }
  // the prestige tracks
  const tracks = el("div", "tracks");
  if (b.fields) {  // Fields: a choice on each track (one chip per House), then "Play"
    tracks.appendChild(el("div", "fields-hint", t("Fields: on each House's track choose −1, 0 or +1 (→ the value it reaches), then Play") +
      (b.fields.double ? " — " + t("the Devil doubles these changes") : "")));
  }
  b.prestige.forEach((trk) => {
    const row = el("div", "track c-" + ({ swords: "steel", wands: "green", cups: "red", coins: "gold" })[trk.house]);
    row.appendChild(el("span", "tname", trk.sign + " " + (trk.name || trk.house)));
    const cells = el("span", "cells");
    for (let v = 0; v <= trk.max; v++) cells.appendChild(el("span", "cell" + (v === trk.value ? " at" : v < trk.value ? " on" : ""), v === trk.value ? String(v) : ""));
    row.appendChild(cells);
    row.appendChild(el("span", "tval", trk.value));
    if (trk.fields) {
      const chips = el("span", "fchips");
      trk.fields.forEach((c) => {
        const change = c.change > 0 ? "+" + c.change : c.change < 0 ? "−" + -c.change : "0";
        const chip = el("span", "fchip", change + " → " + c.reach);
        chip.title = (trk.name || trk.house) + " " + change + " → " + c.reach;
        fieldClick(chip, c.target);
        chips.appendChild(chip);
      });
      row.appendChild(chips);
    }
    row.dataset.house = trk.house;
    fieldClick(row, "house-" + trk.house);
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
    if (l.frozen) tile.appendChild(el("div", "frozenmark", t("frozen by the Tower")));
    withHelp(tile, helpFor("loc-" + l.number));
    fieldClick(tile, "loc-" + l.number);
    city.appendChild(tile);
  });
  root.appendChild(city);
  root.appendChild(el("div", "legend", t("Symbols: ⚔ swords · ⚚ wands · ♥ cups · ⛀ coins · {k} king · {q} queen · {n} knight · {j} knave (each symbol matching the figure that enters gives its House +1 prestige). Hover or tap a location for its effect.", { k: RANK_SHORT.king, q: RANK_SHORT.queen, n: RANK_SHORT.knight, j: RANK_SHORT.knave })));
  // the players
  const tbl = el("table", "results arc-players");
  const hr = el("tr"); ["", t("player"), t("VP"), t("hand"), t("hidden"), t("figures held")].forEach((h) => hr.appendChild(el("th", null, h))); tbl.appendChild(hr);
  b.players.forEach((p) => {
    const tr = el("tr", (p.you ? "you" : "") + (p.active ? " active" : ""));
    tr.dataset.seat = p.seat;
    tr.appendChild(el("td", null, (p.active ? "▶" : "") + (p.first ? " " + t("1st") : "")));
    tr.appendChild(el("td", null, p.name + (p.you ? " " + t("(you)") : "")));
    const vp = el("td", "vp", p.vp); vp.dataset.seat = p.seat; tr.appendChild(vp);
    tr.appendChild(el("td", null, p.hand_text));  // counted with plural forms (present/arcanum.py)
    const hid = el("td", "hidden");
    if (p.hidden_faces.some((f) => f.id)) {
      const row = el("div", "cards mini");
      p.hidden_faces.forEach((f) => { const c = cardEl(f, null); if (f.face_up) c.classList.add("faceup"); row.appendChild(c); });
      hid.appendChild(row);
    } else hid.textContent = t("{n} face down", { n: p.hidden.length }) + (p.hidden.some((c) => c.face_up) ? ", " + t("some face up") : "");
    tr.appendChild(hid);
    tr.appendChild(el("td", null, p.held_figures.map((f) => f.replace(/^fig-/, "").replace("-", " ")).join(", ") || "-"));
    tbl.appendChild(tr);
  });
  root.appendChild(tbl);
  box.appendChild(root);
  cardPicker(sc, box);
};
