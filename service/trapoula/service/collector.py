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
:data:`THRESHOLDS` [0] new objects were made (a few milliseconds: it walks only the new objects
still alive, which a busy server's calls keep to a few thousand whatever the threshold, so a
high threshold makes few collections; at 2,000 the collector still took 5 to 8 % of the
server's CPU under a closed-loop ``Act`` load), a middle one at every other young one
(:data:`THRESHOLDS` [1]), and a full collection only once in :data:`THRESHOLDS` [2] middle ones
(once in 20 million new objects, about a quarter of an hour under the paced load, with Python's
rule that the objects new since the last one make a quarter of the heap).

The middle collections are frequent because most of what a move makes outlives a young
collection (the renderings and states a table keeps for its watchers), so a middle collection
walks everything made since the last one.  With one in ten young ones (Python's ratio) each
paused every thread for 95 to 145 ms under the paced load (400 tables, 400 moves a second);
with one in two, 30 to 55 ms, for about the same time in the collector in all (docs/benchmarks.md).
Cyclic garbage is still found: young cycles at once, older ones at the next full collection.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

THRESHOLDS = (20_000, 1, 500)
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
