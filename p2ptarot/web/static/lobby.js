// The lobby of `p2ptarot web`: open tables seen on the LAN (and, online, on the relays), sitting
// down at one or by an invitation code; and, at the table, the path and round trip of each link.
"use strict";
// ---- lobby (p2ptarot web) ---------------------------------------------------------------------
function drawTables(e) {
  if (S.names.length) return;  // the game has started
  S.room = null;  // a list after a room: sitting there failed (a full table), choose again
  const typed = $("myname") ? $("myname").value : null;
  const kept = keptHostForm();
  const typedCode = $("joincode") ? $("joincode").value : "";
  const box = $("lobby"); box.hidden = false; clear(box);
  S.lobby = true;
  box.appendChild(el("h2", null, e.online ? "Open tables on your network and online" : "Open tables on your network"));
  if (!e.tables.length) box.appendChild(el("p", null, "No table seen yet (looking…)"));
  else {
    const t = el("table", "results lobbytable");
    const hr = el("tr"); ["game", "host", "seats", "where", ""].forEach((h) => hr.appendChild(el("th", null, h))); t.appendChild(hr);
    e.tables.forEach((tb) => {
      const tr = el("tr", tb.online ? "online" : "lan");
      [tb.game + (tb.variant ? " (" + tb.variant + ")" : ""), tb.host, tb.taken + " taken / " + tb.free + " free",
       tb.online ? "online, code " + tb.code : "this network"].forEach((c) => tr.appendChild(el("td", null, c)));
      const td = el("td"); const b = el("button", "join", tb.full ? "full" : "Join");
      b.disabled = tb.full; b.dataset.target = tb.target;
      b.addEventListener("click", () => send({ cmd: "sit", target: tb.target, name: $("myname").value }));
      td.appendChild(b); tr.appendChild(td); t.appendChild(tr);
    });
    box.appendChild(t);
  }
  const form = el("div"); form.appendChild(el("span", null, "Your name: "));
  const inp = el("input"); inp.id = "myname"; inp.maxLength = 40;
  inp.value = typed !== null ? typed : (e.name || ""); form.appendChild(inp);
  box.appendChild(form);
  if (e.online) box.appendChild(codeForm(typedCode));
  if (e.games && e.games.length) box.appendChild(hostForm(e.games, kept, e.online));
}

// ---- an invitation code (XXXXX-XXXXX) or link (p2ptarot:XXXXX-XXXXX) someone gave ----------------
function codeForm(typed) {
  const f = el("div", "codeform"); f.id = "codeform";
  f.appendChild(el("span", null, "Invitation code or link: "));
  const code = el("input"); code.id = "joincode"; code.maxLength = 40; code.placeholder = "XXXXX-XXXXX"; code.value = typed;
  const go = el("button", "join", "Join"); go.id = "joincodebtn";
  go.addEventListener("click", () => { if (code.value.trim()) send({ cmd: "sit", target: code.value.trim(), name: $("myname").value }); });
  f.appendChild(code); f.appendChild(go);
  return f;
}

// ---- at an online table: which path each link took (direct, TURN, relay) and its round trip ----
const PATH_WORDS = { direct: "direct", turn: "through TURN", relay: "on the relays" };
function drawPaths(e) {
  let box = $("paths");
  if (!box) {
    box = el("div", "paths"); box.id = "paths";
    const aside = document.querySelector("aside"); aside.insertBefore(box, aside.firstChild);
  }
  clear(box); box.hidden = !e.links.length;
  box.appendChild(el("h2", null, "Links"));
  const list = el("ul");
  e.links.forEach((l) => {
    const li = el("li", "path-" + l.path, l.name + ": " + (PATH_WORDS[l.path] || l.path)
                  + (l.rtt_ms === null ? "" : ", " + l.rtt_ms + " ms round trip"));
    li.dataset.seat = l.seat; li.dataset.path = l.path; list.appendChild(li);
  });
  box.appendChild(list);
}
handlers.paths = drawPaths;

// ---- hosting a table from the page: game, variant, seats, bots ------------------------------------
function keptHostForm() {
  const v = (id) => ($(id) ? $(id).value : null);
  return { game: v("hostgame"), variant: v("hostvariant"), seats: v("hostseats"), bots: v("hostbots"),
           online: $("hostonline") ? $("hostonline").checked : false };
}
function hostForm(games, kept, online) {
  const f = el("div", "hostform"); f.id = "hostform";
  f.appendChild(el("h2", null, "Or host a table"));
  const game = el("select"); game.id = "hostgame";
  games.forEach((g) => { const o = el("option", null, g.title + " (" + g.players[0] + "–" + g.players[1] + " players)"); o.value = g.name; game.appendChild(o); });
  const variant = el("select"); variant.id = "hostvariant";
  const seats = el("input"); seats.id = "hostseats"; seats.type = "number";
  const bots = el("input"); bots.id = "hostbots"; bots.type = "number"; bots.min = 0;
  const pick = () => games.find((g) => g.name === game.value) || games[0];
  function fit(keepValues) {
    const g = pick();
    clear(variant);
    const names = g.variants.length ? g.variants : [""];
    names.forEach((n) => { const o = el("option", null, n || "(base rules)"); o.value = n; variant.appendChild(o); });
    variant.value = keepValues && kept.variant !== null && names.includes(kept.variant) ? kept.variant : g.default;
    seats.min = g.players[0]; seats.max = g.players[1];
    if (!keepValues || kept.seats === null) seats.value = g.players[0];
    bots.max = Math.max(0, Number(seats.value) - 1);
    if (!keepValues || kept.bots === null) bots.value = Math.max(0, Number(seats.value) - 1);
  }
  if (kept.game !== null) game.value = kept.game;
  if (kept.seats !== null) seats.value = kept.seats;
  if (kept.bots !== null) bots.value = kept.bots;
  fit(true);
  game.addEventListener("change", () => fit(false));
  seats.addEventListener("change", () => { bots.max = Math.max(0, Number(seats.value) - 1); });
  const go = el("button", "host", "Host"); go.id = "hostbtn";
  const where = el("input"); where.id = "hostonline"; where.type = "checkbox";
  where.checked = Boolean(online && kept.online);
  go.addEventListener("click", () => send({ cmd: "host", game: game.value, variant: variant.value,
    seats: Number(seats.value), bots: Number(bots.value), name: $("myname").value, online: where.checked }));
  [["game ", game], [" variant ", variant], [" seats ", seats], [" bots ", bots]].forEach(([label, node]) => {
    f.appendChild(el("span", null, label)); f.appendChild(node);
  });
  if (online) { f.appendChild(el("span", null, " online ")); f.appendChild(where); }
  f.appendChild(go);
  return f;
}
// what the table waits for before it starts (the status line while seated in the lobby)
function lobbyStatus(e) {
  const free = e.seats_total - e.names.length;
  const unready = e.names.filter((n, i) => !e.ready[i]);
  const parts = [];
  if (free > 0) parts.push(free + (free === 1 ? " more player" : " more players"));
  if (unready.length) parts.push(unready.join(", ") + " to be ready");
  return parts.length ? "Before the game: waiting for " + parts.join(" and ") : "Starting the table…";
}

// ---- the room of a table filling up: seats, ready marks, Ready toggle, host's Start now ---------
function drawLobby(e) {
  if (S.names.length) return;  // the game has started
  const before = S.room ? S.room.names.join("\u0000") : null;
  S.room = e; S.lobby = false;
  if (before !== e.names.join("\u0000")) {
    addLog("Seats taken: " + e.names.join(", ") + " (" + e.names.length + "/" + e.seats_total + ")", "notice");
  }
  const box = $("lobby"); box.hidden = false; clear(box);
  box.appendChild(el("h2", null, "Table of " + e.game + ": " + e.names.length + " of " + e.seats_total + " seats taken"));
  const t = el("table", "results seats");
  const hr = el("tr"); ["seat", "player", ""].forEach((h) => hr.appendChild(el("th", null, h))); t.appendChild(hr);
  for (let i = 0; i < e.seats_total; i++) {
    const tr = el("tr", i < e.names.length ? (e.ready[i] ? "ready" : "notready") : "free");
    tr.dataset.seat = i;
    const who = i < e.names.length ? e.names[i] + (i === e.seat ? " (you)" : "") + (i === 0 ? " · host" : "") : "free seat";
    const mark = i >= e.names.length ? "" : (e.bots[i] ? "bot, " : "") + (e.ready[i] ? "ready ✓" : "not ready");
    [i + 1, who, mark].forEach((c) => tr.appendChild(el("td", null, c)));
    t.appendChild(tr);
  }
  box.appendChild(t);
  const mine = e.seat !== null && e.seat !== undefined && e.ready[e.seat];
  const bar = el("div", "lobbybar");
  if (e.seat !== null && e.seat !== undefined && !e.bots[e.seat]) {
    const b = el("button", "ready", mine ? "Not ready" : "Ready");
    b.id = "ready";
    b.addEventListener("click", () => send({ cmd: "ready", ready: !mine }));
    bar.appendChild(b);
  }
  const readyCount = 1 + e.ready.slice(1).filter((r) => r).length;  // the host and the ready joiners
  if (e.host && e.can_start && (e.names.length < e.seats_total || readyCount < e.names.length)) {
    const go = el("button", "start", "Start now with " + readyCount + " players"
                  + (readyCount < e.names.length ? " (those not ready stay out)" : ""));
    go.id = "startnow";
    go.addEventListener("click", () => send({ cmd: "start" }));
    bar.appendChild(go);
  }
  bar.appendChild(el("span", "hint", mine ? "Waiting for the others to be ready…" : "Click Ready when you are."));
  box.appendChild(bar);
}
