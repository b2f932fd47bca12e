"""trapoula's service layer: the event-sourced ``Tables`` application and its gRPC (grpc.aio) server.

* :mod:`trapoula.service.application`: ``Tables``, one event-sourced aggregate per table; speaks
  domain types only (no gRPC).
* :mod:`trapoula.service.entries`, :mod:`~trapoula.service.tablestate`,
  :mod:`~trapoula.service.recording`: the stored events (one per fact, hash-chained), the
  table's folded state, and the aggregate that holds both.
* :mod:`trapoula.service.servicer`, :mod:`~trapoula.service.convert`,
  :mod:`~trapoula.service.status`, :mod:`~trapoula.service.fanout`,
  :mod:`~trapoula.service.server`: the wire.
* ``python -m trapoula.service`` serves (see :mod:`trapoula.service.settings`).
"""
