import pytest

from challenges.engine import model
from tests.integration.intake.helpers import PROMPTS, RECALLED, STAGED_SLUG, staged_template_class


@pytest.fixture
def staged(monkeypatch):
    """Register the staged template for this test only."""
    monkeypatch.setitem(model._REGISTRY, STAGED_SLUG, staged_template_class())
    return STAGED_SLUG


@pytest.fixture(autouse=True)
def _fresh_fake_model():
    RECALLED.clear()
    PROMPTS.clear()
    yield
    RECALLED.clear()
    PROMPTS.clear()
