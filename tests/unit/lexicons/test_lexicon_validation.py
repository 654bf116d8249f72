"""validate_lexicon: the valid document passes; each kind of bad input fails with its code and key."""

import json

import pytest

from challenges.engine.lexicons import (
    LexiconError,
    LexiconPolicy,
    check_pool,
    load_lexicons_from,
    validate_lexicon,
)

from .factories import lexicon_doc


def _set(path, value):
    """A mutation that sets a dotted path ('fields.rate', 'statuses.1') in a document."""

    def mutate(doc):
        *parents, last = path.split(".")
        target = doc
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return doc

    return mutate


def _delete(path):
    def mutate(doc):
        *parents, last = path.split(".")
        target = doc
        for part in parents:
            target = target[part]
        del target[last]
        return doc

    return mutate


def test_valid_document_builds_a_frozen_lexicon_that_round_trips():
    doc = lexicon_doc()
    lex = validate_lexicon(doc)
    assert lex.entity.plural == "shipments"
    assert lex.fields.capacity == "dock_capacity"
    assert lex.samples.label == ("Nordhaven Foods", "Alpen Dairy", "Kestrel Pharma")
    assert lex.to_dict() == doc
    with pytest.raises(AttributeError):
        lex.key = "other"  # frozen
    assert hash(lex) == hash(validate_lexicon(lexicon_doc()))


CASES = [
    # shape
    ("not_an_object", "$", lambda doc: ["not", "a", "mapping"]),
    ("not_an_object", "fields", _set("fields", ["waybill"])),
    ("not_an_object", "entity", _set("entity", "shipment")),
    ("missing_key", "verbs", _delete("verbs")),
    ("missing_key", "fields.rate", _delete("fields.rate")),
    ("missing_key", "entity.plural", _delete("entity.plural")),
    ("missing_key", "samples.label", _delete("samples.label")),
    ("unknown_key", "colour", _set("colour", "blue")),
    ("unknown_key", "fields.colour", _set("fields.colour", "hue")),
    ("unknown_key", "samples.amount", _set("samples.amount", ["10", "20", "30"])),
    ("wrong_type", "entity.singular", _set("entity.singular", 5)),
    ("wrong_type", "statuses", _set("statuses", "pending")),
    ("wrong_type", "categories[1]", _set("categories.1", None)),
    ("wrong_type", "key", _set("key", ["cold"])),
    # identifiers
    ("bad_identifier", "fields.quantity", _set("fields.quantity", "PalletCount")),
    ("bad_identifier", "fields.quantity", _set("fields.quantity", "pallet__count")),
    ("bad_identifier", "fields.quantity", _set("fields.quantity", "pallet_count_")),
    ("bad_identifier", "verbs.create", _set("verbs.create", "9register")),
    ("bad_identifier", "fields.label", _set("fields.label", "x_ray_consignee")),
    ("bad_identifier", "fields.rate", _set("fields.rate", "co2_rate")),
    ("bad_identifier", "fields.label", _set("fields.label", "consignée")),
    ("bad_identifier", "fields.label", _set("fields.label", "consignee_" + "name_" * 6 + "full")),
    ("bad_identifier", "project_names[0]", _set("project_names.0", "Cold-Track")),
    # reserved words, in any case form and any target language
    ("reserved_word", "verbs.cancel", _set("verbs.cancel", "void")),
    ("reserved_word", "fields.amount", _set("fields.amount", "sum")),
    ("reserved_word", "fields.label", _set("fields.label", "print")),
    ("reserved_word", "verbs.fetch", _set("verbs.fetch", "fetch")),
    ("reserved_word", "entity.singular", _set("entity", {"singular": "promise", "plural": "promises"})),
    ("reserved_word", "categories[0]", _set("categories.0", "match")),
    ("reserved_word", "statuses[0]", _set("statuses.0", "yield")),
    ("reserved_word", "verbs.process", _set("verbs.process", "to_string")),
    ("reserved_word", "verbs.validate", _set("verbs.validate", "assert")),
    ("reserved_word", "fields.rate", _set("fields.rate", "range")),
    ("reserved_word", "verbs.settle", _set("verbs.settle", "update")),
    ("reserved_word", "resource.singular", _set("resource", {"singular": "queue", "plural": "queues"})),
    ("reserved_word", "errors.conflict", _set("errors.conflict", "TypeError")),
    ("reserved_word", "errors.invalid", _set("errors.invalid", "ReferenceError")),
    ("reserved_word", "project_names[1]", _set("project_names.1", "zoneinfo")),
    ("reserved_word", "project_names[1]", _set("project_names.1", "child_process")),
    ("reserved_word", "project_names[2]", _set("project_names.2", "service")),
    ("reserved_word", "verbs.validate", _set("verbs.validate", "inspect")),
    ("reserved_word", "resource.singular", _set("resource", {"singular": "stream", "plural": "streams"})),
    ("reserved_word", "resource.plural", _set("resource", {"singular": "codec", "plural": "codecs"})),
    ("reserved_word", "categories[2]", _set("categories.2", "calendar")),
    # error names
    ("bad_error_name", "errors.conflict", _set("errors.conflict", "dockConflict")),
    ("bad_error_name", "errors.conflict", _set("errors.conflict", "Conflict")),
    ("bad_error_name", "errors.conflict", _set("errors.conflict", "Dock_Conflict")),
    ("bad_error_name", "errors.conflict", _set("errors.conflict", "DOCKConflict")),
    ("bad_error_name", "errors.unavailable", _set("errors.unavailable", "Co2SensorOffline")),
    ("wrong_type", "errors.conflict", _set("errors.conflict", 409)),
    # collisions between roles, also after re-casing
    ("collision", "fields.label", _set("fields.label", "pallet")),
    ("collision", "fields.rate", _set("fields.rate", "palletcount")),
    ("collision", "verbs.process", _set("verbs.process", "scans")),
    ("collision", "categories[0]", _set("categories.0", "pending")),
    ("collision", "errors.not_found", _set("errors.not_found", "ScanRate")),
    ("collision", "owner.singular", _set("owner", {"singular": "shipment", "plural": "shipments"})),
    # plurals
    ("bad_plural", "entity.plural", _set("entity.plural", "shipment")),
    ("bad_plural", "entity.plural", _set("entity.plural", "shipmentes")),
    ("bad_plural", "owner.plural", _set("owner", {"singular": "travel_party", "plural": "travel_partys"})),
    ("bad_plural", "item.plural", _set("item", {"singular": "freezer_shelf", "plural": "freezers_shelf"})),
    # counts and duplicates
    ("bad_count", "statuses", _set("statuses", ["pending", "loaded", "delivered"])),
    ("bad_count", "statuses", _set("statuses", ["queued", "pending", "loaded", "in_transit",
                                                "delivered", "returned", "archived"])),
    ("bad_count", "categories", _set("categories", ["frozen", "chilled"])),
    ("bad_count", "categories", _set("categories", ["frozen", "chilled", "ambient", "heated",
                                                    "cryogenic", "dry_ice"])),
    ("bad_count", "project_names", _set("project_names", ["coldtrack", "frostline"])),
    ("bad_count", "samples.identifier", _set("samples.identifier", ["WB-1042", "WB-2271"])),
    ("bad_count", "log_phrases", _set("log_phrases", ["dock assignment delayed"])),
    ("duplicate_value", "statuses[2]", _set("statuses.2", "pending")),
    ("duplicate_value", "project_names[1]", _set("project_names.1", "coldtrack")),
    ("duplicate_value", "samples.label[2]", _set("samples.label.2", "Alpen Dairy")),
    # formats
    ("bad_format", "key", _set("key", "Cold_Chain")),
    ("bad_format", "domain", _set("domain", "Cold chain logistics")),
    ("bad_format", "units.amount", _set("units.amount", "eur")),
    ("bad_format", "units.quantity", _set("units.quantity", "Pallets")),
    ("bad_format", "units.duration", _set("units.duration", "fortnights")),
    ("bad_format", "units.rate", _set("units.rate", "fast")),
    ("bad_format", "samples.label[0]", _set("samples.label.0", "O'Brien Foods")),
    ("bad_format", "samples.label[0]", _set("samples.label.0", "Price ${total}")),
    ("bad_format", "samples.label[0]", _set("samples.label.0", "Nordhaven Foods and Frozen Goods Cooperative")),
    ("bad_format", "samples.identifier[1]", _set("samples.identifier.1", "wb 2271")),
    ("bad_format", "log_phrases[0]", _set("log_phrases.0", "Dock assignment delayed")),
    ("bad_format", "log_phrases[0]", _set("log_phrases.0", 'dock "A" delayed')),
    # staging markers in agent-visible text
    ("marker_word", "log_phrases[1]", _set("log_phrases.1", "retry bug in dock assignment")),
    ("marker_word", "domain", _set("domain", "todo lists")),
    ("marker_word", "samples.label[1]", _set("samples.label.1", "Hack Labs")),
    ("marker_word", "fields.label", _set("fields.label", "fixme_note")),
    ("marker_word", "errors.invalid", _set("errors.invalid", "InvalidCanary")),
]


@pytest.mark.parametrize(("code", "key", "mutate"), CASES, ids=[f"{c}:{k}" for c, k, _ in CASES])
def test_each_bad_input_is_rejected_with_its_code_and_key(code, key, mutate):
    with pytest.raises(LexiconError) as caught:
        validate_lexicon(mutate(lexicon_doc()))
    assert (caught.value.code, caught.value.key) == (code, key)
    assert key in str(caught.value)


def test_policy_bounds_are_parameters():
    five_statuses = lexicon_doc()
    with pytest.raises(LexiconError) as caught:
        validate_lexicon(five_statuses, LexiconPolicy(max_statuses=4))
    assert (caught.value.code, caught.value.key) == ("bad_count", "statuses")
    assert validate_lexicon(five_statuses, LexiconPolicy(max_statuses=5)).statuses[-1] == "returned"


def _write(directory, name, doc):
    (directory / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")


def _second_doc():
    return lexicon_doc(
        key="ferry-crossings", domain="ferry crossings",
        project_names=["tidepass", "ferryline", "harborhop"],
    )


def test_loader_returns_lexicons_sorted_by_key(tmp_path):
    _write(tmp_path, "ferry-crossings", _second_doc())
    _write(tmp_path, "cold-chain-logistics", lexicon_doc())
    assert [lex.key for lex in load_lexicons_from(tmp_path)] == ["cold-chain-logistics", "ferry-crossings"]


def test_loader_rejects_invalid_json_naming_the_file(tmp_path):
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(LexiconError) as caught:
        load_lexicons_from(tmp_path)
    assert (caught.value.code, caught.value.source) == ("invalid_json", "broken.json")


def test_loader_reports_validation_errors_with_the_file(tmp_path):
    _write(tmp_path, "cold-chain-logistics", lexicon_doc(statuses=["pending"]))
    with pytest.raises(LexiconError) as caught:
        load_lexicons_from(tmp_path)
    assert (caught.value.code, caught.value.key, caught.value.source) == (
        "bad_count", "statuses", "cold-chain-logistics.json")


def test_loader_rejects_a_file_named_differently_from_its_key(tmp_path):
    _write(tmp_path, "cold-chain", lexicon_doc())
    with pytest.raises(LexiconError) as caught:
        load_lexicons_from(tmp_path)
    assert (caught.value.code, caught.value.key) == ("key_mismatch", "key")


def test_loader_rejects_project_names_shared_across_lexicons(tmp_path):
    _write(tmp_path, "cold-chain-logistics", lexicon_doc())
    clash = _second_doc()
    clash["project_names"][2] = "frostline"
    _write(tmp_path, "ferry-crossings", clash)
    with pytest.raises(LexiconError) as caught:
        load_lexicons_from(tmp_path)
    assert (caught.value.code, caught.value.key, caught.value.source) == (
        "duplicate_project_name", "project_names[2]", "ferry-crossings.json")


def test_loader_rejects_domains_shared_across_lexicons(tmp_path):
    _write(tmp_path, "cold-chain-logistics", lexicon_doc())
    clash = _second_doc()
    clash["domain"] = "cold chain logistics"
    _write(tmp_path, "ferry-crossings", clash)
    with pytest.raises(LexiconError) as caught:
        load_lexicons_from(tmp_path)
    assert (caught.value.code, caught.value.key) == ("duplicate_domain", "domain")


def test_check_pool_enforces_the_minimum(tmp_path):
    _write(tmp_path, "cold-chain-logistics", lexicon_doc())
    pool = load_lexicons_from(tmp_path)
    check_pool(pool, LexiconPolicy(min_lexicons=1))
    with pytest.raises(LexiconError) as caught:
        check_pool(pool, LexiconPolicy(min_lexicons=2))
    assert caught.value.code == "too_few_lexicons"
