"""Agonia's own events (docs/rules/agonia.md section 9); the common ones are in ``games.shedding.events``."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from trapoula.domain.cards import SuitCode
from trapoula.domain.events import Event
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as common


@dataclass(frozen=True, slots=True)
class SuitChosen(Event):
    """The chooser sets the active suit on an ace up-card (R7.2.2)."""

    seat: int
    suit: SuitCode


@dataclass(frozen=True, slots=True)
class AnnouncementMissed(Event):
    """A play left two or one card without ``announce`` (R7.5.2)."""

    seat: int
    cards_left: int
    penalty: str


EVENT_TYPES = engine.event_types(common, sys.modules[__name__])
"""Event name -> class, for ``GameSpec.event_types``: the common events of
:mod:`trapoula.domain.games.shedding.events` and Agonia's own (section 9)."""
