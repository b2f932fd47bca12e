"""The players' seeds: every seat's own randomness mixed into the server's (docs/shuffle.md, section 2a).

Commit and reveal (S5.1) prove that the server did not change a deck after the deal, not that it
did not choose one.  So at a table that deals from seeds, each hand's deck comes from the server's
seed *and* a seed of every seat that sends one:

1. ``SeedCommitted {hand, commitment}``: the server publishes ``SHA-256(server seed)`` of hand
   ``hand`` before any seat may send a seed for it (hand 1's when the table is created, hand
   ``h + 1``'s right after hand ``h`` is dealt);
2. ``SeedGiven {hand, seat, seed}``: a seat's own seed for that hand (64 hex digits), at most one
   per seat and hand, before the hand is dealt; a seat that sends none is counted as empty;
3. the hand is dealt from the *deck seed* :func:`mix_seeds` (server seed, the seats' seeds): the
   game's events carry it where they carry a hand's seed (hidden until the hand ends);
4. ``ServerSeedRevealed {hand, seed}``: the server's seed, right after the hand ends.

A verifier checks the server seed against its commitment and recomputes the deck seed.  Neither the
server (committed before any seat sent a seed) nor any one seat (it cannot know the server's seed)
alone can choose the deck.  These three are table events, written beside the game's events; a
table created for explicit deals (``manual_deal``) has none.

>>> server = "00" * 32
>>> mix_seeds(server, []) == hmac.new(bytes(32), b"players", hashlib.sha256).hexdigest()
True
>>> mix_seeds(server, [(1, "11" * 32)]) == mix_seeds(server, [(1, "11" * 32), (0, None)])
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trapoula.domain.errors import InvalidInput

__all__ = [
    "NO_SEEDS",
    "SEED_COMMITTED",
    "SEED_EVENTS",
    "SEED_GIVEN",
    "SERVER_SEED_REVEALED",
    "SeedBook",
    "check_seed",
    "mix_seeds",
]

SEED_COMMITTED = "SeedCommitted"
"""The table event publishing the commitment to the server's seed of a hand: ``{hand, commitment}``."""
SEED_GIVEN = "SeedGiven"
"""The table event of a seat's own seed for a hand: ``{hand, seat, seed}``."""
SERVER_SEED_REVEALED = "ServerSeedRevealed"
"""The table event revealing the server's seed of a finished hand: ``{hand, seed}``."""
SEED_EVENTS = frozenset({SEED_COMMITTED, SEED_GIVEN, SERVER_SEED_REVEALED})
"""The table events of the players' seeds."""

_HEX = frozenset("0123456789abcdef")


def check_seed(seed: Any) -> str:
    """``seed`` when it is a seed: exactly 64 lower-case hexadecimal digits (32 bytes).

    Raises:
        InvalidInput: anything else (``bad_seed``).

    >>> check_seed("ab" * 32) == "ab" * 32
    True
    """
    if not isinstance(seed, str) or len(seed) != 64 or not _HEX.issuperset(seed):
        shown = repr(seed[:80]) if isinstance(seed, str) else type(seed).__name__
        raise InvalidInput(f"seed {shown} is not 64 lower-case hexadecimal digits (32 bytes)", reason="bad_seed")
    return seed


def mix_seeds(server_seed: str, given: Iterable[tuple[int, str | None]]) -> str:
    """The deck seed of a hand: the server's seed mixed with the seats' seeds (docs/shuffle.md 2a).

    ``HMAC-SHA256(key = server seed bytes, message = "players" || for each seat that gave a seed,
    in increasing seat order: seat as 4 bytes big-endian || its 32 seed bytes)``, hex.  A seat
    that gave none (``None``, or absent) adds nothing.

    Args:
        server_seed: the server's seed of the hand (64 hex digits).
        given: ``(seat, seed or None)`` pairs, in any order, each seat at most once.

    Raises:
        InvalidInput: a seed that is not 64 lower-case hex digits (``bad_seed``), a seat twice or
            out of range 0..2**32-1 (``bad_seat``).
    """
    seats = sorted((seat, check_seed(seed)) for seat, seed in given if seed is not None)
    if len({seat for seat, _ in seats}) != len(seats) or any(not 0 <= seat < 1 << 32 for seat, _ in seats):
        raise InvalidInput(f"seats {[s for s, _ in seats]}: each seat gives at most one seed", reason="bad_seat")
    message = b"players" + b"".join(seat.to_bytes(4, "big") + bytes.fromhex(seed) for seat, seed in seats)
    return hmac.new(bytes.fromhex(check_seed(server_seed)), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class SeedBook:
    """Where a table stands in the players' seeds (the fold of its seed events).

    ``hand`` is the last hand whose server seed is committed (0: none yet); ``given`` the seeds the
    seats gave for it; ``open`` the committed hands whose server seed is not revealed yet.
    """

    hand: int = 0
    """The last committed hand (0: none)."""
    commitment: str | None = None
    """The commitment of ``hand``."""
    given: tuple[tuple[int, str], ...] = ()
    """``(seat, seed)`` given for ``hand``, in the order given."""
    open: tuple[int, ...] = ()
    """Committed hands whose server seed is not revealed, in order."""

    def apply(self, name: str, payload: Mapping[str, Any]) -> SeedBook:
        """The book after the seed event ``name`` (any other name leaves it as it is)."""
        if name == SEED_COMMITTED:
            hand = int(payload["hand"])
            return SeedBook(hand, str(payload["commitment"]), (), (*self.open, hand))
        if name == SEED_GIVEN and int(payload["hand"]) == self.hand:
            return dataclasses.replace(self, given=(*self.given, (int(payload["seat"]), str(payload["seed"]))))
        if name == SERVER_SEED_REVEALED:
            hand = int(payload["hand"])
            return dataclasses.replace(self, open=tuple(h for h in self.open if h != hand))
        return self

    def seed_of(self, seat: int) -> str | None:
        """The seed ``seat`` gave for :attr:`hand`, or None."""
        return next((seed for s, seed in self.given if s == seat), None)

    def pending(self, hands_started: int) -> int | None:
        """The committed hand still to be dealt when ``hands_started`` hands have been, or None."""
        return self.hand if self.hand > hands_started else None


NO_SEEDS = SeedBook()
"""The book of a table before any seed event."""
