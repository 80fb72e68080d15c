"""What both Tarot des Roses games share: index tables over the 96-card deck (roses.md §1)."""
