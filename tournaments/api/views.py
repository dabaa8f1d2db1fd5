"""Tournament API views: parse, call the engine (or one service, or a selector), answer. No pairing rules.

The stateless calculator (``POST /api/v1/event/``) and the stored events of EVENTS.md ("Stored
tournaments"). Every error answers in the event contract's shape ``{"errors": [{"result", "field",
"message"}]}``; every POST takes ``Idempotency-Key``; a private event is a 404 to whoever may not read it.
"""

from __future__ import annotations

import django_filters
from django.http import HttpResponse
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import BoundedJSONParser, validated
from core.api.renderers import FastJSONRenderer
from core.conditional import live_etag, live_response, not_modified
from core.reading import NotANumber, text_id, text_number
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.schema import EVENT_ERROR_SCHEMA
from scoring.api.views import WriteAccess
from scoring.throttles import AnonymousThrottle, CalculatorThrottle
from tournaments import policy, selectors, services
from tournaments.engine import EventError, run_event
from tournaments.match_rows import standings_csv
from tournaments.models import Entry, Event, Match

from . import schema
from .serializers import (
    CardsSerializer,
    DropSerializer,
    EntryCreateSerializer,
    EntryImportSerializer,
    EntrySerializer,
    EventCreateSerializer,
    EventDetailSerializer,
    EventSerializer,
    EventUpdateSerializer,
    KnockoutSerializer,
    LinksSerializer,
    OfficialsSerializer,
    OpenedSerializer,
    PairSerializer,
    RoundSummarySerializer,
    SeedSerializer,
    StandingSerializer,
    SwapSerializer,
)

_request_examples, _answer_examples = schema.examples()
TAG = ["tournaments"]


def event_errors(response: Response) -> Response:
    """The event contract names the result where the score-sheet contract names the hand."""
    errors = response.data.get("errors") if isinstance(response.data, dict) else None
    if isinstance(errors, list):
        response.data = {"errors": [
            {"result": e.get("result", e.get("hand")), "field": e.get("field"), "message": e.get("message", "")}
            for e in errors if isinstance(e, dict)
        ]}
    return response


class EventErrorsMixin:
    """Refusals in the event contract's shape, always as JSON (even for a CSV request)."""

    def handle_exception(self, exc):
        if isinstance(exc, EventError):
            response = Response(exc.as_dict(), status=400)
        else:
            response = event_errors(super().handle_exception(exc))
        self.request.accepted_renderer = FastJSONRenderer()
        self.request.accepted_media_type = FastJSONRenderer.media_type
        return response


class EventView(EventErrorsMixin, APIView):
    """The stateless event calculator (EVENTS.md): entries, format and results in; standings, the next
    round's pairings or the bracket out. Anonymous and throttled; stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousThrottle, CalculatorThrottle]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        summary="Answer an event document: standings, next pairings or the bracket",
        request={"application/json": schema.EVENT_REQUEST},
        responses={
            200: OpenApiResponse(schema.EVENT_ANSWER, description="The event's standings and what comes next."),
            400: OpenApiResponse(EVENT_ERROR_SCHEMA, description="The document was refused: every problem named."),
            429: OpenApiResponse(EVENT_ERROR_SCHEMA, description="Too many requests from this address."),
        },
        examples=_request_examples + _answer_examples,
        tags=TAG,
    )
    def post(self, request):
        return Response(run_event(request.data))


# ---------------------------------------------------------------------------------------------------
# Stored events


def _event(request, pk) -> Event:
    """The event if this caller may read it (``Event.DoesNotExist``, a 404, otherwise): one query."""
    return selectors.readable_event(actor_for(request), pk)


def _opened(request, event: Event, opened: services.Opened) -> dict:
    """A pairing's (or publishing's, or reset's) answer: its matches, each with the referee links made now."""
    rows = selectors.match_rows(event, opened.matches)
    link_page = request.build_absolute_uri(reverse("scoring:referee_link")) + "#"  # once, not once a table
    for row in rows:
        urls = [link_page + opened.tokens[g] if g in opened.tokens else None for g in row["games"]]
        for detail, url in zip(row["game_details"], urls, strict=True):
            if url:
                detail["referee_url"] = url
        row["referee_url"] = urls[0] if urls else None
    answer = {"round": opened.round.number if opened.round else None, "matches": rows}
    if opened.reset:
        answer["reset"] = [m.pk for m in opened.reset]
    return answer


class EventFilter(django_filters.FilterSet):
    class Meta:
        model = Event
        fields = ["status", "format", "is_public"]


class EventList(EventErrorsMixin, generics.ListAPIView):
    """Events this caller may read (public ones; private ones for their officials and organisers)."""

    serializer_class = EventSerializer
    permission_classes = [WriteAccess]
    filterset_class = EventFilter

    def get_queryset(self):
        return selectors.event_list(actor_for(self.request)).prefetch_related("referees")

    @extend_schema(tags=TAG)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=EventCreateSerializer, responses={201: EventDetailSerializer}, tags=TAG,
                   summary="Create an event (organisers, and users they allow to): options checked by the engine, "
                           "conventions frozen")
    @idempotent
    def post(self, request):
        event = services.create_event(actor=actor_for(request), **validated(EventCreateSerializer, request))
        return Response(_detail(request, event.pk), status=status.HTTP_201_CREATED)


def _detail(request, pk) -> dict:
    actor = actor_for(request)
    event = selectors.event_detail(actor, pk)
    data = EventSerializer(event, context={"request": request}).data
    data.pop("entry_count", None)
    data["answer"], warnings = selectors.event_answer_and_warnings(event)
    if not policy.can_direct(actor, event):
        data["answer"] = selectors.without_pairs_to_avoid(data["answer"])
    official = bool(warnings or event.status == Event.Status.CANCELLED) and policy.is_official(actor, event)
    data["warnings"] = [{k: w[k] for k in ("kind", "message", "round", "match", "key", "acknowledged")}
                        for w in selectors.shown_warnings(event, warnings, official=official)]
    data["cancelled"] = selectors.cancellation(event, official=official)
    # The sign-up page: anyone's for a public event; a private one's (with its key) for its directors only.
    key = event.registration_key if not event.is_public and policy.can_direct(actor, event) else ""
    url = reverse("tournaments:register", args=[event.pk]) + (f"?key={key}" if key else "")
    data["registration_url"] = request.build_absolute_uri(url) if event.is_public or key else None
    return data


class EventDetail(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(responses=EventDetailSerializer, tags=TAG,
                   summary="An event with the engine's answer for its stored results")
    def get(self, request, pk):
        return Response(_detail(request, pk))

    @extend_schema(request=EventUpdateSerializer, responses=EventDetailSerializer, tags=TAG,
                   summary="Change the name, public, Swiss rounds (any time) or options (before round 1)")
    @idempotent
    def patch(self, request, pk):
        event = _event(request, pk)
        services.update_event(actor=actor_for(request), event=event, changes=validated(EventUpdateSerializer, request))
        return Response(_detail(request, pk))

    @extend_schema(request=None, responses={204: None}, tags=TAG,
                   summary="Delete an event with no results and no knockout made from it (its unplayed games too)")
    @idempotent
    def delete(self, request, pk):
        services.delete_event(actor=actor_for(request), event=_event(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryList(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(responses=EntrySerializer(many=True), tags=TAG, summary="Every entry, in seed order")
    def get(self, request, pk):
        event = _event(request, pk)
        return Response(selectors.entries(event, reasons=policy.is_official(actor_for(request), event)))

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer}, tags=TAG,
                   summary="Add an entry: an existing player, or a player by name (found or created)")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        entry = services.add_entry(actor=actor_for(request), event=event, **validated(EntryCreateSerializer, request))
        return Response(_entry_row(event, entry.pk), status=status.HTTP_201_CREATED)


def _entry_row(event: Event, entry_id: int) -> dict:
    # Only after a director's write: the answer is theirs, reasons and all.
    return next(row for row in selectors.entries(event, reasons=True) if row["id"] == entry_id)


class EntryImport(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=EntryImportSerializer, responses={201: EntrySerializer(many=True)}, tags=TAG,
                   summary="Add every player of a pasted list or CSV (all or nothing; errors name the line)")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        made = services.add_entries_from_text(actor=actor_for(request), event=event,
                                              **validated(EntryImportSerializer, request))
        ids = {e.pk for e in made}
        return Response([row for row in selectors.entries(event, reasons=True) if row["id"] in ids],
                        status=status.HTTP_201_CREATED)


class EntryDrop(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=DropSerializer, responses=EntrySerializer, tags=TAG,
                   summary="Drop an entry: not paired after that round; its results and place stay")
    @idempotent
    def post(self, request, pk, entry_id):
        event = _event(request, pk)
        entry = Entry.objects.get(pk=entry_id, event=event)
        services.drop_entry(actor=actor_for(request), entry=entry, **validated(DropSerializer, request))
        return Response(_entry_row(event, entry.pk))


def _check_in(request, pk: int, entry_id: int, *, here: bool) -> Response:
    event = _event(request, pk)
    entry = Entry.objects.get(pk=entry_id, event=event)
    services.check_in_entry(actor=actor_for(request), entry=entry, here=here)
    return Response(_entry_row(event, entry.pk))


class EntryCheckIn(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses=EntrySerializer, tags=TAG,
                   summary="Check an entry in before round 1 (an event with check_in; again: no change)")
    @idempotent
    def post(self, request, pk, entry_id):
        return _check_in(request, pk, entry_id, here=True)


class EntryCheckOut(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses=EntrySerializer, tags=TAG, summary="Take back an entry's check-in")
    @idempotent
    def post(self, request, pk, entry_id):
        return _check_in(request, pk, entry_id, here=False)


class Seeding(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=SeedSerializer, responses=EntrySerializer(many=True), tags=TAG,
                   summary="Seed the entries by hand, by rating or at random (the order is stored)")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        services.seed_entries(actor=actor_for(request), event=event, **validated(SeedSerializer, request))
        return Response(selectors.entries(event, reasons=True))


class RoundList(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(responses=RoundSummarySerializer(many=True), tags=TAG,
                   summary="The rounds so far (their matches: GET matches/?round=N)")
    def get(self, request, pk):
        return Response(selectors.round_summaries(_event(request, pk)))

    @extend_schema(request=PairSerializer, responses={201: OpenedSerializer}, tags=TAG,
                   summary="Pair the next round (Swiss, round robin) or open every ready bracket match")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        opened = services.pair_next_round(actor=actor_for(request), event=event, **validated(PairSerializer, request))
        return Response(_opened(request, event, opened), status=status.HTTP_201_CREATED)


def _round(event: Event, number: int):
    return event.event_rounds.get(number=number)


class RoundPublish(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses=OpenedSerializer, tags=TAG,
                   summary="Publish a draft round: its games and referee links are made")
    @idempotent
    def post(self, request, pk, number):
        event = _event(request, pk)
        opened = services.publish_round(actor=actor_for(request), round=_round(event, number))
        return Response(_opened(request, event, opened))


class RoundSwap(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=SwapSerializer, responses=OpenedSerializer, tags=TAG,
                   summary="Swap two entries of a draft Swiss round (a rematch or a broken bye rule needs "
                           "confirm: true)")
    @idempotent
    def post(self, request, pk, number):
        event = _event(request, pk)
        data = validated(SwapSerializer, request)
        entries = {e.pk: e for e in Entry.objects.filter(event=event, pk__in=[data["first"], data["second"]])}
        missing = [name for name in ("first", "second") if data[name] not in entries]
        if missing:
            raise EventError.one(None, missing[0], f"entry {data[missing[0]]} is not in {event.name}")
        rnd = _round(event, number)
        warnings = services.swap_entries(actor=actor_for(request), round=rnd, first=entries[data["first"]],
                                         second=entries[data["second"]], confirm=data["confirm"])
        return Response({"round": number, "matches": selectors.matches(event, round=number), "warnings": warnings})


class TableLinks(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=LinksSerializer, responses=OpenedSerializer, tags=TAG,
                   summary="New referee links for a round's (or the open bracket's) games; the old ones stop")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        data = validated(LinksSerializer, request)
        rnd = _round(event, data["round"]) if data["round"] is not None else None
        tokens = services.issue_table_links(actor=actor_for(request), event=event, round=rnd,
                                            started_too=data["started_too"])
        return Response(_opened(request, event, _with_links(event, rnd, tokens)))


def _with_links(event: Event, rnd, tokens: dict[int, str]) -> services.Opened:
    found = Match.objects.filter(event=event, reset_at__isnull=True, is_bye=False,
                                 match_games__game_id__in=list(tokens)).distinct()
    return services.Opened(rnd, list(found), tokens)


class MatchLink(EventErrorsMixin, APIView):
    """A new table link for one match's games (a card lost, a phone changed): its earlier link stops, no
    other table's is touched. The token is in this answer only."""

    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses=OpenedSerializer, tags=TAG,
                   summary="A new referee link for one match still being played; no other table changes")
    @idempotent
    def post(self, request, pk, match_id):
        event = _event(request, pk)
        match = _match(event, match_id)  # Match.DoesNotExist: a 404, as for every match route
        tokens = services.issue_table_links(actor=actor_for(request), event=event, match=match)
        return Response(_opened(request, event, _with_links(event, match.round, tokens)))


class TableCards(EventErrorsMixin, APIView):
    """The tables still being played whose card was never printed (a bracket match that opened by itself
    among them): their links made, their cards marked printed. The tokens are in this answer only."""

    permission_classes = [WriteAccess]

    @extend_schema(request=CardsSerializer, responses=OpenedSerializer, tags=TAG,
                   summary="Make the links of every table being played whose card was never printed, and mark "
                           "those cards printed")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        printed = services.print_table_cards(actor=actor_for(request), event=event,
                                             **validated(CardsSerializer, request))
        return Response(_opened(request, event, printed))


def _int_param(request, name: str, *, low: int = 0) -> int | None:
    try:
        return text_number(request.query_params.get(name), low=low, high=10_000)
    except NotANumber as exc:
        raise EventError.one(None, name, str(exc)) from None


def _match(event: Event, match_id: str) -> Match:
    """A match by its id, or a live bracket match by its bracket id ("W1-3"); ``Match.DoesNotExist``."""
    found = Match.objects.filter(event=event)
    pk = text_id(match_id)
    if pk is not None:
        return found.get(pk=pk)
    return found.get(bracket_id=match_id[:10], reset_at__isnull=True)


def _match_answer(request, event: Event, match: Match) -> dict:
    row = selectors.match(event, match.pk)
    row["referee_url"] = None
    official = policy.is_official(actor_for(request), event)
    if not official:
        row["card_printed"] = None  # which tables lack a card is the officials' to know
    return selectors.for_readers(row, official=official)


class Officials(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=OfficialsSerializer, responses=EventDetailSerializer, tags=TAG,
                   summary="Set the directors (organisers) and referees; the games being played follow")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        services.set_officials(actor=actor_for(request), event=event, **validated(OfficialsSerializer, request))
        return Response(_detail(request, pk))


class Knockout(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=KnockoutSerializer, responses={201: EventDetailSerializer}, tags=TAG,
                   summary="A knockout of the top N of this finished Swiss or round robin event")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        made = services.create_knockout_from_standings(actor=actor_for(request), source_event=event,
                                                       **validated(KnockoutSerializer, request))
        return Response(_detail(request, made.pk), status=status.HTTP_201_CREATED)


class CSVRenderer(BaseRenderer):
    """The standings rows as CSV (``tournaments.match_rows``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        view = (renderer_context or {}).get("view")
        return standings_csv(data, view.tiebreak_keys if view is not None else [],
                             view.prizes if view is not None else None).encode()


class Standings(EventErrorsMixin, APIView):
    """The answer's standings, stored per results version: a read costs two queries, never an engine run."""

    renderer_classes = [FastJSONRenderer, CSVRenderer]
    tiebreak_keys: list[str] = []
    prizes: list[dict] | None = None  # the final standings' prizes (a complete event's live standings only)

    @staticmethod
    def _stored_json(request, event, as_of: int | None) -> HttpResponse:
        """As stored: a tournament night's most frequent request costs no JSON (or gzip) work, and a
        caller that holds this version (``If-None-Match``) gets a 304. ``X-Updating``: newer results are
        being worked out, and these are the last ones."""
        if as_of is None:
            version = selectors.served_version(event)
            if unchanged := not_modified(request, live_etag("standings", version.key)):
                return live_response(unchanged, version.key, updating=version.updating)
        gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
        payload, version = selectors.standings_payload(event, as_of, gzipped=gzipped)
        response = HttpResponse(payload, content_type="application/json")
        if gzipped:
            response["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ["Accept-Encoding"])
        if as_of is not None:
            return response
        return live_response(response, version.key, etag=live_etag("standings", version.key),
                             updating=version.updating)

    @extend_schema(
        parameters=[
            OpenApiParameter("round", OpenApiTypes.INT, description="the standings as of round N (Swiss, round "
                                                                    "robin)"),
            OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"],
                             description="csv: one row per entry, the same columns, then the prize of "
                                         "its place once complete (or Accept: text/csv)"),
        ],
        responses={(200, "application/json"): StandingSerializer(many=True),
                   (200, "text/csv"): OpenApiTypes.STR,
                   304: OpenApiResponse(description="If-None-Match named this version (the ETag of the "
                                                    "live standings): nothing changed, no body")},
        tags=TAG, summary="The standings, as JSON or CSV, live or as of a round",
    )
    def get(self, request, pk):
        wanted = request.query_params.get("format")
        if wanted not in (None, "", "json", "csv"):
            raise EventError.one(None, "format", f"json or csv; {wanted!r} given")
        event = _event(request, pk)
        as_of = _int_param(request, "round")
        if as_of is not None and event.is_elimination:
            raise EventError.one(None, "round", "a bracket's standings are by place, not as of a round")
        if wanted == "csv":
            request.accepted_renderer, request.accepted_media_type = CSVRenderer(), CSVRenderer.media_type
        try:
            if request.accepted_renderer.format != "csv":
                return self._stored_json(request, event, as_of)
            answer = selectors.event_answer(event) if as_of is None else selectors.event_answer_as_of(event, as_of)
        except EventError as exc:
            raise EventError.one(None, "round", exc.problems[0].message) from None
        rows = answer["standings"]
        self.tiebreak_keys = list(event.tiebreaks)
        self.prizes = event.prizes if as_of is None and answer["complete"] else None  # final standings only
        response = Response(rows)
        suffix = f"-round-{as_of}" if as_of is not None else ""
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-standings{suffix}.csv"'
        return response
