"""The raw-row reader the hot paths authenticate with: one statement, the same objects the ORM would give."""

import pytest

from scoring import raw_rows, services
from scoring.models import ApiToken, RefereeLink, token_digest

from ..factories import as_actor, game, organiser

pytestmark = pytest.mark.django_db


def test_one_joined_reads_a_row_and_its_related_object_in_one_statement(django_assert_num_queries):
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    with django_assert_num_queries(1):
        found = raw_rows.one_joined(RefereeLink, "game", "a.id = %s", [link.pk])
        assert found.game.pk == g.pk
        assert found.game.status == g.status
        assert found.game.conventions == g.conventions
    assert found == RefereeLink.objects.get(pk=link.pk)
    assert found.expires_at == RefereeLink.objects.get(pk=link.pk).expires_at


def test_one_joined_answers_none_when_no_row_matches():
    assert raw_rows.one_joined(ApiToken, "user", "a.digest = %s", [token_digest("nobody")]) is None
