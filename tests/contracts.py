"""The contracts' own examples (``docs/contracts/``) as test data: one copy, not two. ``example(name, n)`` is
the n-th fenced ``json`` block of the contract (counting from 1), decoded."""

from __future__ import annotations

import json
import pathlib
import re

CONTRACTS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "contracts"
JSON_BLOCK = re.compile(r"^```json\n(.*?)^```$", re.S | re.M)


def examples(name: str) -> list:
    """Every ``json`` block of ``docs/contracts/<name>.md``, decoded, in order."""
    return [json.loads(block) for block in JSON_BLOCK.findall((CONTRACTS / f"{name}.md").read_text())]


def example(name: str, number: int):
    return examples(name)[number - 1]


def shows(answer, example) -> bool:
    """Whether ``answer`` shows everything ``example`` does: every key of an object (extra fields in an answer
    are welcome, the contracts say), every item of a list in order, every value equal."""
    if isinstance(example, dict):
        return isinstance(answer, dict) and all(k in answer and shows(answer[k], v) for k, v in example.items())
    if isinstance(example, list):
        return isinstance(answer, list) and len(answer) == len(example) and all(
            shows(a, e) for a, e in zip(answer, example, strict=True))
    return answer == example
