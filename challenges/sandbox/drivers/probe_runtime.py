"""Observation runtime of Python probes (runs inside the sandbox; holds nothing secret).

A probe is a hidden test file whose assertions were compiled into calls of this module, each
with the id of its site: ``value(site, *operands)`` records the operands, ``relation(site,
op, a, b)`` the truth of a relation between two values, ``raises(site)`` what a block raised
and ``multiset``/``typeof`` sorted elements and a type name. Values are written to the record
channel in the canonical form the host expects (see ``challenges/judge/values.py``): sorted
sets, mappings and fields, exact float text, no object identity, bounded size and depth.

Nothing here decides anything. Whatever code runs beside it can write to the channel too;
the host compares what arrives with expectations it never sends here.
"""

import enum
import json
import os
import re
import types

# dataclasses, decimal, fractions and hashlib are imported only when a value needs them:
# every evaluation starts this module, and their import time is the judge's overhead.

_FD = None
_MAX_DEPTH = 32
_MAX_NODES = 5000
_MAX_TEXT = 4096
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_write = os.write
_dumps = json.dumps


def configure(fd):
    global _FD
    _FD = fd


def emit(record):
    if _FD is None:
        return
    data = (_dumps(record, separators=(",", ":")) + "\n").encode("utf-8", "replace")
    while data:
        data = data[_write(_FD, data):]


def _digest(data):
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _text(value):
    if len(value) <= _MAX_TEXT:
        return value
    digest = _digest(value.encode("utf-8", "surrogatepass"))
    return {"str": value[:256], "len": len(value), "sha256": digest}


def _qualname(cls):
    return getattr(cls, "__qualname__", None) or getattr(cls, "__name__", None) or "?"


def _num(value):
    if isinstance(value, int):
        return {"num": str(value)} if abs(value) < 10 ** 300 else {"bigint": str(value)[:64]}
    if value != value or value in (float("inf"), float("-inf")):
        return {"num": repr(value)}
    if value.is_integer() and abs(value) < 2 ** 53:
        return {"num": str(int(value))}
    return {"num": repr(value)}


def _sort(items):
    return sorted(items, key=lambda item: _dumps(item, sort_keys=True))


class _Canon:
    def __init__(self):
        self.nodes = 0
        self.stack = set()

    def __call__(self, value, depth=0):
        self.nodes += 1
        if depth > _MAX_DEPTH or self.nodes > _MAX_NODES:
            return {"deep": _qualname(type(value))}
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, enum.Enum):
            return {"enum": f"{_qualname(type(value))}.{value.name}"}
        if isinstance(value, (int, float)):
            return _num(value)
        if isinstance(value, str):
            return _text(str(value))
        if isinstance(value, (bytes, bytearray)):
            return {"bytes": bytes(value[:2048]).hex()}
        kind = type(value)
        if kind.__name__ == "Decimal" and kind.__module__ in ("decimal", "_decimal", "_pydecimal"):
            # Decimal("4.80") == Decimal("4.8"): equal values get equal trees.
            return {"decimal": str(value.normalize()) if value.is_finite() else str(value)}
        if kind.__name__ == "Fraction" and kind.__module__ == "fractions":
            return {"fraction": str(value)}
        if isinstance(value, type):
            return {"type": _qualname(value)}
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
            return {"function": _qualname(value)}
        if hasattr(value, "isoformat") and type(value).__module__ == "datetime":
            return {type(value).__name__ if type(value).__name__ in ("date", "time") else "datetime": value.isoformat()}
        if type(value).__module__ == "datetime" and type(value).__name__ == "timedelta":
            return {"timedelta": str(value.total_seconds())}
        key = id(value)
        if key in self.stack:
            return {"cycle": _qualname(type(value))}
        self.stack.add(key)
        try:
            return self._container(value, depth)
        finally:
            self.stack.discard(key)

    def _container(self, value, depth):
        if isinstance(value, BaseException):
            return {"error": [_qualname(type(value)), [["args", self(list(value.args), depth + 1)]]]}
        if isinstance(value, list):
            return [self(item, depth + 1) for item in value]
        if isinstance(value, tuple):
            return {"tuple": [self(item, depth + 1) for item in value]}
        if isinstance(value, dict):
            return {"dict": _sort([[self(k, depth + 1), self(v, depth + 1)] for k, v in value.items()])}
        if isinstance(value, (set, frozenset)):
            return {"set": _sort([self(item, depth + 1) for item in value])}
        if hasattr(type(value), "__dataclass_fields__"):
            import dataclasses

            fields = [[f.name, self(getattr(value, f.name, None), depth + 1)] for f in dataclasses.fields(value)]
            return {"object": [_qualname(type(value)), _sort(fields)]}
        attrs = getattr(value, "__dict__", None)
        slots = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ()) if isinstance(name, str)]
        if isinstance(attrs, dict) or slots:
            fields = {}
            for name in slots:
                if hasattr(value, name):
                    fields[name] = getattr(value, name)
            if isinstance(attrs, dict):
                fields.update(attrs)
            pairs = [[str(k), self(v, depth + 1)] for k, v in fields.items() if not str(k).startswith("__")]
            return {"object": [_qualname(type(value)), _sort(pairs)]}
        if hasattr(value, "__iter__") and hasattr(value, "__len__"):
            return {"list": [self(item, depth + 1) for item in list(value)[:_MAX_NODES]]}
        return {"opaque": _qualname(type(value))}


def canonical(value):
    return _Canon()(value)


def _observe(site, values):
    emit({"t": "obs", "s": site, "v": values})


def value(site, *operands):
    _observe(site, [canonical(x) for x in operands])


def multiset(site, operand):
    try:
        items = [canonical(x) for x in operand]
    except TypeError:
        items = [canonical(operand)]
    _observe(site, [{"list": _sort(items)}])


def typeof(site, operand):
    _observe(site, [{"type": _qualname(type(operand))}])


_RELATIONS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "is": lambda a, b: a is b,
    "is not": lambda a, b: a is not b, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
    "isinstance": isinstance, "not isinstance": lambda a, b: not isinstance(a, b),
    "regex": lambda a, b: re.search(b, a) is not None, "not regex": lambda a, b: re.search(b, a) is None,
}


def relation(site, op, left, right):
    try:
        outcome = bool(_RELATIONS[op](left, right))
    except Exception as exc:  # noqa: BLE001 - a failing comparison is an observation too
        _observe(site, [{"raised": _qualname(type(exc))}])
        return
    _observe(site, [outcome])


def _message(exc):
    text = _ADDRESS.sub(" at 0x?", str(exc))
    if len(text) <= _MAX_TEXT:
        return text
    return text[:_MAX_TEXT] + " sha256:" + _digest(text.encode("utf-8", "surrogatepass"))


class raises:  # noqa: N801 - used as a context manager, like unittest's assertRaises
    """Records what the block raised (its class, and its message when the test checks it)."""

    def __init__(self, site, message=False):
        self.site = site
        self.message = message
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is None:
            _observe(self.site, [{"returned": None}])
            return False
        if not issubclass(kind, Exception):
            return False
        self.exception = exc
        seen = {"raised": _qualname(kind)}
        if self.message:
            seen["message"] = _message(exc)
        _observe(self.site, [seen])
        return True


def raises_call(site, message, func, *args, **kwargs):
    with raises(site, message):
        func(*args, **kwargs)
