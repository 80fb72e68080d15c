"""What both Tarot des Roses games share: index tables over the 96-card deck
(spec/games/roses.md, rules §1)."""
