"""The API's JSON parser: bounded in size, depth and number range, whatever the body holds.

DRF's own parser reads the whole stream (Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` does not
apply to it), lets a deeply nested document raise ``RecursionError`` (a 500), and turns
``1e400`` into ``inf``. This one reads at most the body cap (the middleware has usually
refused a larger body before any byte is read), refuses non-finite numbers and ``NaN`` /
``Infinity``, nesting deeper than ``MAX_JSON_DEPTH`` and strings that are not valid
Unicode (a lone surrogate cannot be stored), each with a stable code.
"""

from __future__ import annotations

import codecs
import json
import math

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from api.exceptions import RequestTooLarge

MAX_JSON_DEPTH = 64  # far deeper than any request shape; trace depth is a staff setting below it


class _NotFinite(ValueError):
    pass


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text)
    return value


def _refuse_constant(name: str):
    raise _NotFinite(name)


def _check_shape(data) -> None:
    """Depth and text checks, iteratively: no document can exhaust the stack here."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise ParseError(f"JSON nests deeper than {MAX_JSON_DEPTH} levels.", code="json_too_deep")
            if isinstance(value, dict):
                for key, item in value.items():
                    stack.append((key, depth + 1))
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError("JSON text holds an unpaired surrogate.", code="json_invalid_unicode") from None


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return None
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise RequestTooLarge(limit)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError("The request body is not valid text.", code="json_invalid_unicode") from None
        try:
            data = json.loads(text, parse_float=_finite_float, parse_constant=_refuse_constant)
        except _NotFinite:
            raise ParseError("JSON numbers must be finite (no NaN, Infinity or overflowing values).",
                             code="json_number_not_finite") from None
        except RecursionError:
            raise ParseError(f"JSON nests deeper than {MAX_JSON_DEPTH} levels.", code="json_too_deep") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        _check_shape(data)
        return data
