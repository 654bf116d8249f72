"""The opaque-name resolver: stable, namespaced by purpose and key, carrying no signal."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from challenges.audit import AuditError, OpaqueNames, is_opaque

KEY = b"k" * 32
OTHER_KEY = b"q" * 32
HEX16 = r"[0-9a-f]{16}"


def all_names(names: OpaqueNames, internal_id: str) -> dict[str, str]:
    return {
        "workspace": names.workspace_dir(internal_id),
        "archive": names.archive_name(internal_id),
        "clone": names.clone_path(internal_id),
        "attempt": names.attempt_id(internal_id),
        "session": names.session_id(internal_id),
        "sandbox": names.sandbox_path(internal_id),
    }


def test_formats():
    got = all_names(OpaqueNames(KEY), "42")
    assert re.fullmatch(rf"ws-{HEX16}", got["workspace"])
    assert re.fullmatch(rf"ws-{HEX16}\.tar\.gz", got["archive"])
    assert re.fullmatch(rf"repo-{HEX16}", got["clone"])
    assert re.fullmatch(rf"att-{HEX16}", got["attempt"])
    assert re.fullmatch(rf"ses-{HEX16}", got["session"])
    assert re.fullmatch(rf"/sandboxes/sbx-{HEX16}", got["sandbox"])
    for name in ("workspace", "archive", "clone", "attempt", "session"):
        assert is_opaque(got[name])


def test_stable_for_same_key_and_id():
    assert all_names(OpaqueNames(KEY), "inst-17") == all_names(OpaqueNames(bytes(KEY)), "inst-17")


def test_purposes_share_no_digest():
    got = all_names(OpaqueNames(KEY), "inst-17")
    digests = [re.search(HEX16, value).group() for value in got.values()]
    assert len(set(digests)) == len(digests)


def test_keys_separate_namespaces():
    assert all_names(OpaqueNames(KEY), "inst-17")["workspace"] != all_names(OpaqueNames(OTHER_KEY), "inst-17")["workspace"]


def test_session_ids_differ_by_leg_without_showing_it():
    names = OpaqueNames(KEY)
    first, second = names.session_id("att-9", 1), names.session_id("att-9", 2)
    assert first != second
    assert re.fullmatch(rf"ses-{HEX16}", second)


@pytest.mark.parametrize("internal_id", ["deploy_reverted_by_reconciler-none-none-s0", "paged-listing-cache",
                                         "rate_limiter", "caching-staleness", "0001", "17"])
def test_no_internal_id_or_slug_substring(internal_id):
    for value in all_names(OpaqueNames(KEY), internal_id).values():
        assert internal_id not in value
        for word in re.split(r"[-_]", internal_id):
            if len(word) >= 4 and not re.fullmatch(r"[0-9a-f]+", word):
                assert word not in value


@given(st.text(min_size=1, max_size=40))
def test_any_id_gives_a_well_formed_deterministic_name(internal_id):
    names = OpaqueNames(KEY)
    assert re.fullmatch(rf"ws-{HEX16}", names.workspace_dir(internal_id))
    assert names.workspace_dir(internal_id) == OpaqueNames(KEY).workspace_dir(internal_id)


def test_distinct_ids_give_distinct_names():
    names = OpaqueNames(KEY)
    produced = {names.workspace_dir(i) for i in range(5000)}
    assert len(produced) == 5000


def test_length_is_a_parameter():
    assert re.fullmatch(r"ws-[0-9a-f]{24}", OpaqueNames(KEY, length=24).workspace_dir("1"))


@pytest.mark.parametrize("key, code", [(b"short", "name_key_invalid"), ("text-key-of-32-characters-long!!", "name_key_invalid")])
def test_weak_keys_are_refused(key, code):
    with pytest.raises(AuditError) as info:
        OpaqueNames(key)
    assert info.value.code == code and info.value.field == "key"


def test_bad_inputs_are_refused():
    names = OpaqueNames(KEY)
    with pytest.raises(AuditError) as info:
        names.name("arm", "x")
    assert info.value.code == "name_purpose_unknown"
    with pytest.raises(AuditError) as info:
        names.workspace_dir("")
    assert info.value.code == "name_id_empty"
    with pytest.raises(AuditError) as info:
        names.session_id("a", 0)
    assert info.value.code == "name_leg_invalid"


def test_is_opaque_rejects_descriptive_names():
    assert not is_opaque("deploy_reverted_by_reconciler-none-none-s0")
    assert not is_opaque("ws-paged-listing")
    assert not is_opaque("run-c7586c216fb01d55")  # not a prefix this resolver mints
