"""The table's own events: what the platform writes beside a game's events (docs/record.md 2.4).

Each is a ``TypedDict`` of its payload, the one description of its fields: the service writes
them, the audit checks them (REC7, REC9) and the service's JSON Schema describes them
(``trapoula.service.served``, docs/schemas/table.json).
"""

from typing import Any, NotRequired, TypedDict

__all__ = [
    "TABLE_EVENT_TYPES",
    "JoinQueued",
    "SeatTaken",
    "SeedCommitted",
    "SeedGiven",
    "ServerSeedRevealed",
    "TableCreated",
    "fields_of",
]

Hex64 = str
"""64 lower-case hex digits (a seed, a commitment, a SHA-256)."""


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


TABLE_EVENT_TYPES: dict[str, Any] = {
    cls.__name__: cls for cls in (TableCreated, SeatTaken, JoinQueued, SeedCommitted, SeedGiven, ServerSeedRevealed)
}
"""The table's own events by name."""


def fields_of(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(required fields, every field)`` of the table event ``name``'s payload.

    Raises:
        KeyError: not a table event.
    """
    cls = TABLE_EVENT_TYPES[name]
    return frozenset(cls.__required_keys__), frozenset(cls.__annotations__)
