import pytest

from challenges.services.code_dedup import code_window_reset
from challenges.services.novelty import window_cache_reset


@pytest.fixture(autouse=True)
def _fresh_window_cache():
    """Test databases reuse primary keys after rollback; production never does."""
    window_cache_reset()
    code_window_reset()
    yield
    window_cache_reset()
    code_window_reset()
