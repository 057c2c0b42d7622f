"""The game-night table companion: sessions over the rules engines, and the Kivy app."""

__version__ = "0.1.0"
