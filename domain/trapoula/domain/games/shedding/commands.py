"""The commands every shedding game shares (S11): ``play``, ``draw``, ``pass`` and the table's
``next_hand``, with the plain-data reading and writing they share.  A game adds its own commands
(``mau_mau``'s ``mau``, ``leave``, ``join``) and its own ``play`` where it differs (``agonia``'s
announcement, R7.5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from trapoula.domain.cards import Card, Suit, parse_card
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.game import NextHand as NextHand  # the table's command, shared by every game (S11)
from trapoula.domain.game import SeatCommand
from trapoula.domain.game import deal_command as deal_command
from trapoula.domain.games.shedding.events import CardPlayed


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand (S6); ``suit`` declares the suit with a wild card (S6.2, S6.3)."""

    seat: int
    card: Card
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Draw(SeatCommand, kind="draw"):
    """Draw a card (S7), or take the whole pending draw (S9.2)."""


@dataclass(frozen=True, slots=True)
class Pass(SeatCommand, kind="pass"):
    """End the turn without playing (S11; each game says when it may)."""


def kind_of(game: str, raw: Mapping[str, Any], fields: Mapping[str, frozenset[str]]) -> str:
    """The ``kind`` of a plain command, checked against ``fields`` (kind -> the keys it takes).

    Raises:
        InvalidInput: an unknown kind or an extra field (``bad_command``).
    """
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in fields:
        raise InvalidInput(
            f"unknown {game} command {kind!r}; expected one of {', '.join(fields)} (section 8)", reason="bad_command"
        )
    extra = set(raw) - fields[kind]
    if extra:
        raise InvalidInput(f"{game} command {kind!r} takes no field(s) {sorted(extra)}", reason="bad_command")
    return kind


def seat_of(raw: Mapping[str, Any]) -> int:
    """The ``seat`` of a plain command.

    Raises:
        InvalidInput: not an integer (``bad_seat``).
    """
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InvalidInput(f"command {raw.get('kind')!r}: seat {seat!r} is not an integer", reason="bad_seat")
    return seat


def card_and_suit(raw: Mapping[str, Any]) -> tuple[Card, Suit | None]:
    """The ``card`` and optional ``suit`` of a plain ``play``.

    Raises:
        InvalidInput: a bad card code (``bad_card``, S2.1) or suit letter (``bad_suit``, S6.3).
    """
    card = raw.get("card")
    if not isinstance(card, str):
        raise InvalidInput(f"play: card {card!r} is not a card code (S2.1)", reason="bad_card")
    suit = raw.get("suit")
    if suit is not None and not isinstance(suit, str):
        raise InvalidInput(f"play: suit {suit!r} is not C, D, H or S (S6.3)", reason="bad_suit")
    return parse_card(card), Suit.parse(suit) if suit is not None else None


def payload(command: Play | Draw | Pass | NextHand) -> Payload:
    """The plain-data form of a common command; a ``next_hand`` gives only whether its deal is
    explicit (the deal stays secret until the hand ends)."""
    match command:
        case Play(seat, card, suit):
            out: Payload = {"kind": "play", "seat": seat, "card": card.code}
            if suit is not None:
                out["suit"] = suit.value
            return out
        case SeatCommand() | NextHand():
            return command.payload()


_LISTED: dict[tuple[Any, ...], Any] = {}
"""The seat commands listed so far, one object each, by a key naming the game's command and its
fields (:func:`listed`)."""
_PAYLOADS: dict[int, Payload] = {}
"""The plain-data form of each command of :data:`_LISTED`, by the command's ``id`` (the commands
there live as long as the process, so their ids are never reused)."""

C = TypeVar("C")


def listed(key: tuple[Any, ...], make: Callable[[], C], payload_of: Callable[[C], Payload]) -> C:
    """The command ``make()`` builds, made once for ``key`` and shared, with its plain-data form
    (``payload_of``) kept for :func:`listed_payload`: a game lists the same few commands in state
    after state, and a view writes each out.  ``key`` names the game's command and every field."""
    command: C | None = _LISTED.get(key)
    if command is None:
        command = _LISTED[key] = make()
        _PAYLOADS[id(command)] = payload_of(command)
    return command


def listed_payload(command: Any, payload_of: Callable[[Any], Payload] | None = None) -> Payload:
    """A fresh copy of the plain-data form of a command made by :func:`listed`, else
    ``payload_of(command)`` (:func:`payload` by default)."""
    ready = _PAYLOADS.get(id(command))  # only a command of _LISTED, alive for good, can have that id
    if ready is not None:
        return dict(ready)
    return (payload_of or payload)(command)


def listed_play(seat: int, card: Card, suit: Suit | None) -> Play:
    """The common ``play`` of ``card`` (naming ``suit``) by ``seat``, made once (:func:`listed`)."""
    return listed(("play", seat, card, suit), lambda: Play(seat, card, suit), payload)


def listed_draw(seat: int) -> Draw:
    """The ``draw`` of ``seat``, made once (:func:`listed`)."""
    return listed(("draw", seat), lambda: Draw(seat), payload)


def listed_pass(seat: int) -> Pass:
    """The ``pass`` of ``seat``, made once (:func:`listed`)."""
    return listed(("pass", seat), lambda: Pass(seat), payload)


def play_from(event: CardPlayed) -> Play:
    """The ``play`` command a ``CardPlayed`` came from (for an audit, S11)."""
    declared = event.declared_suit
    return Play(event.seat, parse_card(event.card), Suit(declared) if declared else None)
