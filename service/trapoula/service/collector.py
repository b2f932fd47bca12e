"""How a serving process runs Python's cyclic garbage collector.

Nearly everything a server keeps (its tables in memory, their folded states and renderings, a
stream's call objects) is freed by reference counting; the cyclic collector finds little.  With
Python's defaults (thresholds 700, 10, 10) it still walked the whole heap every few seconds
under load: objects that live a second or more (a rendering shared by a table's watchers, a
queued call) survive two young collections and count towards a full one, which runs once they
make a quarter of the heap.  With 400 tables in memory (about 600,000 tracked objects, half of
them the renderings' dicts and lists) each full collection paused every thread for 0.3 to 1 s,
and the collector took 14 to 17 % of the server's CPU under the paced load.

:func:`serving_collector` freezes what exists when serving begins (modules, classes, functions:
they live as long as the process, ``gc.freeze``), runs a young collection once
:data:`THRESHOLDS` [0] new objects were made, a middle one at every other young one
(:data:`THRESHOLDS` [1]), and a full collection only once in :data:`THRESHOLDS` [2] middle ones
(and, by Python's rule, only once the objects new since the last one make a quarter of the
heap).

A collection walks the new objects still alive, and what a move keeps (its table's folded
states and renderings, for its watchers) outlives a young collection, so a middle collection
walks everything kept since the last one: each pause is about proportional to the young
threshold, and the time in the collector in all about the same whatever the threshold.  The
pauses are what a player feels: every call waits behind one.  Under the paced load (400 tables,
300 and 400 moves a second, docs/benchmarks.md) a young threshold of 20,000 paused every thread
for up to 45 to 110 ms (young) and 105 to 160 ms (middle), and the Act p99 was 88 to 137 ms; at
2,000 the longest pauses were 10 to 15 ms and 16 to 27 ms and the p99 73 ms, for about a fifth
more time in the collector (about 4 % of the server's CPU).  The full collections stay rare:
once in 5,000 middle ones, about every 20 minutes under that load (a full one walks the whole
heap: about a second with 400 tables).
Cyclic garbage is still found: young cycles at once (gRPC leaves a few objects in a cycle per
call), older ones at the next full collection.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

THRESHOLDS = (2_000, 1, 5_000)
"""``gc.set_threshold`` while serving: new objects before a young collection, young collections
before a middle one, middle ones before a full one (Python's defaults: 700, 10, 10)."""


@contextlib.contextmanager
def serving_collector() -> Iterator[None]:
    """Within the block: the objects that exist on entry frozen (``gc.freeze``, after one full
    collection), and the collector's thresholds :data:`THRESHOLDS`; on exit, both as they were
    (``gc.unfreeze`` returns the frozen objects to the oldest generation)."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
