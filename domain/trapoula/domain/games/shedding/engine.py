"""The mechanics every shedding game shares (docs/rules/shedding-common.md, S1-S14), written once.

A game supplies a :class:`ShedRules` (the S1.2 parameters it needs: deck, hand size, reshuffle
policy, its ``evolve`` and how to rebuild its commands from events) and a state subclassing
:class:`~trapoula.domain.games.shedding.state.ShedState`.  It keeps its own legality checks,
special cards, options and scoring, and calls these helpers for the rest:

- :func:`replace`, :func:`replace_hand`, :func:`remove_cards`, :func:`without`: building states;
- :func:`evolve_common`: applying the common events (S12) to the common fields;
- :class:`Acc` (:mod:`~trapoula.domain.games.rulekit`): events decided so far, with the state they lead to;
- :func:`draw`: drawing with the game's reshuffles (S7, S8);
- :func:`start_hand`: ``MatchStarted``, ``HandStarted`` and the deal one card at a time (S5.2),
  vacant seats passed over (S3.2);
- :func:`next_dealer`, :func:`first_player`: who deals and who starts (S3.3, ``mau_mau`` R3.2);
- :func:`explicit_deal`: the deck order an explicit deal stands for (S5.3);
- :func:`end_hand`: ``HandEnded`` and ``SeedRevealed`` (S10.5);
- :func:`join`, :func:`leave`, :func:`join_seat`: seat changes during a match, for the games whose
  rules allow them (``mau_mau`` R6.9, R6.10): ``PlayerJoined``, ``PlayerLeft`` (a leaver's cards go
  beneath the stock in an order drawn like a reshuffle's);
- :func:`command_for`: the command behind the common events (audit, S11).

Games without seat changes see none of it: every seat is seated, so the deal, the dealer and the
turn order are the plain clockwise ones.
"""

from __future__ import annotations

import enum
from bisect import bisect, insort
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import filterfalse
from operator import attrgetter
from typing import Any, Generic, TypeVar

from trapoula.domain.cards import CARDS, SUITS, Card, cards_of, codes, parse_card, parse_cards, sorted_cards
from trapoula.domain.deal import Deal, deck_hash, reshuffle_label, shuffle
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event
from trapoula.domain.games.frozen import applier, known_setter, replace_fields, set_fields
from trapoula.domain.games.rulekit import Acc as Acc  # the accumulator every decider shares
from trapoula.domain.games.rulekit import Decision as Decision
from trapoula.domain.games.rulekit import dispatch
from trapoula.domain.games.shedding.commands import Draw, NextHand, Pass
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    CardsDealt,
    CardsDrawn,
    DirectionReversed,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    PlayerEliminated,
    PlayerJoined,
    PlayerLeft,
    SeedRevealed,
    StarterTurned,
    StockReshuffled,
    TurnStarted,
)
from trapoula.domain.games.shedding.state import HAND_OVER, MATCH_OVER, NEW, PLAYING, Phase, ShedState

S = TypeVar("S", bound=ShedState)
_INDEX = attrgetter("index")
"""A card's canonical position (S2.3)."""
C = TypeVar("C")


class Reshuffle(enum.Enum):
    """When a game reshuffles the discard pile under the stock (S8.2)."""

    LOW_STOCK = "low_stock"
    """``agonia``: after a draw that leaves one card in the stock, and when the stock is empty."""
    WHEN_EMPTY = "when_empty"
    """``mau_mau``: only when a card must be drawn while the stock is empty."""
    NEVER = "never"
    """``crazy_eights``: never."""


@dataclass(frozen=True, slots=True)
class ShedRules(Generic[S, C]):
    """What a shedding game supplies to the engine (the S1.2 parameters it needs).

    ``S`` is the game's state type, ``C`` its command type.
    """

    game: str
    """The game's key (``MatchStarted.game``)."""
    deck: tuple[Card, ...]
    """The whole deck (S2.2); an explicit deal must hold exactly these cards."""
    deck_name: str
    """How refusals name the deck, e.g. ``"one 52-card deck"``."""
    hand_size: Callable[[int], int]
    """Cards dealt to each player, given the number of players in the hand (S5.2)."""
    hand_size_rule: str
    """The game's rule number for the hand size (cited by ``bad_deal``)."""
    reshuffle: Reshuffle
    """S8.2."""
    evolve: Callable[[S, Event], S]
    """The game's whole ``evolve`` (the accumulator applies every event through it)."""
    penalty_reasons: frozenset[str]
    """``CardsDrawn`` reasons that take the pending draw (S9.2, S10.3)."""
    play_command: Callable[[CardPlayed], C]
    """The ``play`` command a ``CardPlayed`` came from (the other common commands, ``draw``,
    ``pass`` and ``next_hand``, are the same in every shedding game: :mod:`.commands`)."""
    empty_penalty_idles: bool = False
    """True in a game where a penalty (``CardsDrawn`` of reason ``penalty``) taken at the start of a
    turn with no card to draw counts as a turn without a card played or drawn, towards a blocked
    hand (S10.4; ``crazy_eights`` R6.2, where a penalty is always drawn as a whole turn)."""


COMMAND_REASONS = frozenset({"draw", "penalty"})
"""``CardsDrawn`` reasons that a ``draw`` command caused (S11)."""


def reject(reason: str, rule: str, message: str) -> CommandRejected:
    """A refusal naming its reason code and rule number (S11)."""
    return CommandRejected(reason, rule, message)


# --------------------------------------------------------------------------- building states


def replace_hand(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """``hands`` with ``seat``'s hand replaced by ``hand``."""
    return (*hands[:seat], hand, *hands[seat + 1 :])


def remove_cards(cards: tuple[Card, ...], taken: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` less one copy of each card of ``taken``, order kept (multiset difference, S2.2):
    the first copies go, as a player takes a card from his hand.

    >>> codes(remove_cards(parse_cards("7H 2C 7H 9S"), parse_cards("7H 9S")))
    ('2C', '7H')
    """
    gone = set(taken)
    if len(gone) == len(taken):  # the usual case: each taken card once in ``cards``, filtered at once
        kept = tuple(filterfalse(gone.__contains__, cards))
        if len(kept) + len(taken) == len(cards):
            return kept
    out = list(cards)
    for card in taken:
        if card in out:
            out.remove(card)
    return tuple(out)


def without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` less its first copy of ``card`` (which must be in it)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def replace(state: S, **changes: Any) -> S:
    """``dataclasses.replace`` without re-running ``__init__`` (the hot path of every simulation;
    :func:`~trapoula.domain.games.frozen.replace_fields`)."""
    return replace_fields(state, changes)


_Changes = tuple[tuple[str, ...], tuple[Any, ...]]
"""The fields a common event changes: their names (one constant tuple per kind of change, which
picks the copying function, :func:`~trapoula.domain.games.frozen.set_fields`) and new values."""

_PLAYED = ("hands", "discard", "active_suit", "pending_draw", "turn_active", "idle_turns")
_DRAWN = ("hands", "stock", "drawn", "pending_draw", "turn_active", "idle_turns")
_TURN = ("to_act", "drawn", "turn_active")
_IDLE = ("idle_turns",)
_RESHUFFLED = ("stock", "discard", "reshuffle_orders")
_DIRECTION = ("direction",)
_TURNED = ("stock", "discard", "active_suit", "pending_draw")
_DEALT = ("hands", "stock")
_STARTED = (
    "phase",
    "hand_no",
    "dealer",
    "first_player",
    "hands",
    "stock",
    "discard",
    "active_suit",
    "pending_draw",
    "to_act",
    "direction",
    "vacant",
    "drawn",
    "turn_active",
    "idle_turns",
    "seed",
    "reshuffle_seed",
    "explicit_reshuffles",
    "reshuffle_orders",
    "commitment",
    "explicit_deal",
)
_ENDED = ("phase", "totals", "last_winner", "to_act", "last_hand_points", "last_hands", "last_reason")
_OVER = ("phase", "match_winner", "totals")
_MATCH = ("names", "bots", "match_started")
_LEFT = ("left",)
_LEFT_HAND = ("left", "vacant", "hands", "stock", "reshuffle_orders", "pending_draw")
_ELIMINATED = ("eliminated",)
_NOTHING: _Changes = ((), ())

_card_at = CARDS.__getitem__  # evolve trusts its events: a code is a card


def _card_played(state: ShedState, event: CardPlayed, rules: ShedRules[Any, Any]) -> _Changes:
    seat = event.seat
    card = _card_at(event.card)
    hands = state.hands
    hand = hands[seat]
    i = hand.index(card)
    return _PLAYED, (
        (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :]),
        (*state.discard, card),
        SUITS[event.active_suit],
        event.pending_draw,
        True,
        0,
    )


def _cards_drawn(state: ShedState, event: CardsDrawn, rules: ShedRules[Any, Any]) -> _Changes:
    seat, reason = event.seat, event.reason
    cards = cards_of(event.cards)
    hands = state.hands
    if len(cards) == 1:  # the usual draw: the card put in its place (a hand is in canonical order, S2.3)
        held = hands[seat]
        i = bisect(held, cards[0].index, key=_INDEX)
        hand = (*held[:i], cards[0], *held[i:])
    else:
        into = list(hands[seat])
        for card in cards:  # each in its place
            insort(into, card, key=_INDEX)
        hand = tuple(into)
    return _DRAWN, (
        (*hands[:seat], hand, *hands[seat + 1 :]),
        state.stock[len(cards) :],
        state.drawn or reason == "draw",
        0 if reason in rules.penalty_reasons else state.pending_draw,
        state.turn_active or (bool(cards) and seat == state.to_act),
        0
        if cards
        else state.idle_turns + 1
        if rules.empty_penalty_idles and reason == "penalty" and not state.turn_active
        else state.idle_turns,
    )


def _turn_started(state: ShedState, event: TurnStarted, rules: ShedRules[Any, Any]) -> _Changes:
    return _TURN, (event.seat, False, False)


def _passed(state: ShedState, event: Passed, rules: ShedRules[Any, Any]) -> _Changes:
    return _IDLE, (0 if state.turn_active else state.idle_turns + 1,)


def _stock_reshuffled(state: ShedState, event: StockReshuffled, rules: ShedRules[Any, Any]) -> _Changes:
    cards = cards_of(event.order)
    return _RESHUFFLED, (state.stock + cards, state.discard[-1:], (*state.reshuffle_orders, cards))


def _direction_reversed(state: ShedState, event: DirectionReversed, rules: ShedRules[Any, Any]) -> _Changes:
    return _DIRECTION, (event.direction,)


def _starter_turned(state: ShedState, event: StarterTurned, rules: ShedRules[Any, Any]) -> _Changes:
    starter = parse_card(event.card)
    return _TURNED, (
        remove_cards(state.stock, (starter,)),
        (*state.discard, starter),
        SUITS[event.active_suit],
        event.pending_draw,
    )


def _cards_dealt(state: ShedState, event: CardsDealt, rules: ShedRules[Any, Any]) -> _Changes:
    seat = event.seat
    cards = sorted_cards(cards_of(event.cards))  # dealt in canonical order already (S5.2)
    hands = state.hands
    return _DEALT, ((*hands[:seat], cards, *hands[seat + 1 :]), remove_cards(state.stock, cards))


def _hand_started(state: ShedState, event: HandStarted, rules: ShedRules[Any, Any]) -> _Changes:
    deck = cards_of(event.deck)
    return _STARTED, (
        PLAYING,
        event.hand_no,
        event.dealer,
        event.first_player,
        ((),) * state.n,
        deck,  # the deal then takes each hand and the up-card from it (S4.1 holds throughout)
        (),
        None,
        0,
        None,
        1,
        frozenset(range(state.n)) - frozenset(event.seats_in_hand),
        False,
        False,
        0,
        event.seed,
        event.seed if event.seed is not None else deck_hash(deck),
        tuple(cards_of(r) for r in event.reshuffles),
        (),
        event.commitment,
        event.explicit_deal,
    )


def _hand_ended(state: ShedState, event: HandEnded, rules: ShedRules[Any, Any]) -> _Changes:
    return _ENDED, (
        HAND_OVER,
        _kept(state.totals, event.totals),
        event.winner,
        None,
        event.hand_points,
        tuple(cards_of(h) for h in event.hands),
        event.reason,
    )


def _match_ended(state: ShedState, event: MatchEnded, rules: ShedRules[Any, Any]) -> _Changes:
    return _OVER, (MATCH_OVER, event.winner, _kept(state.totals, event.totals))


def _match_started(state: ShedState, event: MatchStarted, rules: ShedRules[Any, Any]) -> _Changes:
    return _MATCH, (event.names, event.bots, True)


def _seed_revealed(state: ShedState, event: SeedRevealed, rules: ShedRules[Any, Any]) -> _Changes:
    return _NOTHING


def _player_left(state: ShedState, event: PlayerLeft, rules: ShedRules[Any, Any]) -> _Changes:
    seat = event.seat
    if not event.during_hand:
        return _LEFT, (state.left | {seat},)
    cards = cards_of(event.order)
    return _LEFT_HAND, (
        state.left | {seat},
        state.vacant | {seat},
        replace_hand(state.hands, seat, ()),
        state.stock + cards,  # beneath the stock, like a reshuffle (R6.10.2, S8.1)
        (*state.reshuffle_orders, cards),
        0 if seat == state.to_act else state.pending_draw,  # it lapses (R6.10.2)
    )


def _player_eliminated(state: ShedState, event: PlayerEliminated, rules: ShedRules[Any, Any]) -> _Changes:
    return _ELIMINATED, (state.eliminated | {event.seat},)


_Handler = Callable[[Any, Any, "ShedRules[Any, Any]"], _Changes]

_COMMON: dict[type, _Handler] = {
    CardPlayed: _card_played,
    CardsDrawn: _cards_drawn,
    TurnStarted: _turn_started,
    Passed: _passed,
    StockReshuffled: _stock_reshuffled,
    DirectionReversed: _direction_reversed,
    StarterTurned: _starter_turned,
    CardsDealt: _cards_dealt,
    HandStarted: _hand_started,
    HandEnded: _hand_ended,
    MatchEnded: _match_ended,
    MatchStarted: _match_started,
    SeedRevealed: _seed_revealed,
    PlayerLeft: _player_left,
    PlayerEliminated: _player_eliminated,
}
"""The field changes of each common event (S12) but ``PlayerJoined``, by event class."""

_HANDLERS: dict[type, _Handler | None] = {}
"""The handler of each event class met so far: its own, or its nearest base class's (a game's
``HandEnded`` is the common one with a field more); None for an event that is not common."""


_NAMES: dict[_Handler, tuple[str, ...]] = {
    _card_played: _PLAYED,
    _cards_drawn: _DRAWN,
    _turn_started: _TURN,
    _passed: _IDLE,
    _stock_reshuffled: _RESHUFFLED,
    _direction_reversed: _DIRECTION,
    _starter_turned: _TURNED,
    _cards_dealt: _DEALT,
    _hand_started: _STARTED,
    _hand_ended: _ENDED,
    _match_ended: _OVER,
    _match_started: _MATCH,
    _seed_revealed: (),
    _player_left: _LEFT_HAND,
    _player_eliminated: _ELIMINATED,
}
"""The names each handler changes in the usual case (:func:`evolvers`)."""


Evolver = Callable[[S, Event], S]
"""Applies one event of a given class to a state (:func:`evolvers`)."""


def evolvers(rules: ShedRules[S, Any], cls: type[S], *events: type[Event]) -> dict[type, Evolver[S]]:
    """For a game whose states are of class ``cls``: event class -> the function that applies a
    common event (S12) of that class as :func:`evolve_common` does, with nothing to merge, in one
    copying step written for the class and the event (:func:`~trapoula.domain.games.frozen.applier`).
    ``events`` adds the game's own classes of common events (a subclass, such as its
    ``HandEnded``), each applied as its nearest common base class is.  ``PlayerJoined`` is not
    among them (:func:`evolve_common` applies it)."""
    table: dict[type, Evolver[S]] = {}
    for event_cls in (*_COMMON, *events):
        handler = _handler(event_cls)
        if handler is not None:
            table[event_cls] = applier(cls, _NAMES[handler], handler, rules)
    return table


def _handler(cls: type) -> _Handler | None:
    """The handler of the event class ``cls`` (:data:`_HANDLERS`), found once along its bases."""
    try:
        return _HANDLERS[cls]
    except KeyError:
        found = next((_COMMON[k] for k in cls.__mro__ if k in _COMMON), None)
        _HANDLERS[cls] = found
        return found


def evolve_common(state: S, event: Event, rules: ShedRules[S, Any], **also: Any) -> S | None:
    """Apply a common event (S12) to the common fields, or None if ``event`` is not one of them.

    A game handles its own events, and its own fields of the common ones, before or after this, or
    passes its own field changes in ``also`` (applied in the same step when the event is a common
    one; the common changes win where both name a field).  ``HandStarted`` resets the common
    per-hand fields; ``StarterTurned`` (put on the discard pile, covering any card turned before
    it, ``mau_mau`` R3.4) leaves ``to_act`` alone.  A total shown as None (a seat that left, R2.5)
    keeps its old value in the state, which no view shows.
    """
    cls = type(event)
    handler = _HANDLERS.get(cls) or _handler(cls)
    if handler is None:
        if isinstance(event, PlayerJoined):
            return _joined(state, event, also)
        return None
    names, values = handler(state, event, rules)
    if also:
        return replace_fields(state, {**also, **dict(zip(names, values, strict=True))})
    if not names:
        return state  # SeedRevealed changes nothing
    setter = known_setter((type(state), names))
    return setter(state, values) if setter is not None else set_fields(state, names, values)


def evolve_also(state: S, event: Event, rules: ShedRules[S, Any], **also: Any) -> S:
    """:func:`evolve_common` of a common event (which it must be) with the game's own field changes
    ``also`` in the same step (a game's ``HandStarted`` resetting its own per-hand fields ...)."""
    changed = evolve_common(state, event, rules, **also)
    assert changed is not None, f"{type(event).__name__} is not a common event"
    return changed


def evolver(
    cls: type[S], own: Mapping[type, Callable[[S, Any], S]]
) -> tuple[Callable[[S, Event], S], Callable[[ShedRules[S, Any]], dict[type, Evolver[S]]]]:
    """The ``evolve`` of a game whose states are of class ``cls`` (trusted events, no validation,
    STYLE habit 1), and the function that completes it once the game's :class:`ShedRules` are made
    (they name the ``evolve``).

    The ``evolve`` applies an event of a class in ``own`` (the game's own events, and the common
    ones whose effect differs or adds to the common one there) by its function there; a common
    event (S12) by the copying step :func:`evolvers` writes for ``cls``; any other through
    :func:`evolve_common` (``PlayerJoined``), an event that is none of these leaving the state as
    it is.  ``complete(rules)`` sets it up and returns the common copying steps (a function of
    ``own`` may build on one)."""
    table: dict[type, Evolver[S]] = dict(own)
    common: list[ShedRules[S, Any]] = []
    lookup = table.get

    def evolve(state: S, event: Event) -> S:
        apply = lookup(type(event))
        if apply is not None:
            return apply(state, event)
        changed = evolve_common(state, event, common[0])
        return state if changed is None else changed

    def complete(rules: ShedRules[S, Any]) -> dict[type, Evolver[S]]:
        steps = evolvers(rules, cls)
        common[:] = [rules]
        table.clear()
        table.update(steps)
        table.update(own)
        return steps

    return evolve, complete


def _kept(old: tuple[int, ...], shown: Sequence[int | None]) -> tuple[int, ...]:
    """Totals from an event, a hidden (None) one keeping its old value (R2.5)."""
    return tuple(old[i] if t is None else t for i, t in enumerate(shown))


def _joined(state: S, event: PlayerJoined, also: Mapping[str, Any]) -> S:
    """A player takes ``event.seat`` (R6.9): a new seat number grows every per-seat tuple; the seat
    takes no part in the hand that has just ended (S3.2), so its view shows no cards."""
    seat, n = event.seat, max(state.n, event.seat + 1)

    def put(values: tuple[Any, ...], value: Any, fill: Any) -> tuple[Any, ...]:
        padded = (*values, *(fill,) * (n - len(values)))
        return (*padded[:seat], value, *padded[seat + 1 :])

    return replace(
        state,
        n=n,
        names=put(state.names, event.name, ""),
        bots=put(state.bots, event.computer, None),
        totals=put(state.totals, event.total, 0),
        hands=(*state.hands, *((),) * (n - len(state.hands))) if state.hands else state.hands,
        vacant=state.vacant | {seat},
        left=state.left - {seat},
        eliminated=state.eliminated - {seat},
        **also,
    )


# --------------------------------------------------------------------------- deciding


_TURNS: dict[int, TurnStarted] = {}
_PASSES: dict[int, Passed] = {}


def turn_started(seat: int) -> TurnStarted:
    """``TurnStarted(seat=seat)``: one shared object per seat (an event is an immutable value, and
    ``decide`` ends most commands with one)."""
    event = _TURNS.get(seat)
    if event is None:
        event = _TURNS[seat] = TurnStarted(seat=seat)
    return event


def passed(seat: int) -> Passed:
    """``Passed(seat=seat)``: one shared object per seat (:func:`turn_started`)."""
    event = _PASSES.get(seat)
    if event is None:
        event = _PASSES[seat] = Passed(seat=seat)
    return event


def can_draw(state: ShedState, rules: ShedRules[Any, Any]) -> bool:
    """True if a card can be drawn now, reshuffling if the game does (S7.3)."""
    if rules.reshuffle is Reshuffle.NEVER:
        return bool(state.stock)
    return state.can_draw()


def reshuffle_order(
    state: ShedState, k: int, cards: Sequence[Card], what: str = "the discard pile"
) -> tuple[Card, ...]:
    """The order of the ``k``-th reshuffle of the hand of ``cards`` (S8.5); ``what`` names the
    cards in a refusal (a leaver's cards take a reshuffle's place, ``mau_mau`` R6.10.2).

    Raises:
        CommandRejected: an explicit reshuffle order is not a permutation of ``cards`` (``bad_deal``).
    """
    if state.explicit_deal and k <= len(state.explicit_reshuffles):
        given = state.explicit_reshuffles[k - 1]
        if Counter(given) != Counter(cards):
            raise reject(
                "bad_deal",
                "S8.5",
                f"explicit reshuffle {k} {' '.join(codes(given))!r} is not a permutation of {what} "
                f"{' '.join(codes(cards))!r}",
            )
        return given
    return shuffle(cards, state.reshuffle_seed, reshuffle_label(k))


def draw(acc: Acc[S], rules: ShedRules[S, Any], seat: int, count: int, reason: str) -> None:
    """Draw ``count`` cards for ``seat`` with the game's reshuffles (S8; S7.3: what can be had).

    Emits one ``CardsDrawn`` (possibly of fewer cards), preceded by a ``StockReshuffled`` whose cards
    it draws from, or followed by one that only refills the stock.

    Raises:
        CommandRejected: an explicit reshuffle order does not fit (``bad_deal``, S8.5).
    """
    st = acc.state
    policy = rules.reshuffle
    stock = list(st.stock)
    discard = list(st.discard)
    k = len(st.reshuffle_orders)
    drawn: list[Card] = []
    reshuffle: tuple[int, StockReshuffled] | None = None

    def do_reshuffle() -> None:
        nonlocal reshuffle, discard, k
        if len(discard) <= 1:  # S8.3: nothing to reshuffle
            return
        k += 1
        order = reshuffle_order(st, k, discard[:-1])
        stock.extend(order)
        discard = discard[-1:]
        reshuffle = (len(drawn), StockReshuffled(k=k, count=len(order), order=codes(order)))

    reshuffles = policy is not Reshuffle.NEVER
    low_stock = policy is Reshuffle.LOW_STOCK
    for _ in range(count):
        if not stock:
            if reshuffles:
                do_reshuffle()
            if not stock:
                break
        drawn.append(stock.pop(0))
        if low_stock and len(stock) == 1:
            do_reshuffle()
    event = CardsDrawn(seat=seat, cards=codes(drawn), count=len(drawn), reason=reason)
    if reshuffle is not None and reshuffle[0] < len(drawn):
        acc.emit(reshuffle[1])  # beneath the stock: the same cards are drawn (S8.1)
        acc.emit(event)
    else:
        acc.emit(event)
        if reshuffle is not None:
            acc.emit(reshuffle[1])


# --------------------------------------------------------------------------- commands


decider = dispatch
"""A game's ``decide`` from its command classes (:func:`~trapoula.domain.games.rulekit.dispatch`)."""


_set = object.__setattr__


def remember_legal(state: ShedState, legal: tuple[C, ...]) -> tuple[C, ...]:
    """Keep ``legal``, the legal commands of the seat the match waits for, in the memo slot of
    ``state`` (:class:`~trapoula.domain.games.frozen.Memo`: a state never changes, so they stay
    legal); return them.  A game reads them back with ``getattr(state, "memo", None)`` (a state
    made by its constructor has the slot unset) and :func:`is_listed`."""
    _set(state, "memo", legal)
    return legal


def is_listed(state: ShedState, command: Any) -> bool:
    """True when ``command`` is one of the legal commands already worked out for ``state`` (the
    very object the game's ``legal_commands`` listed, :func:`remember_legal`): it is legal, with
    no check to run again."""
    legal = getattr(state, "memo", None)
    if legal is not None:
        for listed in legal:
            if listed is command:
                return True
    return False


# --------------------------------------------------------------------------- dealers and deals


def first_dealer(state: ShedState) -> int:
    """The first hand's dealer: the configured one, else the last configured seat (S3.3)."""
    fd = state.config.first_dealer
    return len(state.config.seats) - 1 if fd is None else fd


def next_dealer(state: ShedState) -> int:
    """The dealer of the next hand (S3.3, ``mau_mau`` R3.2): the first dealer, then the first seat
    clockwise after the previous dealer that takes part in the new hand (every seat with a player).

    Before the first hand a first dealer who has left is replaced the same way, by the first
    seated seat clockwise after him.
    """
    seated = state.seated
    if state.phase is Phase.NEW:
        fd = first_dealer(state)
        return fd if fd in seated else state.seat_after(fd, seated)
    return state.seat_after(state.dealer, seated)


def first_player(state: ShedState, dealer: int) -> int:
    """The player to the dealer's left (S3.3): the first seated seat clockwise after him."""
    return state.seat_after(dealer, state.seated)


def deal_order(state: ShedState, first: int) -> tuple[int, ...]:
    """The seats of the next hand in the order cards go round (S5.2): clockwise from ``first``,
    vacant seats passed over."""
    seated = state.seated
    return tuple(s for s in ((first + j) % state.n for j in range(state.n)) if s in seated)


def ensure_match_started(acc: Acc[S], rules: ShedRules[S, Any], options: Mapping[str, Any]) -> None:
    """Emit ``MatchStarted`` unless it has been (S12): before the first hand, or before a seat
    change that comes first (R6.9, R6.10).  Names and levels come from the state when the game
    filled them in, else from the configuration."""
    state = acc.state
    if state.match_started:
        return
    cfg = state.config
    acc.emit(
        MatchStarted(
            game=rules.game,
            names=state.names or tuple(s.name for s in cfg.seats),
            bots=state.bots or tuple(s.bot for s in cfg.seats),
            options=dict(options),
            first_dealer=first_dealer(state),
            initial_totals=state.totals,
        )
    )


_DECK_ORDERS: dict[tuple[Card, ...], list[int]] = {}


def _deck_order(deck: tuple[Card, ...]) -> list[int]:
    """The sorted canonical indices of ``deck``'s cards: two decks hold the same cards (as many of
    each) when these are equal."""
    order = _DECK_ORDERS.get(deck)
    if order is None:
        order = _DECK_ORDERS[deck] = sorted(map(_INDEX, deck))
    return order


def start_hand(
    acc: Acc[S], rules: ShedRules[S, Any], deal: Deal, options: Mapping[str, Any], dealer: int, first: int
) -> Card:
    """Emit ``MatchStarted`` (before the first hand), ``HandStarted`` and the deal (S5.2).

    Every seated seat takes part (S3.2); cards go one at a time from ``first`` clockwise, vacant
    seats passed over.  Returns the up-card, which the game turns itself (its ``StarterTurned``
    depends on its rules, S5.4).

    Raises:
        CommandRejected: the deal is not exactly the game's deck (``bad_deal``, S5.3).
    """
    if sorted(map(_INDEX, deal.order)) != _deck_order(rules.deck):
        raise reject("bad_deal", "S5.3", f"next_hand: the deal is not exactly {rules.deck_name}")
    ensure_match_started(acc, rules, options)
    state = acc.state
    seats = deal_order(state, first)
    n = len(seats)
    deck = deal.order
    acc.emit(
        HandStarted(
            hand_no=state.hand_no + 1,
            dealer=dealer,
            first_player=first,
            seats_in_hand=tuple(sorted(seats)),
            explicit_deal=deal.explicit,
            commitment=deal.commitment,
            seed=deal.seed,
            deck=codes(deck),
            reshuffles=tuple(codes(r) for r in deal.reshuffles),
        )
    )
    size = rules.hand_size(n)
    for j, seat in enumerate(seats):  # S5.2: one at a time from the first player
        hand = tuple(deck[i * n + j] for i in range(size))
        acc.emit(CardsDealt(seat=seat, cards=codes(sorted_cards(hand)), count=size))
    return deck[n * size]


def _code_list(raw: Any, what: str) -> tuple[Card, ...]:
    if isinstance(raw, str):
        raw = raw.split()
    if not isinstance(raw, list | tuple):
        raise InvalidInput(f"explicit deal: {what} {raw!r} is not a list of card codes (S5.3)", reason="bad_deal")
    return parse_cards(raw)


def explicit_deal(state: ShedState, rules: ShedRules[Any, Any], raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"hands": [[...] per seat], "starter": "7H", "stock": [...],
    "reshuffles": [[...]]}`` (S5.3): the deck order S5.2 would have dealt it from.

    ``hands`` lists every seat number in use; a vacant seat (S3.2) holds ``[]``.

    Raises:
        InvalidInput: malformed codes, a hand of the wrong size, a card for a vacant seat, or cards
            that are not exactly the game's deck (``bad_deal``).
    """
    unknown = set(raw) - {"hands", "starter", "stock", "reshuffles"}
    if unknown:
        raise InvalidInput(f"explicit deal: unknown field(s) {sorted(unknown)} (S5.3)", reason="bad_deal")
    n = state.n
    seats = deal_order(state, first_player(state, next_dealer(state)))
    size = rules.hand_size(len(seats))
    hands_raw = raw.get("hands")
    if not isinstance(hands_raw, list | tuple) or len(hands_raw) != n:
        raise InvalidInput(f"explicit deal: 'hands' must list {n} hands, one per seat (S5.3)", reason="bad_deal")
    hands = [_code_list(h, f"hand {i}") for i, h in enumerate(hands_raw)]
    for i, h in enumerate(hands):
        if i not in seats and h:
            raise InvalidInput(
                f"explicit deal: seat {i} is vacant and must hold no cards, not {len(h)} (S5.3)", "bad_deal"
            )
        if i in seats and len(h) != size:
            raise InvalidInput(
                f"explicit deal: seat {i} holds {len(h)} cards, not {size} ({rules.hand_size_rule}, S5.3)", "bad_deal"
            )
    starter = raw.get("starter")
    if not isinstance(starter, str):
        raise InvalidInput(f"explicit deal: starter {starter!r} is not a card code (S5.3)", reason="bad_deal")
    stock = _code_list(raw.get("stock", []), "stock")
    reshuffles = tuple(_code_list(r, f"reshuffle {i + 1}") for i, r in enumerate(raw.get("reshuffles") or []))
    order: list[Card] = []
    for i in range(size):
        for seat in seats:
            order.append(hands[seat][i])
    order.append(parse_card(starter))
    order.extend(stock)
    counts = Counter(order)
    expected = Counter(rules.deck)
    if counts != expected:
        missing = sorted(c.code for c in expected if counts[c] < expected[c])
        doubled = sorted(c.code for c, k in counts.items() if k > expected[c])
        raise InvalidInput(
            f"explicit deal is not exactly {rules.deck_name}: missing {missing}, repeated {doubled} (S5.3)", "bad_deal"
        )
    return Deal(order=tuple(order), seed=None, reshuffles=reshuffles)


# --------------------------------------------------------------------------- end of a hand, audit


def end_hand(
    acc: Acc[S],
    winner: int | None,
    reason: str,
    points: Sequence[int | None],
    ended: Callable[..., HandEnded] = HandEnded,
    **also: Any,
) -> tuple[int, ...]:
    """Emit ``HandEnded`` (every hand revealed, ``points`` booked) and ``SeedRevealed`` (S10.5).

    ``points`` has one entry per seat, None for a seat that took no part in the hand (R2.5).
    ``HandEnded.totals`` shows None for a seat whose player left (R2.5).  A game whose
    ``HandEnded`` has fields of its own gives its class as ``ended`` and those fields in ``also``.
    Returns the new totals (every seat's, as the state keeps them); whether the match ends is the
    game's decision.
    """
    st = acc.state
    totals = tuple(t + (p or 0) for t, p in zip(st.totals, points, strict=True))
    acc.emit(
        ended(
            reason=reason,
            winner=winner,
            hands=tuple(codes(sorted_cards(h)) for h in st.hands),
            hand_points=tuple(points),
            totals=shown_totals(st, totals),
            **also,
        )
    )
    acc.emit(SeedRevealed(seed=st.seed, reshuffle_orders=tuple(codes(o) for o in st.reshuffle_orders)))
    return totals


def shown_totals(state: ShedState, totals: Sequence[int]) -> tuple[int | None, ...]:
    """``totals`` as events and views show them: None for a seat whose player left (R2.5, R6.10)."""
    left = state.left
    return tuple(None if s in left else t for s, t in enumerate(totals))


# --------------------------------------------------------------------------- seat changes


def join_seat(state: ShedState, max_players: int) -> int | None:
    """The seat a newcomer takes (R6.9.2): the lowest vacant seat number, else the next new number;
    None when ``max_players`` are seated already."""
    seated = state.seated
    if len(seated) >= max_players:
        return None
    return next((s for s in range(state.n) if s not in seated), state.n)


def join(
    acc: Acc[S],
    rules: ShedRules[S, Any],
    options: Mapping[str, Any],
    name: str,
    computer: str | None,
    max_players: int,
) -> int:
    """Seat a newcomer (R6.9): ``MatchStarted`` if not yet recorded, then ``PlayerJoined``.

    He takes :func:`join_seat` and starts with the lowest (most negative) total among the seated
    players (R6.9.1).  The game checks first that a join is allowed now.  Returns his seat.
    """
    ensure_match_started(acc, rules, options)
    st = acc.state
    seat = join_seat(st, max_players)
    assert seat is not None, "join_seat: the table is full (the game refuses the join first)"
    total = min((st.totals[s] for s in st.seated), default=0)
    acc.emit(PlayerJoined(seat=seat, name=name, computer=computer, total=total))
    return seat


def leave(acc: Acc[S], rules: ShedRules[S, Any], options: Mapping[str, Any], seat: int) -> PlayerLeft:
    """A seated player leaves (R6.10): ``MatchStarted`` if not yet recorded, then ``PlayerLeft``.

    During a hand his cards, in canonical order (S2.3), are put beneath the stock in the order of
    the hand's next reshuffle (S8.5: drawn from the seed, or given by an explicit deal), recorded
    among the reshuffle orders and hidden until the seed is revealed (R6.10.2).  What follows (the
    turn, an abandoned hand, the end of the match) is the game's decision.  Returns the event.

    Raises:
        CommandRejected: an explicit reshuffle order does not fit his cards (``bad_deal``, S8.5).
    """
    ensure_match_started(acc, rules, options)
    st = acc.state
    during = st.phase is Phase.PLAYING
    order: tuple[Card, ...] = ()
    if during:
        order = reshuffle_order(
            st, len(st.reshuffle_orders) + 1, sorted_cards(st.hands[seat]), f"the cards of seat {seat}"
        )
    event = PlayerLeft(seat=seat, during_hand=during, cards_to_stock=len(order), order=codes(order))
    acc.emit(event)
    return event


def next_hand_from(event: HandStarted) -> Deal:
    """The deal a ``HandStarted`` dealt (for an audit)."""
    return Deal(
        order=parse_cards(event.deck), seed=event.seed, reshuffles=tuple(parse_cards(r) for r in event.reshuffles)
    )


def command_for(rules: ShedRules[Any, C], events: Sequence[Event], i: int) -> C | Draw | Pass | NextHand | None:
    """For an audit: the common command whose events start at ``events[i]``, or None (S11).

    A game first tries its own events, then calls this.
    """
    event = events[i]
    match event:
        case MatchStarted():
            nxt = events[i + 1] if i + 1 < len(events) else None
            return NextHand(next_hand_from(nxt)) if isinstance(nxt, HandStarted) else None
        case HandStarted():
            return NextHand(next_hand_from(event))
        case CardPlayed():
            return rules.play_command(event)
        case CardsDrawn(seat=seat, reason=reason) if reason in COMMAND_REASONS:
            return Draw(seat)
        case StockReshuffled():  # a reshuffle mid-draw is emitted before the CardsDrawn it feeds
            nxt = events[i + 1] if i + 1 < len(events) else None
            if isinstance(nxt, CardsDrawn) and nxt.reason in COMMAND_REASONS:
                return Draw(nxt.seat)
        case Passed(seat=seat):
            return Pass(seat)
    return None


# --------------------------------------------------------------------------- the match's phase (GameSpec)


def is_terminal(state: ShedState) -> bool:
    """True when the match is over (``GameSpec.is_terminal``; each game's section 6 says when)."""
    return state.phase is MATCH_OVER


def needs_deal(state: ShedState) -> bool:
    """True when the table must issue ``next_hand``: before the first hand and between hands (S10.5)."""
    phase = state.phase
    return phase is NEW or phase is HAND_OVER


def hand_in_progress(state: ShedState) -> bool:
    """True while a hand is being played (its hidden fields stay hidden, S12)."""
    return state.phase is PLAYING


def event_types(*modules: Any) -> dict[str, type[Event]]:
    """Event name -> class of every event class defined in ``modules``, later modules replacing
    earlier ones of the same name (a game's own ``StarterTurned`` over the common one)."""
    out: dict[str, type[Event]] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Event) and value is not Event:
                out[value.event_name()] = value
    return out
