"""The doctor's report (`net/online/doctor.py`) in the player's words, for `p2ptarot doctor` and
the page's "Check my connection" panel alike: one line per check (with whether it is good
news), the verdict with its reason, and what to do.  The doctor's own sentences are English
(the network layer is language-free); `say` puts them in the interface's language."""

from __future__ import annotations

from typing import Any

from p2ptarot.i18n import N_, _
from p2ptarot.i18n.reasons import say

#: the doctor's `Report` (net/online/doctor.py; the app layer names no network module)
Report = Any

#: the verdicts, best first ("LAN": online play is off, the LAN still works)
VERDICTS = {"LAN": N_("LAN"), "direct": N_("direct"), "through TURN": N_("through TURN"),
            "relay only (slow)": N_("relay only (slow)"), "nothing": N_("nothing")}
#: the NAT kinds the STUN check tells apart
NATS = {"none": N_("no NAT"), "endpoint-independent": N_("endpoint-independent"),
        "symmetric": N_("symmetric"), "unknown": N_("unknown")}


def check_lines(report: Report) -> list[tuple[str, bool, str]]:
    """(check, good news, sentence) for each check, in the order they ran."""
    out = [("interfaces", bool(report.interfaces), _("interfaces: {list}").format(
        list=", ".join(f"{n} {ip}" for n, ip in report.interfaces)))]
    for r in report.relays:
        if r.carries:
            out.append(("relay", True, _("relay {url}: carries our events (round trip {ms} ms, "
                                         "events up to {cap} characters)").format(
                url=r.url, ms=r.round_trip_ms, cap=r.cap)))
        else:
            out.append(("relay", False, _("relay {url}: not usable ({why})").format(
                url=r.url, why=say(r.problem))))
    stun = report.stun
    for url, ip, port in stun.mapped:
        out.append(("stun", True, _("STUN {url}: this computer is seen as {ip}:{port}").format(
            url=url, ip=ip, port=port)))
    if stun.udp_blocked:
        out.append(("stun", False, _("STUN: no answer over UDP ({why})").format(
            why=say(stun.problem))))
    else:
        out.append(("nat", stun.nat in ("none", "endpoint-independent"),
                    _("NAT: {kind}").format(kind=_(NATS.get(stun.nat, stun.nat)))))
    for t in report.turn:
        out.append(("turn", t.allocated, _("TURN {url}: allocation {result}").format(
            url=t.server, result=_("succeeds") if t.allocated else _("fails ({why})").format(
                why=say(t.problem)))))
    return out


def verdict_word(verdict: str) -> str:
    return _(VERDICTS[verdict]) if verdict in VERDICTS else verdict


def verdict_line(report: Report) -> str:
    """"verdict: direct (and LAN play), because …" or "verdict: nothing: because …"."""
    if report.verdict == "nothing":
        return _("verdict: nothing: because {why}").format(why=say(report.because))
    return _("verdict: {verdict} (and LAN play), because {why}").format(
        verdict=verdict_word(report.verdict), why=say(report.because))


def advice_lines(report: Report) -> list[str]:
    return [_("to do: {advice}").format(advice=say(line)) for line in report.advice]
