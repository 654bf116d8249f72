"""Pure generation engine (no Django): templates -> realistic codebases with one
organic bug, a hidden oracle, canaries, red herrings and synthetic history.

Entry points: ``draw``, ``generate``, ``validate``, ``rebuild``, ``fingerprint``;
see ``AUTHORING.md`` for writing templates.
"""

from challenges.engine.api import GateConfig, GateReport, available_lexicons, draw, generate, rebuild, validate
from challenges.engine.draw import Draw
from challenges.engine.errors import DrawError, EngineError, TemplateError
from challenges.engine.fingerprint import FINGERPRINT_FIELDS, fingerprint
from challenges.engine.instance import GeneratedInstance
from challenges.engine.model import Template, TemplateSpec, get_template, register, registry

__all__ = [
    "Draw", "DrawError", "GateConfig", "GateReport", "EngineError", "FINGERPRINT_FIELDS", "GeneratedInstance", "Template",
    "TemplateError", "TemplateSpec", "available_lexicons", "draw", "fingerprint", "generate",
    "get_template", "rebuild", "register", "registry", "validate",
]
