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
  const quiet = noDefaultStun();
  const box = $("lobby"); box.hidden = false; clear(box);
  S.lobby = true;
  box.appendChild(el("h2", null, e.online ? t("Open tables on your network and online") : t("Open tables on your network")));
  if (!e.tables.length) box.appendChild(el("p", null, t("No table seen yet (looking…)")));
  else {
    const tbl = el("table", "results lobbytable");
    const hr = el("tr"); [t("game"), t("host"), t("seats"), t("where"), ""].forEach((h) => hr.appendChild(el("th", null, h))); tbl.appendChild(hr);
    e.tables.forEach((tb) => {
      const tr = el("tr", tb.online ? "online" : "lan");
      [tb.game + (tb.variant ? " (" + tb.variant + ")" : ""), tb.host, t("{taken} taken / {free} free", { taken: tb.taken, free: tb.free }),
       tb.online ? t("online, code {code}", { code: tb.code }) : t("this network")].forEach((c) => tr.appendChild(el("td", null, c)));
      const td = el("td"); const b = el("button", "join", tb.full ? t("full") : t("Join"));
      b.disabled = tb.full; b.dataset.target = tb.target;
      b.addEventListener("click", () => send({ cmd: "sit", target: tb.target, name: $("myname").value, no_default_stun: noDefaultStun() }));
      td.appendChild(b); tr.appendChild(td); tbl.appendChild(tr);
    });
    box.appendChild(tbl);
  }
  const form = el("div"); form.appendChild(el("span", null, t("Your name:") + " "));
  const inp = el("input"); inp.id = "myname"; inp.maxLength = 40;
  inp.value = typed !== null ? typed : (e.name || ""); form.appendChild(inp);
  box.appendChild(form);
  if (e.online) box.appendChild(codeForm(typedCode));
  if (e.games && e.games.length) box.appendChild(hostForm(e.games, kept, e.online));
  box.appendChild(doctorPanel(e.online, quiet));
}

// ---- "Check my connection": the doctor's checks run by the page's server, and its verdict;
// online, the setting "no public STUN server" (the page's --no-default-stun) ---------------------
function noDefaultStun() { return $("nodefaultstun") ? $("nodefaultstun").checked : Boolean(S.quietStun); }
const VERDICT_WORDS = { "LAN": t("LAN"), "direct": t("direct"), "through TURN": t("through TURN"),
                        "relay only (slow)": t("relay only (slow)"), "nothing": t("nothing") };
function doctorPanel(online, quiet) {
  const f = el("div", "doctor"); f.id = "doctor";
  f.appendChild(el("h2", null, t("Check my connection")));
  if (online) {
    const row = el("label", "quietstun");
    const box = el("input"); box.id = "nodefaultstun"; box.type = "checkbox"; box.checked = quiet;
    box.addEventListener("change", () => { S.quietStun = box.checked; });
    row.appendChild(box);
    row.appendChild(el("span", null, " " + t("contact no public STUN server (homes behind NATs then rarely link directly)")));
    f.appendChild(row);
  }
  const go = el("button", "check", t("Check my connection")); go.id = "doctorbtn";
  go.addEventListener("click", () => send({ cmd: "doctor", no_default_stun: noDefaultStun() }));
  f.appendChild(go);
  const out = el("div", "doctorresult"); out.id = "doctorresult"; f.appendChild(out);
  fillDoctor(out, S.doctor);
  return f;
}
function fillDoctor(out, e) {
  clear(out);
  if (!e) return;
  if (e.running) { out.appendChild(el("p", "hint", t("Checking the relays, STUN and TURN… (up to a minute)"))); return; }
  const list = el("ul", "checks");
  e.checks.forEach((c) => { const li = el("li", c.ok ? "ok" : "bad", (c.ok ? "✓ " : "✗ ") + c.text); li.dataset.check = c.check; list.appendChild(li); });
  out.appendChild(list);
  const v = el("p", "verdict", e.said); v.id = "verdict"; v.dataset.verdict = e.verdict;
  v.insertBefore(el("strong", null, (VERDICT_WORDS[e.verdict] || e.verdict) + " — "), v.firstChild);
  out.appendChild(v);
  if (e.advice.length) {
    const todo = el("ul", "advice");
    e.advice.forEach((a) => todo.appendChild(el("li", null, a)));
    out.appendChild(todo);
  }
}
handlers.doctor = (e) => {
  S.doctor = e;
  const out = $("doctorresult"); if (out) fillDoctor(out, e);
};

// ---- an invitation code (XXXXX-XXXXX) or link (p2ptarot:XXXXX-XXXXX) someone gave ----------------
function codeForm(typed) {
  const f = el("div", "codeform"); f.id = "codeform";
  f.appendChild(el("span", null, t("Invitation code or link:") + " "));
  const code = el("input"); code.id = "joincode"; code.maxLength = 40; code.placeholder = "XXXXX-XXXXX"; code.value = typed;
  const go = el("button", "join", t("Join")); go.id = "joincodebtn";
  go.addEventListener("click", () => { if (code.value.trim()) send({ cmd: "sit", target: code.value.trim(), name: $("myname").value, no_default_stun: noDefaultStun() }); });
  f.appendChild(code); f.appendChild(go);
  return f;
}

// ---- at an online table: which path each link took (direct, TURN, relay) and its round trip ----
const PATH_WORDS = { direct: t("direct"), turn: t("through TURN"), relay: t("on the relays") };
function drawPaths(e) {
  let box = $("paths");
  if (!box) {
    box = el("div", "paths"); box.id = "paths";
    const aside = document.querySelector("aside"); aside.insertBefore(box, aside.firstChild);
  }
  clear(box); box.hidden = !e.links.length;
  box.appendChild(el("h2", null, t("Links")));
  const list = el("ul");
  e.links.forEach((l) => {
    const li = el("li", "path-" + l.path, t("{name}: {move}", { name: l.name, move: PATH_WORDS[l.path] || l.path })
                  + (l.rtt_ms === null ? "" : ", " + t("{ms} ms round trip", { ms: l.rtt_ms })));
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
  f.appendChild(el("h2", null, t("Or host a table")));
  const game = el("select"); game.id = "hostgame";
  games.forEach((g) => { const o = el("option", null, g.title + " (" + t("{min}–{max} players", { min: g.players[0], max: g.players[1] }) + ")"); o.value = g.name; game.appendChild(o); });
  const variant = el("select"); variant.id = "hostvariant";
  const seats = el("input"); seats.id = "hostseats"; seats.type = "number";
  const bots = el("input"); bots.id = "hostbots"; bots.type = "number"; bots.min = 0;
  const pick = () => games.find((g) => g.name === game.value) || games[0];
  function fit(keepValues) {
    const g = pick();
    clear(variant);
    const names = g.variants.length ? g.variants : [""];
    names.forEach((n) => { const o = el("option", null, n || t("(base rules)")); o.value = n; variant.appendChild(o); });
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
  const go = el("button", "host", t("Host")); go.id = "hostbtn";
  const where = el("input"); where.id = "hostonline"; where.type = "checkbox";
  where.checked = Boolean(online && kept.online);
  go.addEventListener("click", () => send({ cmd: "host", game: game.value, variant: variant.value,
    seats: Number(seats.value), bots: Number(bots.value), name: $("myname").value, online: where.checked,
    no_default_stun: noDefaultStun() }));
  [[t("game") + " ", game], [" " + t("variant") + " ", variant], [" " + t("seats") + " ", seats], [" " + t("bots") + " ", bots]].forEach(([label, node]) => {
    f.appendChild(el("span", null, label)); f.appendChild(node);
  });
  if (online) { f.appendChild(el("span", null, " " + t("online") + " ")); f.appendChild(where); }
  f.appendChild(go);
  return f;
}
// what the table waits for before it starts (the status line while seated in the lobby)
function lobbyStatus(e) {
  const free = e.seats_total - e.names.length;
  const unready = e.names.filter((n, i) => !e.ready[i]);
  // one sentence per reason, each its own msgid (singular and plural apart: a language agrees
  // its words with the count and the names, never "waiting for … to be ready" glued together)
  const parts = [];
  if (free > 0) parts.push(t("Before the game: waiting for {what}", { what: free === 1 ? t("1 more player") : t("{n} more players", { n: free }) }));
  if (unready.length) parts.push(unready.length === 1 ? t("{name} is not ready yet", { name: unready[0] }) : t("{names} are not ready yet", { names: unready.join(", ") }));
  return parts.length ? parts.join(" — ") : t("Starting the table…");
}

// ---- the room of a table filling up: seats, ready marks, Ready toggle, host's Start now ---------
function drawLobby(e) {
  if (S.names.length) return;  // the game has started
  const before = S.room ? S.room.names.join("\u0000") : null;
  S.room = e; S.lobby = false;
  if (before !== e.names.join("\u0000")) {
    addLog(t("Seats taken: {names}", { names: e.names.join(", ") }) + " (" + e.names.length + "/" + e.seats_total + ")", "notice");
  }
  const box = $("lobby"); box.hidden = false; clear(box);
  box.appendChild(el("h2", null, t("{game}: seats taken {taken} of {total}", { game: e.game, taken: e.names.length, total: e.seats_total })));
  const tbl = el("table", "results seats");
  const hr = el("tr"); [t("seat"), t("player"), ""].forEach((h) => hr.appendChild(el("th", null, h))); tbl.appendChild(hr);
  for (let i = 0; i < e.seats_total; i++) {
    const tr = el("tr", i < e.names.length ? (e.ready[i] ? "ready" : "notready") : "free");
    tr.dataset.seat = i;
    const who = i < e.names.length ? e.names[i] + (i === e.seat ? " " + t("(you)") : "") + (i === 0 ? " · " + t("host") : "") : t("free seat");
    const mark = i >= e.names.length ? "" : (e.bots[i] ? t("bot") + ", " : "") + (e.ready[i] ? t("ready") + " ✓" : t("not ready"));
    [i + 1, who, mark].forEach((c) => tr.appendChild(el("td", null, c)));
    tbl.appendChild(tr);
  }
  box.appendChild(tbl);
  const mine = e.seat !== null && e.seat !== undefined && e.ready[e.seat];
  const bar = el("div", "lobbybar");
  if (e.seat !== null && e.seat !== undefined && !e.bots[e.seat]) {
    const b = el("button", "ready", mine ? t("Not ready") : t("Ready"));
    b.id = "ready";
    b.addEventListener("click", () => send({ cmd: "ready", ready: !mine }));
    bar.appendChild(b);
  }
  const readyCount = 1 + e.ready.slice(1).filter((r) => r).length;  // the host and the ready joiners
  if (e.host && e.can_start && (e.names.length < e.seats_total || readyCount < e.names.length)) {
    const go = el("button", "start", t("Start now with {n} players", { n: readyCount })
                  + (readyCount < e.names.length ? " " + t("(those not ready stay out)") : ""));
    go.id = "startnow";
    go.addEventListener("click", () => send({ cmd: "start" }));
    bar.appendChild(go);
  }
  bar.appendChild(el("span", "hint", mine ? t("Waiting for the others to be ready…") : t("Click Ready when you are.")));
  box.appendChild(bar);
}
