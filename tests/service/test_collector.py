"""The garbage collector of a serving process (``trapoula.service.collector``)."""

from __future__ import annotations

import gc

from trapoula.service.collector import THRESHOLDS, serving_collector


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_serving_freezes_what_exists_and_raises_the_thresholds_then_puts_both_back() -> None:
    before = gc.get_threshold()
    assert before != THRESHOLDS
    assert gc.get_freeze_count() == 0
    existing = [object() for _ in range(3)]
    with serving_collector():
        assert gc.get_threshold() == (2_000, 1, 5_000)
        frozen = gc.get_freeze_count()
        assert frozen > 1_000  # the modules, classes and functions loaded so far
        assert not any(existing is o for o in gc.get_objects())  # frozen objects are no generation's
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert any(existing is o for o in gc.get_objects())


def test_a_cycle_made_while_serving_is_collected_young() -> None:
    with serving_collector():
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        del a, b
        assert gc.collect(0) >= 2
