"""Domain lexicons: the vocabulary a generated codebase is written in.

A lexicon is one coherent business domain (cold-chain logistics, ferry
reservations, seed-bank inventory ...) that names every role a template needs:
five nouns, ten fields, ten verbs, an ordered status lifecycle, categories,
units, five error names, sample values and log phrases. Data lives in
``data/<key>.json`` following the schema in ``notes/engine_contracts.md``; every
file is validated on load. Pure Python, no Django.

Loading::

    from challenges.engine.lexicons import load_lexicons, get_lexicon

    pool = load_lexicons()                  # tuple[Lexicon, ...], cached, sorted by key
    lex = get_lexicon("cold-chain-logistics")

Raw values are typed attributes, exactly as in the JSON (lower snake_case;
error names PascalCase)::

    lex.entity.singular, lex.entity.plural      # "shipment", "shipments"
    lex.fields.quantity                         # "pallet_count"
    lex.verbs.reserve                           # "book"
    lex.statuses                                # ("pending", "loaded", ..., "returned")
    lex.errors.not_found                        # "UnknownShipment"
    lex.units.amount, lex.samples.label[0]      # "EUR", "Nordhaven Foods"
    lex.project_names                           # ("coldtrack", "frostline", "chillroute")

Role references name a value without knowing the domain: a noun role
(``"entity"``, ``"owner"``, ``"item"``, ``"resource"``, ``"event"``, optionally
``"entity.plural"``), or ``"field.<role>"``, ``"verb.<role>"``,
``"error.<role>"``.

``lex.ident(role, style=..., plural=...) -> str`` renders one role::

    lex.ident("entity")                              # "shipment"
    lex.ident("entity", style="camel", plural=True)  # "shipments"
    lex.ident("entity", style="pascal")              # "Shipment"
    lex.ident("field.quantity", style="camel")       # "palletCount"
    lex.ident("field.status", style="upper")         # "LEG_STATUS"
    lex.ident("error.not_found", style="pascal")     # "UnknownShipment"
    lex.ident("resource", style="kebab", plural=True)  # "docks" (file names)
    lex.ident("field.label", style="text")           # "consignee" (prose)

Styles: ``snake``, ``camel``, ``pascal``, ``upper`` (constants, enum members),
``kebab``, ``text`` (space separated, for READMEs and log lines), ``title``.

``lex.compose(*parts, style=...) -> str`` joins role references, literal words
and :class:`Name` objects into one identifier; it refuses results that are
keywords or builtins of a target language::

    lex.compose("verb.reserve", "resource", style="camel")   # "bookDock"
    lex.compose("resource", "service", style="pascal")       # "DockService"
    lex.compose("entity.plural", "by", "field.identifier")   # "shipments_by_waybill"
    lex.compose("max", "field.capacity", style="upper")      # "MAX_DOCK_CAPACITY"

``lex.name(role, form="singular") -> Name`` gives the same value as a
:class:`Name` for further composition; ``str(name)`` is its snake form::

    entity = lex.name("entity")
    f"class {entity.pascal}Repository:"              # "class ShipmentRepository:"
    f"def {lex.name('verb.cancel') + entity}(self)"   # "def void_shipment(self)"
    (lex.name("entity", "plural") + "cache").camel    # "shipmentsCache"

Enumerations and lifecycle::

    lex.status_names("upper")      # ("PENDING", "LOADED", "IN_TRANSIT", ...)
    lex.category_names("pascal")   # ("Frozen", "Chilled", "Ambient")
    lex.initial_status, lex.final_status, lex.next_status("loaded")

Free functions for any text: ``to_style("in_transit", "camel") -> "inTransit"``,
``split_words("DockCapacityExceeded") -> ("dock", "capacity", "exceeded")``.

Guarantees template authors can rely on (enforced by ``validate_lexicon``):

- every noun, field, verb, status and category, and every error name, is valid
  in Python and JavaScript in all of snake/camel/Pascal/upper forms and is not
  a keyword, builtin or global of Python, JavaScript/Node, TypeScript, Go, Rust
  or Java (see ``reserved.py``);
- no noun, field, verb, status, category or project name is the name of a
  Python standard-library or Node.js built-in module, so any of them may name a
  module file, even at the import root;
- no lexicon value is one of ``SCAFFOLD_WORDS`` (``service``, ``store``,
  ``cache``, ``config``, ``errors``, ``add``, ``update`` ...), so templates may
  use those words for their own structure without clashing with the domain;
- identifier words are two or more ASCII letters (no digits), so any word
  splitter recovers them from any case style;
- no two values within one lexicon collide after re-casing (``pallet_count``
  vs ``palletcount``), so every role maps to a distinct identifier and file;
- plurals are English plurals of the singular's head word;
- project names are unique across lexicons and shadow no Python or Node.js
  standard module; no string contains staging marker words (bug, fixme, ...);
- statuses are an ordered lifecycle of 4-6 values, categories 3-5.

Errors are :class:`LexiconError` with a stable ``code`` and the offending
``key`` (see ``errors.py`` for the codes). Adding a lexicon: drop a JSON file
in ``data/`` named after its key and run ``pytest tests/unit/lexicons``.
"""

from .errors import LexiconError
from .loader import DATA_DIR, check_pool, get_lexicon, load_lexicon_file, load_lexicons, load_lexicons_from
from .model import (
    ERROR_ROLES,
    FIELD_ROLES,
    NOUN_ROLES,
    UNIT_ROLES,
    VERB_ROLES,
    Errors,
    Fields,
    Lexicon,
    Noun,
    Samples,
    Units,
    Verbs,
)
from .naming import STYLES, Name, split_words, to_style
from .reserved import RESERVED_WORDS, SCAFFOLD_WORDS
from .validate import DEFAULT_POLICY, LexiconPolicy, validate_lexicon

__all__ = [
    "DATA_DIR",
    "DEFAULT_POLICY",
    "ERROR_ROLES",
    "FIELD_ROLES",
    "NOUN_ROLES",
    "RESERVED_WORDS",
    "SCAFFOLD_WORDS",
    "STYLES",
    "UNIT_ROLES",
    "VERB_ROLES",
    "Errors",
    "Fields",
    "Lexicon",
    "LexiconError",
    "LexiconPolicy",
    "Name",
    "Noun",
    "Samples",
    "Units",
    "Verbs",
    "check_pool",
    "get_lexicon",
    "load_lexicon_file",
    "load_lexicons",
    "load_lexicons_from",
    "split_words",
    "to_style",
    "validate_lexicon",
]
