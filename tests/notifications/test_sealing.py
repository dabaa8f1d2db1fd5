"""A sign-up's link kept sealed for its promotion email: opened only for its own registration, under the
project's key, unchanged."""

from django.test import override_settings

from notifications.sealing import seal, unseal


def test_a_sealed_link_opens_for_its_registration_only_and_never_reads_in_clear():
    sealed = seal(7, "tok-abc123")
    assert "tok-abc123" not in sealed
    assert unseal(7, sealed) == "tok-abc123"
    assert unseal(8, sealed) is None  # another registration's seal
    assert seal(7, "tok-abc123") != sealed  # each seal its own (a fresh IV): equal links do not look equal


def test_a_changed_seal_or_another_key_opens_nothing():
    sealed = seal(7, "tok-abc123")
    changed = sealed[:-6] + ("A" if sealed[-6] != "A" else "B") + sealed[-5:]
    assert unseal(7, changed) is None
    assert unseal(7, "not a seal") is None
    with override_settings(SECRET_KEY="another-secret-key-0123456789-abcdef"):
        assert unseal(7, sealed) is None
