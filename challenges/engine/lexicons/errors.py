"""The one error type of the lexicon package.

Every failure carries a stable machine ``code`` and the offending ``key`` (a
dotted path into the lexicon document such as ``"fields.quantity"`` or
``"entity.plural"``; ``"$"`` for the document itself). Codes:

``not_an_object``           a document or section is not a JSON object
``missing_key``             a required key is absent
``unknown_key``             a key the schema does not define
``wrong_type``              a value has the wrong JSON type
``bad_identifier``          not a lower snake_case ASCII identifier
``reserved_word``           a case form is a keyword, builtin, global or scaffold word
``collision``               two roles of one lexicon share a name (after re-casing)
``bad_plural``              the plural is not an English plural of the singular
``bad_count``               a list is shorter or longer than the policy allows
``duplicate_value``         a list repeats a value
``bad_error_name``          an error name is not PascalCase of at least two words
``bad_format``              key, domain, unit, sample or phrase has the wrong shape
``marker_word``             agent-visible text contains a staging marker word
``invalid_json``            a data file is not valid JSON
``key_mismatch``            a data file's name differs from its ``key``
``duplicate_domain``        two lexicons share a domain label
``duplicate_project_name``  two lexicons share a project name
``too_few_lexicons``        fewer lexicons than the policy requires
``unknown_lexicon``         ``get_lexicon`` was given a key that does not exist
``unknown_role``            a naming helper was given a role it does not know
``no_plural``               a plural was requested for a role that has none
``reserved_name``           a composed name is a reserved word
"""

from __future__ import annotations


class LexiconError(ValueError):
    """A lexicon document or a naming request is invalid."""

    def __init__(self, code: str, key: str, message: str, *, source: str | None = None) -> None:
        self.code = code
        self.key = key
        self.message = message
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{code} at {key}: {message}")
