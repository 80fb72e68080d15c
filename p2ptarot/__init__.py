"""p2ptarot: serverless, cheat-proof play of tarot-deck card games."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 7  # 7: exact transcript framing, a coin opening bound to its purpose,
#   abort records specified (a malformed one convicts nobody); 6: shuffles name their input and output handles, strict decoding (top
#   bit, sealed sizes); 5: stand-in policy in the charter, `by` on move bodies; 4: blind
#   simultaneous turns, engine secrets; 3: ristretto255 group
