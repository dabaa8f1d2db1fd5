"""Names as a search compares them: case and accents set aside, as typed on a keyboard without them.

Pure text; it decides nothing and touches no database.
"""

import unicodedata

# Letters with no accent to set aside, as they are written on a keyboard without them.
PLAIN_LETTERS = str.maketrans({"þ": "th", "ð": "d", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i"})


def folded(text: str) -> str:
    """A name as a search compares it: case and accents set aside, so "petur" finds "Pétur", "ZOË" finds
    "Zoe" and "thordarson" finds "Þórðarson"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(PLAIN_LETTERS)


def name_matches(query: str, name: str) -> bool:
    return folded(query) in folded(name)
