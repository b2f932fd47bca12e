"""``ReplayRecord``: a record replayed through the rules and audited, for the replay viewer.

The same fold as ``trapoula replay`` (:class:`~trapoula.clients.replay.Replay`) and the same audit
as ``trapoula verify`` (:func:`~trapoula.domain.audit.audit_record`), run over a record the caller
sends; nothing is stored.  The answer holds every game event as the viewer saw it (its hand, and
whether it reached the viewer at all), the viewer's views at the positions asked for and the
audit's report, so that a page can step through a match without rules of its own.

>>> from trapoula.api.v1 import table_pb2 as pb
>>> replay_record(pb.ReplayRecordRequest(jsonl="not a record"))
Traceback (most recent call last):
...
trapoula.domain.errors.InvalidInput: not a trapoula record: the first line is not its header
"""

from __future__ import annotations

from trapoula.api.v1 import table_pb2 as pb
from trapoula.clients.audit import collector_paused, parse_record
from trapoula.clients.replay import Replay
from trapoula.domain.audit import audit_record
from trapoula.domain.errors import InvalidInput
from trapoula.domain.lifecycle import Role
from trapoula.service.jsontext import dumps

MAX_POSITIONS = 64
"""Most views one call answers (a page asks for the position it shows and its neighbours)."""


def replay_record(request: pb.ReplayRecordRequest) -> pb.ReplayRecordResponse:
    """Replay and audit ``request.jsonl`` as ``request.seat`` (absent: a spectator) saw it.

    Raises:
        InvalidInput: ``bad_record`` (not a record, or it cannot be replayed from its start),
            ``bad_seat``, ``bad_position`` (out of ``0..N``, or more than :data:`MAX_POSITIONS`).
    """
    with collector_paused():
        lines = parse_record(request.jsonl)
        replay = Replay(lines, partial=True)
        viewer = request.seat if request.HasField("seat") else None
        if viewer is not None and not 0 <= viewer < replay.seats:
            raise InvalidInput(f"seat {viewer} is not at this table (0..{replay.seats - 1})", "bad_seat")
        if len(request.positions) > MAX_POSITIONS:
            raise InvalidInput(f"at most {MAX_POSITIONS} positions a call", "bad_position")
        positions = [pb.ReplayPosition(position=p, view_json=dumps(replay.view(p, viewer))) for p in request.positions]
        steps: list[pb.ReplayStep] = []
        hand = 0
        for position in range(1, replay.length + 1):
            step = replay.step(position)
            if step.event.role is Role.HAND_STARTED:
                hand += 1
            seen = replay.reaches(position, viewer)
            payload = dumps(replay.event_payload(position, viewer)) if seen else "{}"
            steps.append(pb.ReplayStep(position=position, name=step.name, hand=hand, payload_json=payload, seen=seen))
        report = audit_record(lines)
    return pb.ReplayRecordResponse(
        game=replay.spec.key,
        table_id=replay.table_id,
        names=list(replay.names),
        steps=steps,
        positions=positions,
        verified=report.ok,
        report=report.summary(),
        stopped=str(replay.stopped) if replay.stopped is not None else "",
    )
