"""Stored players, games and hands. The calculator of the foundation issue stores nothing."""
