"""Naming helpers: case styles, role references, composition, lifecycle."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from challenges.engine.lexicons import (
    STYLES,
    LexiconError,
    Name,
    get_lexicon,
    split_words,
    to_style,
)
from challenges.engine.lexicons.naming import is_plural_of, plural_candidates

WORD = st.from_regex(r"[a-z]{2}[a-z0-9]{0,6}", fullmatch=True)


@pytest.fixture(scope="module")
def lex():
    return get_lexicon("cold-chain-logistics")


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("snake", "pallet_count"),
        ("camel", "palletCount"),
        ("pascal", "PalletCount"),
        ("upper", "PALLET_COUNT"),
        ("kebab", "pallet-count"),
        ("text", "pallet count"),
        ("title", "Pallet Count"),
    ],
)
def test_to_style_renders_every_style(style, expected):
    assert to_style("pallet_count", style) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("palletCount", ("pallet", "count")),
        ("PalletCount", ("pallet", "count")),
        ("PALLET_COUNT", ("pallet", "count")),
        ("pallet-count", ("pallet", "count")),
        ("Pallet Count", ("pallet", "count")),
        ("co2Level", ("co2", "level")),
        ("CO2_LEVEL", ("co2", "level")),
        ("DockCapacityExceeded", ("dock", "capacity", "exceeded")),
        ("HTTPServer", ("http", "server")),
    ],
)
def test_split_words_reads_every_style(text, words):
    assert split_words(text) == words


def test_unknown_style_and_empty_text_are_rejected():
    with pytest.raises(ValueError, match="unknown style"):
        to_style("dock", "shouty")
    with pytest.raises(ValueError, match="no words"):
        split_words("__")


@given(st.lists(WORD, min_size=1, max_size=4).map(tuple), st.sampled_from(STYLES))
def test_every_style_round_trips_for_lexicon_words(words, style):
    assert split_words(Name(words).style(style)) == words


def test_ident_matches_the_documented_examples(lex):
    assert lex.ident("entity", style="camel", plural=True) == "shipments"
    assert lex.ident("entity") == "shipment"
    assert lex.ident("entity", style="pascal") == "Shipment"
    assert lex.ident("entity.plural", style="upper") == "SHIPMENTS"
    assert lex.ident("field.quantity", style="camel") == "palletCount"
    assert lex.ident("field.status", style="upper") == "LEG_STATUS"
    assert lex.ident("verb.reserve") == "book"
    assert lex.ident("error.not_found", style="pascal") == "UnknownShipment"
    assert lex.ident("error.exhausted") == "dock_capacity_exceeded"
    assert lex.ident("resource", style="kebab", plural=True) == "docks"
    assert lex.ident("field.label", style="text") == "consignee"


def test_name_objects_compose_and_print_as_snake(lex):
    entity = lex.name("entity")
    assert f"class {entity.pascal}Repository:" == "class ShipmentRepository:"
    assert str(lex.name("verb.cancel") + entity) == "annul_shipment"
    assert (lex.name("entity", "plural") + "cache").camel == "shipmentsCache"
    assert ("max" + lex.name("field.capacity")).upper == "MAX_DOCK_CAPACITY"
    assert Name.of("DockService").words == ("dock", "service")


def test_compose_resolves_roles_and_keeps_literals(lex):
    assert lex.compose("verb.reserve", "resource", style="camel") == "bookDock"
    assert lex.compose("resource", "service", style="pascal") == "DockService"
    assert lex.compose("entity.plural", "by", "field.identifier") == "shipments_by_waybill"
    assert lex.compose("max", "field.capacity", style="upper") == "MAX_DOCK_CAPACITY"
    assert lex.compose(Name.of("event"), "entity", style="camel") == "eventShipment"


@pytest.mark.parametrize(
    ("parts", "style", "result"),
    [
        (("to", "string"), "camel", "toString"),
        (("parse", "int"), "camel", "parseInt"),
        (("str",), "snake", "str"),
        (("type",), "snake", "type"),
        (("array",), "pascal", "Array"),
    ],
)
def test_compose_refuses_reserved_results(lex, parts, style, result):
    with pytest.raises(LexiconError) as caught:
        lex.compose(*parts, style=style)
    assert (caught.value.code, caught.value.key) == ("reserved_name", result)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda lex: lex.name("warehouse"), "unknown_role"),
        (lambda lex: lex.name("field.colour"), "unknown_role"),
        (lambda lex: lex.name("verb"), "unknown_role"),
        (lambda lex: lex.name("entity.many"), "unknown_role"),
        (lambda lex: lex.ident("field.quantity", plural=True), "no_plural"),
        (lambda lex: lex.ident("verb.reserve", plural=True), "no_plural"),
        (lambda lex: lex.compose(), "unknown_role"),
    ],
)
def test_bad_role_references_raise_with_codes(lex, call, code):
    with pytest.raises(LexiconError) as caught:
        call(lex)
    assert caught.value.code == code


def test_is_role_distinguishes_roles_from_literals(lex):
    assert lex.is_role("entity")
    assert lex.is_role("owner.plural")
    assert lex.is_role("field.rate")
    assert lex.is_role("error.unavailable")
    assert not lex.is_role("service")
    assert not lex.is_role("field.colour")
    assert not lex.is_role("entity.many")


def test_lifecycle_helpers_follow_status_order(lex):
    assert lex.status_names("upper") == ("PENDING", "LOADED", "IN_TRANSIT", "DELIVERED", "RETURNED")
    assert lex.category_names("pascal") == ("Frozen", "Chilled", "Ambient")
    assert lex.initial_status == "pending"
    assert lex.final_status == "returned"
    assert lex.next_status("loaded") == "in_transit"
    assert lex.next_status("returned") is None


def test_identifiers_cover_every_role_once(lex):
    idents = lex.identifiers()
    assert idents["entity.plural"] == "shipments"
    assert idents["field.capacity"] == "dock_capacity"
    assert idents["error.conflict"] == "dock_conflict"
    assert idents["status.2"] == "in_transit"
    assert idents["category.0"] == "frozen"
    assert len(idents) == 10 + 10 + 10 + 5 + len(lex.statuses) + len(lex.categories)
    assert len(set(idents.values())) == len(idents)


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("shipment", "shipments"),
        ("freezer_shelf", "freezer_shelves"),
        ("travel_party", "travel_parties"),
        ("bus", "buses"),
        ("batch", "batches"),
        ("survey", "surveys"),
        ("diagnosis", "diagnoses"),
        ("person", "people"),
        ("cargo", "cargoes"),
        ("cargo", "cargos"),
        ("check_in", "check_ins"),
    ],
)
def test_plural_rules_accept_real_plurals(singular, plural):
    assert is_plural_of(singular, plural)


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("shipment", "shipment"),
        ("travel_party", "travel_partys"),
        ("freezer_shelf", "freezer_shelfs"),
        ("bus", "buss"),
        ("sample_tube", "samples_tube"),
        ("sample_tube", "tube_samples"),
        ("series", "series"),
    ],
)
def test_plural_rules_reject_wrong_plurals(singular, plural):
    assert not is_plural_of(singular, plural)


def test_plural_candidates_of_an_invariant_noun_is_empty():
    assert plural_candidates("species") == frozenset()
