"""Vida's card orders and points, the trick winner and the legal cards (docs/rules/vida.md R2.5-R2.8, R4.10-R4.14).

Pure functions over :class:`~trapoula.domain.cards.Card`; the trump suit is always an argument.

>>> from trapoula.domain.cards import Suit, parse_cards
>>> card_points(parse_cards("JH")[0], Suit.HEARTS), card_points(parse_cards("JS")[0], Suit.HEARTS)
(20, 2)
>>> trick_winner(parse_cards("AS TS 7H KS"), Suit.HEARTS)
2
>>> trick_points(parse_cards("AS TS 7H KS"), Suit.HEARTS)
25
>>> legal_cards(parse_cards("AS 9H JH 7C"), parse_cards("KS"), Suit.HEARTS)
(Card.parse('AS'),)
>>> play_refusal(parse_cards("AS 9H JH 7C"), parse_cards("KS"), Suit.HEARTS, parse_cards("9H")[0])
('must_follow_suit', 'R4.10')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from trapoula.domain.cards import Card, Rank, Suit

TRUMP_ORDER: tuple[Rank, ...] = (
    Rank.JACK,
    Rank.NINE,
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Ranks of the trump suit, high to low (R2.5): J 9 A T K Q 8 7."""

PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Ranks of a plain (non-trump) suit, high to low (R2.6): A T K Q J 9 8 7."""

SEQUENCE_ORDER: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.TEN,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""Natural order of a suit for declarations only, high to low (R2.8): A K Q J T 9 8 7."""

TRUMP_POINTS: Mapping[Rank, int] = {
    Rank.JACK: 20,
    Rank.NINE: 14,
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
"""Card points of the trump suit (R2.5); they total 62."""

PLAIN_POINTS: Mapping[Rank, int] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
"""Card points of a plain suit (R2.6); each plain suit totals 30."""

LAST_TRICK_BONUS = 10
"""Points for the winner of the eighth trick (R2.7, R4.14); not part of :func:`trick_points`."""

_TRUMP_STRENGTH: Mapping[Rank, int] = {rank: len(TRUMP_ORDER) - i for i, rank in enumerate(TRUMP_ORDER)}
_PLAIN_STRENGTH: Mapping[Rank, int] = {rank: len(PLAIN_ORDER) - i for i, rank in enumerate(PLAIN_ORDER)}


def _check_rank(card: Card) -> None:
    if card.rank not in _TRUMP_STRENGTH:
        raise ValueError(f"card {card.code!r} is not in the 32-card Vida deck (R2.1)")


def card_points(card: Card, trump: Suit) -> int:
    """The card points of one card with ``trump`` as the trump suit (R2.5, R2.6).

    Returns 0-20: trump J 20, 9 14, A 11, T 10, K 4, Q 3, 8 and 7 0; plain A 11, T 10, K 4, Q 3,
    J 2, 9 8 7 0.

    Raises:
        ValueError: the card is not in the 32-card deck (a rank 2-6, R2.1).
    """
    _check_rank(card)
    return (TRUMP_POINTS if card.suit is trump else PLAIN_POINTS)[card.rank]


def trump_strength(card: Card) -> int:
    """Position of a card's rank in the trump order R2.5, 1 (seven) .. 8 (jack); larger is higher.

    Raises:
        ValueError: the card is not in the 32-card deck (R2.1).
    """
    _check_rank(card)
    return _TRUMP_STRENGTH[card.rank]


def plain_strength(card: Card) -> int:
    """Position of a card's rank in the plain order R2.6, 1 (seven) .. 8 (ace); larger is higher.

    Raises:
        ValueError: the card is not in the 32-card deck (R2.1).
    """
    _check_rank(card)
    return _PLAIN_STRENGTH[card.rank]


def trick_winner(cards: Sequence[Card], trump: Suit) -> int:
    """Index, in play order, of the card that wins a (possibly incomplete) trick (R4.14).

    The highest trump wins (R2.5 order); with no trump, the highest card of the suit led (R2.6
    order).  A card of another plain suit (a discard, R4.13) never wins.  For an incomplete trick
    the result is the card currently winning.

    Raises:
        ValueError: ``cards`` is empty, or holds a card outside the 32-card deck.
    """
    if not cards:
        raise ValueError("an empty trick has no winner (R4.14)")
    led = cards[0].suit
    best = 0
    for i, card in enumerate(cards):
        if _beats(card, cards[best], led, trump):
            best = i
    return best


def _beats(card: Card, current: Card, led: Suit, trump: Suit) -> bool:
    """Whether ``card``, played later, beats the card ``current`` now winning the trick (R4.14)."""
    if card.suit is trump:
        return current.suit is not trump or trump_strength(card) > trump_strength(current)
    if current.suit is trump or card.suit is not led:
        return False
    return plain_strength(card) > plain_strength(current)


def trick_points(cards: Sequence[Card], trump: Suit) -> int:
    """Sum of the card points of the cards of a trick (R2.5, R2.6), without the last-trick 10 (R2.7).

    Raises:
        ValueError: a card is outside the 32-card deck.
    """
    return sum(card_points(card, trump) for card in cards)


def _highest_trump(trick: Sequence[Card], trump: Suit) -> int:
    """Trump strength of the highest trump in ``trick``; 0 when it holds none."""
    return max((trump_strength(c) for c in trick if c.suit is trump), default=0)


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], trump: Suit) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to the current trick, in hand order (R4.10-R4.13).

    ``trick`` holds the cards already played to the current trick, in play order; when it is empty
    the player leads and may play any card.  Otherwise, with L the suit led and T the trump suit
    (summary table of R4.14):

    * L is not T and the hand holds L: every card of L, higher or not (R4.10, D28);
    * L is not T, no L, the hand holds T: the trumps higher than the highest trump in the trick if
      it holds one and the hand has any, else all the trumps, even over partner (R4.11, R4.12,
      D26, D27);
    * L is T and the hand holds T: the trumps higher than the highest trump in the trick if any,
      else all the trumps (R4.10, R4.12);
    * otherwise (no L and no T): every card (R4.13).

    Raises:
        ValueError: a card is outside the 32-card deck.
    """
    hand = tuple(hand)
    if not trick:
        return hand
    led = trick[0].suit
    if led is not trump:
        following = tuple(c for c in hand if c.suit is led)
        if following:
            return following
    trumps = tuple(c for c in hand if c.suit is trump)
    if not trumps:
        return hand
    highest = _highest_trump(trick, trump)
    higher = tuple(c for c in trumps if trump_strength(c) > highest)
    return higher or trumps


def play_refusal(hand: Sequence[Card], trick: Sequence[Card], trump: Suit, card: Card) -> tuple[str, str] | None:
    """Why ``card`` may not be played from ``hand`` to ``trick``, as ``(reason, rule)``; None when legal.

    The reason names the duty broken (R4.10-R4.12, commands table of section 8):

    * ``("must_follow_suit", "R4.10")``: the hand holds the suit led and the card is of another
      suit; this includes a non-trump played to a trump lead by a player holding trumps;
    * ``("must_trump", "R4.11")``: the hand holds no card of the plain suit led but holds a trump,
      and the card is not a trump;
    * ``("must_overtrump", "R4.12")``: the card is a trump not higher than the highest trump in the
      trick while the hand holds a higher one.

    Raises:
        ValueError: ``card`` is not in ``hand`` (the caller refuses that first, as
            ``card_not_in_hand``), or a card is outside the 32-card deck.
    """
    if card not in hand:
        raise ValueError(f"card {card.code!r} is not in the hand {[c.code for c in hand]!r}")
    if card in legal_cards(hand, trick, trump):
        return None
    led = trick[0].suit
    if card.suit is not led and any(c.suit is led for c in hand):
        return ("must_follow_suit", "R4.10")
    if card.suit is not trump:
        return ("must_trump", "R4.11")
    return ("must_overtrump", "R4.12")
