"""The bench's own arithmetic on figures, worked by hand."""

from __future__ import annotations

import math

from .figures import histogram_quantile


def test_a_histogram_quantile_is_the_bound_of_the_bucket_it_falls_in() -> None:
    # 200 Acts: 120 within 10 ms, 190 within 25 ms, 198 within 50 ms, all within 100 ms
    buckets = [(0.005, 40.0), (0.01, 120.0), (0.025, 190.0), (0.05, 198.0), (0.1, 200.0), (math.inf, 200.0)]
    assert histogram_quantile(buckets, 0.5) == 0.01  # the 100th call: 40 < 100 <= 120
    assert histogram_quantile(buckets, 0.95) == 0.025  # the 190th: exactly the bucket's count
    assert histogram_quantile(buckets, 0.99) == 0.05  # the 198th
    assert histogram_quantile(buckets, 1.0) == 0.1
    # beyond every finite bucket: the quantile is only known to be above the last one
    slow = [(0.1, 50.0), (1.0, 90.0), (math.inf, 100.0)]
    assert histogram_quantile(slow, 0.99) == math.inf


def test_an_empty_histogram_has_no_quantile() -> None:
    assert histogram_quantile([(0.01, 0.0), (math.inf, 0.0)], 0.5) is None
    assert histogram_quantile([], 0.99) is None
