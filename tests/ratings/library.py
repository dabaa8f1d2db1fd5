"""The reference the rating tests hold the ratings to: openskill itself, called directly."""

from openskill.models import PlackettLuce


def library_ratings(games):
    """openskill's Plackett-Luce fed ``games`` in date order, each as (sides of player ids, ranks):
    {player: (mu, sigma)}."""
    model = PlackettLuce()
    held = {}
    for sides, ranks in games:
        teams = [[held.get(p) or model.rating() for p in side] for side in sides]
        for side, team in zip(sides, model.rate(teams, ranks=ranks), strict=True):
            for p, r in zip(side, team, strict=True):
                held[p] = r
    return {p: (r.mu, r.sigma) for p, r in held.items()}
