// Arcanum (present/arcanum.py)
"use strict";

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
