"""Post-bout batch analysis (spec 003 "Post-Bout Detection", "Historical Trend Analysis").

Pure Python, no Django: the decisions the batch takes on one bout's numbers. The
Django side (``detection.services.batch``) gathers the numbers, calls these
functions with parameters built from staff settings, and stores every result with
its evidence.

* :mod:`.anomaly` – solve-rate anomaly of a challenge against the expected rate of
  its tier (calibrated rate when enough history exists, the spec's band otherwise).
* :mod:`.temporal` – temporal clustering of a challenge's solves, tested against the
  bout's own arrival pattern by a seeded permutation test of a scan statistic.
* :mod:`.trends` – monthly contamination score per template and the
  "three consecutive rising months" retirement rule.
"""

from .anomaly import AnomalyParams, AnomalyResult, ExpectedRate, expected_rate, solve_rate_anomaly
from .temporal import ClusterParams, ClusterResult, shortest_window, temporal_cluster, temporal_cluster_given_starts
from .trends import TrendParams, TrendResult, monthly_scores, rising_run

__all__ = [
    "AnomalyParams", "AnomalyResult", "ClusterParams", "ClusterResult", "ExpectedRate", "TrendParams", "TrendResult",
    "expected_rate", "monthly_scores", "rising_run", "shortest_window", "solve_rate_anomaly", "temporal_cluster",
    "temporal_cluster_given_starts",
]
