// Les paris divins (present/paris_divins.py)
"use strict";

// ---- Les paris divins: a card, then a bet field; the seats' stakes --------------------------------
GAME_SCREENS["paris-divins"] = function (sc, box) {
  const w = sc.wager; if (!w) return;
  const root = el("div", "wager"); root.id = "wager-board";
  root.appendChild(el("div", "arc-head", t("Now: {what}", { what: w.phase })));
  if (w.choice) {
    const mine = el("div", "pile"); mine.appendChild(el("h3", null, t("your card, bet on {category}", { category: w.choice.label || w.choice.bet })));
    const cs = el("div", "cards"); cs.appendChild(cardEl(w.choice.card, null)); mine.appendChild(cs);
    root.appendChild(mine);
  }
  const open = S.turn && !S.answered;
  if (open) root.appendChild(el("div", "help", t("Click a card of your hand, then the category you bet on.")));
  const fields = el("div", "bets");
  w.bets.forEach((b) => {
    const f = el("div", "bet"); f.appendChild(el("div", "bname", b.label || b.bet)); f.appendChild(el("div", "bbeats", b.beats));
    fieldClick(f, "bet-" + b.bet);
    fields.appendChild(f);
  });
  root.appendChild(fields);
  const tbl = el("table", "results arc-players");
  const hr = el("tr"); [t("player"), "", t("stake"), t("supply"), t("reserve"), t("rounds won")].forEach((h) => hr.appendChild(el("th", null, h))); tbl.appendChild(hr);
  w.seats.forEach((s) => {
    const tr = el("tr", (s.you ? "you" : "") + (s.active && !s.chosen ? " active" : ""));
    tr.dataset.seat = s.seat;
    tr.appendChild(el("td", null, s.name + (s.you ? " " + t("(you)") : "")));
    tr.appendChild(el("td", null, !s.active ? t("out") : s.chosen ? t("has chosen") : t("choosing…")));
    [s.stake, s.supply, s.reserve, s.rounds_won].forEach((v) => tr.appendChild(el("td", "vp", v)));
    tbl.appendChild(tr);
  });
  root.appendChild(tbl);
  w.history.forEach((line) => root.appendChild(el("div", "arc-scoring", line)));
  box.appendChild(root);
};
