"""Vida as a decider (docs/rules/vida.md R1-R6, sections 7-10).

``decide`` validates a command and returns the events it causes; ``evolve`` applies one event
without checking it; ``legal_commands`` lists exactly what ``decide`` accepts.  Refusals raise
:class:`~trapoula.domain.errors.CommandRejected` with the reason code and rule of section 8, the
common ones first and in this order: ``match_over``, ``hand_over``, ``wrong_phase``,
``not_your_turn``; then each command's own codes in the order of the section 8 table, except
``declare``, whose ``too_late`` comes first (section 8 lists no order for it; see ``_check_declare``).

Event order (section 9 and the shared design):

* deal: [``MatchStarted`` before the first hand], ``HandStarted``, ``CardsDealt`` for seats
  dealer+1, +2, +3 and the dealer, [``WidowExposed`` with ``open_vida``];
* auction: ``BidMade`` / ``Passed`` / ``VidaCalled``; the call that ends it adds
  ``AuctionClosed`` (then ``WidowTaken`` with ``open_vida``, else ``DeclarationsResolved`` with
  the default timing), or, after four passes, ``HandAnnulled`` and ``ShuffleRevealed``;
* open vida: the ``give`` makes three ``CardGiven`` (to holder+1, +2, +3), then
  ``DeclarationsResolved`` with the default timing;
* play: [``DeclarationAnnounced`` for a ``declare``], ``CardPlayed``, [``BeloteAnnounced``],
  [``TrickTaken``], [``DeclarationsResolved`` after trick 1 with the Pilotta timing]; after
  trick 8 ``HandScored``, ``ShuffleRevealed``, [``GameWon``], [``MatchEnded``].
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Card, Rank, Suit, codes, deck_32, parse_card, parse_cards, sorted_cards
from trapoula.domain.deal import Deal, check_whole_deck, deal_cards, deal_refusal, random_stream, uniform
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event, Payload
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import remember_last, replace_fields
from trapoula.domain.games.rulekit import Acc, Phases, dispatch, table_deal
from trapoula.domain.games.vida.cards import legal_cards, play_refusal, trick_points, trick_winner
from trapoula.domain.games.vida.commands import Bid, Command, Declare, Give, NextHand, Pass, Play, Vida, command_payload
from trapoula.domain.games.vida.declarations import Combination, combinations, resolve
from trapoula.domain.games.vida.events import (
    AuctionClosed,
    BeloteAnnounced,
    BidMade,
    CardGiven,
    CardPlayed,
    CardsDealt,
    DeclarationAnnounced,
    DeclarationsResolved,
    GameWon,
    HandAnnulled,
    HandScored,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    ShuffleRevealed,
    TrickTaken,
    VidaCalled,
    WidowExposed,
    WidowTaken,
)
from trapoula.domain.games.vida.options import BID_STEP, MIN_BID, VidaOptions, parse_options
from trapoula.domain.games.vida.scoring import MULTIPLIERS, Contract, score_hand
from trapoula.domain.games.vida.state import Call, Phase, Trick, VidaState

_NEW, _HAND_OVER, _MATCH_OVER = Phase.NEW, Phase.HAND_OVER, Phase.MATCH_OVER
"""Phases the match's phase is tested against in every playout step, as module constants (a member
read off its enum class is a slow look-up)."""

SEATS = 4
"""Exactly four players (R2.3)."""
MIN_PLAYERS = MAX_PLAYERS = SEATS
"""The table's seats: four, no more and no fewer (R2.3)."""
EXPLICIT_DEAL_RULE = "R3.2"
"""The rule of an explicit deal, cited when a table refuses one (``GameSpec.explicit_deal_rule``)."""
TRICKS = 8
"""Eight tricks a hand (R4.14)."""
LAST_TRICK_BONUS = 10
"""The eighth trick's 10 points (R2.7)."""
BELOTE_POINTS = 20
"""R5.9."""
MAX_LEVEL = 4
"""The fourth vida (R4.5)."""
WIDOW_SIZE = 4
"""Open vida: deck[28..31] (R3.4)."""
GIVE_SIZE = 3
"""Open vida: one card to each other player (R5.1)."""
DEFAULT_FIRST_DEALER = 3
"""The first dealer of a match whose first dealer is ``random`` and whose first deal is explicit
(no seed to draw from, R3.1): seat 3, so that seat 0 speaks first."""
FIRST_DEALER_LABEL = "first_dealer"
"""The label of the first hand's random stream that draws a ``random`` first dealer (R3.1)."""

DECK: tuple[Card, ...] = deck_32()
"""The 32 cards (R2.1), canonical order."""
_DECK_SET = frozenset(DECK)
SUIT_LETTERS: tuple[str, ...] = ("C", "D", "H", "S")
"""The suits a bid may name (R2.2)."""
_HAND_PHASES = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY)
"""The phases of a hand in progress (a tuple: ``in`` compares by identity, without hashing)."""
PHASES = Phases(_NEW, _HAND_PHASES, _HAND_OVER, _MATCH_OVER)
"""Where a match stands: a deal is due before the first hand and between hands (R3.5), a hand is
played from ``HandStarted`` until it is scored or annulled (R4.1), the match is over once won (R6.10)."""

__all__ = [
    "acting",
    "command_for",
    "commitment",
    "deal_hands",
    "decide",
    "deck",
    "deck_positions",
    "evolve",
    "explicit_deal",
    "hand_in_progress",
    "initial_state",
    "legal_commands",
    "legal_payloads",
    "option_defaults",
    "upcoming_dealer",
]


# --------------------------------------------------------------------------- seats and the deal


def team(seat: int) -> int:
    """The team of a seat (R2.3): seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def first_bidder(dealer: int, options: VidaOptions) -> int:
    """The first to speak (R4.2, D1): dealer+1, or dealer+3 with ``first_bidder`` = ``before_dealer``."""
    return (dealer + (1 if options.first_bidder == "after_dealer" else 3)) % SEATS


def first_leader(dealer: int, options: VidaOptions) -> int:
    """The first lead (R4.9, D1): dealer+1, or dealer+3 with ``first_leader`` = ``before_dealer``."""
    return (dealer + (1 if options.first_leader == "after_dealer" else 3)) % SEATS


def deck_positions(p: int, open_vida: bool) -> tuple[int, ...]:
    """The deck positions of the seat at position ``p`` (0 = dealer+1 .. 3 = dealer) (R3.3, R3.4).

    >>> deck_positions(0, False), deck_positions(3, True)
    ((0, 1, 2, 12, 13, 20, 21, 22), (9, 10, 11, 18, 19, 26, 27))
    """
    third = 2 if open_vida else 3
    return (
        *range(3 * p, 3 * p + 3),
        *range(12 + 2 * p, 12 + 2 * p + 2),
        *range(20 + third * p, 20 + third * p + third),
    )


def deal_hands(
    deck: Sequence[Card], dealer: int, open_vida: bool
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Each seat's cards (by seat 0-3, in deck-position order) and the widow (R3.3, R3.4).

    The widow is deck[28..31] with ``open_vida``, else empty.
    """
    hands: list[tuple[Card, ...]] = [()] * SEATS
    for p in range(SEATS):
        seat = (dealer + 1 + p) % SEATS
        hands[seat] = tuple(deck[i] for i in deck_positions(p, open_vida))
    widow = tuple(deck[28:32]) if open_vida else ()
    return tuple(hands), widow


def commitment(seed: str | None, order: Sequence[Card]) -> str:
    """The hand's commitment (R3.2): lowercase hex SHA-256 of ``salt + ":" + ",".join(deck)``.

    The salt is the seed (64 hex digits) of a seeded deal, ``""`` for an explicit one.

    >>> commitment(None, parse_cards("7C 8C")) == hashlib.sha256(b":7C,8C").hexdigest()
    True
    """
    salt = seed or ""
    return hashlib.sha256(f"{salt}:{','.join(codes(order))}".encode("ascii")).hexdigest()


def upcoming_dealer(state: VidaState, seed: str | None = None) -> int:
    """The dealer of the next hand (R3.1, R3.5, D35, D36).

    The first hand: ``MatchConfig.first_dealer`` when given, else the option ``first_dealer`` when
    it is a seat; for ``random`` the table draws it from the first hand's seed
    (``uniform(random_stream(seed, "first_dealer"), 4)``, checkable once the seed is revealed), and
    an explicit first deal, having no seed, is dealt by seat 3.  Later hands: the ``next_dealer``
    booked by the last hand (dealer + 1, or the same dealer after an all-pass with
    ``all_pass`` = ``same_dealer``).
    """
    if state.phase is not Phase.NEW:
        return state.next_dealer if state.next_dealer is not None else (state.dealer + 1) % SEATS
    if state.first_dealer is not None:
        return state.first_dealer
    if seed is None:
        return DEFAULT_FIRST_DEALER
    return uniform(random_stream(seed, FIRST_DEALER_LABEL), SEATS)


# --------------------------------------------------------------------------- initial state


def initial_state(config: MatchConfig) -> VidaState:
    """The state before the first deal (R2.3, R3.1, section 7).

    ``config.initial_totals`` are the two team totals of the game in progress (default 0-0), each
    from 0 to ``target_score`` (a total above it would have won the game, R6.9).

    Raises:
        InvalidInput: not four seats (``bad_seats``, R2.3); a bad option (``bad_option``); a first
            dealer that is not a seat 0-3, or initial totals that are not two such integers
            (``bad_config``).
    """
    n = len(config.seats)
    if n != SEATS:
        raise InvalidInput(f"vida needs exactly 4 players, got {n} (R2.3)", reason="bad_seats")
    options = parse_options(config.options)
    fd = config.first_dealer
    if fd is not None and (isinstance(fd, bool) or not isinstance(fd, int) or not 0 <= fd < SEATS):
        raise InvalidInput(f"first_dealer {fd!r} is not a seat 0..3 (R3.1)", reason="bad_config")
    if fd is None and options.first_dealer != "random":
        fd = int(options.first_dealer)
    raw_totals = config.initial_totals
    totals: tuple[int, ...] = (0, 0) if raw_totals is None else tuple(raw_totals)
    top = options.target_score
    if len(totals) != 2 or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= top for t in totals):
        raise InvalidInput(
            f"initial totals {str(raw_totals)[:80]}: expected the two team totals, integers from 0 to {top} (R6.9)",
            reason="bad_config",
        )
    return VidaState(config=config, options=options, first_dealer=fd, totals=(totals[0], totals[1]))


# --------------------------------------------------------------------------- evolve


def _replace_hand(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _set(state: VidaState, **changes: Any) -> VidaState:
    """``dataclasses.replace`` without re-running ``__init__`` (frozen, slots; :func:`replace_fields`)."""
    return replace_fields(state, changes)


def _begin_play(state: VidaState, **changes: Any) -> VidaState:
    """Play begins (R4.9): the 8-card hands are kept for declarations and belote (D31)."""
    s = _set(state, **changes)
    leader = first_leader(s.dealer, s.options)
    return _set(s, phase=Phase.PLAY, trick_no=1, leader=leader, to_act=leader, trick=(), play_hands=s.hands)


def evolve(state: VidaState, event: Event) -> VidaState:
    """Apply one event to the state (trusted: no validation, STYLE habit 1).

    Derived facts follow the rules: after ``HandStarted`` the first bidder acts (R4.2); after a
    call the next seat (R2.4); ``AuctionClosed`` starts the exchange with ``open_vida`` (R5.1), else
    play; the third ``CardGiven`` starts play (R4.9); a ``TrickTaken`` gives the lead to its winner
    (R4.14); a new game starts at 0-0 (R6.9).
    """
    match event:
        case CardPlayed(seat=seat, card=code):
            card = parse_card(code)
            return _set(
                state,
                hands=_replace_hand(state.hands, seat, _without(state.hands[seat], card)),
                trick=(*state.trick, (seat, card)),
                to_act=(seat + 1) % SEATS,
            )
        case TrickTaken(trick_no=no, winner=winner, cards=cards, points=points):
            won = list(state.tricks_won)
            won[team(winner)] += 1
            leader = state.leader if state.leader is not None else state.trick[0][0]
            done = Trick(no, leader, winner, parse_cards(cards), points)
            last = no >= TRICKS
            return _set(
                state,
                tricks=(*state.tricks, done),
                tricks_won=(won[0], won[1]),
                trick=(),
                trick_no=no if last else no + 1,
                leader=None if last else winner,
                to_act=None if last else winner,
            )
        case BidMade(seat=seat, points=points, suit=suit):
            call = Call(seat, "bid", points=points, suit=Suit(suit))
            return _set(state, auction=(*state.auction, call), bid=call, passes=0, to_act=(seat + 1) % SEATS)
        case Passed(seat=seat):
            return _set(
                state, auction=(*state.auction, Call(seat, "pass")), passes=state.passes + 1, to_act=(seat + 1) % SEATS
            )
        case VidaCalled(seat=seat, level=level):
            call = Call(seat, "vida", level=level)
            return _set(state, auction=(*state.auction, call), level=level, passes=0, to_act=(seat + 1) % SEATS)
        case AuctionClosed(holder=holder, team=tm, points=points, suit=suit, level=level):
            contract = Contract(holder, tm, points, Suit(suit), level)
            if state.options.open_vida:
                return _set(state, contract=contract, phase=Phase.EXCHANGE, to_act=holder)
            return _begin_play(state, contract=contract)
        case WidowTaken(seat=seat, cards=cards):
            taken = parse_cards(cards)
            return _set(
                state, hands=_replace_hand(state.hands, seat, state.hands[seat] + taken), widow=(), widow_taken=taken
            )
        case CardGiven(from_seat=giver, to_seat=receiver, card=code):
            card = parse_card(code)
            hands = _replace_hand(state.hands, giver, _without(state.hands[giver], card))
            hands = _replace_hand(hands, receiver, hands[receiver] + (card,))
            gifts = (*state.gifts, (giver, receiver, card))
            if len(gifts) == GIVE_SIZE:
                return _begin_play(state, hands=hands, gifts=gifts)
            return _set(state, hands=hands, gifts=gifts)
        case DeclarationAnnounced(seat=seat, kinds=kinds):
            return _set(state, declared=(*state.declared, (seat, tuple(kinds))))
        case DeclarationsResolved():
            return _set(state, resolution=event)
        case BeloteAnnounced(seat=seat, card=code):
            return _set(state, belote=(seat, parse_card(code)))
        case CardsDealt(seat=seat, cards=cards):
            return _set(state, hands=_replace_hand(state.hands, seat, parse_cards(cards)))
        case WidowExposed(cards=cards):
            return _set(state, widow=parse_cards(cards))
        case HandStarted(hand_no=hand_no, game_no=game_no, dealer=dealer):
            new_game = game_no != state.game_no
            return _set(
                state,
                phase=Phase.AUCTION,
                hand_no=hand_no,
                game_no=game_no,
                game_won=False,
                dealer=dealer,
                next_dealer=None,
                seed=event.seed,
                deck=parse_cards(event.deck),
                commitment=event.commitment,
                explicit_deal=event.explicit_deal,
                hands=((),) * SEATS,
                widow=(),
                widow_taken=(),
                gifts=(),
                to_act=first_bidder(dealer, state.options),
                auction=(),
                bid=None,
                level=0,
                passes=0,
                contract=None,
                play_hands=(),
                declared=(),
                resolution=None,
                belote=None,
                trick_no=0,
                leader=None,
                trick=(),
                tricks=(),
                tricks_won=(0, 0),
                totals=(0, 0) if new_game else state.totals,
            )
        case HandScored(totals=totals):
            return _set(
                state,
                phase=Phase.HAND_OVER,
                to_act=None,
                totals=(totals[0], totals[1]),
                last_score=event,
                last_annulled=False,
                next_dealer=(state.dealer + 1) % SEATS,
            )
        case HandAnnulled(next_dealer=nxt):
            return _set(state, phase=Phase.HAND_OVER, to_act=None, last_score=None, last_annulled=True, next_dealer=nxt)
        case ShuffleRevealed():
            return state
        case GameWon(games_won=won):
            return _set(state, games_won=(won[0], won[1]), game_won=True)
        case MatchEnded(winner_team=winner):
            return _set(state, phase=Phase.MATCH_OVER, winner=winner, to_act=None)
        case MatchStarted(first_dealer=fd):
            return _set(state, match_started=True, first_dealer=fd)
    return state


# --------------------------------------------------------------------------- refusals


@remember_last
def _where(state: VidaState) -> str:
    """The context every refusal message ends with (STYLE habit 5), remembered for the last state: a
    legality check refuses many commands in one state."""
    return f"(vida, game {state.game_no}, hand {state.hand_no}, phase {state.phase.value}, to act {state.to_act})"


def _reject(state: VidaState, reason: str, rule: str, message: str) -> CommandRejected:
    """A refusal naming its reason code, rule and the input (STYLE habit 5)."""
    return CommandRejected(reason, rule, f"{message} {_where(state)}")


def _common(state: VidaState, seat: int, what: str, phase: Phase, enabled: bool = True) -> None:
    """The common refusals of section 8, in order: ``match_over``, ``hand_over``, ``wrong_phase``
    (not this phase, or not enabled by the options), ``not_your_turn`` (R4.1).

    Raises:
        CommandRejected: the first that applies.
    """
    if state.phase is Phase.MATCH_OVER:
        raise _reject(state, "match_over", "R6.10", f"{what} by seat {seat}: the match is over")
    if state.phase not in _HAND_PHASES:
        raise _reject(state, "hand_over", "R4.1", f"{what} by seat {seat}: no hand is in progress")
    if state.phase is not phase or not enabled:
        raise _reject(
            state, "wrong_phase", "R4.1", f"{what} by seat {seat}: not a command of the {state.phase.value} phase"
        )
    if seat != state.to_act:
        raise _reject(state, "not_your_turn", "R4.1", f"{what} by seat {seat}: seat {state.to_act} is to act")


def _entitled(state: VidaState, seat: int) -> bool:
    """R4.5, D3: levels 1 and 3 belong to the defending team, 2 and 4 to the bidding team."""
    if state.bid is None:
        return False
    bidders = team(state.bid.seat)
    return (team(seat) != bidders) if (state.level + 1) % 2 == 1 else (team(seat) == bidders)


def _valid_rank(card: Card) -> bool:
    """R2.1, R2.2: ranks 7 to A only."""
    return card in _DECK_SET


def _belote_allowed(state: VidaState, seat: int, card: Card) -> bool:
    """R5.9, D18: the card is the king or queen of trumps and the other one is still in the hand
    (so the player held both and this is the first of the two)."""
    trump = state.trump
    if trump is None or card.suit is not trump or card.rank not in (Rank.KING, Rank.QUEEN):
        return False
    other = Card(Rank.QUEEN if card.rank is Rank.KING else Rank.KING, trump)
    return other in state.hands[seat]


def _has_played(state: VidaState, seat: int) -> bool:
    """The seat has played a card in this hand (R5.8 ``too_late``)."""
    return state.trick_no > 1 or any(s == seat for s, _ in state.trick)


def _declared(state: VidaState, seat: int) -> bool:
    return any(s == seat for s, _ in state.declared)


def _check_bid(state: VidaState, cmd: Bid) -> None:
    """R4.3, R4.6 and the option ``max_bid``: ``invalid_suit``, ``invalid_points``, ``bid_too_low``,
    ``bidding_closed`` (in the order of the section 8 table)."""
    seat, points, suit = cmd.seat, cmd.points, cmd.suit
    what = f"bid {points!r} {suit!r}"
    _common(state, seat, what, Phase.AUCTION)
    if suit not in SUIT_LETTERS:
        raise _reject(state, "invalid_suit", "R4.3", f"{what} by seat {seat}: the suit must be C, D, H or S")
    if points % BID_STEP or points < MIN_BID:
        raise _reject(
            state, "invalid_points", "R4.3", f"{what} by seat {seat}: points must be a multiple of 10, at least 80"
        )
    if points > state.options.max_bid:
        raise _reject(
            state,
            "invalid_points",
            "R4.3",
            f"{what} by seat {seat}: above the table's highest bid {state.options.max_bid} (option max_bid)",
        )
    if state.bid is not None and points <= (state.bid.points or 0):
        raise _reject(
            state, "bid_too_low", "R4.3", f"{what} by seat {seat}: not above the current bid {state.bid.points}"
        )
    if state.level > 0:
        raise _reject(state, "bidding_closed", "R4.6", f"{what} by seat {seat}: a vida has been called")


def _check_vida(state: VidaState, cmd: Vida) -> None:
    """R4.5, D3: ``no_bid``, ``not_entitled``, ``max_level``."""
    seat = cmd.seat
    _common(state, seat, "vida", Phase.AUCTION)
    if state.bid is None:
        raise _reject(state, "no_bid", "R4.5", f"vida by seat {seat}: there is no bid to double")
    if not _entitled(state, seat):
        raise _reject(
            state,
            "not_entitled",
            "R4.5",
            f"vida by seat {seat}: level {state.level + 1} belongs to the other team (D3)",
        )
    if state.level >= MAX_LEVEL:
        raise _reject(state, "max_level", "R4.5", f"vida by seat {seat}: the fourth vida has been called")


def _check_give(state: VidaState, cmd: Give) -> None:
    """R5.1, D30: ``invalid_card``, ``card_not_in_hand``, ``invalid_give``."""
    seat, cards = cmd.seat, cmd.cards
    what = f"give {list(codes(cards))!r}"
    _common(state, seat, what, Phase.EXCHANGE, state.options.open_vida)
    for card in cards:
        if not _valid_rank(card):
            raise _reject(state, "invalid_card", "R2.2", f"{what} by seat {seat}: {card.code!r} is not a Vida card")
    for card in cards:
        if card not in state.hands[seat]:
            raise _reject(state, "card_not_in_hand", "R5.1", f"{what} by seat {seat}: {card.code!r} is not in his hand")
    if len(cards) != GIVE_SIZE or len(set(cards)) != GIVE_SIZE:
        raise _reject(state, "invalid_give", "R5.1", f"{what} by seat {seat}: give exactly three distinct cards")


def _check_declare(state: VidaState, cmd: Declare) -> None:
    """R5.8, D32: ``too_late``, ``already_declared``, ``nothing_to_declare``; ``wrong_phase`` unless
    ``declaration_timing`` = ``before_first_card``."""
    seat = cmd.seat
    _common(state, seat, "declare", Phase.PLAY, state.options.declaration_timing == "before_first_card")
    if _has_played(state, seat):
        raise _reject(state, "too_late", "R5.8", f"declare by seat {seat}: he has already played a card")
    if _declared(state, seat):
        raise _reject(state, "already_declared", "R5.8", f"declare by seat {seat}: he has declared already")
    if not combinations(state.hands[seat]):
        raise _reject(state, "nothing_to_declare", "R5.8", f"declare by seat {seat}: his hand has no combination")


def _check_play(state: VidaState, cmd: Play) -> None:
    """R4.10-R4.13, R5.9: ``invalid_card``, ``card_not_in_hand``, the duty broken
    (``must_follow_suit``, ``must_trump``, ``must_overtrump``), ``belote_not_allowed``."""
    seat, card = cmd.seat, cmd.card
    what = f"play {card.code!r}" + (" with belote" if cmd.belote else "")
    _common(state, seat, what, Phase.PLAY)
    if not _valid_rank(card):
        raise _reject(state, "invalid_card", "R2.2", f"{what} by seat {seat}: {card.code!r} is not a Vida card")
    hand = state.hands[seat]
    if card not in hand:
        raise _reject(state, "card_not_in_hand", "R4.10", f"{what} by seat {seat}: {card.code!r} is not in his hand")
    trump = state.trump
    assert trump is not None
    refusal = play_refusal(hand, tuple(c for _, c in state.trick), trump, card)
    if refusal is not None:
        reason, rule = refusal
        led = state.trick[0][1].suit.value
        raise _reject(
            state,
            reason,
            rule,
            f"{what} by seat {seat}: {card.code!r} may not be played (led {led}, trumps {trump.value})",
        )
    if cmd.belote and not _belote_allowed(state, seat, card):
        raise _reject(
            state,
            "belote_not_allowed",
            "R5.9",
            f"{what} by seat {seat}: belote goes only with the first of the king and queen of trumps held together",
        )


# --------------------------------------------------------------------------- decide


def _resolved(state: VidaState, by_seat: Mapping[int, Sequence[Combination]]) -> DeclarationsResolved:
    """The comparison of R5.4-R5.6 as published (R5.7, D15): the winning team's combinations with
    their cards; in a stand-off the tied kind and top rank only."""
    trump = state.trump
    assert trump is not None
    res = resolve(by_seat, trump)
    shown = tuple({"seat": seat, "kind": c.kind, "cards": codes(c.cards), "points": c.points} for seat, c in res.shown)
    tied = {"kind": res.tied[0], "top": res.tied[1].value} if res.tied is not None else None
    return DeclarationsResolved(
        winner_team=res.winner_team,
        standoff=res.standoff,
        shown=shown,
        tied=tied,
        declaration_points=res.points,
    )


def _after_auction_declarations(acc: Acc[VidaState]) -> None:
    """R5.7: with the default timing, compare every player's combinations as play begins."""
    st = acc.state
    if st.options.declaration_timing == "after_auction":
        acc.emit(_resolved(st, {s: combinations(st.hands[s]) for s in range(SEATS)}))


def _reveal(acc: Acc[VidaState]) -> None:
    st = acc.state
    acc.emit(ShuffleRevealed(hand_no=st.hand_no, deck=codes(st.deck), salt=st.seed or ""))


def _close_auction(acc: Acc[VidaState]) -> None:
    """R4.7: the last bid is the contract at the current level; then R5.1 or R5.7."""
    st = acc.state
    bid = st.bid
    assert bid is not None and bid.points is not None and bid.suit is not None
    acc.emit(
        AuctionClosed(
            holder=bid.seat,
            team=team(bid.seat),
            points=bid.points,
            suit=bid.suit.value,
            level=st.level,
            multiplier=MULTIPLIERS[st.level],
        )
    )
    if st.options.open_vida:
        acc.emit(WidowTaken(seat=bid.seat, cards=codes(st.widow)))
    else:
        _after_auction_declarations(acc)


def _decide_bid(state: VidaState, cmd: Bid) -> tuple[Event, ...]:
    _check_bid(state, cmd)
    return (BidMade(seat=cmd.seat, points=cmd.points, suit=cmd.suit),)


def _decide_pass(state: VidaState, cmd: Pass) -> tuple[Event, ...]:
    _common(state, cmd.seat, "pass", Phase.AUCTION)
    acc = Acc(state, evolve)
    acc.emit(Passed(seat=cmd.seat))
    st = acc.state
    if st.bid is None and st.passes >= SEATS:  # R4.8, D5, D6
        same = st.options.all_pass == "same_dealer"
        acc.emit(HandAnnulled(reason="all_passed", next_dealer=st.dealer if same else (st.dealer + 1) % SEATS))
        _reveal(acc)
    elif st.bid is not None and st.passes >= SEATS - 1:  # R4.7 (a)
        _close_auction(acc)
    return tuple(acc.events)


def _decide_vida(state: VidaState, cmd: Vida) -> tuple[Event, ...]:
    _check_vida(state, cmd)
    acc = Acc(state, evolve)
    level = state.level + 1
    acc.emit(VidaCalled(seat=cmd.seat, level=level, multiplier=MULTIPLIERS[level]))
    if level == MAX_LEVEL:  # R4.7 (b)
        _close_auction(acc)
    return tuple(acc.events)


def _decide_give(state: VidaState, cmd: Give) -> tuple[Event, ...]:
    _check_give(state, cmd)
    acc = Acc(state, evolve)
    for i, card in enumerate(cmd.cards):  # R5.1: the i-th card to seat holder+1+i
        acc.emit(CardGiven(from_seat=cmd.seat, to_seat=(cmd.seat + 1 + i) % SEATS, card=card.code))
    _after_auction_declarations(acc)
    return tuple(acc.events)


def _decide_declare(state: VidaState, cmd: Declare) -> tuple[Event, ...]:
    _check_declare(state, cmd)
    kinds = tuple(c.kind for c in combinations(state.hands[cmd.seat]))
    return (DeclarationAnnounced(seat=cmd.seat, kinds=kinds),)


def _score(acc: Acc[VidaState]) -> None:
    """R6.1-R6.10: score the hand, reveal the deck, then the game and the match."""
    st = acc.state
    contract = st.contract
    assert contract is not None
    trump = contract.suit
    raw = [0, 0]
    jack = Card(Rank.JACK, trump)
    jack_team: int | None = None
    for t in st.tricks:
        raw[team(t.winner)] += t.points
        if jack in t.cards:
            jack_team = team(t.winner)
    belote = [0, 0]
    if st.belote is not None:
        belote[team(st.belote[0])] = BELOTE_POINTS
    declaration = st.resolution.declaration_points if st.resolution is not None else (0, 0)
    score = score_hand(
        contract,
        st.tricks_won,
        (raw[0], raw[1]),
        jack_team,
        (declaration[0], declaration[1]),
        (belote[0], belote[1]),
        st.options.bidders_must_outscore,
    )
    totals = (st.totals[0] + score.hand_points[0], st.totals[1] + score.hand_points[1])
    acc.emit(
        HandScored(
            contract=contract.to_dict(),
            tricks_won=score.tricks_won,
            trick_points_raw=score.trick_points_raw,
            capot_team=score.capot_team,
            trick_points=score.trick_points,
            declaration_points=score.declaration_points,
            belote_points=score.belote_points,
            contract_points=score.contract_points,
            contract_made=score.contract_made,
            hand_points=score.hand_points,
            totals=totals,
        )
    )
    _reveal(acc)
    target = st.options.target_score
    if max(totals) > target and totals[0] != totals[1]:  # R6.9, D34
        winner = 0 if totals[0] > totals[1] else 1
        won = list(st.games_won)
        won[winner] += 1
        games_won = (won[0], won[1])
        acc.emit(GameWon(game_no=st.game_no, team=winner, totals=totals, games_won=games_won))
        if games_won[winner] >= st.options.wins_needed:  # R6.10
            acc.emit(MatchEnded(winner_team=winner, games_won=games_won))


def _decide_play(state: VidaState, cmd: Play) -> tuple[Event, ...]:
    _check_play(state, cmd)
    acc = Acc(state, evolve)
    acc.emit(CardPlayed(seat=cmd.seat, card=cmd.card.code, trick_no=state.trick_no))
    if cmd.belote:
        acc.emit(BeloteAnnounced(seat=cmd.seat, card=cmd.card.code))
    st = acc.state
    if len(st.trick) == SEATS:  # R4.14
        trump = st.trump
        assert trump is not None
        cards = tuple(c for _, c in st.trick)
        winner = st.trick[trick_winner(cards, trump)][0]
        points = trick_points(cards, trump) + (LAST_TRICK_BONUS if st.trick_no == TRICKS else 0)
        acc.emit(TrickTaken(trick_no=st.trick_no, winner=winner, cards=codes(cards), points=points))
        st = acc.state
        if st.options.declaration_timing == "before_first_card" and len(st.tricks) == 1:  # R5.8, D33
            acc.emit(_resolved(st, {s: combinations(st.play_hands[s]) for s, _ in st.declared}))
        if len(st.tricks) == TRICKS:
            _score(acc)
    return tuple(acc.events)


def _decide_next_hand(state: VidaState, cmd: NextHand) -> tuple[Event, ...]:
    """R3.1-R3.5: the commitment, then the deal (3-2-3, or 3-2-2 and the widow with ``open_vida``)."""
    if state.phase is Phase.MATCH_OVER:
        raise _reject(state, "match_over", "R6.10", "next_hand: the match is over")
    if state.phase in _HAND_PHASES:
        raise _reject(state, "hand_in_progress", "R4.1", f"next_hand: hand {state.hand_no} is still in progress")
    deal = cmd.deal
    order = tuple(deal.order)
    if len(order) != len(DECK) or frozenset(order) != _DECK_SET:
        raise _reject(state, "bad_deal", "R3.2", "next_hand: the deal is not exactly the 32-card deck (R2.1)")
    acc = Acc(state, evolve)
    dealer = upcoming_dealer(state, deal.seed)
    if not state.match_started:
        acc.emit(MatchStarted.of(state.config, state.options.to_dict(), dealer, state.totals))
    acc.emit(
        HandStarted(
            hand_no=state.hand_no + 1,
            game_no=state.game_no + 1 if state.game_won else state.game_no,
            dealer=dealer,
            explicit_deal=deal.explicit,
            commitment=commitment(deal.seed, order),
            seed=deal.seed,
            deck=codes(order),
        )
    )
    open_vida = state.options.open_vida
    hands, widow = deal_hands(order, dealer, open_vida)
    for p in range(SEATS):  # R3.3: dealer+1, dealer+2, dealer+3, the dealer
        seat = (dealer + 1 + p) % SEATS
        acc.emit(CardsDealt(seat=seat, cards=codes(hands[seat]), count=len(hands[seat])))
    if open_vida:
        acc.emit(WidowExposed(cards=codes(widow)))
    return tuple(acc.events)


decide: Callable[[VidaState, Command], tuple[Event, ...]] = dispatch(
    "vida",
    {
        Play: _decide_play,
        Bid: _decide_bid,
        Pass: _decide_pass,
        Vida: _decide_vida,
        Give: _decide_give,
        Declare: _decide_declare,
        NextHand: _decide_next_hand,
    },
)
"""Validate ``command`` against ``state`` and return the events it causes (section 8).

Raises:
    CommandRejected: the rules refuse the command; ``reason`` and ``rule`` name why (section 8).
"""


# --------------------------------------------------------------------------- legal commands


def _legal_auction(state: VidaState, seat: int) -> tuple[list[Command], tuple[int, int, int] | None]:
    """The auction turn's ``pass`` and ``vida`` commands, and the ``(seat, low, high)`` of its bids
    (:func:`_bids`) while no vida was called, else None."""
    out: list[Command] = [Pass(seat)]
    if state.bid is not None and state.level < MAX_LEVEL and _entitled(state, seat):
        out.append(Vida(seat))
    if state.level != 0:
        return out, None
    low = MIN_BID if state.bid is None or state.bid.points is None else state.bid.points + BID_STEP
    return out, (seat, max(low, MIN_BID), state.options.max_bid)


@functools.lru_cache(maxsize=32)
def _bids(seat: int, low: int, high: int) -> tuple[Bid, ...]:
    """Every bid of ``seat`` from ``low`` to ``high`` points in steps of 10, each in C D H S (R4.3),
    remembered: the views and the legality checks of an auction turn list the same bids again."""
    return tuple(Bid(seat, points, suit) for points in range(low, high + 1, BID_STEP) for suit in SUIT_LETTERS)


@functools.lru_cache(maxsize=32)
def _bid_payloads(seat: int, low: int, high: int) -> tuple[Payload, ...]:
    """The payloads of :func:`_bids` (never handed out: :func:`legal_payloads` copies them)."""
    return tuple(command_payload(bid) for bid in _bids(seat, low, high))


def _legal_give(state: VidaState, seat: int) -> tuple[Command, ...]:
    return _gives(seat, sorted_cards(state.hands[seat]))


@functools.lru_cache(maxsize=8)
def _give_payloads(seat: int, hand: tuple[Card, ...]) -> tuple[Payload, ...]:
    """The payloads of :func:`_gives` (never handed out: :func:`legal_payloads` copies them)."""
    return tuple(command_payload(give) for give in _gives(seat, hand))


@functools.lru_cache(maxsize=8)
def _gives(seat: int, hand: tuple[Card, ...]) -> tuple[Give, ...]:
    """Every ordered choice of three distinct cards of ``hand`` (canonical order) as gives of ``seat``
    (R5.1, D30), remembered: the views and the legality checks of the turn list them again."""
    return tuple(Give(seat, (a, b, c)) for a in hand for b in hand if b != a for c in hand if c not in (a, b))


def _legal_play(state: VidaState, seat: int) -> list[Command]:
    out: list[Command] = []
    if (
        state.options.declaration_timing == "before_first_card"
        and not _has_played(state, seat)
        and not _declared(state, seat)
        and combinations(state.hands[seat])
    ):
        out.append(Declare(seat))
    trump = state.trump
    assert trump is not None
    for card in sorted_cards(legal_cards(state.hands[seat], tuple(c for _, c in state.trick), trump)):
        out.append(Play(seat, card, False))
        if _belote_allowed(state, seat, card):
            out.append(Play(seat, card, True))
    return out


def legal_commands(state: VidaState, seat: int) -> tuple[Command, ...]:
    """Every command ``seat`` may issue now: exactly those ``decide`` accepts (section 8).

    Auction: ``pass``, ``vida`` when entitled (R4.5), every bid from 80 (or the current bid + 10)
    to ``max_bid`` in steps of 10 in each suit C D H S while no vida was called (R4.3, R4.6).
    Exchange: every ordered choice of three distinct cards of the holder's 11 (R5.1, D30).
    Play: ``declare`` when open (R5.8), then the legal cards in canonical order (R4.10-R4.13), a
    king or queen of trumps that may carry belote listed without and then with it (R5.9).
    """
    if state.phase not in _HAND_PHASES or seat != state.to_act:
        return ()
    if state.phase is Phase.AUCTION:
        calls, bids = _legal_auction(state, seat)
        return (*calls, *_bids(*bids)) if bids is not None else tuple(calls)
    if state.phase is Phase.EXCHANGE:
        return _legal_give(state, seat)
    return tuple(_legal_play(state, seat))


def legal_payloads(state: VidaState, seat: int) -> list[Payload]:
    """The payloads of :func:`legal_commands` (``command_payload`` of each, in order), fresh dicts
    and lists: an auction turn's bids, up to 372 of them, and an exchange's 990 gives are copied from
    the payloads of the same commands kept from an earlier call (views list them at every event)."""
    if seat != state.to_act:
        return [command_payload(c) for c in legal_commands(state, seat)]
    if state.phase is Phase.AUCTION:
        calls, bids = _legal_auction(state, seat)
        out = [command_payload(c) for c in calls]
        if bids is not None:
            out.extend([payload.copy() for payload in _bid_payloads(*bids)])
        return out
    if state.phase is Phase.EXCHANGE:
        return [{**p, "cards": p["cards"].copy()} for p in _give_payloads(seat, sorted_cards(state.hands[seat]))]
    return [command_payload(c) for c in legal_commands(state, seat)]


def acting(state: VidaState) -> tuple[int, ...]:
    """The one seat the match waits for during a hand (R4.1); nobody between hands."""
    if state.phase in _HAND_PHASES and state.to_act is not None:
        return (state.to_act,)
    return ()


hand_in_progress = PHASES.hand_in_progress

# --------------------------------------------------------------------------- deals and audit


def deck(state: VidaState) -> tuple[Card, ...]:
    """Vida's deck: 32 cards, 7 to A in each suit (R2.1), canonical order."""
    return DECK


_bad_deal = deal_refusal("vida", EXPLICIT_DEAL_RULE)


def _code_list(raw: Any, what: str, size: int) -> tuple[Card, ...]:
    cards = deal_cards(raw, what, size, _bad_deal)
    bad = [c.code for c in cards if not _valid_rank(c)]
    if bad:
        raise _bad_deal(f"{what}: {bad} are not Vida cards (R2.2)")
    return cards


def explicit_deal(state: VidaState, raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"deck": [32 codes, top first]}`` or from
    ``{"hands": [[8 codes] per seat 0-3], "widow": [4 codes]}`` (R3.2).

    With hands, each seat's cards fill its deck positions of R3.3 (R3.4 with ``open_vida``: 7 cards
    each and the widow, deck[28..31], required) in increasing order, for the dealer of the next hand
    (:func:`upcoming_dealer`; an explicit first deal of a ``random`` first dealer is dealt by seat 3).

    Raises:
        InvalidInput: unknown or conflicting fields, lists of the wrong size, codes that do not parse
            or are no Vida cards, or cards that are not exactly the 32-card deck (``bad_deal``).
    """
    if not isinstance(raw, Mapping):
        raise _bad_deal(f"{str(raw)[:60]!r} is not a mapping")
    keys = set(raw)
    open_vida = state.options.open_vida
    if keys == {"deck"}:
        order = _code_list(raw["deck"], "deck", len(DECK))
    elif keys in ({"hands"}, {"hands", "widow"}):
        if ("widow" in keys) != open_vida:
            raise _bad_deal("a widow is given with open_vida and only then (R3.4)")
        hands_raw = raw["hands"]
        if not isinstance(hands_raw, list | tuple) or len(hands_raw) != SEATS:
            raise _bad_deal("'hands' must list 4 hands, one per seat 0-3")
        size = 7 if open_vida else 8
        hands = [_code_list(h, f"hand of seat {i}", size) for i, h in enumerate(hands_raw)]
        widow = _code_list(raw["widow"], "widow", WIDOW_SIZE) if open_vida else ()
        dealer = upcoming_dealer(state)
        slots: list[Card | None] = [None] * len(DECK)
        for p in range(SEATS):
            seat = (dealer + 1 + p) % SEATS
            for pos, card in zip(deck_positions(p, open_vida), hands[seat], strict=True):
                slots[pos] = card
        for i, card in enumerate(widow):
            slots[28 + i] = card
        order = tuple(c for c in slots if c is not None)
    else:
        raise _bad_deal(f"expected 'deck', or 'hands' (and 'widow' with open_vida), not {sorted(map(str, keys))}")
    check_whole_deck(order, DECK, _bad_deal)
    return Deal(order=order, seed=None)


def command_for(state: VidaState, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, or None (section 8).

    ``MatchStarted`` and ``HandStarted`` open the table's ``next_hand``; ``BidMade``, ``Passed``,
    ``VidaCalled``, ``DeclarationAnnounced`` their calls; the first ``CardGiven`` of a hand the
    ``give`` of the three; ``CardPlayed`` a ``play`` (with belote when ``BeloteAnnounced`` follows).
    """
    deal = table_deal(events, i)
    if deal is not None:
        return NextHand(deal)
    event = events[i]
    nxt = events[i + 1] if i + 1 < len(events) else None
    match event:
        case CardPlayed(seat=seat, card=code):
            belote = isinstance(nxt, BeloteAnnounced) and nxt.seat == seat
            return Play(seat, parse_card(code), belote)
        case BidMade(seat=seat, points=points, suit=suit):
            return Bid(seat, points, suit)
        case Passed(seat=seat):
            return Pass(seat)
        case VidaCalled(seat=seat):
            return Vida(seat)
        case DeclarationAnnounced(seat=seat):
            return Declare(seat)
        case CardGiven(from_seat=giver):
            if state.gifts:
                return None
            cards: list[Card] = []
            for e in events[i : i + GIVE_SIZE]:
                if isinstance(e, CardGiven) and e.from_seat == giver:
                    cards.append(parse_card(e.card))
            return Give(giver, tuple(cards))
    return None


def option_defaults() -> dict[str, Any]:
    """Every option with its default (section 7)."""
    return VidaOptions().to_dict()
