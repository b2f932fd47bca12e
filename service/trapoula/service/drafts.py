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
from trapoula.domain.events import Event, Payload, to_payload
from trapoula.domain.game import GameSpec
from trapoula.domain.match import Match
from trapoula.service.recording import Table


@dataclass(frozen=True, slots=True)
class Draft:
    """One fact to store: the event's ``name``, its full ``payload``, who acted (``seat:2``,
    ``bot:1``, ``owner``, ``table``) and the payload's schema version (``Event.version``; 1 for the
    table's own events)."""

    name: str
    payload: Payload
    actor: str
    version: int = 1


def event_draft(event: Event, actor: str) -> Draft:
    """The draft of one domain event: its name, its payload and its class's schema version."""
    return Draft(event.event_name(), to_payload(event), actor, type(event).version)


def game_drafts(spec: GameSpec[Any, Any], game_state: Any, command: Any, actor: str) -> tuple[Any, list[Draft]]:
    """The game's events for ``command`` in ``game_state`` as drafts, and the state after them.

    Raises:
        CommandRejected, InvalidInput: the rules refuse the command.
    """
    after, events = Match(spec, game_state).apply(command)
    return after.state, [event_draft(event, actor) for event in events]


def chain(table: Table, drafts: Sequence[Draft], command_id: str | None) -> list[Table.Recorded]:
    """The stored events of ``drafts`` after ``table``'s version: versions ``version + 1 ...``,
    each hash-chained to the one before (``prev_hash``, ``hash``, over the payload and its version),
    all carrying ``command_id``."""
    state = table.state
    prev, seq = state.last_hash, state.version
    out: list[Table.Recorded] = []
    for d in drafts:
        seq += 1
        h = event_hash(prev, seq, d.name, d.payload, d.version)
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
                event_version=d.version,
            )
        )
        prev = h
    return out
