"""Pure pairing and bracket code (round robin, Swiss, elimination): no Django import. Not built yet."""
