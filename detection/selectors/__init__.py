"""Reads for contamination detection, split by sub-domain.

The real-time reads (``detection.selectors.realtime``) are re-exported whole, so callers
keep importing them from ``detection.selectors``; case reads live in ``.cases``.
"""

from detection.selectors.realtime import *  # noqa: F403
