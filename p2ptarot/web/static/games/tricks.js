// Trick games drawn as a table (present/tricks.py)
"use strict";

// ---- trick games (sinople, trois roses): seats around a table, the trick in the middle ------------
function trickTable(sc, box) {
  const T = sc.tricktable; if (!T) { tableSummary(sc, box); return; }
  const n = T.seats.length;
  const me = T.seats.findIndex((p) => p.you);
  const table = el("div", "tricktable"); table.id = "trick-table";
  const felt = el("div", "felt");
  const centre = el("div", "centre");
  // the trick's caption above the table, never under the seats drawn around it
  if (T.centre) table.appendChild(el("div", "ctext", T.centre));
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
    seat.appendChild(el("div", "tname", p.name + (p.you ? " " + t("(you)") : "") + (p.dealer ? " · " + t("dealer") : "")));
    const chips = el("div", "chips");
    if (p.hand !== null && p.hand !== undefined) chips.appendChild(el("span", "chip", t("hand {n}", { n: p.hand })));
    p.stats.forEach(([label, value]) => chips.appendChild(el("span", "chip", t("{name}: {move}", { name: label, move: value }))));
    seat.appendChild(chips);
    felt.appendChild(seat);
    if (p.card) { const c = cardEl(p.card, null); c.appendChild(el("span", "owner", p.name)); trick.appendChild(c); }
  });
  centre.appendChild(trick);
  table.appendChild(felt);
  if (T.last) table.appendChild(el("div", "tlast", T.last));
  box.appendChild(table);
}
