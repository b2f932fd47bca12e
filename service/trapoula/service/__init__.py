"""trapoula's service layer: the event-sourced ``Tables`` and its gRPC (grpc.aio) server.

The map of its modules, and the path of one command (load → decide → save → publish), is in
docs/architecture.md.  In short:

* :mod:`trapoula.service.application`: ``Tables``, the facade over the modules below; speaks
  domain types only (no gRPC).
* :mod:`~trapoula.service.commands`, :mod:`~trapoula.service.moves`,
  :mod:`~trapoula.service.seating`, :mod:`~trapoula.service.autoplay`,
  :mod:`~trapoula.service.automation`: running commands and automatic play.
* :mod:`~trapoula.service.store`, :mod:`~trapoula.service.heads`,
  :mod:`~trapoula.service.committer`, :mod:`~trapoula.service.recorder`,
  :mod:`~trapoula.service.follower`: the event store, each table's newest known version and its
  listeners, group commit, the one-round-trip save and the other replicas' saves.
* :mod:`~trapoula.service.entries`, :mod:`~trapoula.service.tablestate`,
  :mod:`~trapoula.service.recording`: the stored events (one per fact, hash-chained), the
  table's folded state, and the aggregate that holds both.
* :mod:`~trapoula.service.views`, :mod:`~trapoula.service.jsontext`, :mod:`~trapoula.service.reads`:
  what callers see, and the JSON text it goes out as.
* :mod:`~trapoula.service.principals`, :mod:`~trapoula.service.identity`,
  :mod:`~trapoula.service.limits`: who calls (tokens, the owner, invitation codes, the app's
  identity tokens) and how much one client may ask.
* :mod:`~trapoula.service.servicer`, :mod:`~trapoula.service.servicecalls`,
  :mod:`~trapoula.service.convert`, :mod:`~trapoula.service.status`,
  :mod:`~trapoula.service.fanout`, :mod:`~trapoula.service.deadlines`,
  :mod:`~trapoula.service.server`, :mod:`~trapoula.service.startup`: the wire, and what a
  server opens at its start.
* ``python -m trapoula.service`` serves (see :mod:`trapoula.service.settings`).
"""
