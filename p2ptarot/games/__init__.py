"""Game rules engines, one package per game (pure rules: no I/O, no crypto)."""
