"""Where and how the key is kept: a 0600 file in a 0700 directory, or the environment."""

import json
import stat

import pytest

from gauntlet_client.credentials import Credentials, CredentialsError, CredentialStore, config_dir, mask

KEY = "gk_1a2b3c4d_" + "x" * 43


def test_save_writes_a_private_file_and_load_reads_it(tmp_path):
    store = CredentialStore(tmp_path / "gauntlet", use_keyring=False)
    where = store.save(url="https://g.example", key=KEY)
    assert where == str(tmp_path / "gauntlet" / "credentials.json")
    assert stat.S_IMODE((tmp_path / "gauntlet").stat().st_mode) == 0o700
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert json.loads(store.path.read_text()) == {"url": "https://g.example", "key": KEY}
    assert store.load(env={}) == Credentials(url="https://g.example", key=KEY, source=str(store.path))
    assert [p.name for p in (tmp_path / "gauntlet").iterdir()] == ["credentials.json"]


def test_a_file_others_can_read_is_refused(tmp_path):
    store = CredentialStore(tmp_path, use_keyring=False)
    store.save(url="https://g.example", key=KEY)
    store.path.chmod(0o644)
    with pytest.raises(CredentialsError, match="readable by other users"):
        store.load(env={})


def test_environment_overrides_the_stored_login(tmp_path):
    store = CredentialStore(tmp_path, use_keyring=False)
    store.save(url="https://stored.example", key=KEY)
    found = store.load(env={"GAUNTLET_URL": "https://env.example", "GAUNTLET_API_KEY": "gk_ffffffff_y"})
    assert (found.url, found.key, found.source) == ("https://env.example", "gk_ffffffff_y", "environment")


def test_not_logged_in_says_what_to_do(tmp_path):
    with pytest.raises(CredentialsError, match="gauntlet login"):
        CredentialStore(tmp_path, use_keyring=False).load(env={})
    with pytest.raises(CredentialsError, match="GAUNTLET_URL"):
        CredentialStore(tmp_path, use_keyring=False).load(env={"GAUNTLET_API_KEY": KEY})


def test_delete_forgets(tmp_path):
    store = CredentialStore(tmp_path, use_keyring=False)
    assert store.delete() is False
    store.save(url="https://g.example", key=KEY)
    assert store.delete() is True and not store.path.exists()


def test_mask_shows_only_the_public_prefix():
    assert mask(KEY) == "gk_1a2b3c4d_…" and mask("nonsense") == "gk_…"


def test_config_dir_follows_xdg_and_the_override():
    assert str(config_dir({"XDG_CONFIG_HOME": "/x/cfg"})) == "/x/cfg/gauntlet"
    assert str(config_dir({"HOME": "/home/ada"})) == "/home/ada/.config/gauntlet"
    assert str(config_dir({"GAUNTLET_CONFIG_DIR": "/y"})) == "/y"
