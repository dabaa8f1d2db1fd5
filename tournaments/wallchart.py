"""The event calculator page's text: entries, results and drops written as a director writes them.

    Round 1: Ann beat Cleo by 143        W1-3: Ann beat Bob by 120
    Round 1: Bob drew Dev                GF1: Dev beat Ann by forfeit
    Round 2: Cleo bye

Turns those lines into the EVENTS.md request (and results back into lines), remembering which line
each result came from so the engine's errors can name the line. It reads and writes text only: no
pairing, standings or validation of the event itself (that is the engine's, which sees the request).
"""

from __future__ import annotations

import re

from tournaments.engine.records import MAX_ENTRIES

ROUND_PREFIX = re.compile(r"^\s*(?:round|r)?\s*(\d+)\s*[:.]\s*(.*?)\s*$", re.IGNORECASE)
MATCH_PREFIX = re.compile(r"^\s*([WL]\d+-\d+|GF[12]|3P)\s*[:.]\s*(.*?)\s*$", re.IGNORECASE)
BEAT = re.compile(r"^(.+?)\s+beat\s+(.+?)(?:\s+by\s+(\d+|forfeit))?$", re.IGNORECASE)
DREW = re.compile(r"^(.+?)\s+drew(?:\s+with)?\s+(.+?)$", re.IGNORECASE)
BYE = re.compile(r"^(.+?)\s+(?:had\s+a\s+|has\s+a\s+)?bye$", re.IGNORECASE)
LATE = re.compile(r"^(.+?)\s*\(\s*from\s+round\s+(\d+)\s*\)$", re.IGNORECASE)
DROPPED = re.compile(r"^(.+?)\s*[,:]\s*(?:after\s+round\s+)?(\d+)$", re.IGNORECASE)
MAX_LINES = MAX_ENTRIES * 12

RESULTS_HELP = (
    "One result a line: “Round 1: Ann beat Cleo by 143”, “Round 1: Bob drew Dev”, “Round 2: Cleo bye”, "
    "“W1-3: Ann beat Bob by 120” in a bracket; “by forfeit” for a forfeit."
)


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def read_entries(text: str) -> tuple[list[dict], list[int], list[tuple[str, int, str]]]:
    """One entry a line, in seed order; "Name (from round 3)" joins a Swiss event late. Also the line
    number of each entry, for errors."""
    entries = []
    lines = _lines(text)
    if len(lines) > MAX_ENTRIES:
        return [], [], [("Entries", lines[MAX_ENTRIES][0], f"too many entries: at most {MAX_ENTRIES}")]
    for _, line in lines:
        late = LATE.match(line)
        if late:
            entries.append({"name": late.group(1).strip(), "joined": int(late.group(2))})
        else:
            entries.append({"name": line})
    return entries, [number for number, _ in lines], []


def read_results(text: str, *, bracket: bool) -> tuple[list[dict], list[int], list[tuple[str, int, str]]]:
    results, origins, problems = [], [], []
    lines = _lines(text)
    if len(lines) > MAX_LINES:
        return [], [], [("Results", lines[MAX_LINES][0], f"too many lines: at most {MAX_LINES}")]
    for number, line in lines:
        try:
            result = _read_bracket_line(line) if bracket else _read_round_line(line)
        except ValueError as exc:
            problems.append(("Results", number, str(exc)))
            continue
        results.append(result)
        origins.append(number)
    return results, origins, problems


def _margin(text: str | None) -> dict:
    if text is None:
        return {}
    if text.lower() == "forfeit":
        return {"forfeit": True}
    return {"margin": int(text)}


def _read_round_line(line: str) -> dict:
    prefix = ROUND_PREFIX.match(line)
    if not prefix:
        raise ValueError(f"“{line}” does not start with a round, like “Round 1: Ann beat Bob by 120”")
    round_number, rest = int(prefix.group(1)), prefix.group(2)
    if beat := BEAT.match(rest):
        winner, loser = beat.group(1).strip(), beat.group(2).strip()
        return {"round": round_number, "players": [winner, loser], "winner": winner, **_margin(beat.group(3))}
    if drew := DREW.match(rest):
        return {"round": round_number, "players": [drew.group(1).strip(), drew.group(2).strip()], "winner": None}
    if bye := BYE.match(rest):
        return {"round": round_number, "bye": bye.group(1).strip()}
    raise ValueError(f"“{rest}” is not “A beat B by 120”, “A drew B” or “A bye”")


def _read_bracket_line(line: str) -> dict:
    prefix = MATCH_PREFIX.match(line)
    if not prefix:
        raise ValueError(f"“{line}” does not start with a match, like “W1-3: Ann beat Bob by 120”")
    match, rest = prefix.group(1).upper(), prefix.group(2)
    beat = BEAT.match(rest)
    if not beat:
        raise ValueError(f"“{rest}” is not “A beat B by 120” (a bracket match has no draws)")
    return {"match": match, "winner": beat.group(1).strip(), "loser": beat.group(2).strip(), **_margin(beat.group(3))}


def read_dropped(text: str) -> tuple[dict[str, int], list[tuple[str, int, str]]]:
    """One drop a line: "Dev, 2" (Dev's last round played was 2; 0 before round 1)."""
    dropped, problems = {}, []
    for number, line in _lines(text):
        match = DROPPED.match(line)
        if not match:
            problems.append(("Dropped", number, f"“{line}” is not “name, last round played”, like “Dev, 2”"))
            continue
        dropped[match.group(1).strip()] = int(match.group(2))
    return dropped, problems


def result_line(result: dict) -> str:
    """The line that reads back as ``result`` (a request result, or a bracket one with its loser)."""
    how = " by forfeit" if result.get("forfeit") else f" by {result['margin']}" if result.get("margin") else ""
    if "match" in result:
        return f"{result['match']}: {result['winner']} beat {result['loser']}{how}"
    if "bye" in result:
        return f"Round {result['round']}: {result['bye']} bye"
    a, b = result["players"]
    if result.get("winner") is None:
        return f"Round {result['round']}: {a} drew {b}"
    loser = b if result["winner"] == a else a
    return f"Round {result['round']}: {result['winner']} beat {loser}{how}"
