import pytest
from django.core.exceptions import ImproperlyConfigured

from core.crypto import SealError, generate_key, reseal, seal, unseal


def test_seal_round_trip_and_ciphertext_hides_plaintext():
    token = seal(b"gold patch contents")
    assert b"gold patch" not in token
    assert unseal(token) == b"gold patch contents"


def test_rotation_keeps_old_tokens_readable(settings):
    old_key = settings.GAUNTLET_ENCRYPTION_KEYS[0]
    token = seal(b"secret")
    settings.GAUNTLET_ENCRYPTION_KEYS = [generate_key(), old_key]
    assert unseal(token) == b"secret"
    rotated = reseal(token)
    settings.GAUNTLET_ENCRYPTION_KEYS = settings.GAUNTLET_ENCRYPTION_KEYS[:1]
    assert unseal(rotated) == b"secret"
    with pytest.raises(SealError):
        unseal(token)


def test_missing_or_bad_keys_are_configuration_errors(settings):
    settings.GAUNTLET_ENCRYPTION_KEYS = []
    with pytest.raises(ImproperlyConfigured, match="empty"):
        seal(b"x")
    settings.GAUNTLET_ENCRYPTION_KEYS = ["not-a-key"]
    with pytest.raises(ImproperlyConfigured, match="invalid Fernet key"):
        seal(b"x")
