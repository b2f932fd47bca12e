"""trapoula's benchmarks (``make bench``; docs/benchmarks.md).

Run as ``python -m bench`` with ``tests`` on ``PYTHONPATH`` (``make bench`` does so): the pure
domain's random bot hands per second (and open_spiel's crazy_eights playouts beside them when it
is installed), replay of a stored record, ``Act`` over gRPC at 1, 10 and 100 tables on SQLite and
on PostgreSQL beside a bare gRPC echo and a bare store append, fan-out of one event to 1,000
watchers and memory per open table.  ``--quick`` is a smoke run of a few seconds.

Nothing here is collected by pytest but ``test_bench_quick.py``.
"""
