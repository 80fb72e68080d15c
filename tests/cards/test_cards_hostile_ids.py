"""Card ids come off the wire: any string must either resolve or raise UnknownCardError."""

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.cards import ARCANOID, ARCANUM, UnknownCardError, roses_card, sinople_card, standard_card

LOOKUPS = (ARCANOID.card, ARCANUM.card, roses_card, sinople_card, standard_card)
ALPHABET = "abcdefghijklmnopqrstuvwxyz-#0123456789 "


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(alphabet=ALPHABET, max_size=24), st.text(max_size=8)))
def test_lookups_resolve_or_raise_unknown_card(text: str) -> None:
    for lookup in LOOKUPS:
        try:
            card = lookup(text)
        except UnknownCardError as err:
            assert err.card_id == text
        else:
            assert card.id == text
