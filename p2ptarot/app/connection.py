"""The doctor's report (`net/online/doctor.py`) in the player's words, for `p2ptarot doctor` and
the page's "Check my connection" panel alike: one line per check (with whether it is good
news), the verdict with its reason, and what to do.  The doctor's own sentences are English
(the network layer is language-free); `say` puts them in the interface's language."""

from __future__ import annotations

from typing import Any

from p2ptarot.i18n import N_, _, ngettext
from p2ptarot.i18n.message import render as say

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
    lan = report.lan
    if lan is not None:
        where = ", ".join(f"{card} {ip}" for card, ip in lan.cards) or "?"
        out.append(("zeroconf", bool(lan.cards), _("zeroconf uses: {where}").format(where=where)))
        if lan.problem:
            out.append(("lan", False, _("LAN: multicast cannot be checked ({why})").format(
                why=say(lan.problem))))
        elif lan.heard:
            out.append(("lan", True, ngettext(
                "LAN: multicast heard ({count} other service or computer answered)",
                "LAN: multicast heard ({count} other services or computers answered)",
                len(lan.heard)).format(count=len(lan.heard))))
        else:
            out.append(("lan", False, _("LAN: multicast not heard (no other computer answered "
                                        "within {seconds} s)").format(seconds=f"{lan.wait:g}")))
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
    if not getattr(report, "online", True):  # the LAN only was checked
        pass
    elif stun.udp_blocked:
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
    if report.verdict == "LAN" or report.lan is None or not report.lan.heard:
        return _("verdict: {verdict}, because {why}").format(
            verdict=verdict_word(report.verdict), why=say(report.because))
    return _("verdict: {verdict} (and LAN play), because {why}").format(
        verdict=verdict_word(report.verdict), why=say(report.because))


def advice_lines(report: Report) -> list[str]:
    return [_("to do: {advice}").format(advice=say(line)) for line in report.advice]
