"""A valid lexicon document, independent of the packaged data files."""

import copy

_BASE = {
    "key": "cold-chain-logistics",
    "domain": "cold chain logistics",
    "project_names": ["coldtrack", "frostline", "chillroute"],
    "entity": {"singular": "shipment", "plural": "shipments"},
    "owner": {"singular": "carrier", "plural": "carriers"},
    "item": {"singular": "pallet", "plural": "pallets"},
    "resource": {"singular": "dock", "plural": "docks"},
    "event": {"singular": "scan", "plural": "scans"},
    "fields": {
        "identifier": "waybill", "label": "consignee", "quantity": "pallet_count",
        "amount": "declared_value", "timestamp": "scanned_at", "status": "leg_status",
        "category": "temperature_band", "capacity": "dock_capacity", "priority": "urgency",
        "rate": "scan_rate",
    },
    "units": {"amount": "EUR", "quantity": "pallets", "duration": "minutes", "rate": "scans per minute"},
    "verbs": {
        "create": "register", "reserve": "book", "release": "release", "cancel": "annul",
        "process": "dispatch", "fetch": "lookup", "settle": "invoice", "retry": "rescan",
        "validate": "probe", "notify": "alert",
    },
    "statuses": ["pending", "loaded", "in_transit", "delivered", "returned"],
    "categories": ["frozen", "chilled", "ambient"],
    "errors": {
        "not_found": "UnknownShipment", "conflict": "DockConflict", "invalid": "InvalidWaybill",
        "exhausted": "DockCapacityExceeded", "unavailable": "ScannerOffline",
    },
    "samples": {
        "identifier": ["WB-1042", "WB-2271", "WB-3310"],
        "label": ["Nordhaven Foods", "Alpen Dairy", "Kestrel Pharma"],
    },
    "log_phrases": ["dock assignment delayed", "scanner heartbeat missed", "manifest reconciled"],
}


def lexicon_doc(**overrides):
    """A deep copy of the valid document with top-level keys replaced."""
    doc = copy.deepcopy(_BASE)
    doc.update(copy.deepcopy(overrides))
    return doc
