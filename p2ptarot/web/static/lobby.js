// The lobby of `p2ptarot web`: open tables seen on the LAN, sitting down at one.
"use strict";
// ---- lobby (p2ptarot web) ---------------------------------------------------------------------
function drawTables(e) {
  if (S.names.length) return;  // already seated
  const typed = $("myname") ? $("myname").value : null;
  const box = $("lobby"); box.hidden = false; clear(box);
  S.lobby = true;
  box.appendChild(el("h2", null, "Open tables on your network"));
  if (!e.tables.length) box.appendChild(el("p", null, "No table seen yet (looking…)"));
  else {
    const t = el("table", "results lobbytable");
    const hr = el("tr"); ["game", "host", "seats", "", ""].forEach((h) => hr.appendChild(el("th", null, h))); t.appendChild(hr);
    e.tables.forEach((tb) => {
      const tr = el("tr");
      [tb.game + (tb.variant ? " (" + tb.variant + ")" : ""), tb.host, tb.taken + " taken / " + tb.free + " free"].forEach((c) => tr.appendChild(el("td", null, c)));
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
}
function drawLobby(e) {
  addLog("Seats taken: " + e.names.join(", ") + " (" + e.names.length + "/" + e.seats_total + ")", "notice");
}

