"""The saturation figures pooled over alternating turns (:mod:`bench.saturation`), worked by hand."""

from __future__ import annotations

import pytest

from .saturation import Turn, ceilings, cpu_ms_per_move, moves_per_s


def _turn(moves: int, seconds: float, used: dict[str, float | None] | None = None, window: float = 0.0) -> Turn:
    return Turn(moves, seconds, 0, used or {}, window)


def test_a_kind_s_moves_a_second_pool_every_turn_s_moves_and_seconds() -> None:
    # a fast minute (600 moves in 1 s) and a slow one (400 moves in 2 s): 1,000 moves in 3 s, not
    # the mean of the two rates (600 and 200: 400)
    turns = [_turn(600, 1.0), _turn(400, 2.0)]
    assert [t.per_s for t in turns] == [600.0, 200.0]
    assert moves_per_s(turns) == pytest.approx(1000.0 / 3.0)
    assert moves_per_s([]) is None
    assert moves_per_s([_turn(0, 0.0)]) is None
    assert _turn(5, 0.0).per_s == 0.0


def test_a_kind_s_cpu_a_move_pools_every_window_s_cpu_and_moves() -> None:
    # 1.8 s of the replicas' CPU over 1,000 moves, then 2.6 s over 1,000: 4.4 s / 2,000 = 2.2 ms a move
    turns = [
        _turn(0, 10.0, {"replicas": 1.8, "load": 1.0, "postgres": 0.2}, 1000.0),
        _turn(0, 10.0, {"replicas": 2.6, "load": 1.2, "postgres": 0.3}, 1000.0),
    ]
    assert cpu_ms_per_move(turns, "replicas") == pytest.approx(2.2)
    assert cpu_ms_per_move(turns, "load") == pytest.approx(1.1)
    assert cpu_ms_per_move(turns, "postgres") == pytest.approx(0.25)


def test_a_cpu_figure_missing_from_one_turn_or_a_play_without_moves_leaves_it_unmeasured() -> None:
    read = _turn(0, 10.0, {"postgres": 0.2}, 1000.0)
    assert cpu_ms_per_move([read, _turn(0, 10.0, {"postgres": None}, 1000.0)], "postgres") is None
    assert cpu_ms_per_move([read, _turn(0, 10.0, {}, 1000.0)], "postgres") is None
    assert cpu_ms_per_move([_turn(0, 10.0, {"postgres": 0.2}, 0.0)], "postgres") is None
    assert cpu_ms_per_move([], "postgres") is None


def test_the_ceilings_are_the_cores_over_the_two_replica_cpu_a_move_over_one_replica_s_rate() -> None:
    # 2 cores, two replicas at 1.05 ms a move, the load generator 0.52, PostgreSQL 0.11, one replica
    # 1,087 moves/s: 2,000 / 1.68 = 1,190.5 moves/s at most (1.0952x); without the load generator
    # 2,000 / 1.16 = 1,724.1 (1.5862x)
    with_load, free_load = ceilings(1087.0, [1.05, 0.52, 0.11], 2)
    assert with_load == pytest.approx(2000.0 / 1.68 / 1087.0) == pytest.approx(1.0952, abs=1e-4)
    assert free_load == pytest.approx(2000.0 / 1.16 / 1087.0) == pytest.approx(1.5862, abs=1e-4)
