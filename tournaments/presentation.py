"""How an engine answer is laid out on a page: bracket columns, round titles, the event's status line,
the links to entries' pages.

It arranges and words what the engine answered; it never decides a pairing, a winner or a place
(the engine did), and it reads no database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse

FINAL_TITLES = {"GF1": "Grand final", "GF2": "Grand final, reset", "3P": "Third place"}


@dataclass(frozen=True)
class Slot:
    name: str | None
    note: str
    won: bool = False
    url: str = ""  # a stored event's entry page


@dataclass(frozen=True)
class BracketMatch:
    id: str
    status: str
    slots: tuple[Slot, ...]
    margin: int | None
    forfeit: bool
    url: str = ""  # a stored event's match page

    @property
    def is_bye(self) -> bool:
        return self.status == "bye" or any(slot.note == "bye" and slot.name is None for slot in self.slots)


@dataclass(frozen=True)
class BracketRound:
    title: str
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class BracketSection:
    title: str
    rounds: tuple[BracketRound, ...]


def _slot_note(origin: dict) -> str:
    if "winner_of" in origin:
        return f"winner of {origin['winner_of']}"
    if "loser_of" in origin:
        return f"loser of {origin['loser_of']}"
    return "bye" if origin.get("bye") else f"seed {origin.get('seed')}"


def _is_bye_place(origin: dict, rows: dict[str, dict]) -> bool:
    """Whether a place of a match is a bye: an empty slot, the loser of a bye or the winner of two byes."""
    if origin.get("bye"):
        return True
    if "loser_of" in origin:
        source = rows.get(origin["loser_of"])
        return source is not None and len(source["players"]) < 2
    if "winner_of" in origin:
        source = rows.get(origin["winner_of"])
        return source is not None and source["players"] == []
    return False


def _match(row: dict, rows: dict[str, dict], urls: dict[str, str], entry_urls: dict[str, str]) -> BracketMatch:
    players = row["players"]
    origins = row.get("from") or [{}, {}]
    if len(players) == 2:
        slots = tuple(
            Slot(name=name, note=_slot_note(origin), won=name is not None and name == row["winner"],
                 url=entry_urls.get(name or "", ""))
            for name, origin in zip(players, origins, strict=True)
        )
    else:
        # A bye match lists only its real player (EVENTS.md): put them in their place, "bye" in the other.
        real = iter(players)
        slots = tuple(
            Slot(name=None, note="bye") if _is_bye_place(origin, rows)
            else _slot(next(real, None), _slot_note(origin), entry_urls)
            for origin in origins
        )
    return BracketMatch(
        id=row["id"], status=row["status"], slots=slots, margin=row["margin"], forfeit=bool(row["forfeit"]),
        url=urls.get(row["id"], ""),
    )


def _slot(name: str | None, note: str, entry_urls: dict[str, str]) -> Slot:
    return Slot(name=name, note=note, url=entry_urls.get(name or "", ""))


def _round_title(bracket: str, round_number: int, last: int) -> str:
    if bracket == "winners":
        from_last = last - round_number
        named = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
        return named.get(from_last, f"Round {round_number}")
    if round_number == last:
        return "Losers' final"
    return f"Losers' round {round_number}"


def bracket_sections(bracket: list[dict], *, double: bool, urls: dict[str, str] | None = None,
                     entry_urls: dict[str, str] | None = None) -> list[BracketSection]:
    """The engine's bracket rows as sections (winners', losers', finals) of round columns; ``urls``: a
    page to link each match id to (a stored event's match pages); ``entry_urls``: a page to link each
    name to (a stored event's entry pages)."""
    urls, entry_urls = urls or {}, entry_urls or {}
    by_id = {row["id"]: row for row in bracket}
    sections = []
    for key, title in (("winners", "Winners' bracket" if double else "Bracket"), ("losers", "Losers' bracket")):
        rows = [row for row in bracket if row["bracket"] == key]
        if not rows:
            continue
        last = max(row["round"] for row in rows)
        rounds = []
        for number in range(1, last + 1):
            matches = tuple(_match(row, by_id, urls, entry_urls) for row in rows if row["round"] == number)
            title_here = _round_title(key, number, last)
            if key == "winners" and double and title_here == "Final":
                title_here = "Winners' final"
            rounds.append(BracketRound(title=title_here, matches=matches))
        sections.append(BracketSection(title=title, rounds=tuple(rounds)))
    finals = [row for row in bracket if row["bracket"] == "final"]
    if finals:
        sections.append(BracketSection(
            title="Finals" if double else "Third place",
            rounds=tuple(BracketRound(title=FINAL_TITLES.get(row["id"], row["id"]),
                                      matches=(_match(row, by_id, urls, entry_urls),))
                         for row in finals),
        ))
    return sections


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st: a place in words a phone shows."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"


def prize_placings(prizes: list[dict], standings: list[dict], *, final: bool) -> list[dict]:
    """The prize list beside the standings: each ``{"place", "ordinal", "prize", "name", "entry"}``, the name
    and entry id those of the standings row at that position once ``final`` (None before, or when fewer
    entries finished). Where a rank is shared, the engine's order of the rows decides who is shown at
    which place: the standings are never re-sorted here."""
    placings = []
    for p in prizes:
        row = standings[p["place"] - 1] if final and p["place"] <= len(standings) else None
        placings.append({"place": p["place"], "ordinal": ordinal(p["place"]), "prize": p["prize"],
                         "name": row["name"] if row else None, "entry": row.get("entry") if row else None})
    return placings


def status_line(answer: dict) -> str:
    """One sentence a director reads first: where the event stands."""
    if answer["complete"]:
        champion = answer.get("champion")
        return f"Complete. Champion: {champion}." if champion else "Complete: the top places are shared."
    upcoming = answer.get("next_round")
    if upcoming:
        of = f" of {answer['rounds']}" if answer.get("rounds") else ""
        return f"Round {upcoming['round']}{of} is paired: enter its results below."
    pending = answer.get("pending") or []
    if answer.get("bracket") is not None:
        return f"{len(pending)} bracket match{'es' if len(pending) != 1 else ''} ready to play."
    rounds = sorted({p["round"] for p in pending})
    return f"Round {', '.join(map(str, rounds))}: {len(pending)} result{'s' if len(pending) != 1 else ''} still owed."


def event_status_line(event, answer: dict, current_round: int | None = None,
                      unfinished: list[dict] | None = None) -> str:
    """Where a stored event stands, in one sentence: registration, the round being played, the bracket,
    or the champion. ``current_round``: the last round paired (the engine cannot tell a round paired
    but without results yet from one not paired). ``unfinished`` (``selectors.unfinished_tables``): the
    tables still to finish in every round, which the directors' page names, so both say the same."""
    if event.status == "cancelled":
        return "Cancelled: nothing more is played or recorded in it."
    if unfinished and not answer["complete"] and event.status != "registration":
        rounds = sorted({r["round"] for r in unfinished if r["round"]})
        of = f" of {answer['rounds']}" if answer.get("rounds") else ""
        where = " and ".join(map(str, rounds))
        count = len(unfinished)
        return (f"Round{'s' if len(rounds) > 1 else ''} {where}{of} {'are' if len(rounds) > 1 else 'is'} being "
                f"played: {count} table{'s' if count != 1 else ''} still to finish.")
    if answer.get("waiting_for_entries") is not None:
        return "Registration: an event needs at least two entries."
    if event.status == "registration":
        first = "start the bracket" if answer.get("bracket") is not None else "pair round 1"
        return f"Registration: {len(answer['standings'])} entries so far; {first} when everyone is in."
    if answer["complete"]:
        # The champion is shown beside this line, in bold.
        return "Complete: every match has a result." if answer.get("champion") else \
            "Complete: the top places are shared."
    pending = answer.get("pending") or []
    if answer.get("bracket") is not None:
        playing = len(pending)
        return f"{playing} bracket match{'es' if playing != 1 else ''} ready or being played."
    if answer.get("next_round"):
        upcoming = answer["next_round"]["round"]
        of = f" of {answer['rounds']}" if answer.get("rounds") else ""
        if current_round and upcoming <= current_round:
            return f"Round {current_round}{of} is being played."
        return f"Round {answer['rounds_played']} is complete: round {upcoming}{of} can be paired."
    rounds = sorted({p["round"] for p in pending})
    owed = len([p for p in pending if "players" in p])
    of = f" of {answer['rounds']}" if answer.get("rounds") else ""
    where = ", ".join(map(str, rounds)) or str(answer["rounds_played"] + 1)
    return f"Round {where}{of} is being played: {owed} table{'s' if owed != 1 else ''} still to finish."


def tables_in_words(unfinished: list[dict]) -> str:
    """The tables still to finish, by round, and whose acceptance a hand waits for: "round 1: table 3
    (hand 4 waits for Ann's PIN); round 2: tables 1 and 2"."""
    by_round: dict[int, list[str]] = {}
    for row in unfinished:
        table = f"table {row['table']}" if row["table"] else " v ".join(row["players"])
        waits = "; ".join(f"hand {number} waits for {_either(who)} PIN" for number, who in row.get("waiting_for", []))
        by_round.setdefault(row["round"] or 0, []).append(f"{table} ({waits})" if waits else table)
    return "; ".join(f"round {number}: {', '.join(tables)}" for number, tables in sorted(by_round.items()))


def _either(names: list[str]) -> str:
    owners = [f"{name}'s" for name in names[:2]]
    return " or ".join(owners) if owners else "a player's"


def matches_in_words(count: int, noun: str = "match") -> str:
    """A number of matches as a sentence says it: "1 bracket match", "4 bracket matches"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}es"


# An entry id no event has (within the URL converter's 18 digits), reversed once to find where ids go.
_ENTRY_SLOT = 987_654_321_987_654_321


def entry_urls_of(event_pk: int) -> Callable[[int], str]:
    """The entry page's URL of each entry of an event, as ``reverse`` gives it, reversed once: a
    500-table round's tables name each player twice, and a ``{% url %}`` per name was a third of the
    time to render them; the standings name a hundred a page."""
    head, slot, tail = reverse("tournaments:entry", args=[event_pk, _ENTRY_SLOT]).rpartition(str(_ENTRY_SLOT))
    if not slot:  # the URL map changed shape: every URL reversed, as before
        return lambda entry: reverse("tournaments:entry", args=[event_pk, entry])
    return lambda entry: f"{head}{int(entry)}{tail}"
