// Arcanoïd (present/arcanoid.py)
"use strict";

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
    col.appendChild(el("div", "fname", f.sign + " " + (f.name || f.field)));  // the field's name in the page's language
    f.notes.forEach((n) => col.appendChild(el("div", "fnote", n)));
    if (!f.entries.length && !f.notes.length) col.appendChild(el("div", "fnote", t("nobody engaged yet")));
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
