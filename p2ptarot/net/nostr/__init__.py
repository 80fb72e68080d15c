"""NOSTR, as far as p2ptarot needs it: NIP-01 events signed with BIP-340 Schnorr (coincurve),
NIP-44 v2 payload encryption, a small relay pool over aiohttp, and the table's own messages
(adverts, invitation codes, signalling).  Everything but ``pool`` is sans-I/O.
"""
