"""Python sources of the booking-ledger template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by the {{resource_h}} ledger."""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""

    code = "error"

    def __init__(self, message, **details):
        super().__init__(message)
        self.message = message
        self.details = details


class {{ErrMissing}}({{Base}}Error):
    """No {{entity_h}} has the requested {{id_h}}."""

    code = "not_found"


class {{ErrConflict}}({{Base}}Error):
    """The requested window is already held on that {{resource_h}}."""

    code = "conflict"


class {{ErrInvalid}}({{Base}}Error):
    """A window or {{id_h}} supplied by the caller is malformed."""

    code = "invalid"
'''

WINDOWS = '''"""Window arithmetic for {{resource_h}} schedules.

{{model_doc}}
"""

{{imports}}


def validate_window({{lo}}, {{hi}}):
    """Raise {{ErrInvalid}} unless the window is well formed."""
    if not isinstance({{lo}}, int) or not isinstance({{hi}}, int):
        raise {{ErrInvalid}}("window bounds must be whole {{units_h}}", {{lo}}={{lo}}, {{hi}}={{hi}})
    if {{lo}} < 0:
        raise {{ErrInvalid}}("a window cannot start before the schedule opens", {{lo}}={{lo}})
    {{!order_check}}


def window_length({{lo}}, {{hi}}):
    """How many {{units_h}} the window covers."""
    {{!length_body}}
{{overlap_fn}}
'''

OVERLAP_FN = '''

def overlaps({{lo}}_a, {{hi}}_a, {{lo}}_b, {{hi}}_b):
    """True when the two windows share at least one {{unit_h}}."""
    {{!overlap}}
'''

MODELS = '''"""The {{entity_h}} record kept on the ledger."""

from dataclasses import dataclass

{{imports}}


@dataclass(frozen=True)
class {{Entity}}:
    """One {{entity_h}}: ``{{owner}}`` holds ``{{resource}}`` for the window ``{{lo}}``..``{{hi}}``."""

    {{id_f}}: str
    {{resource}}: str
    {{owner}}: str
    {{lo}}: int
    {{hi}}: int

    @property
    def length(self):
        return window_length(self.{{lo}}, self.{{hi}})

    def to_dict(self):
        return {
            "{{id_f}}": self.{{id_f}},
            "{{resource}}": self.{{resource}},
            "{{owner}}": self.{{owner}},
            "{{lo}}": self.{{lo}},
            "{{hi}}": self.{{hi}},
        }
'''

LEDGER_OO = '''"""The {{resource_h}} ledger: which {{entity_h}} holds which {{resource_h}}, and when.

Every {{entity_h}} holds one {{resource_h}} for a window of {{units_h}} counted from
the opening of the schedule.  Two {{entities_h}} may not hold the same
{{resource_h}} during the same {{unit_h}}; {{entities_h}} on different {{resources_h}}
never conflict.
"""

import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{Ledger}}:
    """In-memory ledger of {{entities_h}}, indexed by {{resource_h}} and by {{id_h}}."""

    def __init__(self):
        self._by_{{resource}} = {}
        self._by_{{id_f}} = {}

    def __len__(self):
        return len(self._by_{{id_f}})

    def get(self, {{id_f}}):
        try:
            return self._by_{{id_f}}[{{id_f}}]
        except KeyError:
            raise {{ErrMissing}}(f"no {{entity_h}} {{{id_f}}}", {{id_f}}={{id_f}}) from None

    def {{entities}}_on(self, {{resource}}):
        """The {{entities_h}} on ``{{resource}}``, earliest first."""
        return list(self._by_{{resource}}.get({{resource}}, ()))

    def conflicts(self, {{resource}}, {{lo}}, {{hi}}, ignore=None):
        """{{Entities_h}} on ``{{resource}}`` whose windows collide with the given one."""
        {{[}}
        clashes = []
        for held in self._by_{{resource}}.get({{resource}}, ()):
            if held.{{id_f}} == ignore:
                continue
            {{!conflict_test}}
                clashes.append(held)
        return clashes
        {{]}}

    def is_free(self, {{resource}}, {{lo}}, {{hi}}):
        validate_window({{lo}}, {{hi}})
        return not self.conflicts({{resource}}, {{lo}}, {{hi}})

    def {{fn_reserve}}(self, {{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}}):
        """Put a new {{entity_h}} on the ledger; raises {{ErrConflict}} if the window is taken."""
        validate_window({{lo}}, {{hi}})
        if {{id_f}} in self._by_{{id_f}}:
            raise {{ErrConflict}}(f"{{entity_h}} {{{id_f}}} is already on the ledger", {{id_f}}={{id_f}})
        self._refuse_clashes({{resource}}, {{lo}}, {{hi}}, None)
        record = {{Entity}}({{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}})
        self._insert(record)
        logger.info("{{entity_h}} %s holds %s from %s to %s", {{id_f}}, {{resource}}, {{lo}}, {{hi}})
        return record

    def {{fn_move}}(self, {{id_f}}, {{lo}}, {{hi}}):
        """Move an existing {{entity_h}} to another window on the same {{resource_h}}."""
        validate_window({{lo}}, {{hi}})
        current = self.get({{id_f}})
        self._refuse_clashes(current.{{resource}}, {{lo}}, {{hi}}, {{id_f}})
        self._remove(current)
        moved = {{Entity}}({{id_f}}, current.{{resource}}, current.{{owner}}, {{lo}}, {{hi}})
        self._insert(moved)
        return moved

    def {{fn_cancel}}(self, {{id_f}}):
        """Take the {{entity_h}} off the ledger and free its window."""
        record = self.get({{id_f}})
        self._remove(record)
        logger.info("{{entity_h}} %s released %s", {{id_f}}, record.{{resource}})
        return record

    def free_windows(self, {{resource}}, {{lo}}, {{hi}}):
        """The parts of the given window on ``{{resource}}`` that nobody holds."""
        validate_window({{lo}}, {{hi}})
        gaps = []
        cursor = {{lo}}
        for held in self._by_{{resource}}.get({{resource}}, ()):
            {{!gap_step}}
        {{!gap_tail}}
        return gaps

    def _refuse_clashes(self, {{resource}}, {{lo}}, {{hi}}, ignore):
        clashes = self.conflicts({{resource}}, {{lo}}, {{hi}}, ignore=ignore)
        if clashes:
            taken = ", ".join(held.{{id_f}} for held in clashes)
            raise {{ErrConflict}}(
                f"{{resource_h}} {{{resource}}} is already held by {taken}",
                {{resource}}={{resource}},
            )

    def _insert(self, record):
        rows = self._by_{{resource}}.setdefault(record.{{resource}}, [])
        rows.append(record)
        rows.sort(key=lambda held: (held.{{lo}}, held.{{id_f}}))
        self._by_{{id_f}}[record.{{id_f}}] = record

    def _remove(self, record):
        self._by_{{resource}}[record.{{resource}}].remove(record)
        del self._by_{{id_f}}[record.{{id_f}}]
'''

LEDGER_FN = '''"""The {{resource_h}} ledger: which {{entity_h}} holds which {{resource_h}}, and when.

A ledger is a plain dictionary made by ``new_ledger``; the functions below read
and update it.  Every {{entity_h}} holds one {{resource_h}} for a window of
{{units_h}} counted from the opening of the schedule.  Two {{entities_h}} may not
hold the same {{resource_h}} during the same {{unit_h}}; {{entities_h}} on different
{{resources_h}} never conflict.
"""

import logging

{{imports}}

logger = logging.getLogger(__name__)


def new_ledger():
    """An empty ledger."""
    return {"{{resources}}": {}, "{{entities}}": {}}


def get_{{entity}}(ledger, {{id_f}}):
    try:
        return ledger["{{entities}}"][{{id_f}}]
    except KeyError:
        raise {{ErrMissing}}(f"no {{entity_h}} {{{id_f}}}", {{id_f}}={{id_f}}) from None


def {{entities}}_on(ledger, {{resource}}):
    """The {{entities_h}} on ``{{resource}}``, earliest first."""
    return list(ledger["{{resources}}"].get({{resource}}, ()))


def conflicts(ledger, {{resource}}, {{lo}}, {{hi}}, ignore=None):
    """{{Entities_h}} on ``{{resource}}`` whose windows collide with the given one."""
    {{[}}
    clashes = []
    for held in ledger["{{resources}}"].get({{resource}}, ()):
        if held.{{id_f}} == ignore:
            continue
        {{!conflict_test}}
            clashes.append(held)
    return clashes
    {{]}}


def is_free(ledger, {{resource}}, {{lo}}, {{hi}}):
    validate_window({{lo}}, {{hi}})
    return not conflicts(ledger, {{resource}}, {{lo}}, {{hi}})


def _refuse_clashes(ledger, {{resource}}, {{lo}}, {{hi}}, ignore):
    clashes = conflicts(ledger, {{resource}}, {{lo}}, {{hi}}, ignore=ignore)
    if clashes:
        taken = ", ".join(held.{{id_f}} for held in clashes)
        raise {{ErrConflict}}(
            f"{{resource_h}} {{{resource}}} is already held by {taken}",
            {{resource}}={{resource}},
        )


def _insert(ledger, record):
    rows = ledger["{{resources}}"].setdefault(record.{{resource}}, [])
    rows.append(record)
    rows.sort(key=lambda held: (held.{{lo}}, held.{{id_f}}))
    ledger["{{entities}}"][record.{{id_f}}] = record


def _remove(ledger, record):
    ledger["{{resources}}"][record.{{resource}}].remove(record)
    del ledger["{{entities}}"][record.{{id_f}}]


def {{fn_reserve}}_{{resource}}(ledger, {{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}}):
    """Put a new {{entity_h}} on the ledger; raises {{ErrConflict}} if the window is taken."""
    validate_window({{lo}}, {{hi}})
    if {{id_f}} in ledger["{{entities}}"]:
        raise {{ErrConflict}}(f"{{entity_h}} {{{id_f}}} is already on the ledger", {{id_f}}={{id_f}})
    _refuse_clashes(ledger, {{resource}}, {{lo}}, {{hi}}, None)
    record = {{Entity}}({{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}})
    _insert(ledger, record)
    logger.info("{{entity_h}} %s holds %s from %s to %s", {{id_f}}, {{resource}}, {{lo}}, {{hi}})
    return record


def {{fn_move}}_{{entity}}(ledger, {{id_f}}, {{lo}}, {{hi}}):
    """Move an existing {{entity_h}} to another window on the same {{resource_h}}."""
    validate_window({{lo}}, {{hi}})
    current = get_{{entity}}(ledger, {{id_f}})
    _refuse_clashes(ledger, current.{{resource}}, {{lo}}, {{hi}}, {{id_f}})
    _remove(ledger, current)
    moved = {{Entity}}({{id_f}}, current.{{resource}}, current.{{owner}}, {{lo}}, {{hi}})
    _insert(ledger, moved)
    return moved


def {{fn_cancel}}_{{entity}}(ledger, {{id_f}}):
    """Take the {{entity_h}} off the ledger and free its window."""
    record = get_{{entity}}(ledger, {{id_f}})
    _remove(ledger, record)
    logger.info("{{entity_h}} %s released %s", {{id_f}}, record.{{resource}})
    return record


def free_windows(ledger, {{resource}}, {{lo}}, {{hi}}):
    """The parts of the given window on ``{{resource}}`` that nobody holds."""
    validate_window({{lo}}, {{hi}})
    gaps = []
    cursor = {{lo}}
    for held in ledger["{{resources}}"].get({{resource}}, ()):
        {{!gap_step}}
    {{!gap_tail}}
    return gaps
'''
