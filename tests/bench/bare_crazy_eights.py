"""The bare baseline of the pure domain: Crazy Eights as a minimal hand-written program plays it.

:func:`play_hand` plays one hand of ``crazy_eights``'s default rules (docs/rules/crazy_eights.md: the
single game, R7.3, no optional rule) between random players, with plain lists and integers and
nothing else: no events, no states, no commands, no views, no checks.  It is what the cost of a
random playout through trapoula's ``GameSpec`` (tests/bench/domain.py) is compared with: the same
rules, the same uniform choice among the same legal moves, with everything trapoula adds taken
away (the immutable states, the events that record each decision, the checks of ``decide``).

A card is an integer ``13 * suit + rank`` (rank 0 is a two, 6 an eight, 12 an ace).  A move is a
card (``suit`` -1, or the suit an eight names: one move per suit, as trapoula lists them, R5.1.2),
``DRAW`` or ``PASS``.  The deal is Python's shuffle; the up-card rule (R3.3) buries an eight in
the middle of the stock.
"""

from __future__ import annotations

import random

DRAW = -1
"""The move that draws a card (R4.2)."""
PASS = -2
"""The move that ends the turn without playing (R4.3, R4.4)."""
EIGHT = 6
"""The rank of the eights (wild, R5.1)."""
VALUES = (2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10, 1)
"""Card values by rank (R2.4), for a blocked hand (R6.3)."""


def play_hand(rng: random.Random, players: int = 4) -> tuple[int, int | None]:
    """Play one hand of the single game between ``players`` random players (R3-R6.3); return the
    moves made (every play, draw and pass) and the winner (None for a tied blocked hand)."""
    deck = list(range(52))
    rng.shuffle(deck)
    size = 7 if players == 2 else 5  # R3.2
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    stock = deck[players * size :]
    top = stock.pop()
    while top % 13 == EIGHT:  # R3.3: bury the eight in the middle, turn the next card
        nxt = stock.pop()
        stock.insert(len(stock) - (len(stock) // 2), top)
        top = nxt
    rank, suit = top % 13, top // 13
    seat = 0  # the dealer's left (R3.5)
    drawn = False  # a card drawn this turn (R4.3)
    active = False  # a card played or drawn this turn (R6.2)
    idle = 0  # turns in a row without a card played or drawn (R6.2)
    moves = 0
    while True:
        hand = hands[seat]
        legal: list[tuple[int, int]] = []
        for card in hand:
            r = card % 13
            if r == EIGHT:  # R5.1: any suit may be named, or none
                legal.append((card, -1))
                legal.extend((card, s) for s in range(4))
            elif r == rank or card // 13 == suit:  # R4.1
                legal.append((card, -1))
        holds = bool(legal)
        if stock and not drawn:  # R4.2, R4.3, R4.5
            legal.append((DRAW, -1))
        if drawn or (not stock and not holds):  # R4.3, R4.4
            legal.append((PASS, -1))
        move, named = rng.choice(legal)
        moves += 1
        if move == DRAW:
            hand.append(stock.pop())
            drawn = active = True
            idle = 0
            continue
        if move == PASS:
            idle = 0 if active else idle + 1
            if idle >= players:  # R6.2: blocked; the lowest hand value wins (R6.3)
                values = [sum(VALUES[c % 13] for c in h) for h in hands]
                low = min(values)
                return moves, values.index(low) if values.count(low) == 1 else None
        else:
            hand.remove(move)
            if not hand:  # R6.1
                return moves, seat
            rank, suit = move % 13, named if named >= 0 else move // 13
            idle = 0
        seat = (seat + 1) % players
        drawn = active = False


def play(seconds: float, seed: int = 1, players: int = 4) -> tuple[int, int]:
    """Play hands for about ``seconds`` of CPU time; return ``(hands, moves)``."""
    import time

    rng = random.Random(seed)
    hands = moves = 0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        made, _ = play_hand(rng, players)
        hands += 1
        moves += made
    return hands, moves
