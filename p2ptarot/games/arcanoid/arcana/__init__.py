"""The 22 major arcana (rules §6), one module per card or per group, each citing its section.

Each module offers `check(g, pid, move)` (pure legality, raises IllegalMove) and
`play(g, pid, move, zone)` (a generator applying the effect; returns True for a replay).
`zone` is where the arcanum came from: "hand", "visible" or "justice".
"""
