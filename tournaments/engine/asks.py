"""What players and directors ask of the pairing, read from the event document: the Swiss rounds an entry asked
to sit out (``requested_byes``) and the pairs not to pair (``avoid``), each problem named by its field.

A requested bye is Swiss only, for a round of the event the entry plays in (joined, not dropped before it), at
most once per entry and round, and never beside a result of the entry in that round. An avoid pair names two
different entries, once; round robin follows its schedule and takes none; ``through_round`` is Swiss only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .reading import EntryNames, Reader, describe, json_type
from .records import MAX_SWISS_ROUNDS, Avoid, Entry, Format, Played, RecordedBye, RequestedBye

REQUESTED_BYE_FIELDS = ("round", "name")
AVOID_FIELDS = ("players", "never", "through_round")


def _items(top: Reader, field: str, example: str) -> list:
    raw = top.data.get(field)
    if raw is None:
        return []
    if not isinstance(raw, list):
        top.problem(field, f"must be a list like {example}, not {json_type(raw)}")
        return []
    return raw


def read_requested_byes(top: Reader, fmt: Format, names: EntryNames | None, *, rounds: int | None,
                        entries: Sequence[Entry] | None, dropped: Mapping[int, int], played: Sequence[Played],
                        byes: Sequence[RecordedBye]) -> tuple[RequestedBye, ...]:
    raw = _items(top, "requested_byes", '[{"round": 3, "name": "Ann"}]')
    if raw and fmt is not Format.SWISS:
        top.problem("requested_byes", "only a Swiss event takes requested byes; leave requested_byes out")
        return ()
    has_result = {(p.round, e) for p in played for e in p.players} | {(b.round, b.entry) for b in byes}
    found: dict[tuple[int, int], int] = {}
    for i, item in enumerate(raw):
        r = Reader(item, top.problems, result=None, prefix=f"requested_byes.{i}.", what="a requested bye")
        if not r.ok:
            continue
        r.reject_unknown(REQUESTED_BYE_FIELDS)
        round_no = r.integer("round", low=1, high=rounds or MAX_SWISS_ROUNDS)
        if "round" not in r.data:
            r.problem("round", "is required: the round the entry sits out")
        entry = names.find(r, "name", r.data.get("name")) if names is not None else None
        if round_no is None or entry is None or entries is None:
            continue
        who = entries[entry]
        if (round_no, entry) in found:
            r.problem("round", f"{who.name} already asked for a bye in round {round_no} "
                               f"(requested_byes.{found[round_no, entry]})")
        elif round_no < who.joined:
            r.problem("round", f"{who.name} joins in round {who.joined}: there is no round {round_no} to sit out")
        elif dropped.get(entry, round_no) < round_no:
            r.problem("round", f"{who.name} dropped after round {dropped[entry]}: there is no round {round_no} "
                               "to sit out")
        elif (round_no, entry) in has_result:
            r.problem("round", f"{who.name} has a result in round {round_no}: a requested bye is for a round "
                               "not yet played")
        else:
            found[round_no, entry] = i
    return tuple(RequestedBye(round_no, entry) for round_no, entry in found)


def read_avoid(top: Reader, fmt: Format, names: EntryNames | None, *, rounds: int | None) -> tuple[Avoid, ...]:
    raw = _items(top, "avoid", '[{"players": ["Ann", "Bob"], "never": true}]')
    if raw and fmt is Format.ROUND_ROBIN:
        top.problem("avoid", "a round robin plays its schedule: everyone meets everyone; leave avoid out")
        return ()
    found: dict[frozenset[int], int] = {}
    out: list[Avoid] = []
    for i, item in enumerate(raw):
        r = Reader(item, top.problems, result=None, prefix=f"avoid.{i}.", what="a pair to avoid")
        if not r.ok:
            continue
        r.reject_unknown(AVOID_FIELDS)
        never = r.boolean("never", default=False)
        through: int | None = None
        if r.data.get("through_round") is not None:
            if fmt is not Format.SWISS:
                r.problem("through_round", "only a Swiss event has later rounds; a bracket avoids in round 1 only")
            else:
                through = r.integer("through_round", low=1, high=rounds or MAX_SWISS_ROUNDS)
        players = r.data.get("players")
        if not isinstance(players, list) or len(players) != 2:
            r.problem("players", f"is required: the two entries' names, like [\"Ann\", \"Bob\"]; {describe(players)} "
                                 "given")
            continue
        if names is None:
            continue
        pair = [names.find(r, f"players.{k}", name) for k, name in enumerate(players)]
        a, b = pair
        if a is None or b is None:
            continue
        key = frozenset((a, b))
        if a == b:
            r.problem("players", f"{players[0]} is named twice: a pair to avoid is two different entries")
        elif key in found:
            r.problem("players", f"{players[0]} and {players[1]} are already a pair to avoid (avoid.{found[key]})")
        else:
            found[key] = i
            out.append(Avoid((a, b), never, through))
    return tuple(out)
