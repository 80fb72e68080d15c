// Wiring: the page's own controls, then the connection to the peer.
"use strict";
$("chat").addEventListener("submit", (ev) => { ev.preventDefault(); const line = $("chatline").value.trim(); if (line) send({ cmd: "chat", text: line }); $("chatline").value = ""; });
$("leave").addEventListener("click", () => { if (confirm(t("Leave the table? You can come back with p2ptarot join --resume."))) send({ cmd: "leave" }); });
$("botplay").addEventListener("click", () => send({ cmd: "bot" }));
$("takeback").addEventListener("click", () => send({ cmd: "back" }));
$("rfirst").addEventListener("click", () => replayStep(0));
$("rprev").addEventListener("click", () => replayStep(S.replay.pos - 1));
$("rnext").addEventListener("click", () => replayStep(S.replay.pos + 1));
$("rlast").addEventListener("click", () => replayStep(S.replay.frames.length - 1));
$("rulesbtn").addEventListener("click", () => { $("rulesbox").hidden = !$("rulesbox").hidden; });
$("rulesclose").addEventListener("click", () => { $("rulesbox").hidden = true; });
connect();
