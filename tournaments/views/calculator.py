"""The event calculator page: entries, format and results typed in, the engine run, nothing stored.

Read the form, ask the engine, render: no pairing rules here, and nothing written anywhere."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from core.reading import text_id
from tournaments.engine import EventError, run_event

from ..forms import EventCalculatorForm
from ..presentation import bracket_sections, status_line
from ..tables import standings_table
from ..wallchart import read_dropped, read_entries, read_results, result_line

MAX_ROWS = 4096
OPTION_FIELDS = {  # engine field -> the form field it is shown beside
    "format": "format", "rounds": "rounds", "third_place": "third_place", "grand_final": "grand_final",
    "match_points.win": "win", "match_points.draw": "draw", "match_points.loss": "loss",
    "match_points.bye": "bye", "bye_margin": "bye_margin", "forfeit_margin": "forfeit_margin",
    "tiebreaks": "tiebreak_1", "dropped": "dropped", "as_of_round": "as_of_round",
}
EXAMPLE = {
    "format": "swiss",
    "entries": "Ann\nBob\nCleo\nDev\nEve\nFinn\nGail",
    "results": "Round 1: Ann beat Dev by 143\nRound 1: Eve beat Bob by 52\nRound 1: Cleo drew Finn\nRound 1: Gail bye",
}


@dataclass
class PlayRow:
    """One match still to play, as a row of the round form."""

    index: int
    label: str
    players: list[str]
    round: int | None = None
    match: str | None = None
    winner: str = ""
    margin: str = ""
    forfeit: bool = False
    errors: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"match:{self.match}" if self.match else f"round:{self.round}"


def rows_to_play(answer: dict) -> tuple[list[PlayRow], list[dict]]:
    """The next round's pairings, or what is owed (every ready bracket match), and the byes to record."""
    upcoming = answer.get("next_round")
    if upcoming:
        rows = [PlayRow(index=i, label=f"Table {p['table']}", players=p["players"], round=upcoming["round"])
                for i, p in enumerate(upcoming["pairings"])]
        return rows, [{"round": upcoming["round"], "bye": name} for name in upcoming["byes"]]
    rows, byes = [], []
    for item in answer.get("pending") or []:
        if "bye" in item:
            byes.append(item)
        elif "match" in item:
            rows.append(PlayRow(index=len(rows), label=item["match"], players=item["players"], match=item["match"]))
        else:
            rows.append(PlayRow(index=len(rows), label=f"Round {item['round']}", players=item["players"],
                                round=item["round"]))
    return rows, byes


def _int(text: str) -> int | None:
    return text_id(text)


def read_played_rows(data) -> tuple[list[PlayRow], list[str]]:
    """The rows of the round form as sent: every row with a winner chosen is a result to add."""
    count = min(text_id(data.get("rows")) or 0, MAX_ROWS)
    played, problems = [], []
    for i in range(count):
        key, a, b = (data.get(f"row-{i}-{part}", "") for part in ("key", "a", "b"))
        kind, _, ident = key.partition(":")
        row = PlayRow(index=i, label=data.get(f"row-{i}-label", f"Row {i + 1}"), players=[a, b],
                      winner=data.get(f"row-{i}-winner", ""), margin=data.get(f"row-{i}-margin", ""),
                      forfeit=data.get(f"row-{i}-forfeit") == "on")
        if kind == "match":
            row.match = ident
        elif _int(ident) is not None:
            row.round = _int(ident)
        else:
            problems.append(f"{row.label}: the form was damaged; reload the page")
            continue
        if row.winner not in ("a", "b", "draw"):
            continue
        if row.margin.strip() and _int(row.margin) is None:
            row.errors.append("Margin: a whole number of points, 0 or more")
        played.append(row)
    return played, problems


def row_result(row: PlayRow) -> dict:
    winner = {"a": row.players[0], "b": row.players[1], "draw": None}[row.winner]
    how = {"forfeit": True} if row.forfeit else {"margin": _int(row.margin) or 0}
    if row.match:
        loser = row.players[1] if winner == row.players[0] else row.players[0]
        return {"match": row.match, "winner": winner, "loser": loser, **how}
    return {"round": row.round, "players": row.players, "winner": winner, **how}


@dataclass
class Calculation:
    """One run of the engine over the page's document, with every problem placed beside its field."""

    request: dict | None = None
    answer: dict | None = None
    field_errors: dict[str, list[str]] = field(default_factory=dict)
    general_errors: list[str] = field(default_factory=list)

    def add(self, name: str | None, message: str) -> None:
        if name is None:
            self.general_errors.append(message)
        else:
            self.field_errors.setdefault(name, []).append(message)

    @property
    def ok(self) -> bool:
        return self.answer is not None and not self.field_errors and not self.general_errors


def build_request(form: EventCalculatorForm) -> tuple[dict, list[int], list[int], Calculation]:
    """The EVENTS.md request of the form, with the line of each entry and each result."""
    data = form.cleaned_data
    calc = Calculation()
    bracket = data["format"] in ("single_elimination", "double_elimination")
    entries, entry_lines, problems = read_entries(data["entries"])
    results, result_lines, result_problems = read_results(data["results"], bracket=bracket)
    dropped, drop_problems = read_dropped(data["dropped"])
    for box, line, message in problems + result_problems + drop_problems:
        calc.add(box.lower(), f"Line {line}: {message}")
    request: dict = {"format": data["format"], "entries": entries, "results": results}
    if dropped:
        request["dropped"] = dropped
    if data["format"] == "swiss" and data["rounds"] is not None:
        request["rounds"] = data["rounds"]
    if data["format"] == "single_elimination":
        request["third_place"] = data["third_place"]
    if data["format"] == "double_elimination":
        request["grand_final"] = data["grand_final"] or "reset"
    if (points := form.match_points()) is not None:
        request["match_points"] = points
    for key in ("bye_margin", "forfeit_margin"):
        if data[key] is not None:
            request[key] = data[key]
    if (tiebreaks := form.tiebreaks()) is not None:
        request["tiebreaks"] = tiebreaks
    if data["as_of_round"] is not None and not bracket:
        request["as_of_round"] = data["as_of_round"]
    return request, entry_lines, result_lines, calc


def run(request: dict, entry_lines: list[int], origins: list, calc: Calculation) -> Calculation:
    """Ask the engine; place each refusal beside the text line or the form row it came from."""
    sent = {**request, "results": [{k: v for k, v in r.items() if k != "loser"} for r in request["results"]]}
    calc.request = sent
    try:
        calc.answer = run_event(sent)
    except EventError as exc:
        for problem in exc.problems:
            _place(calc, problem.result, problem.field, problem.message, entry_lines, origins)
        return calc
    matches = {row["id"]: row for row in calc.answer.get("bracket") or []}
    for index, result in enumerate(request["results"], start=1):
        row = matches.get(result.get("match"))
        if row and "loser" in result and result["loser"] not in row["players"]:
            _place(calc, index, "loser", f"{result['loser']} did not play in match {row['id']}",
                   entry_lines, origins)
    if calc.field_errors or calc.general_errors:
        calc.answer = None
    return calc


ENTRY_PATH = re.compile(r"\bentries\.(\d+)\b")


def _place(calc: Calculation, result: int | None, field_name: str | None, message: str,
           entry_lines: list[int], origins: list) -> None:
    # The engine names entries by their JSON path; on the page they are lines of the entries box.
    message = ENTRY_PATH.sub(
        lambda m: f"line {entry_lines[int(m.group(1))]}" if int(m.group(1)) < len(entry_lines) else m.group(0),
        message,
    )
    if result is not None and 1 <= result <= len(origins):
        origin = origins[result - 1]
        if isinstance(origin, PlayRow):
            origin.errors.append(message)
            calc.add("rows", f"{origin.label}: {message}")
        else:
            calc.add("results", f"Line {origin}: {message}")
        return
    if field_name and field_name.startswith("entries."):
        index = field_name.split(".")[1]
        if index.isdigit() and int(index) < len(entry_lines):
            calc.add("entries", f"Line {entry_lines[int(index)]}: {message}")
            return
    if field_name and field_name.startswith("dropped"):
        calc.add("dropped", message)
        return
    top = (field_name or "").split(".")[0]
    target = OPTION_FIELDS.get(field_name or "") or OPTION_FIELDS.get(top)
    calc.add("entries" if top == "entries" else target, message)


@ensure_csrf_cookie
def event_calculator(request):
    """The event calculator without JSON: the wall chart in text boxes, a form for the round's results."""
    if request.method != "POST" and "example" not in request.GET:
        return render(request, "tournaments/calculator.html", {"form": EventCalculatorForm()})

    form = EventCalculatorForm(request.POST if request.method == "POST" else EXAMPLE)
    if not form.is_valid():
        return render(request, "tournaments/calculator.html", {"form": form}, status=400)
    document, entry_lines, result_lines, calc = build_request(form)
    played, damaged = read_played_rows(request.POST) if request.method == "POST" else ([], [])
    for message in damaged:
        calc.add("rows", message)
    if calc.field_errors or calc.general_errors:
        return _render(request, form, calc, played, status=400)

    before = run(document, entry_lines, list(result_lines), Calculation())
    if played and before.ok and not any(row.errors for row in played):
        _, byes = rows_to_play(before.answer)
        played_rounds = {row.round for row in played if row.round is not None}
        byes = [bye for bye in byes if bye["round"] in played_rounds]
        added = [row_result(row) for row in played] + byes
        after = run({**document, "results": document["results"] + added}, entry_lines,
                    list(result_lines) + played + [None] * len(byes), Calculation())
        if after.ok:
            lines = form.cleaned_data["results"].rstrip("\n")
            new_text = "\n".join(filter(None, [lines, *map(result_line, added)]))
            data = request.POST.copy()
            data["results"] = new_text
            form = EventCalculatorForm(data)
            form.is_valid()
            return _render(request, form, after, [])
        return _render(request, form, after, played, fallback=before, status=400)
    if played and any(row.errors for row in played):
        for row in played:
            for message in row.errors:
                before.add("rows", f"{row.label}: {message}")
        return _render(request, form, before, played, status=400)
    return _render(request, form, before, [], status=200 if before.ok else 400)


def _render(request, form, calc: Calculation, played: list[PlayRow], *, fallback: Calculation | None = None,
            status: int = 200):
    for name, messages in calc.field_errors.items():
        if name in form.fields:
            for message in messages:
                form.add_error(name, message)
    shown = calc if calc.answer is not None else fallback
    context = {"form": form, "general_errors": calc.general_errors, "row_errors": calc.field_errors.get("rows", [])}
    if shown is not None and shown.answer is not None:
        answer = shown.answer
        rows, byes = rows_to_play(answer)
        sent = {(row.key, tuple(row.players)): row for row in played}
        for row in rows:
            if (old := sent.get((row.key, tuple(row.players)))) is not None:
                row.winner, row.margin, row.forfeit, row.errors = old.winner, old.margin, old.forfeit, old.errors
        tiebreaks = list(answer["standings"][0]["tiebreaks"]) if answer["standings"] else []
        context.update(
            answer=answer,
            status_line=status_line(answer),
            standings=standings_table(answer["standings"], tiebreaks),
            rows=rows,
            byes=byes,
            draws_allowed=answer.get("bracket") is None,
            sections=bracket_sections(answer["bracket"], double=answer["format"] == "double_elimination")
            if answer.get("bracket") is not None else None,
            request_json=json.dumps(shown.request, indent=2),
            answer_json=json.dumps(answer, indent=2),
        )
    return render(request, "tournaments/calculator.html", context, status=status)
