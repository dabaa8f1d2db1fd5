"""Prepare a database for scripts/schemathesis.sh: the demo club night and the demo events (so that
event ids 1 and 2 exist, with entries, rounds and matches), a private event in its first round (id 3:
its games must be a 404 to the anonymous caller and to the club game's referee link), an organiser's API
token and a referee link, printed as shell assignments (ORGANISER_TOKEN=..., REFEREE_TOKEN=...)."""

import os
import sys
from io import StringIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from scoring import services  # noqa: E402
from scoring.models import Game  # noqa: E402
from scoring.policy import Actor  # noqa: E402
from tournaments import services as events  # noqa: E402

call_command("migrate", verbosity=0)
call_command("load_demo", stdout=StringIO())
call_command("load_demo_events", stdout=StringIO())
organiser = get_user_model().objects.get(username="organiser")
director = get_user_model().objects.get(username="director")
private = events.create_event(actor=Actor(user=organiser), name="Private trial", format="swiss", rounds=2,
                              is_public=False, directors=[director])
events.add_entries_from_text(actor=Actor(user=director), event=private, text="Ann\nBob\nCleo\nDev")
events.pair_next_round(actor=Actor(user=director), event=private)
table_1 = Game.objects.filter(table_label="Table 1").order_by("pk").first()  # the club night's, not an event's
link = services.create_referee_link(actor=Actor(user=organiser), game=table_1, label="schemathesis")
print(f"ORGANISER_TOKEN={services.issue_api_token(user=organiser)}")
print(f"REFEREE_TOKEN={link.token}")
