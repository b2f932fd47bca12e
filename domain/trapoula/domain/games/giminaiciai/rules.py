"""Giminaičiai as a decider (docs/rules/giminaiciai.md R1-R9, sections 7-10).

``decide`` validates a command and returns the events it causes; ``evolve`` applies one event without
checking it; ``legal_commands`` lists what ``decide`` accepts (a lay-down in canonical form; ``decide``
accepts every ordering of its groups and cards, see :mod:`~trapoula.domain.games.giminaiciai.laying`).
Refusals raise :class:`~trapoula.domain.errors.CommandRejected` with the reason codes of section 8,
in the order of its lists: ``hand_over``, ``not_your_turn``, then each command's own codes.

Event order (section 9; ``ShuffleCommitted`` is folded into ``HandStarted``, see ``events``):

* deal: [``MatchStarted`` before the first hand], ``HandStarted``, ``CardsDealt`` for the player after
  the dealer round to the dealer, ``StarterTurned``;
* draw: [``DiscardPileTurnedOver``], ``CardDrawn``, then one ``PointsScored`` (``card_taken``, 1) per
  finished player in the order they finished (R7.3);
* discard: ``CardDiscarded``; when the hand is stalled (R8.4, below): ``HandEnded``,
  ``ShuffleRevealed``, [``MatchEnded``];
* lay-down: ``HandLaidDown``, [``PointsScored`` ``card_taken`` per finished player for the extra
  cards], [``PointsScored`` ``finishing_bonus``], [``PointsScored`` ``extra_card_bonus``],
  ``PlayerFinished``; when everybody has finished (R8.1) or the next turn would start with both piles
  empty (R4.7, R8.2): ``HandEnded``, ``ShuffleRevealed``, [``MatchEnded``] (R8.3, R9).

R8.4, the stalled hand (the product's decision T1 of docs/decisions/giminaiciai.md, confirmed by
the rules owners).  Without it a hand could go on for ever: the last unfinished player may hold
cards that can never be laid down (R4.1, decision 19: no card limit), or players may keep cycling
the turned-over pile (R4.6), finished players scoring 1 per draw all the while (R7.3).  R8.4 ends
the hand, reason
``stalled``, when a turn would start after the discard pile has been turned over
:data:`STALL_TURN_OVERS` (2) times with no lay-down in between: counted from the deal, and again from
each lay-down (``GiminaiciaiState.turn_overs``, folded from ``DiscardPileTurnedOver`` and
``HandLaidDown``).  The player whose draw turned the pile over the second time finishes his turn: if
he lays down, the count starts again and the hand goes on; if he discards, the hand ends after his
discard.  It is scored as R8.2: unfinished players score nothing more (R7.4).  A lay-down never ends
a hand as stalled (it resets the count), and a discard never leaves both piles empty, so ``stalled``
never competes with the other two reasons.  A hand in which, from some turn on, nobody draws from
the stock turns nothing over: it ends the same way after :data:`STALL_PILE_DRAWS_PER_PLAYER` x n
draws in a row from the discard pile with no lay-down in between (``GiminaiciaiState.pile_draws``,
folded from ``CardDrawn`` and ``HandLaidDown``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Card, codes, deck_52, parse_card, parse_cards, sorted_cards
from trapoula.domain.deal import Deal, check_whole_deck, deal_cards, deal_fields, deal_refusal, hands_in_deal_order
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import replace_fields
from trapoula.domain.games.giminaiciai.commands import Command, Discard, Draw, LayDown, NextHand
from trapoula.domain.games.giminaiciai.events import (
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    DiscardPileTurnedOver,
    HandEnded,
    HandLaidDown,
    HandStarted,
    MatchEnded,
    MatchStarted,
    PlayerFinished,
    PointsScored,
    ShuffleRevealed,
    StarterTurned,
)
from trapoula.domain.games.giminaiciai.laying import (
    FIRST_FINISH_BONUS,
    HAND_SIZE,
    check_lay_down,
    extra_card_bonus,
    lay_downs,
)
from trapoula.domain.games.giminaiciai.options import GiminaiciaiOptions, parse_options
from trapoula.domain.games.giminaiciai.state import GiminaiciaiState, Phase
from trapoula.domain.games.rulekit import (
    Acc,
    Phases,
    dealer_and_totals,
    dispatch,
    is_listed,
    seat_count,
    sole_leader,
    table_deal,
)

NEW, PLAY, HAND_OVER, MATCH_OVER = Phase.NEW, Phase.PLAY, Phase.HAND_OVER, Phase.MATCH_OVER
"""The phases as module constants (a member read off its enum class is a slow look-up)."""
PHASES = Phases(NEW, (PLAY,), HAND_OVER, MATCH_OVER)
"""Where a match stands: a deal is due before the first hand and between hands (R8.3), a hand is
played from ``HandStarted`` until ``HandEnded`` (R8), the match is over once won (R9)."""

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "STALL_TURN_OVERS",
    "acting",
    "command_for",
    "commitment",
    "deal_hands",
    "decide",
    "deck",
    "evolve",
    "explicit_deal",
    "hand_in_progress",
    "initial_state",
    "legal_commands",
    "next_to_act",
    "option_defaults",
    "upcoming_dealer",
]

MIN_PLAYERS = 2
"""R2.3."""
MAX_PLAYERS = 6
"""R2.3."""
EXPLICIT_DEAL_RULE = "R3.8"
"""The rule of an explicit deal, cited when a table refuses one (``GameSpec.explicit_deal_rule``)."""
DECK: tuple[Card, ...] = deck_52()
"""The 52 cards (R2.1), canonical order."""
_DECK_SET = frozenset(DECK)
STALL_TURN_OVERS = 2
"""R8.4: after this many turn-overs of the discard pile (R4.6) with no lay-down in between, the
hand ends when the next turn would start (``HandEnded`` reason ``stalled``, scored as R8.2)."""
STALL_PILE_DRAWS_PER_PLAYER = 3
"""R8.4: after 3 x n draws in a row from the discard pile (n players), none from the stock and
no lay-down in between, the hand ends as stalled too when the next turn would start."""


# --------------------------------------------------------------------------- the deal


def deal_hands(
    order: Sequence[Card], dealer: int, n: int
) -> tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """Each seat's 7 cards (by seat, in the order dealt), the starter and the stock, top first (R3.3-R3.6).

    Card ``order[i]``, i < 7n, goes to seat (dealer + 1 + i) mod n; ``order[7n]`` is the starter;
    ``order[7n+1:]`` the stock.

    >>> hands, starter, stock = deal_hands(DECK, 1, 2)
    >>> codes(hands[0][:2]), codes(hands[1][:2]), starter.code, len(stock)
    (('2C', '4C'), ('3C', '5C'), '3D', 37)
    """
    hands: list[tuple[Card, ...]] = [()] * n
    for p in range(n):
        seat = (dealer + 1 + p) % n
        hands[seat] = tuple(order[p + n * k] for k in range(HAND_SIZE))
    dealt = HAND_SIZE * n
    return tuple(hands), order[dealt], tuple(order[dealt + 1 :])


def commitment(seed: str | None, order: Sequence[Card]) -> str:
    """The hand's commitment (R3.2, section 9): lowercase hex SHA-256 of the deck order's codes joined
    by ``,``, then ``:``, then the salt -- the seed for a seeded deal, ``""`` for an explicit one.

    >>> commitment(None, parse_cards("7C 8C")) == hashlib.sha256(b"7C,8C:").hexdigest()
    True
    """
    salt = seed or ""
    return hashlib.sha256(f"{','.join(codes(order))}:{salt}".encode("ascii")).hexdigest()


def upcoming_dealer(state: GiminaiciaiState) -> int:
    """The dealer of the next hand: the first dealer (R3.1), then the next seat each hand (R3.7)."""
    if state.phase is Phase.NEW:
        return state.first_dealer
    return (state.dealer + 1) % state.n


def next_to_act(state: GiminaiciaiState, seat: int) -> int | None:
    """The next unfinished seat after ``seat`` in the order of play, ``seat`` itself when he alone
    has not finished, None when everybody has (R4.1)."""
    for k in range(1, state.n + 1):
        s = (seat + k) % state.n
        if s not in state.finished:
            return s
    return None


# --------------------------------------------------------------------------- initial state


def initial_state(config: MatchConfig) -> GiminaiciaiState:
    """The state before the first deal (R2.3, R3.1, section 7).

    ``config.first_dealer`` defaults to seat n-1 (R3.1, decision 23); ``config.initial_totals`` are
    the totals before this match's first hand (R10.2, default all 0).

    Raises:
        InvalidInput: not 2 to 6 seats (``bad_seats``, R2.3); a bad option (``bad_option``); a first
            dealer that is not a seat, or initial totals that are not n integers (``bad_config``).
    """
    n = seat_count(config, "giminaiciai", MIN_PLAYERS, MAX_PLAYERS, "R2.3")
    options = parse_options(config.options)
    fd, totals = dealer_and_totals(config, n, "R10.2")
    return GiminaiciaiState(config=config, options=options, n=n, first_dealer=fd, totals=totals)


# --------------------------------------------------------------------------- evolve


def _set(state: GiminaiciaiState, **changes: Any) -> GiminaiciaiState:
    """``dataclasses.replace`` without re-running ``__init__`` (frozen, slots; :func:`replace_fields`)."""
    return replace_fields(state, changes)


def _put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def evolve(state: GiminaiciaiState, event: Event) -> GiminaiciaiState:
    """Apply one event to the state (trusted: no validation, STYLE habit 1).

    Derived facts follow the rules: ``HandStarted`` puts the whole deck in the stock, ``CardsDealt``
    and ``StarterTurned`` take their cards from it (R3.6); after a discard or a finish the turn passes
    to the next unfinished seat (R4.1); a turn-over makes the discard pile the stock, bottom card on
    top (R4.6).  ``turn_overs`` counts the turn-overs since the deal (``HandStarted`` sets 0) or the
    last lay-down (``HandLaidDown`` sets 0), ``pile_draws`` the draws in a row from the discard pile
    (a draw from the stock or a lay-down sets 0), so a replay of the events rebuilds them (R8.4).
    """
    apply = _EVOLVE.get(type(event))
    return state if apply is None else apply(state, event)


def _next_unfinished(n: int, finished: tuple[int, ...], seat: int) -> int | None:
    """:func:`next_to_act` for ``n`` seats of which ``finished`` have finished (R4.1)."""
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s not in finished:
            return s
    return None


def _card_drawn(state: GiminaiciaiState, event: CardDrawn) -> GiminaiciaiState:
    seat = event.seat
    if event.source == "discard":
        got = parse_card(event.card or "")
        pile, stock, taken, pile_draws = state.pile[:-1], state.stock, got, state.pile_draws + 1
    else:
        got = parse_card(event.stock_card or "")
        pile, stock, taken, pile_draws = state.pile, state.stock[1:], None, 0
    hands = _put(state.hands, seat, (*state.hands[seat], got))
    return _set(state, hands=hands, pile=pile, stock=stock, drawn=True, taken=taken, pile_draws=pile_draws)


def _card_discarded(state: GiminaiciaiState, event: CardDiscarded) -> GiminaiciaiState:
    seat = event.seat
    gone_card = parse_card(event.card)
    return _set(
        state,
        hands=_put(state.hands, seat, _without(state.hands[seat], gone_card)),
        pile=(*state.pile, gone_card),
        to_act=_next_unfinished(state.n, state.finished, seat),  # a discard leaves who has finished alone
        drawn=False,
        taken=None,
    )


def _pile_turned_over(state: GiminaiciaiState, event: DiscardPileTurnedOver) -> GiminaiciaiState:
    return _set(state, stock=state.pile, pile=(), turn_overs=state.turn_overs + 1)


def _hand_laid_down(state: GiminaiciaiState, event: HandLaidDown) -> GiminaiciaiState:
    seat, extra, discard = event.seat, event.extra_cards, event.discard
    pile = state.pile[: len(state.pile) - len(extra)]
    if discard is not None:
        pile = (*pile, parse_card(discard))
    laid = tuple(parse_cards(g) for g in event.groups)
    return _set(
        state,
        hands=_put(state.hands, seat, ()),
        pile=pile,
        laid=_put(state.laid, seat, laid),
        turn_overs=0,
        pile_draws=0,
    )


def _points_scored(state: GiminaiciaiState, event: PointsScored) -> GiminaiciaiState:
    seat = event.seat
    return _set(state, hand_points=_put(state.hand_points, seat, state.hand_points[seat] + event.points))


def _player_finished(state: GiminaiciaiState, event: PlayerFinished) -> GiminaiciaiState:
    finished = (*state.finished, event.seat)
    return _set(
        state, finished=finished, drawn=False, taken=None, to_act=_next_unfinished(state.n, finished, event.seat)
    )


def _cards_dealt(state: GiminaiciaiState, event: CardsDealt) -> GiminaiciaiState:
    dealt = parse_cards(event.cards)
    gone = set(dealt)
    return _set(state, hands=_put(state.hands, event.seat, dealt), stock=tuple(c for c in state.stock if c not in gone))


def _starter_turned(state: GiminaiciaiState, event: StarterTurned) -> GiminaiciaiState:
    starter = parse_card(event.card)
    return _set(state, stock=tuple(c for c in state.stock if c != starter), pile=(starter,))


def _hand_started(state: GiminaiciaiState, event: HandStarted) -> GiminaiciaiState:
    order = parse_cards(event.deck)
    n = state.n
    return _set(
        state,
        phase=PLAY,
        hand_no=event.hand_no,
        dealer=event.dealer,
        seed=event.seed,
        deck=order,
        commitment=event.commitment,
        explicit_deal=event.explicit_deal,
        hands=((),) * n,
        stock=order,
        pile=(),
        turn_overs=0,
        pile_draws=0,
        to_act=event.first_to_act,
        drawn=False,
        taken=None,
        finished=(),
        laid=((),) * n,
        hand_points=(0,) * n,
    )


def _hand_ended(state: GiminaiciaiState, event: HandEnded) -> GiminaiciaiState:
    return _set(state, phase=HAND_OVER, totals=tuple(event.totals), last=event, to_act=None, drawn=False)


def _match_ended(state: GiminaiciaiState, event: MatchEnded) -> GiminaiciaiState:
    return _set(state, phase=MATCH_OVER, winner=event.winner, to_act=None)


def _match_started(state: GiminaiciaiState, event: MatchStarted) -> GiminaiciaiState:
    return _set(state, match_started=True)


_EVOLVE: Mapping[type, Callable[[GiminaiciaiState, Any], GiminaiciaiState]] = {
    CardDrawn: _card_drawn,
    CardDiscarded: _card_discarded,
    DiscardPileTurnedOver: _pile_turned_over,
    HandLaidDown: _hand_laid_down,
    PointsScored: _points_scored,
    PlayerFinished: _player_finished,
    CardsDealt: _cards_dealt,
    StarterTurned: _starter_turned,
    HandStarted: _hand_started,
    HandEnded: _hand_ended,
    MatchEnded: _match_ended,
    MatchStarted: _match_started,
}
"""How each event applies, by class (``ShuffleRevealed`` changes nothing)."""


# --------------------------------------------------------------------------- refusals


def _where(state: GiminaiciaiState) -> str:
    return f"(giminaiciai, hand {state.hand_no}, phase {state.phase.value}, to act {state.to_act})"


def _reject(state: GiminaiciaiState, reason: str, rule: str, message: str) -> CommandRejected:
    """A refusal naming its reason code, rule and the input (STYLE habit 5)."""
    return CommandRejected(reason, rule, f"{message} {_where(state)}")


def _common(state: GiminaiciaiState, seat: int, what: str) -> None:
    """``hand_over`` (no hand in progress, R8.1), ``not_your_turn`` (R4.1, R4.8).

    Raises:
        CommandRejected: the first that applies.
    """
    if state.phase is not Phase.PLAY:
        raise _reject(state, "hand_over", "R8.1", f"{what} by seat {seat}: no hand is in progress")
    if seat != state.to_act:
        raise _reject(state, "not_your_turn", "R4.8", f"{what} by seat {seat}: seat {state.to_act} is to act")


def _check_draw(state: GiminaiciaiState, cmd: Draw) -> None:
    """R4.2, R4.6-R4.8: ``already_drawn``, ``empty_pile``."""
    what = f"draw from the {cmd.source}"
    _common(state, cmd.seat, what)
    if state.drawn:
        raise _reject(state, "already_drawn", "R4.8", f"{what} by seat {cmd.seat}: he has drawn this turn")
    if cmd.source == "discard" and not state.pile:
        raise _reject(state, "empty_pile", "R4.2", f"{what} by seat {cmd.seat}: the discard pile is empty")
    if cmd.source == "stock" and not state.stock and not state.pile:
        raise _reject(
            state, "empty_pile", "R4.7", f"{what} by seat {cmd.seat}: the stock and the discard pile are empty"
        )


def _check_discard(state: GiminaiciaiState, cmd: Discard) -> None:
    """R4.4, R4.5, R4.8: ``must_draw_first``, ``card_not_in_hand``, ``cannot_discard_taken_card``."""
    seat, card = cmd.seat, cmd.card
    what = f"discard {card.code!r}"
    _common(state, seat, what)
    if not state.drawn:
        raise _reject(state, "must_draw_first", "R4.8", f"{what} by seat {seat}: he must draw first")
    if card not in state.hands[seat]:
        raise _reject(state, "card_not_in_hand", "R4.4", f"{what} by seat {seat}: {card.code!r} is not in his hand")
    if card == state.taken:
        raise _reject(
            state,
            "cannot_discard_taken_card",
            "R4.5",
            f"{what} by seat {seat}: {card.code!r} was taken from the discard pile this turn",
        )


def _describe_lay_down(cmd: LayDown) -> str:
    groups = " | ".join(" ".join(c.code for c in g) for g in cmd.groups)
    out = f"lay_down [{groups}]"
    if cmd.discard is not None:
        out += f" discard {cmd.discard.code!r}"
    return out + f" extra {cmd.extra}"


def _check_lay_down(state: GiminaiciaiState, cmd: LayDown) -> None:
    """R5.1-R5.6, R6: the codes of R11.3 (see :func:`~trapoula.domain.games.giminaiciai.laying.check_lay_down`)."""
    seat = cmd.seat
    what = _describe_lay_down(cmd)
    _common(state, seat, what)
    if not state.drawn:
        raise _reject(state, "must_draw_first", "R4.8", f"{what} by seat {seat}: he must draw first")
    refusal = check_lay_down(state.hands[seat], state.taken, state.pile, cmd.groups, cmd.discard, cmd.extra)
    if refusal is not None:
        raise _reject(state, refusal.reason, refusal.rule, f"{what} by seat {seat}: {refusal.message}")


# --------------------------------------------------------------------------- decide


def _taken_points(acc: Acc[GiminaiciaiState], cards: int) -> None:
    """R7.3: one point per card taken for every player who finished before this turn began."""
    for seat in acc.state.finished:
        acc.emit(PointsScored(seat=seat, points=cards, reason="card_taken"))


def _end_of_turn(acc: Acc[GiminaiciaiState]) -> None:
    """R8.1, R4.7/R8.2, R8.4, R8.3, R9: end the hand when everybody has finished, when the next
    turn would start with both piles empty, or when it would start after :data:`STALL_TURN_OVERS`
    turn-overs of the pile, or after :data:`STALL_PILE_DRAWS_PER_PLAYER` x n draws in a row from the
    pile, with no lay-down in between (``stalled``, scored as R8.2); then reveal the
    deck and end the match when one player alone leads with at least the target."""
    st = acc.state
    if len(st.finished) == st.n:
        reason = "all_finished"
    elif not st.stock and not st.pile:
        reason = "piles_exhausted"
    elif st.turn_overs >= STALL_TURN_OVERS or st.pile_draws >= STALL_PILE_DRAWS_PER_PLAYER * st.n:
        reason = "stalled"
    else:
        return
    totals = tuple(t + p for t, p in zip(st.totals, st.hand_points, strict=True))
    acc.emit(
        HandEnded(
            hand_no=st.hand_no,
            reason=reason,
            winner=st.finished[0] if st.finished else None,
            hand_points=st.hand_points,
            totals=totals,
            remaining=tuple(codes(sorted_cards(h)) for h in st.hands),
        )
    )
    acc.emit(ShuffleRevealed(hand_no=st.hand_no, deck=codes(st.deck), salt=st.seed or ""))
    leader = sole_leader(totals, st.options.target_score)  # R9.1, R9.2
    if leader is not None:
        acc.emit(MatchEnded(winner=leader, totals=totals))


def _decide_draw(state: GiminaiciaiState, cmd: Draw) -> tuple[Event, ...]:
    if not is_listed(state, cmd):
        _check_draw(state, cmd)
    acc = Acc(state, evolve)
    if cmd.source == "discard":
        acc.emit(CardDrawn(seat=cmd.seat, source="discard", card=state.pile[-1].code, stock_card=None))
    else:
        if not state.stock:  # R4.6
            size = len(state.pile)
            acc.emit(DiscardPileTurnedOver(seat=cmd.seat, count=size, stock_size=size))
        acc.emit(CardDrawn(seat=cmd.seat, source="stock", card=None, stock_card=acc.state.stock[0].code))
    _taken_points(acc, 1)
    return tuple(acc.events)


def _decide_discard(state: GiminaiciaiState, cmd: Discard) -> tuple[Event, ...]:
    """R4.4; the end of a stalled hand (R8.4)."""
    if not is_listed(state, cmd):
        _check_discard(state, cmd)
    acc = Acc(state, evolve)
    acc.emit(CardDiscarded(seat=cmd.seat, card=cmd.card.code))
    _end_of_turn(acc)
    return tuple(acc.events)


def _decide_lay_down(state: GiminaiciaiState, cmd: LayDown) -> tuple[Event, ...]:
    if not is_listed(state, cmd):
        _check_lay_down(state, cmd)
    seat = cmd.seat
    acc = Acc(state, evolve)
    extra_cards = tuple(reversed(state.pile))[: cmd.extra]
    laid = sum(len(g) for g in cmd.groups)
    acc.emit(
        HandLaidDown(
            seat=seat,
            groups=tuple(codes(g) for g in cmd.groups),
            extra_cards=codes(extra_cards),
            discard=cmd.discard.code if cmd.discard is not None else None,
            cards_laid=laid,
        )
    )
    if cmd.extra:
        _taken_points(acc, cmd.extra)  # R7.3
    if not state.finished:  # R7.1
        acc.emit(PointsScored(seat=seat, points=FIRST_FINISH_BONUS, reason="finishing_bonus"))
    bonus = extra_card_bonus(laid)  # R7.2
    if bonus:
        acc.emit(PointsScored(seat=seat, points=bonus, reason="extra_card_bonus"))
    acc.emit(PlayerFinished(seat=seat, place=len(state.finished) + 1))
    _end_of_turn(acc)
    return tuple(acc.events)


def _decide_next_hand(state: GiminaiciaiState, cmd: NextHand) -> tuple[Event, ...]:
    """R3.1-R3.6, R11.4: the commitment, the deal, the starter."""
    if state.phase is Phase.MATCH_OVER:
        raise _reject(state, "match_over", "R9.1", "next_hand: the match is over")
    if state.phase is Phase.PLAY:
        raise _reject(state, "hand_in_progress", "R8.3", f"next_hand: hand {state.hand_no} is still in progress")
    order = tuple(cmd.deal.order)
    if len(order) != len(DECK) or frozenset(order) != _DECK_SET:
        raise _reject(state, "bad_deal", "R3.8", "next_hand: the deal is not exactly the 52-card deck (R2.1)")
    acc = Acc(state, evolve)
    dealer = upcoming_dealer(state)
    n = state.n
    if not state.match_started:
        acc.emit(MatchStarted.of(state.config, state.options.to_dict(), dealer, state.totals))
    acc.emit(
        HandStarted(
            hand_no=state.hand_no + 1,
            dealer=dealer,
            first_to_act=(dealer + 1) % n,
            explicit_deal=cmd.deal.explicit,
            commitment=commitment(cmd.deal.seed, order),
            seed=cmd.deal.seed,
            deck=codes(order),
        )
    )
    hands, starter, _ = deal_hands(order, dealer, n)
    for p in range(n):  # R3.3: from the player after the dealer round to the dealer
        seat = (dealer + 1 + p) % n
        acc.emit(CardsDealt(seat=seat, cards=codes(hands[seat]), count=HAND_SIZE))
    acc.emit(StarterTurned(card=starter.code))
    return tuple(acc.events)


decide: Callable[[GiminaiciaiState, Command], tuple[Event, ...]] = dispatch(
    "giminaiciai",
    {Draw: _decide_draw, Discard: _decide_discard, LayDown: _decide_lay_down, NextHand: _decide_next_hand},
)
"""Validate ``command`` against ``state`` and return the events it causes (section 8).

Raises:
    CommandRejected: the rules refuse the command; ``reason`` and ``rule`` name why (section 8).
"""


# --------------------------------------------------------------------------- legal commands


def legal_commands(state: GiminaiciaiState, seat: int) -> tuple[Command, ...]:
    """Every command ``seat`` may issue now (section 8), agreeing with ``decide``.

    Before the draw: ``draw`` from the stock (also when it is empty and the pile can be turned over,
    R4.6) and from the discard pile when it is not empty (R4.2).  After the draw: ``discard`` of each
    card but the one taken from the pile this turn (R4.4, R4.5), in canonical card order, then every
    legal lay-down in canonical form (:func:`~trapoula.domain.games.giminaiciai.laying.lay_downs`);
    ``decide`` also accepts the same lay-down with its groups or cards in another order.
    """
    if seat != state.to_act or state.phase is not PLAY:
        return ()
    try:
        legal: tuple[Command, ...] | None = state.memo
    except AttributeError:  # a state made by its constructor
        legal = None
    if legal is None:
        legal = _legal(state, seat)
        object.__setattr__(state, "memo", legal)  # the memo slot (frozen.Memo)
    return legal


def _legal(state: GiminaiciaiState, seat: int) -> tuple[Command, ...]:
    """:func:`legal_commands` worked out for the seat to act."""
    if not state.drawn:
        out: list[Command] = []
        if state.stock or state.pile:
            out.append(Draw(seat, "stock"))
        if state.pile:
            out.append(Draw(seat, "discard"))
        return tuple(out)
    hand = state.hands[seat]
    discards: list[Command] = [Discard(seat, c) for c in sorted_cards(hand) if c != state.taken]
    downs = [LayDown(seat, o.groups, o.discard, o.extra) for o in lay_downs(hand, state.taken, state.pile)]
    return (*discards, *downs)


def acting(state: GiminaiciaiState) -> tuple[int, ...]:
    """The one seat the match waits for during a hand (R4.1); nobody between hands."""
    to_act = state.to_act
    return (to_act,) if to_act is not None and state.phase is PLAY else ()


hand_in_progress = PHASES.hand_in_progress

# --------------------------------------------------------------------------- deals and audit


def deck(state: GiminaiciaiState) -> tuple[Card, ...]:
    """Giminaičiai's deck: the 52 cards (R2.1), canonical order."""
    return DECK


_bad_deal = deal_refusal("giminaiciai", EXPLICIT_DEAL_RULE)


def explicit_deal(state: GiminaiciaiState, raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"deck": [52 codes, top first]}`` or from ``{"hands": [[7
    codes] per seat], "starter": code, "stock": [codes, top first]}`` (R3.8), with an optional
    ``"dealer"`` that must be the next hand's dealer (:func:`upcoming_dealer`, R3.1, R3.7).

    With hands, the deck order is that of R3.6 (section 9): hands interleaved one card at a time as
    listed, from the player after the dealer; then the starter; then the stock.

    Raises:
        InvalidInput: unknown fields, lists of the wrong size, codes that do not parse, a dealer that is
            not the next hand's, or cards that are not exactly the 52-card deck (``bad_deal``).
    """
    n = state.n
    dealer = upcoming_dealer(state)
    keys = deal_fields(raw, dealer, _bad_deal)
    if keys == {"deck"}:
        order = deal_cards(raw["deck"], "deck", len(DECK), _bad_deal)
    elif keys == {"hands", "starter", "stock"}:
        dealt = hands_in_deal_order(raw["hands"], n, HAND_SIZE, dealer, _bad_deal)
        starter = deal_cards([raw["starter"]], "starter", 1, _bad_deal)
        stock = deal_cards(raw["stock"], "stock", len(DECK) - HAND_SIZE * n - 1, _bad_deal)
        order = (*dealt, *starter, *stock)
    else:
        raise _bad_deal(f"expected 'deck', or 'hands', 'starter' and 'stock', not {sorted(map(str, raw))}")
    check_whole_deck(order, DECK, _bad_deal)
    return Deal(order=tuple(order), seed=None)


def command_for(state: GiminaiciaiState, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, or None (section 8).

    ``MatchStarted`` and ``HandStarted`` open the table's ``next_hand``; ``DiscardPileTurnedOver``, and
    a ``CardDrawn`` that does not follow one, a ``draw``; ``CardDiscarded`` a ``discard`` (whose events
    end with ``HandEnded`` ``stalled`` when it ends a stalled hand, R8.4); ``HandLaidDown`` a
    ``lay_down`` (its groups as recorded, ``extra`` the number of extra cards).
    """
    deal = table_deal(events, i)
    if deal is not None:
        return NextHand(deal)
    event = events[i]
    match event:
        case DiscardPileTurnedOver(seat=seat):
            return Draw(seat, "stock")
        case CardDrawn(seat=seat, source=source):
            if i > 0 and isinstance(events[i - 1], DiscardPileTurnedOver):
                return None
            return Draw(seat, source)
        case CardDiscarded(seat=seat, card=code):
            return Discard(seat, parse_card(code))
        case HandLaidDown(seat=seat, groups=groups, extra_cards=extra, discard=discard):
            return LayDown(
                seat,
                tuple(parse_cards(g) for g in groups),
                parse_card(discard) if discard is not None else None,
                len(extra),
            )
    return None


def option_defaults() -> dict[str, Any]:
    """Every option with its default (section 7)."""
    return GiminaiciaiOptions().to_dict()
