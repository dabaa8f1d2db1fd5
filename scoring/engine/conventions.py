"""Convention sets: every scoring choice of RULES.md as one frozen value, the named presets, overrides.

A club picks a preset and may override any field. A game stores the *resolved* set (``as_dict()``),
never the preset's name alone, so editing a preset later cannot change a recorded result.

This module must not score anything; it only says what the rules are.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .errors import Problem, SheetError


class BoxMode(StrEnum):
    PER_HAND = "per_hand"
    NET = "net"


class Shutout(StrEnum):
    DOUBLE_GAME_BONUS = "double_game_bonus"
    DOUBLE_TOTAL = "double_total"
    DOUBLE_HAND_POINTS = "double_hand_points"
    DOUBLE_DIFFERENCE = "double_difference"
    FLAT = "flat"
    NONE = "none"


class DealerRule(StrEnum):
    ALTERNATE = "alternate"
    LOSER_DEALS = "loser_deals"
    WINNER_DEALS = "winner_deals"


class DeadHandRule(StrEnum):
    SAME_DEALER = "same_dealer"
    PASS_DEAL = "pass_deal"


class TieRule(StrEnum):
    UNDERCUT = "undercut"
    NO_SCORE = "no_score"
    KNOCKER = "knocker"


class OklahomaAce(StrEnum):
    GIN_ONLY = "gin_only"
    ONE = "one"


# The largest count ten cards can leave unmelded (K K Q Q J J T T 9 9 of mixed suits): a recorded
# deadwood above it cannot have happened.
MAX_DEADWOOD = 98


@dataclass(frozen=True, slots=True, kw_only=True)
class Conventions:
    """One club's complete set of scoring rules; see RULES.md for the meaning of each field."""

    preset: str = "custom"
    gin_bonus: int = 20
    big_gin_bonus: int | None = None  # None: an 11-card gin scores as ordinary gin
    undercut_bonus: int = 10
    target: int = 100
    game_bonus: int = 100
    box_bonus: int = 20
    box_mode: BoxMode = BoxMode.PER_HAND
    boxes_count_toward_target: bool = False  # per-hand boxes only
    shutout: Shutout = Shutout.DOUBLE_GAME_BONUS
    shutout_bonus: int = 100  # used by shutout "flat" only
    shutout_requires_all_hands: bool = False
    dealer_rule: DealerRule = DealerRule.LOSER_DEALS
    dead_hand_rule: DeadHandRule = DeadHandRule.SAME_DEALER
    knock_limit: int = 10
    tie_rule: TieRule = TieRule.UNDERCUT
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = OklahomaAce.GIN_ONLY
    spade_doubles: bool = True
    oklahoma_extra_boxes: bool = False
    hollywood_shift: bool = True
    jersey_gin_bonus: int = 50
    jersey_undercut_penalty: int = 20
    jersey_target: int = 200
    partnership_target: int = 125

    def as_dict(self) -> dict[str, object]:
        """Every field, resolved, as plain JSON values (what a game stores and the answer reports)."""
        return dict(_json_items(self))


# Every scored sheet reports its set: the same few sets, listed once each (a new dict each time, the
# caller's to change).
@functools.lru_cache(maxsize=256)
def _json_items(conventions: Conventions) -> tuple[tuple[str, object], ...]:
    items = []
    for f in dataclasses.fields(conventions):
        value = getattr(conventions, f.name)
        items.append((f.name, value.value if isinstance(value, StrEnum) else value))
    return tuple(items)


@dataclass(frozen=True, slots=True)
class _FieldRule:
    kind: type
    low: int | None = None
    high: int | None = None
    nullable: bool = False


_BONUS = _FieldRule(int, 0, 1000)
_FIELD_RULES: Mapping[str, _FieldRule] = MappingProxyType(
    {
        "gin_bonus": _BONUS,
        "big_gin_bonus": _FieldRule(int, 0, 1000, nullable=True),
        "undercut_bonus": _BONUS,
        "target": _FieldRule(int, 1, 10000),
        "game_bonus": _BONUS,
        "box_bonus": _BONUS,
        "box_mode": _FieldRule(BoxMode),
        "boxes_count_toward_target": _FieldRule(bool),
        "shutout": _FieldRule(Shutout),
        "shutout_bonus": _BONUS,
        "shutout_requires_all_hands": _FieldRule(bool),
        "dealer_rule": _FieldRule(DealerRule),
        "dead_hand_rule": _FieldRule(DeadHandRule),
        "knock_limit": _FieldRule(int, 0, 10),
        "tie_rule": _FieldRule(TieRule),
        "oklahoma": _FieldRule(bool),
        "oklahoma_ace": _FieldRule(OklahomaAce),
        "spade_doubles": _FieldRule(bool),
        "oklahoma_extra_boxes": _FieldRule(bool),
        "hollywood_shift": _FieldRule(bool),
        "jersey_gin_bonus": _BONUS,
        "jersey_undercut_penalty": _BONUS,
        "jersey_target": _FieldRule(int, 1, 10000),
        "partnership_target": _FieldRule(int, 1, 10000),
    }
)

FIELD_NAMES: tuple[str, ...] = tuple(_FIELD_RULES)

_CLASSIC = Conventions(
    preset="classic",
    gin_bonus=20,
    big_gin_bonus=None,
    undercut_bonus=10,
    box_bonus=20,
    box_mode=BoxMode.PER_HAND,
    shutout=Shutout.DOUBLE_GAME_BONUS,
    dealer_rule=DealerRule.LOSER_DEALS,
    dead_hand_rule=DeadHandRule.SAME_DEALER,
)

PRESETS: Mapping[str, Conventions] = MappingProxyType(
    {
        "classic": _CLASSIC,
        "cardgames": dataclasses.replace(
            _CLASSIC,
            preset="cardgames",
            gin_bonus=25,
            big_gin_bonus=31,
            undercut_bonus=25,
            box_bonus=25,
            shutout=Shutout.DOUBLE_HAND_POINTS,
            shutout_requires_all_hands=True,
            dealer_rule=DealerRule.ALTERNATE,
        ),
        "modern": dataclasses.replace(
            _CLASSIC,
            preset="modern",
            gin_bonus=25,
            big_gin_bonus=50,
            undercut_bonus=15,
            box_bonus=25,
            shutout=Shutout.DOUBLE_HAND_POINTS,
            dealer_rule=DealerRule.ALTERNATE,
        ),
        "online": dataclasses.replace(
            _CLASSIC,
            preset="online",
            gin_bonus=25,
            undercut_bonus=25,
            box_bonus=25,
            dealer_rule=DealerRule.ALTERNATE,
        ),
        "parlett": dataclasses.replace(
            _CLASSIC,
            preset="parlett",
            undercut_bonus=20,
            box_mode=BoxMode.NET,
            shutout=Shutout.DOUBLE_DIFFERENCE,
            dealer_rule=DealerRule.ALTERNATE,
            dead_hand_rule=DeadHandRule.PASS_DEAL,
        ),
        "oklahoma": dataclasses.replace(_CLASSIC, preset="oklahoma", target=150, oklahoma=True),
    }
)

DEFAULT_PRESET = "classic"


def _check_value(name: str, raw: object) -> tuple[object, str | None]:
    """The field's value in its engine type, or an explanation of why ``raw`` is not acceptable."""
    rule = _FIELD_RULES[name]
    if raw is None:
        return (None, None) if rule.nullable else (None, "must not be null")
    if rule.kind is bool:
        return (raw, None) if isinstance(raw, bool) else (None, f"must be true or false, not {raw!r}")
    if rule.kind is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            return None, f"must be a whole number, not {raw!r}"
        if (rule.low is not None and raw < rule.low) or (rule.high is not None and raw > rule.high):
            return None, f"must be between {rule.low} and {rule.high}; {raw} given"
        return raw, None
    choices = [m.value for m in rule.kind]  # a StrEnum
    if isinstance(raw, str) and raw in choices:
        return rule.kind(raw), None
    return None, f"must be one of {', '.join(choices)}; {raw!r} given"


def resolve_conventions(spec: object, *, field: str = "conventions") -> Conventions:
    """A preset name, or ``{"preset": name, field: value, ...}``, as a complete convention set.

    A dict with no ``preset`` starts from ``classic``. Stored sets (``Conventions.as_dict()``) resolve
    to themselves, which is how a game re-reads its frozen rules.
    """
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise SheetError.one(
                None, field, f"unknown preset {spec!r}; choose one of {', '.join(PRESETS)}"
            )
        return PRESETS[spec]
    if not isinstance(spec, Mapping):
        raise SheetError.one(None, field, "must be a preset name or an object of convention fields")
    # Every hand a game records re-reads its frozen set: the same few sets, resolved once each. A set of
    # plain values is known by its items with their types (``true`` is not ``1``); any other by its JSON.
    try:
        return _resolve_items(tuple((key, type(value), value) for key, value in spec.items()), field)
    except TypeError:  # a value that is no hashable scalar (a list, an object)
        pass
    try:
        text = json.dumps(spec, sort_keys=True) if all(isinstance(k, str) for k in spec) else None
    except (TypeError, ValueError):
        text = None
    if text is None:  # not plain JSON: checked (and refused) field by field
        return _resolve_mapping(spec, field)
    return _resolve_text(text, field)


@functools.lru_cache(maxsize=256)
def _resolve_items(items: tuple[tuple[object, type, object], ...], field: str) -> Conventions:
    return _resolve_mapping({key: value for key, _, value in items}, field)


@functools.lru_cache(maxsize=256)
def _resolve_text(text: str, field: str) -> Conventions:
    return _resolve_mapping(json.loads(text), field)


def _resolve_mapping(spec: Mapping, field: str) -> Conventions:
    base_name = spec.get("preset", DEFAULT_PRESET)
    if (not isinstance(base_name, str) or base_name not in PRESETS) and base_name != "custom":
        raise SheetError.one(
            None, f"{field}.preset", f"unknown preset {base_name!r}; choose one of {', '.join(PRESETS)}"
        )
    base = PRESETS.get(base_name, PRESETS[DEFAULT_PRESET])
    problems: list[Problem] = []
    changes: dict[str, object] = {}
    for name, raw in spec.items():
        if name == "preset":
            continue
        if name not in _FIELD_RULES:
            problems.append(Problem(None, f"{field}.{name}", f"unknown convention {name!r}"))
            continue
        value, complaint = _check_value(name, raw)
        if complaint:
            problems.append(Problem(None, f"{field}.{name}", complaint))
        else:
            changes[name] = value
    if problems:
        raise SheetError(problems)
    resolved = dataclasses.replace(base, **changes)
    if resolved.boxes_count_toward_target and resolved.box_mode is BoxMode.NET:
        # Net boxes are known only when the game is settled: they cannot be counted as they are won.
        raise SheetError.one(
            None,
            f"{field}.boxes_count_toward_target",
            "boxes count toward the target only when each hand's box is paid as it is won (box_mode "
            "per_hand); these conventions pay boxes net (box_mode net) when the game is settled",
        )
    return resolved


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """What a convention field accepts, for forms that offer it: its kind, range and choices."""

    name: str
    kind: str  # "int", "bool" or "choice"
    low: int | None = None
    high: int | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()


def field_specs() -> tuple[FieldSpec, ...]:
    """Every overridable field with what it accepts, in RULES.md's order (the rules ``resolve`` applies)."""
    specs = []
    for name, rule in _FIELD_RULES.items():
        if rule.kind is int:
            specs.append(FieldSpec(name, "int", rule.low, rule.high, rule.nullable))
        elif rule.kind is bool:
            specs.append(FieldSpec(name, "bool"))
        else:
            specs.append(FieldSpec(name, "choice", choices=tuple(m.value for m in rule.kind)))
    return tuple(specs)


def overrides_of(stored: Mapping[str, object]) -> dict[str, object]:
    """The fields of a resolved set (``as_dict()``) that differ from its named preset, in field order.

    A stored set whose preset is not (or no longer) known differs in nothing that can be named.
    """
    preset = PRESETS.get(str(stored.get("preset")))
    if preset is None:
        return {}
    base = preset.as_dict()
    return {name: stored[name] for name in FIELD_NAMES if name in stored and stored[name] != base[name]}
