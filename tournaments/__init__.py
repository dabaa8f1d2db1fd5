"""Tournaments: events, entries, rounds, matches, pairing, standings. Depends on scoring, never the reverse."""
