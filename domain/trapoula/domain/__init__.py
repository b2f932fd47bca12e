"""trapoula's rules core: pure functions over immutable values.

No I/O, no clock, no randomness of its own, no grpc, eventsourcing or sqlalchemy imports
(DESIGN, Layers).  A game is a decider (:mod:`trapoula.domain.game`); the deal is an input
(:mod:`trapoula.domain.deal`); what a viewer may see is a pure function (:mod:`trapoula.domain.events`).
"""

from trapoula.domain.cards import Card, CardCode, Rank, Suit, deck_32, deck_52, deck_104, parse_card, parse_cards
from trapoula.domain.deal import Deal, commitment, shuffle, verify_reveal
from trapoula.domain.errors import CommandRejected, InvalidInput, TrapoulaDomainError
from trapoula.domain.events import Event, Seat, Viewer, from_payload, redact, to_payload
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, replay
from trapoula.domain.registry import GAMES, find_game

__all__ = [
    "GAMES",
    "Card",
    "CardCode",
    "CommandRejected",
    "Deal",
    "Event",
    "GameSpec",
    "InvalidInput",
    "MatchConfig",
    "Rank",
    "Seat",
    "SeatInfo",
    "Suit",
    "TrapoulaDomainError",
    "Viewer",
    "commitment",
    "deck_32",
    "deck_52",
    "deck_104",
    "find_game",
    "from_payload",
    "parse_card",
    "parse_cards",
    "redact",
    "replay",
    "shuffle",
    "to_payload",
    "verify_reveal",
]
