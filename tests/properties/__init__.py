"""Property tests: seeded random legal playouts of every registered game (STYLE habit 11c)."""
