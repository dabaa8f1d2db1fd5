"""The ginscore event engine: plain Python, no Django.

The event document of EVENTS.md (entries, format, results) in; standings, the next round's
pairings or the whole bracket out. Round robin by the circle method, Swiss pairing as one
minimum-cost matching, single and double elimination brackets, standings with every tiebreak.
Every pairing, bracket and standings row the service shows comes from here. Nothing in this
package may import Django or touch a database, a file or the network.
"""

from .document import read_event
from .errors import EventError, Problem
from .event import run_event
from .records import Event, Format

__all__ = ["Event", "EventError", "Format", "Problem", "read_event", "run_event"]
