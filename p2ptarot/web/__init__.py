"""The browser table: a page served by the player's own peer on 127.0.0.1 (never on the mesh)."""
