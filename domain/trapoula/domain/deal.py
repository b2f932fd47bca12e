"""The verifiable shuffle and the deal (DESIGN "Fairness and audit"; shedding-common S5, S8.5).

The algorithm is written in prose in ``docs/shuffle.md`` so that an independent program can
recompute every deck.  In short:

* A *seed* is 32 bytes, written as 64 lower-case hex digits.  Its *commitment* is
  ``SHA-256(seed bytes)`` in hex, published before the first card is dealt.
* A random stream for a *label* is the concatenation of the blocks
  ``HMAC-SHA256(key = seed bytes, msg = label (UTF-8) || 0x2F || counter (8 bytes big-endian))``
  for counter 0, 1, 2, ...; each 32-byte block gives four 64-bit big-endian unsigned integers.
* ``uniform(m)`` takes the next integer ``x``; it rejects ``x >= 2**64 - (2**64 mod m)`` and
  takes the next; otherwise it returns ``x mod m``.
* The shuffle of a list ``a`` is Fisher–Yates: for ``i`` from ``len(a) - 1`` down to ``1``,
  ``j = uniform(i + 1)``, swap ``a[i]`` and ``a[j]``.  The result is read top first.
* The deal shuffles the game's canonical deck (``cards.deck_52()`` ...) with the label ``deal``;
  the k-th reshuffle of a hand shuffles the cards taken from the discard pile (bottom first)
  with the label ``reshuffle/k``.

>>> from trapoula.domain.cards import codes, deck_52
>>> seed = "00" * 32
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> order = shuffle(deck_52(), seed, "deal")
>>> len(order), sorted(codes(order)) == sorted(codes(deck_52()))
(52, True)
>>> verify_reveal(seed, commitment(seed))
True
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import lt as _lt
from struct import unpack as _struct_unpack
from typing import Any, TypeVar

from trapoula.domain.cards import Card, codes, parse_cards
from trapoula.domain.errors import InvalidInput

__all__ = [
    "Deal",
    "check_dealer",
    "check_whole_deck",
    "commitment",
    "deal_cards",
    "deal_fields",
    "deal_refusal",
    "deck_hash",
    "hands_in_deal_order",
    "random_stream",
    "shuffle",
    "uniform",
    "verify_reveal",
]

T = TypeVar("T")

_TWO_64 = 1 << 64
_BLOCK = struct.Struct(">4Q")
"""A 32-byte block as four 64-bit big-endian unsigned integers."""


_HEX = frozenset("0123456789abcdefABCDEF")


def _seed_bytes(seed: str) -> bytes:
    if not isinstance(seed, str) or len(seed) != 64 or not _HEX.issuperset(seed):
        raise InvalidInput(f"bad seed {seed!r}: expected exactly 64 hex digits (32 bytes)", reason="bad_seed")
    return bytes.fromhex(seed)


def commitment(seed: str) -> str:
    """The public commitment to a seed: SHA-256 of its 32 bytes, in hex (S5.1).

    Raises:
        InvalidInput: ``seed`` is not 64 hex digits.
    """
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def verify_reveal(seed: str, published: str) -> bool:
    """True when a revealed seed matches the commitment published before the deal (S5.1)."""
    try:
        return hmac.compare_digest(commitment(seed), published)
    except InvalidInput:
        return False


def deck_hash(order: Sequence[Card]) -> str:
    """SHA-256 (hex) of a deck order written as codes joined by single spaces, top first (S5.3).

    It stands in for the commitment of an explicit deal, and seeds its reshuffles (S8.5).

    >>> from trapoula.domain.cards import deck_52
    >>> deck_hash(deck_52()[:2]) == hashlib.sha256(b"2C 3C").hexdigest()
    True
    """
    return hashlib.sha256(" ".join(codes(order)).encode("ascii")).hexdigest()


_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))


class _Mac:
    """HMAC-SHA256 under one key (RFC 2104), the padded key's hash states worked out once: a
    block then costs two copies of a hash state and two short updates, where ``hmac.digest``
    starts from the key each time (the stream draws a block per four integers)."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        padded = key.ljust(64, b"\0")  # a seed is 32 bytes: shorter than SHA-256's 64-byte block
        self._inner = hashlib.sha256(padded.translate(_IPAD))
        self._outer = hashlib.sha256(padded.translate(_OPAD))

    def digest(self, message: bytes) -> bytes:
        """HMAC-SHA256(key, message)."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


def random_stream(seed: str, label: str) -> Iterator[int]:
    """The endless stream of 64-bit integers for ``(seed, label)`` (see the module docstring).

    Raises:
        InvalidInput: ``seed`` is not 64 hex digits.
    """
    mac = _Mac(_seed_bytes(seed))
    prefix = label.encode("utf-8") + b"/"
    counter = 0
    while True:
        yield from _BLOCK.unpack(mac.digest(prefix + counter.to_bytes(8, "big")))
        counter += 1


def uniform(stream: Iterator[int], m: int) -> int:
    """An unbiased integer in ``range(m)`` taken from ``stream`` by rejection sampling (m >= 1)."""
    limit = _TWO_64 - (_TWO_64 % m)
    while True:
        x = next(stream)
        if x < limit:
            return x % m


_LIMITS: dict[int, tuple[int, ...]] = {}


def _limits(n: int) -> tuple[int, ...]:
    """The rejection limits of the draws of a shuffle of ``n`` items: ``2**64 - 2**64 mod m`` for
    m = n, n - 1, ..., 2 (:func:`uniform`)."""
    limits = _LIMITS.get(n)
    if limits is None:
        limits = _LIMITS[n] = tuple(_TWO_64 - (_TWO_64 % m) for m in range(n, 1, -1))
    return limits


def shuffle(items: Sequence[T], seed: str, label: str) -> tuple[T, ...]:
    """Fisher–Yates shuffle of ``items`` driven by the stream of ``(seed, label)``; top first.

    Raises:
        InvalidInput: ``seed`` is not 64 hex digits.
    """
    a = list(items)
    n = len(a)
    digest = _Mac(_seed_bytes(seed)).digest
    prefix = label.encode("utf-8") + b"/"
    # The n - 1 draws from the stream's first ceil((n - 1) / 4) blocks, rejected by none: the usual
    # case (a draw is rejected with a probability below m / 2**64), done without a loop per draw.
    blocks = (n + 2) // 4
    stream = b"".join([digest(prefix + c.to_bytes(8, "big")) for c in range(blocks)])
    draws = _struct_unpack(f">{4 * blocks}Q", stream)
    if all(map(_lt, draws, _limits(n))):
        for i, x in zip(range(n - 1, 0, -1), draws, strict=False):  # the last block may hold more
            j = x % (i + 1)
            a[i], a[j] = a[j], a[i]
        return tuple(a)
    stream_of = random_stream(seed, label)
    for i in range(n - 1, 0, -1):
        j = uniform(stream_of, i + 1)
        a[i], a[j] = a[j], a[i]
    return tuple(a)


def reshuffle_label(k: int) -> str:
    """The label of the k-th reshuffle of a hand (k = 1, 2, ...; S8.5)."""
    return f"reshuffle/{k}"


@dataclass(frozen=True, slots=True)
class Deal:
    """The deck order of one hand, as the rules receive it (STYLE habit 3).

    A seeded deal carries its secret ``seed`` (revealed when the hand ends); an explicit deal
    (S5.3, entered for an audit or a test) carries ``seed=None`` and optional ``reshuffles``.
    """

    order: tuple[Card, ...]
    """The whole deck, top first: dealt one at a time from the first player round the table."""
    seed: str | None = None
    """The 64-hex-digit seed the order was shuffled from; None for an explicit deal."""
    reshuffles: tuple[tuple[Card, ...], ...] = ()
    """Explicit deals only: the given orders of reshuffles 1, 2, ... (top first; S8.5)."""
    secret: str | None = None
    """Explicit deals only: 64 hex digits the server adds, for what a game must keep unpredictable
    inside the hand even to whoever entered the deal (``romis``'s sealing nonces, R5.2); revealed
    when the hand ends.  None for a seeded deal (its seed serves) and for a deal made outside a server."""

    @property
    def explicit(self) -> bool:
        """True for an explicit deal (S5.3)."""
        return self.seed is None

    @property
    def commitment(self) -> str:
        """H(seed) for a seeded deal; the hash of the deck order for an explicit one (S5.3)."""
        return commitment(self.seed) if self.seed is not None else deck_hash(self.order)

    @property
    def reshuffle_seed(self) -> str:
        """The seed reshuffle orders are derived from: the seed, or the explicit deck hash (S8.5)."""
        return self.seed if self.seed is not None else deck_hash(self.order)

    @staticmethod
    def from_seed(deck: Sequence[Card], seed: str) -> Deal:
        """Shuffle ``deck`` (canonical order) with ``seed`` and label ``deal``.

        Raises:
            InvalidInput: ``seed`` is not 64 hex digits.
        """
        return Deal(order=shuffle(deck, seed, "deal"), seed=seed)

    def reshuffle_order(self, k: int, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The order of the k-th reshuffle of ``cards`` (discard pile, bottom first), top first (S8.5).

        Raises:
            InvalidInput: an explicit order for reshuffle k is not a permutation of ``cards``
                (``bad_deal``).
        """
        if self.seed is None and k <= len(self.reshuffles):
            given = self.reshuffles[k - 1]
            if sorted(codes(given)) != sorted(codes(cards)):
                raise InvalidInput(
                    f"explicit reshuffle {k} {' '.join(codes(given))!r} is not a permutation of the "
                    f"reshuffled cards {' '.join(codes(cards))!r} (S8.5)",
                    reason="bad_deal",
                )
            return tuple(given)
        return shuffle(cards, self.reshuffle_seed, reshuffle_label(k))


def deal_refusal(game: str, rule: str) -> Callable[[str], InvalidInput]:
    """The ``bad_deal`` of a game's explicit deal (its explicit-deal rule ``rule``, e.g. ``R3.8``): it
    makes ``message`` the error ``InvalidInput("<game> explicit deal: <message> (<rule>)")`` of reason
    ``bad_deal``, for :func:`deal_cards`, :func:`check_dealer` and :func:`check_whole_deck`."""

    def refusal(message: str) -> InvalidInput:
        return InvalidInput(f"{game} explicit deal: {message} ({rule})", reason="bad_deal")

    return refusal


def deal_fields(raw: Any, dealer: int, bad_deal: Callable[[str], InvalidInput]) -> set[str]:
    """The fields of an explicit deal given as plain data, but its optional ``"dealer"``, which must be
    ``dealer``, the next hand's dealer (:func:`check_dealer`; each game's explicit-deal rule).

    Raises:
        InvalidInput: ``raw`` is not a mapping, or names another dealer -- whatever ``bad_deal`` makes of
            the message.
    """
    if not isinstance(raw, Mapping):
        raise bad_deal(f"{str(raw)[:60]!r} is not a mapping")
    check_dealer(raw, dealer, bad_deal)
    return set(raw) - {"dealer"}


def hands_in_deal_order(
    raw: Any, n: int, size: int, dealer: int, bad_deal: Callable[[str], InvalidInput]
) -> tuple[Card, ...]:
    """The cards of an explicit deal's ``"hands"`` (``raw``: ``n`` lists of ``size`` card codes, one per
    seat) in the order they are dealt: one card at a time, from the seat after ``dealer`` round the
    table (each game's deal rule, e.g. ``giminaiciai`` and ``romis`` R3.6).

    Raises:
        InvalidInput: ``raw`` is not a list of ``n`` hands, or a hand is not ``size`` card codes
            (:func:`deal_cards`) -- whatever ``bad_deal`` makes of the message.
    """
    if not isinstance(raw, list | tuple) or len(raw) != n:
        raise bad_deal(f"'hands' must list {n} hands, one per seat")
    hands = [deal_cards(h, f"hand of seat {i}", size, bad_deal) for i, h in enumerate(raw)]
    return tuple(hands[(dealer + 1 + i % n) % n][i // n] for i in range(size * n))


def deal_cards(raw: Any, what: str, size: int, bad_deal: Callable[[str], InvalidInput]) -> tuple[Card, ...]:
    """One part of an explicit deal given as plain data (a hand, a stock, a deck): exactly ``size``
    card codes, parsed.  ``what`` names the part in messages; ``bad_deal(message)`` makes the game's
    error (each game's explicit-deal rule, reason ``bad_deal``).

    Raises:
        InvalidInput: ``raw`` is not a list of strings, holds another number of codes, or a code does
            not parse -- whatever ``bad_deal`` makes of the message.
    """
    if not isinstance(raw, list | tuple) or any(not isinstance(c, str) for c in raw):
        raise bad_deal(f"{what} {str(raw)[:60]!r} is not a list of card codes")
    if len(raw) != size:
        raise bad_deal(f"{what} holds {len(raw)} cards, not {size}")
    try:
        return parse_cards(raw)
    except InvalidInput as exc:
        raise bad_deal(f"{what}: {exc.message}") from None


def check_dealer(raw: Mapping[str, Any], dealer: int, bad_deal: Callable[[str], InvalidInput]) -> None:
    """Check the optional ``"dealer"`` of an explicit deal given as plain data: when present it must
    be ``dealer``, the next hand's dealer (each game's explicit-deal rule).

    Raises:
        InvalidInput: a ``dealer`` that is not an integer or not ``dealer`` -- whatever ``bad_deal``
            makes of the message.
    """
    if "dealer" in raw:
        given = raw["dealer"]
        if isinstance(given, bool) or not isinstance(given, int) or given != dealer:
            raise bad_deal(f"dealer {str(given)[:16]!r} is not the next hand's dealer, seat {dealer}")


def check_whole_deck(order: Sequence[Card], deck: Sequence[Card], bad_deal: Callable[[str], InvalidInput]) -> None:
    """Check that an explicit deal's ``order`` holds each card of the game's ``deck`` exactly once
    (each game's explicit-deal rule).

    Raises:
        InvalidInput: a card missing or repeated, the message listing both (reason ``bad_deal``) --
            whatever ``bad_deal`` makes of it.
    """
    if len(order) != len(deck) or frozenset(order) != frozenset(deck):
        counts = Counter(order)
        doubled = sorted(c.code for c, k in counts.items() if k > 1)
        missing = sorted(c.code for c in deck if c not in counts)
        raise bad_deal(f"the cards are not exactly the {len(deck)}-card deck: missing {missing}, repeated {doubled}")
