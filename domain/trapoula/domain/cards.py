"""Cards and decks (shedding-common S2; every game's spec, section 2).

A card is written as its rank followed by its suit: ranks ``2 3 4 5 6 7 8 9 T J Q K A``,
suits ``C D H S``.  ``TS`` is the ten of spades.

>>> parse_card("TS")
Card.parse('TS')
>>> str(parse_card("7h".upper()))
'7H'
>>> len(deck_52()), len(deck_104()), len(deck_32())
(52, 104, 32)
>>> parse_card("1S")
Traceback (most recent call last):
...
trapoula.domain.errors.InvalidInput: bad card code '1S': expected rank 2-9 T J Q K A then suit C D H S (S2.1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Annotated, Any, TypeAlias

from trapoula.domain.errors import InvalidInput
from trapoula.domain.wire import Wire

CardCode: TypeAlias = Annotated[str, Wire(ref="card")]
"""A card's two-letter code, rank then suit, e.g. ``"7H"`` (S2.1); its JSON Schema is the ``card``
definition of every game's schema (:mod:`trapoula.domain.schema`)."""

SuitCode: TypeAlias = Annotated[str, Wire(ref="suit")]
"""A suit's letter ``C D H S`` (S2.1, S6.3); its JSON Schema is the ``suit`` definition of every
game's schema (:mod:`trapoula.domain.schema`)."""


class Suit(enum.Enum):
    """The four suits, in canonical order C < D < H < S (S2.3)."""

    CLUBS = "C"
    """Clubs (σπαθί), ♣."""
    DIAMONDS = "D"
    """Diamonds (καρό), ♦."""
    HEARTS = "H"
    """Hearts (κούπα), ♥."""
    SPADES = "S"
    """Spades (μπαστούνι), ♠."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, with no Python call

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def order(self) -> int:
        """Position in the canonical order (S2.3): clubs 0 .. spades 3."""
        return _SUIT_ORDER[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter ``C D H S`` (or its symbol).

        Raises:
            InvalidInput: the text is not a suit (S6.3 ``bad_suit``).
        """
        for suit in cls:
            if text in (suit.value, suit.value.lower(), _SUIT_SYMBOLS[suit]):
                return suit
        raise InvalidInput(f"bad suit {text!r}: expected one of C D H S (S6.3)", reason="bad_suit")


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}


class Rank(enum.Enum):
    """The thirteen ranks, in canonical order 2 < 3 < ... < T < J < Q < K < A (S2.3)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    __hash__ = object.__hash__  # members are singletons: hash by identity, with no Python call

    @property
    def order(self) -> int:
        """Position in the canonical order (S2.3): two 0 .. ace 12."""
        return _RANK_ORDER[self]

    @property
    def face_value(self) -> int:
        """The number printed on the card: 2-10 for pips, 11 J, 12 Q, 13 K, 14 A."""
        return self.order + 2


_RANK_ORDER = {rank: i for i, rank in enumerate(Rank)}


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Card:
    """A playing card: an immutable (rank, suit) pair; equal cards are interchangeable (S2.2).

    There is one ``Card`` object per rank and suit: ``Card(rank, suit)``, :func:`parse_card`,
    copying and unpickling all give that same object, so cards compare and hash by identity
    (``==`` is ``is``), which costs no Python call where rules look cards up in hands and sets.

    >>> Card(Rank.TEN, Suit.SPADES) is parse_card("TS"), parse_card("TS").index
    (True, 47)
    """

    rank: Rank
    """The card's rank."""
    suit: Suit
    """The card's suit."""
    code: CardCode = field(init=False, repr=False)
    """The two-letter code, e.g. ``"TS"`` (derived from rank and suit)."""
    sort_key: tuple[int, int] = field(init=False, repr=False)
    """Canonical order key (S2.3): by suit, then by rank."""
    index: int = field(init=False, repr=False)
    """Position in the canonical order of one 52-card deck (S2.3): ``13 * suit order + rank
    order``, 0 for 2C to 51 for AS; the integer form of :attr:`sort_key`."""

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        """The one card of ``rank`` and ``suit``, made (with every field) once, when this module loads."""
        card = _INTERNED.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "code", rank.value + suit.value)
            object.__setattr__(card, "sort_key", (_SUIT_ORDER[suit], _RANK_ORDER[rank]))
            object.__setattr__(card, "index", 13 * _SUIT_ORDER[suit] + _RANK_ORDER[rank])
        return card

    def __init__(self, rank: Rank, suit: Suit) -> None:
        """Nothing to do: :meth:`__new__` gives the card, made once and never changed."""

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return parse_card, (self.code,)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: Any) -> Card:
        return self

    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``T♠``."""
        return ("10" if self.rank is Rank.TEN else self.rank.value) + self.suit.symbol

    @staticmethod
    def parse(code: str) -> Card:
        """Parse a card code (S2.1).

        Raises:
            InvalidInput: the text is not a card code (``bad_card``).
        """
        return parse_card(code)


_INTERNED: dict[tuple[Rank, Suit], Card] = {}
"""The one card of each rank and suit (filled below, before any other card is made)."""
for _suit in Suit:
    for _rank in Rank:
        _INTERNED[_rank, _suit] = Card(_rank, _suit)

_CARDS: dict[str, Card] = {card.code: card for card in _INTERNED.values()}
"""Code -> card."""
CARDS: Mapping[str, Card] = MappingProxyType(_CARDS)
"""Card code -> card, read-only (:func:`parse_card` without its checks, for trusted codes)."""


def parse_card(code: str) -> Card:
    """Return the card for a code like ``"7H"`` or ``"TS"`` (S2.1).

    Raises:
        InvalidInput: ``code`` is not a card code; the message names the text (``bad_card``).
    """
    card = _CARDS.get(code) if isinstance(code, str) else None
    if card is None:
        raise InvalidInput(
            f"bad card code {code!r}: expected rank 2-9 T J Q K A then suit C D H S (S2.1)", reason="bad_card"
        )
    return card


SUITS: dict[str, Suit] = {suit.value: suit for suit in Suit}
"""Suit letter -> suit (``Suit(letter)`` without the enum's lookup machinery)."""
LETTERS: dict[Suit, str] = {suit: suit.value for suit in Suit}
"""Suit -> its letter (``suit.value`` without the enum's descriptor)."""
SUIT_ORDER: tuple[Suit, ...] = tuple(Suit)
"""The suits in canonical order (S2.3), C D H S (iterating ``Suit`` costs a generator)."""

_card_at = _CARDS.__getitem__


def cards_of(codes: Iterable[str]) -> tuple[Card, ...]:
    """The cards of some card codes, as :func:`parse_cards` reads them, through one dictionary
    look-up a code (the rules read every card field of every event they apply).

    >>> cards_of(("7H", "TS"))
    (Card.parse('7H'), Card.parse('TS'))

    Raises:
        InvalidInput: one of the codes is not a card (``bad_card``).
    """
    try:
        return tuple(map(_card_at, codes))
    except (KeyError, TypeError):
        return parse_cards(codes)


def parse_cards(codes: Iterable[str]) -> tuple[Card, ...]:
    """Parse several card codes (a list, or one string separated by spaces).

    >>> parse_cards("7H TS")
    (Card.parse('7H'), Card.parse('TS'))

    Raises:
        InvalidInput: one of the codes is not a card.
    """
    if isinstance(codes, str):
        codes = codes.split()
    return tuple(parse_card(c) for c in codes)


_CODE = attrgetter("code")


def codes(cards: Iterable[Card]) -> tuple[CardCode, ...]:
    """The codes of some cards, in the same order."""
    return tuple(map(_CODE, cards))


_INDEX = attrgetter("index")


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted in canonical order (S2.3)."""
    return tuple(sorted(cards, key=_INDEX))


def canonical_codes(cards: Iterable[Card]) -> list[CardCode]:
    """The codes of some cards in canonical order (S2.3), as a list: a hand as a view shows it.

    >>> canonical_codes(parse_cards(["AS", "2C", "KH"]))
    ['2C', 'KH', 'AS']
    """
    return list(codes(sorted_cards(cards)))


_DECK_52 = tuple(Card(r, s) for s in Suit for r in Rank)


def deck_52() -> tuple[Card, ...]:
    """One 52-card deck in canonical order (S2.2, S2.3): 2C 3C ... AC 2D ... AS."""
    return _DECK_52


def deck_104() -> tuple[Card, ...]:
    """Two 52-card decks (mau_mau, S2.2): the canonical 52 cards twice, one deck after the other."""
    return _DECK_52 + _DECK_52


_PIQUET_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


_DECK_32 = tuple(Card(r, s) for s in Suit for r in _PIQUET_RANKS)


def deck_32() -> tuple[Card, ...]:
    """The 32-card deck of Vida (7 to A in each suit), in canonical order."""
    return _DECK_32
