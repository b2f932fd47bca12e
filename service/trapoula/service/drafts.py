"""Drafts: the facts a command is about to store, and their hash-chained stored events.

A command decides a list of :class:`Draft` (name, payload, actor); :func:`chain` numbers them
after the table's version and links each to the previous hash (docs/record.md), giving the
library's events to save.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trapoula.domain.chain import event_hash
from trapoula.domain.events import Payload, to_payload
from trapoula.domain.game import GameSpec
from trapoula.domain.match import Match
from trapoula.service.recording import Table


@dataclass(frozen=True, slots=True)
class Draft:
    """One fact to store: the event's ``name``, its full ``payload`` and who acted (``seat:2``,
    ``bot:1``, ``owner``, ``table``)."""

    name: str
    payload: Payload
    actor: str


def game_drafts(spec: GameSpec[Any, Any], game_state: Any, command: Any, actor: str) -> tuple[Any, list[Draft]]:
    """The game's events for ``command`` in ``game_state`` as drafts, and the state after them.

    Raises:
        CommandRejected, InvalidInput: the rules refuse the command.
    """
    after, events = Match(spec, game_state).apply(command)
    return after.state, [Draft(event.event_name(), to_payload(event), actor) for event in events]


def chain(table: Table, drafts: Sequence[Draft], command_id: str | None) -> list[Table.Recorded]:
    """The stored events of ``drafts`` after ``table``'s version: versions ``version + 1 ...``,
    each hash-chained to the one before (``prev_hash``, ``hash``), all carrying ``command_id``."""
    state = table.state
    prev, seq = state.last_hash, state.version
    out: list[Table.Recorded] = []
    for d in drafts:
        seq += 1
        h = event_hash(prev, seq, d.name, d.payload)
        out.append(
            Table.Recorded(  # type: ignore[call-arg]
                originator_id=table.id,
                originator_version=seq,
                timestamp=Table.Recorded.create_timestamp(),
                name=d.name,
                payload=d.payload,
                prev_hash=prev,
                hash=h,
                command_id=command_id,
                actor=d.actor,
            )
        )
        prev = h
    return out
