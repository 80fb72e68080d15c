"""`p2ptarot demo` (what `make demo` runs) advertises tables a joiner of this build finds. That
it shows the game while it is played and keeps its exit status (0 only when the game completed,
the peers agree and the transcript verified) is tests/e2e/test_network_game.py's
test_demo_three_peers_through_zeroconf: one whole sinople game over the network, not two."""

from __future__ import annotations

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.net.txt import TableInfo


def test_tables_are_advertised_with_this_builds_protocol_version() -> None:
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=2, fingerprint="AAAA")
    assert info.version == PROTOCOL_VERSION  # else no joiner ever finds the table
