"""The scoring app's web pages, one module per concern: ``pages`` (home, calculator, games list, new
players and games, referee links), ``sheet`` (the score sheet and history), ``table`` (entering,
accepting, correcting a hand at the table); ``common`` what they share."""
