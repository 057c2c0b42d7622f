"""Helpers and data for the Big Sur tests: arranging a table position like a chess FEN."""
