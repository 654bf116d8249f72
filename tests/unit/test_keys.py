from competition import keys


def test_issued_key_matches_only_itself():
    issued = keys.issue()
    assert keys.parse_prefix(issued.raw) == issued.prefix
    assert keys.matches(issued.raw, issued.digest)
    assert not keys.matches(issued.raw[:-1] + ("A" if issued.raw[-1] != "A" else "B"), issued.digest)
    assert issued.raw not in issued.digest


def test_malformed_keys_have_no_prefix():
    for raw in ["", "gk_", "gk_zzzzzzzz_" + "a" * 43, "Bearer gk_0011aabb_" + "a" * 43, "gk_0011aabb_short"]:
        assert keys.parse_prefix(raw) is None


def test_keys_are_unique():
    assert len({keys.issue().raw for _ in range(200)}) == 200
