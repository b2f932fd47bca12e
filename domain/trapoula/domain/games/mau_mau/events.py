"""Mau Mau's own events (docs/rules/mau_mau.md section 9); the common ones, and the seat changes
(``PlayerJoined``, ``PlayerLeft``, ``PlayerEliminated``), are in ``games.shedding.events``."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from trapoula.domain.cards import CardCode
from trapoula.domain.events import Event
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as common


@dataclass(frozen=True, slots=True)
class StarterTurned(common.StarterTurned):
    """A card is turned up at the deal (R3.4): the up-card, or a card covering a special one.

    Mau Mau's form of the common event: it adds ``covers``.  ``pending_draw`` is always 0 and
    ``chooser`` None (a special up-card has no effect, R3.4).
    """

    covers: CardCode | None
    """The special card (7, 8, 9, J or A) this card covers, or None for the first card turned."""


@dataclass(frozen=True, slots=True)
class MauCalled(Event):
    """The seat to act calls "Mau" (R5.6.1); the call holds until its turn ends (R5.6.4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class MauMissed(Event):
    """A play left one card without a "Mau" call this turn (R5.6.2): two penalty cards follow."""

    seat: int


EVENT_TYPES = engine.event_types(common, sys.modules[__name__])
"""Event name -> class (the common events of :mod:`trapoula.domain.games.shedding.events`, Mau Mau's own
replacing those of the same name (``StarterTurned``); section 9), for ``GameSpec.event_types``."""
