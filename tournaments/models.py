"""Events, entries, rounds and matches: not built yet (the tournament issue will)."""
