"""The event page's "Prizes" form: its directors type the prize list, one "place: prize" a line, at any time.

Views parse the form, call one service, render: it must not read the text itself (``services`` does, naming
each line it refuses) nor decide who wins a prize (the final standings' order does)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import services

from ..forms import PrizesForm
from .common import event_or_404, invalid_form_in_words, require_director, say, sent_once

PRIZES_DRAFT = "prizes_draft"


def prizes_draft(request, event_pk: int) -> str | None:
    """The prize list typed and refused a moment ago (shown once, in the box), or None."""
    draft = request.session.pop(PRIZES_DRAFT, None)
    return draft["text"] if isinstance(draft, dict) and draft.get("event") == event_pk else None


@require_POST
def set_prizes(request, pk: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "set the prizes")) is not None:
        return refused
    form = PrizesForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Prizes not saved. {invalid_form_in_words(form)}")
        request.session[PRIZES_DRAFT] = {"event": pk, "text": request.POST.get("prizes", "")[:10_000]}
        return redirect("tournaments:event", pk=pk)
    with sent_once(request) as fresh:
        if not fresh:
            return redirect("tournaments:event", pk=pk)
        try:
            changed = services.set_prizes_from_text(actor=actor_for(request), event=event,
                                                    text=form.cleaned_data["prizes"])
        except Refusal as exc:
            messages.error(request, f"Prizes not saved. {say(exc)}")
            # The event page shows the box again with what was typed, to mend rather than retype.
            request.session[PRIZES_DRAFT] = {"event": pk, "text": form.cleaned_data["prizes"]}
        else:
            count = len(changed.prizes)
            messages.success(request, f"Prizes saved: {count} place{'s' if count != 1 else ''}." if count
                             else "Prizes cleared.")
        return redirect("tournaments:event", pk=pk)
