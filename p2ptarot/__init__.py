"""p2ptarot: serverless, cheat-proof play of tarot-deck card games."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 3  # 3: the group is ristretto255 (edwards25519 up to 2)
