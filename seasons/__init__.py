"""Seasons and the points race: a season's ladder from the club nights and the events it counts."""
