from __future__ import annotations

import pytest

from challenges.novelty.errors import FingerprintError
from challenges.novelty.fingerprint import FIELDS, Fingerprint, canonical_text, tokens

from .factories import BASE, fp, fp_dict


def test_fields_are_exactly_the_specs():
    assert set(FIELDS) == {
        "bug_type",
        "bug_location",
        "architecture",
        "domain",
        "tech_stack",
        "solution_approach",
        "complexity_tier",
        "red_herring_types",
        "key_concepts",
    }
    assert set(Fingerprint.__dataclass_fields__) == set(FIELDS)


def test_normalisation_lowercases_tokenises_and_sorts_sets():
    f = fp(
        bug_type="  Off-By-One   in Loop_Bound ",
        tech_stack=["Postgres", "python", "PYTHON", "FastAPI"],
        key_concepts=["Cursor Based", "cursor-based"],
    )
    assert f.bug_type == "off-by-one-in-loop-bound"
    assert f.tech_stack == ("fastapi", "postgres", "python")
    assert f.key_concepts == ("cursor-based",)


def test_plus_and_hash_stay_part_of_a_token():
    assert tokens("C++ / C# and C") == ("c++", "c#", "and", "c")
    assert canonical_text("Node.js") == "node-js"


def test_round_trip_is_identity_on_canonical_form():
    f = fp(bug_type="Off By One", tech_stack=["Go", "redis"])
    again = Fingerprint.from_dict(f.to_dict())
    assert again == f
    assert f.to_dict()["tech_stack"] == ["go", "redis"]
    assert list(f.to_dict()) == list(FIELDS)


def test_equal_descriptions_hash_alike():
    assert hash(fp(domain="Healthcare Billing")) == hash(fp(domain="healthcare-billing"))


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        (fp_dict(colour="red"), "unknown_field", "colour"),
        ({k: v for k, v in BASE.items() if k != "domain"}, "missing_field", "domain"),
        (fp_dict(complexity_tier=0), "tier_out_of_range", "complexity_tier"),
        (fp_dict(complexity_tier=6), "tier_out_of_range", "complexity_tier"),
        (fp_dict(complexity_tier=True), "invalid_type", "complexity_tier"),
        (fp_dict(complexity_tier="3"), "invalid_type", "complexity_tier"),
        (fp_dict(bug_type=""), "empty_field", "bug_type"),
        (fp_dict(bug_type=" -- "), "empty_field", "bug_type"),
        (fp_dict(bug_type=None), "invalid_type", "bug_type"),
        (fp_dict(tech_stack="python"), "invalid_type", "tech_stack"),
        (fp_dict(key_concepts={"a": 1}), "invalid_type", "key_concepts"),
        (fp_dict(red_herring_types=[1]), "invalid_type", "red_herring_types"),
        (fp_dict(red_herring_types=["ok", "  "]), "empty_item", "red_herring_types"),
        ([1, 2], "not_a_mapping", "fingerprint"),
    ],
)
def test_bad_input_is_refused_naming_the_field(data, code, field):
    with pytest.raises(FingerprintError) as err:
        Fingerprint.from_dict(data)
    assert err.value.code == code
    assert err.value.extra["field"] == field
    assert field in err.value.message
    assert err.value.as_dict()["code"] == code


def test_other_string_fields_may_be_empty():
    assert fp(bug_location="").bug_location == ""


def test_tier_bounds_are_accepted():
    assert fp(complexity_tier=1).complexity_tier == 1
    assert fp(complexity_tier=5).complexity_tier == 5


def test_direct_construction_also_validates():
    with pytest.raises(FingerprintError) as err:
        Fingerprint(**fp_dict(complexity_tier=9))
    assert err.value.code == "tier_out_of_range"
