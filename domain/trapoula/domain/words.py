"""Words every game's text uses: cards with their suit symbols, seat names, plurals, typed cards.

A game's text (:mod:`trapoula.domain.text`, ``GameSpec.text``) is built from these; they know no
game.  Everything reads the JSON-ready payloads and views the server streams, so a value of an
unexpected type is shown as it is rather than refused.

>>> pretty("TS"), pretty_cards(["7H", "AC"]), suit_symbol("H")
('10♠', '7♥ A♣', '♥')
>>> seat_name(["ann", "bob"], 1), seat_name(["ann", "bob"], 1, me=1), plural(1, "card"), plural(3, "card")
('bob', 'you', '1 card', '3 cards')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trapoula.domain.cards import Suit, parse_card, sorted_cards
from trapoula.domain.errors import InvalidInput

__all__ = [
    "at",
    "cap",
    "card_code",
    "ordinal",
    "plural",
    "pretty",
    "pretty_cards",
    "seat_name",
    "seats_line",
    "sorted_codes",
    "suit_letter",
    "suit_symbol",
    "typed_card",
]


def pretty(code: Any) -> str:
    """A card code with its suit symbol (``"TS"`` -> ``"10♠"``); other text is returned as is,
    ``None`` as ``"?"``.

    >>> pretty("TS"), pretty("joker"), pretty(None)
    ('10♠', 'joker', '?')
    """
    if not isinstance(code, str):
        return "?" if code is None else str(code)
    try:
        return parse_card(code).pretty()
    except InvalidInput:
        return code


def pretty_cards(codes: Sequence[Any] | None) -> str:
    """Several cards, space-separated (``"-"`` when there are none).

    >>> pretty_cards(["AC", "2D"]), pretty_cards([])
    ('A♣ 2♦', '-')
    """
    return " ".join(pretty(c) for c in codes) if codes else "-"


def suit_symbol(letter: Any) -> str:
    """A suit letter as its symbol (``"H"`` -> ``"♥"``); other text as is, a non-text value as ``"?"``.

    >>> suit_symbol("S"), suit_symbol("x"), suit_symbol(None)
    ('♠', 'x', '?')
    """
    if not isinstance(letter, str):
        return "?"
    try:
        return Suit.parse(letter).symbol
    except InvalidInput:
        return letter


def suit_letter(text: str) -> str | None:
    """A suit as its letter (``"h"``, ``"H"`` or ``"♥"`` -> ``"H"``), None for other text.

    >>> suit_letter("h"), suit_letter("♠"), suit_letter("x")
    ('H', 'S', None)
    """
    try:
        return Suit.parse(text).value
    except InvalidInput:
        return None


def sorted_codes(cards: Sequence[Any]) -> Sequence[Any]:
    """Card codes in canonical order (S2.3: by suit, then rank), as a hand is shown; as given when
    some code does not parse.

    >>> sorted_codes(["AS", "2C", "KH"]), sorted_codes(["AS", "??"])
    (['2C', 'KH', 'AS'], ['AS', '??'])
    """
    try:
        return [str(c) for c in sorted_cards(parse_card(str(code)) for code in cards)]
    except InvalidInput:
        return cards


def seat_name(names: Sequence[str | None], seat: Any, me: int | None = None) -> str:
    """How a seat is named to the viewer ``me``: ``you`` for the viewer's own seat, else its display
    name, else ``seat N`` (a seat without a name, or a number outside ``names``).

    >>> seat_name(["ann", None], 1), seat_name(["ann"], 0, me=0), seat_name(["ann"], 5)
    ('seat 1', 'you', 'seat 5')
    """
    if isinstance(seat, int) and seat == me:
        return "you"
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat}"


def cap(text: str) -> str:
    """``you`` at the start of a sentence; display names stay as their owners wrote them.

    >>> cap("you"), cap("bob")
    ('You', 'bob')
    """
    return "You" if text == "you" else text


def plural(count: Any, noun: str) -> str:
    """``1 card``, ``3 cards``.

    >>> plural(1, "card"), plural(0, "point")
    ('1 card', '0 points')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def at(values: Any, seat: int) -> Any:
    """``values[seat]`` of a per-seat list, None when the list is shorter or not a list.

    >>> at([3, 4], 1), at([3, 4], 2), at("ab", 0)
    (4, None, None)
    """
    if isinstance(values, Sequence) and not isinstance(values, str) and seat < len(values):
        return values[seat]
    return None


def seats_line(values: Any, names: Sequence[str | None]) -> str:
    """One number per seat, by display name (``ann 0, bob 11, cy 0``); empty for a value that is
    not a list.

    >>> seats_line([0, 11, 0], ["ann", "bob", "cy"])
    'ann 0, bob 11, cy 0'
    """
    listed = values if isinstance(values, Sequence) and not isinstance(values, str) else []
    return ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(listed))


_RANKS = {"10": "T", "t": "T", "j": "J", "q": "Q", "k": "K", "a": "A"}
"""Typed ranks: ``10`` or ``T`` for the ten, letters in either case."""


def typed_card(word: str) -> str | None:
    """A typed card as its code (S2.1), rank then suit (a letter in either case or a symbol; ``10`` or
    ``T`` for the ten), else None.  Whether the code names a card of the deck is not checked
    (:func:`card_code` does).

    >>> typed_card("7c"), typed_card("10S"), typed_card("T♠"), typed_card("kh"), typed_card("7")
    ('7C', 'TS', 'TS', 'KH', None)
    """
    if len(word) < 2:
        return None
    rank, suit = word[:-1], suit_letter(word[-1])
    rank = _RANKS.get(rank.lower(), rank.upper())
    if suit is None or len(rank) != 1:
        return None
    return rank + suit


def card_code(word: str) -> str | None:
    """A typed card (:func:`typed_card`) when it names one of the 52 cards (S2.2), else None.

    >>> card_code("10h"), card_code("1H"), card_code("xx")
    ('TH', None, None)
    """
    code = typed_card(word)
    if code is None:
        return None
    try:
        parse_card(code)
    except InvalidInput:
        return None
    return code
