"""An event that evolves (docs/events.md), for the tests of stored events and records written
before and after the change: Agonia's ``CardPlayed`` gains a field without a default, ``rank``
(the rank of the card played, its code's first character, S2.1), at version 2, with an upcaster
from version 1, and rules that write it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from trapoula.domain.events import Event
from trapoula.domain.games.shedding import events as shedding
from trapoula.domain.registry import GAMES
from trapoula.domain.upcasting import register_upcaster


def evolved_agonia() -> tuple[type[Event], Any]:
    """Agonia with ``CardPlayed`` at version 2 (``rank`` added, upcaster from version 1) and rules
    that write it: ``(the new class, the new spec)``; the registry is left as it is (a test puts the
    spec in it, with ``monkeypatch``)."""

    @dataclass(frozen=True, slots=True)
    class CardPlayed(shedding.CardPlayed):
        version: ClassVar[int] = 2
        rank: str
        """The rank of the card played (S2.1)."""

    register_upcaster(CardPlayed, 1, lambda p: {**p, "rank": p["card"][0]})
    spec = GAMES["agonia"]

    def decide(state: Any, command: Any) -> tuple[Event, ...]:
        out: list[Event] = []
        for event in spec.decide(state, command):
            if type(event) is shedding.CardPlayed:
                fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
                event = CardPlayed(**fields, rank=event.card[0])
            out.append(event)
        return tuple(out)

    evolved = dataclasses.replace(spec, decide=decide, event_types={**spec.event_types, "CardPlayed": CardPlayed})
    return CardPlayed, evolved
