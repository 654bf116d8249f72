"""Staff-editable settings of the substrate intake gate (spec 000).

The spec's v1 policy is the default: rig-confidence is gated at 60; recognisability and
memorisation are report-only until staff set a gate for them (``*_gated``). The service
(``challenges.services.intake``) reads these on every check, so a change applies to the
next check or activation without a restart.

The memorisation probe is pluggable: ``intake.memorisation_probe`` names a factory
``(IntakeParams) -> MemorisationProbe`` by dotted path. The default is the offline n-gram
probe. For a model-backed probe set it to
``challenges.services.intake.completion_probe`` and set ``intake.completion_function`` to
the dotted path of a ``complete(prompt: str) -> str`` callable that asks a tool-less model
closed-book (no retrieval, no tools); see ``CompletionMemorisationProbe``. For example::

    # myorg/intake_model.py
    def complete(prompt: str) -> str:
        return client.generate(prompt, tools=[], temperature=0).text   # any model client

    intake.memorisation_probe   = "challenges.services.intake.completion_probe"
    intake.completion_function  = "myorg.intake_model.complete"
    intake.completion_files     = 3      # largest source files asked for, by path only

The probe asks for each file by project and path only and scores the best verbatim
n-gram overlap (``intake.memorisation_n``) between an answer and the real file. A probe
of another kind is any factory ``(IntakeParams) -> MemorisationProbe`` named in
``intake.memorisation_probe``; a path that does not import or does not build a probe
makes the check refuse with ``intake_probe_invalid``.
"""

from __future__ import annotations

import re
from typing import Any

from core.config import Setting, declare, declares, positive_int

_INTAKE = "intake gate"
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")

DEFAULT_PROBE = "challenges.services.intake.ngram_probe"


@declares(int, 0, 100)
def _score(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("must be a whole number")
    if not 0 <= value <= 100:
        raise ValueError("must be between 0 and 100")
    return value


@declares(bool)
def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("must be true or false")
    return value


def _dotted(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("must be text")
    if value and not _DOTTED.fullmatch(value):
        raise ValueError("must be a dotted path such as package.module.function")
    return value


def _probe_path(value: Any) -> str:
    value = _dotted(value)
    if not value:
        raise ValueError("must name a probe factory")
    return value


def _directory(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("must be text (a directory path, or empty for none)")
    return value.strip()


declare(
    Setting("intake.samples", 3, "Instances generated per template for one intake check (each language in turn).",
            validate=positive_int, group=_INTAKE),
    Setting("intake.rig_threshold", 60,
            "Rig-confidence above which a template cannot be activated (does this look staged? lower is better).",
            validate=_score, group=_INTAKE),
    Setting("intake.recognisability_threshold", 60, "Recognisability gate (applies only when gated).",
            validate=_score, group=_INTAKE),
    Setting("intake.recognisability_gated", False,
            "Block activation above the recognisability threshold (report-only when false, as in spec 000 v1).",
            validate=_boolean, group=_INTAKE),
    Setting("intake.memorisation_threshold", 60, "Memorisation gate (applies only when gated).",
            validate=_score, group=_INTAKE),
    Setting("intake.memorisation_gated", False,
            "Block activation above the memorisation threshold (report-only when false, as in spec 000 v1).",
            validate=_boolean, group=_INTAKE),
    Setting("intake.recognisability_n", 12, "Token n-gram size of the name-stripped recognisability comparison.",
            validate=positive_int, group=_INTAKE),
    Setting("intake.memorisation_n", 8, "Token n-gram size of the offline (verbatim) memorisation probe.",
            validate=positive_int, group=_INTAKE),
    Setting("intake.memorisation_probe", DEFAULT_PROBE,
            "Dotted path of the memorisation probe factory (IntakeParams -> probe). "
            "challenges.services.intake.completion_probe asks a model closed-book (see intake.completion_function).",
            validate=_probe_path, group=_INTAKE,
            suggestions=(DEFAULT_PROBE, "challenges.services.intake.completion_probe")),
    Setting("intake.completion_function", "",
            "Dotted path of complete(prompt) -> text, a tool-less model call used by the completion probe.",
            validate=_dotted, group=_INTAKE),
    Setting("intake.completion_files", 3, "Largest source files the completion probe asks the model to recall.",
            validate=positive_int, group=_INTAKE),
    Setting("intake.canonical_library", "",
            "Directory of canonical solutions (one sub-directory per bug type) compared with emitted code; empty: none.",
            validate=_directory, group=_INTAKE),
    Setting("intake.corpus_fingerprints", True,
            "Also score recognisability by fingerprint similarity to the known-contamination corpus.",
            validate=_boolean, group=_INTAKE),
)
