"""The embedded player: story mode in the terminal."""
