"""The table's own events: what the platform writes beside a game's events (docs/record.md 2.4).

Each is a ``TypedDict`` of its payload, the one description of its fields: the service writes
them, the audit checks them (REC7, REC9) and the service's JSON Schema describes them
(``trapoula.service.served``, docs/schemas/table.json).
"""

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

__all__ = [
    "TABLE_EVENT_TYPES",
    "JoinQueued",
    "SeatTaken",
    "SeedCommitted",
    "SeedGiven",
    "ServerSeedRevealed",
    "TableCreated",
    "TimeControlPayload",
    "TimedOut",
    "created_payload",
    "fields_of",
]

Hex64 = str
"""64 lower-case hex digits (a seed, a commitment, a SHA-256)."""


class TimeControlPayload(TypedDict):
    """A table's time control (docs/clock.md C1)."""

    move_seconds: int
    """Seconds per move (1 or more)."""
    bank_seconds: int
    """Extra seconds per seat for the whole match (C3)."""
    policy: str
    """What is done for a seat whose time ran out (C4): a computer-player level, ``pass`` or ``leave``."""


class TableCreated(TypedDict):
    """The table's first event (docs/record.md 2.4)."""

    game: str
    seats: int
    options: dict[str, Any]
    first_dealer: int | None
    initial_totals: list[int] | None
    manual_deal: bool
    private: NotRequired[bool]
    """``true`` for a private table (not listed, joined with an invitation code); absent for a public
    one."""
    clock: NotRequired[TimeControlPayload]
    """The table's time control (docs/clock.md); absent for a table without a clock."""


class SeatTaken(TypedDict):
    """A person or a bot takes a seat."""

    seat: int
    name: str
    bot: str | None
    token_hash: Hex64 | None
    """SHA-256 of the seat's token (never the token); null for a server bot."""
    queued: NotRequired[int | None]
    """The version of the ``JoinQueued`` this fulfils (a newcomer who waited, in a game
    whose players join during the match)."""
    player_id: NotRequired[str]
    """The player's id as the identity token of the app that embeds the server gave it
    (docs/identity.md); absent for a bot and for a player seated without one."""


class JoinQueued(TypedDict):
    """A newcomer waits for the hand in progress to end (a game whose players join during the match)."""

    name: str
    bot: str | None
    token_hash: Hex64 | None
    player_id: NotRequired[str]
    """As ``SeatTaken.player_id``."""


class SeedCommitted(TypedDict):
    """The commitment to the server's seed of a hand (docs/shuffle.md 2a)."""

    hand: int
    commitment: Hex64


class SeedGiven(TypedDict):
    """A seat's own seed for a hand."""

    hand: int
    seat: int
    seed: Hex64


class ServerSeedRevealed(TypedDict):
    """The server's seed of a finished hand."""

    hand: int
    seed: Hex64


class TimedOut(TypedDict):
    """A seat's time ran out (docs/clock.md C4): the move made for it follows, as the seat's own."""

    seat: int
    deadline: str
    """When its time ran out: RFC 3339 in UTC, to the millisecond."""
    policy: str
    """The table's timeout policy that chose the move (C4)."""


TABLE_EVENT_TYPES: dict[str, Any] = {
    cls.__name__: cls
    for cls in (TableCreated, SeatTaken, JoinQueued, SeedCommitted, SeedGiven, ServerSeedRevealed, TimedOut)
}
"""The table's own events by name."""


def fields_of(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(required fields, every field)`` of the table event ``name``'s payload.

    Raises:
        KeyError: not a table event.
    """
    cls = TABLE_EVENT_TYPES[name]
    return frozenset(cls.__required_keys__), frozenset(cls.__annotations__)


def created_payload(
    game: str,
    seats: int,
    options: Mapping[str, Any],
    first_dealer: int | None = None,
    initial_totals: Sequence[int] | None = None,
    manual_deal: bool = False,
    private: bool = False,
    clock: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The payload of ``TableCreated`` (:class:`TableCreated`; ``private`` only when true and
    ``clock`` only when given, so the payload of a public table without a clock is as it always was).

    >>> payload = created_payload("agonia", 2, {"target_points": 50})
    >>> payload["options"], payload["manual_deal"], "private" in payload, "clock" in payload
    ({'target_points': 50}, False, False, False)
    """
    payload: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "options": dict(options),
        "first_dealer": first_dealer,
        "initial_totals": list(initial_totals) if initial_totals is not None else None,
        "manual_deal": manual_deal,
    }
    if private:
        payload["private"] = True
    if clock is not None:
        payload["clock"] = dict(clock)
    return payload
