import pytest

from gauntlet.env import ImproperlyConfiguredEnv, env_bool, env_list, secret_from_env_or_file


def test_env_bool_parses_and_rejects(monkeypatch):
    monkeypatch.setenv("X_FLAG", "yes")
    assert env_bool("X_FLAG") is True
    monkeypatch.setenv("X_FLAG", "off")
    assert env_bool("X_FLAG", True) is False
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfiguredEnv, match="X_FLAG"):
        env_bool("X_FLAG")


def test_env_list_splits_and_trims(monkeypatch):
    monkeypatch.setenv("X_HOSTS", " a.example , b.example,,")
    assert env_list("X_HOSTS", []) == ["a.example", "b.example"]


def test_secret_required_without_debug(monkeypatch, tmp_path):
    monkeypatch.delenv("X_SECRET", raising=False)
    key_file = tmp_path / "secret"
    key_file.write_text("from-file\n")
    with pytest.raises(ImproperlyConfiguredEnv, match="X_SECRET is required"):
        secret_from_env_or_file("X_SECRET", debug=False, fallback_file=key_file)
    assert secret_from_env_or_file("X_SECRET", debug=True, fallback_file=key_file) == "from-file"
    monkeypatch.setenv("X_SECRET", "from-env")
    assert secret_from_env_or_file("X_SECRET", debug=False, fallback_file=key_file) == "from-env"
