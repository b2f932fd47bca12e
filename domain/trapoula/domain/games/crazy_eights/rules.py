"""Crazy Eights as a decider (docs/rules/crazy_eights.md; shared mechanics docs/rules/shedding-common.md).

``decide`` validates and returns events; ``evolve`` applies one event without checking it;
``legal_commands`` agrees with ``decide``.  Every refusal raises
:class:`~trapoula.domain.errors.CommandRejected` naming its reason code and rule number.  The
common mechanics (the deal, drawing without reshuffles, the common events) come from the shedding
engine; this module holds only what Crazy Eights does differently.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from trapoula.domain.cards import LETTERS, SUIT_ORDER, Card, Rank, Suit, deck_52, parse_card
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.crazy_eights.commands import Command, Draw, NextHand, Pass, Play
from trapoula.domain.games.crazy_eights.events import HandEnded, MatchEnded, StarterBuried
from trapoula.domain.games.crazy_eights.options import CrazyEightsOptions, parse_options
from trapoula.domain.games.crazy_eights.state import CrazyEightsState, Phase
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding.commands import listed_draw, listed_pass, listed_play, play_from
from trapoula.domain.games.shedding.engine import (
    Acc,
    Reshuffle,
    ShedRules,
    is_listed,
    passed,
    reject,
    turn_started,
)
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    CardsDrawn,
    DirectionReversed,
    HandStarted,
    StarterTurned,
    TurnSkipped,
)
from trapoula.domain.games.shedding.state import PLAYING, refusal_context

MIN_PLAYERS, MAX_PLAYERS = 2, 7
"""R2.2."""
MAX_TOTAL = 100_000
"""The largest score a match may be taken up from (initial totals, R6.6)."""

VALUES: Mapping[Rank, int] = {
    **{r: r.face_value for r in (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.NINE)},
    Rank.EIGHT: 50,
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 1,
}
"""Card values (R2.4): each 8 is 50; K, Q, J, T 10; A 1; 2-7 and 9 face value."""

QUEEN_OF_SPADES = parse_card("QS")
"""The card of R5.3."""
EIGHT, TWO, JACK, ACE = Rank.EIGHT, Rank.TWO, Rank.JACK, Rank.ACE
"""The ranks the rules test in their hot paths, as module constants (``Rank.EIGHT`` is a slow
class attribute look-up)."""


def hand_size(players: int) -> int:
    """Cards dealt to each player (R3.2): seven with two players, five with three to seven.

    >>> hand_size(2), hand_size(3), hand_size(7)
    (7, 5, 5)
    """
    return 7 if players == 2 else 5


def hand_value(cards: Sequence[Card]) -> int:
    """The value of some cards (R2.4, R6.2).

    >>> from trapoula.domain.cards import parse_cards
    >>> hand_value(parse_cards("8H KD 3C")), hand_value(parse_cards("AS 9S"))
    (63, 10)
    """
    return sum(VALUES[c.rank] for c in cards)


# --------------------------------------------------------------------------- initial state


def initial_state(config: MatchConfig) -> CrazyEightsState:
    """The state before the first deal (R2.2, R3.1, section 7).

    ``config.initial_totals`` (a match taken up in the middle) must be below the points-game
    target (R6.6: a match where a total reached it is over); the single game books no points and
    keeps them as given (R6.3).

    Raises:
        InvalidInput: wrong number of seats (``bad_seats``), a bad option (``bad_option``), a
            first dealer out of range or initial totals of the wrong length or size (``bad_config``).
    """
    n = len(config.seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput(f"crazy_eights needs 2 to 7 players, got {n} (R2.2)", reason="bad_seats")
    options = parse_options(config.options)
    if config.first_dealer is not None and (isinstance(config.first_dealer, bool) or not 0 <= config.first_dealer < n):
        raise InvalidInput(f"first_dealer {config.first_dealer!r} is not a seat 0..{n - 1} (R3.1)", "bad_config")
    totals = tuple(config.initial_totals) if config.initial_totals is not None else (0,) * n
    top = options.target(n) - 1 if options.scoring == "points" else MAX_TOTAL
    if len(totals) != n or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= top for t in totals):
        raise InvalidInput(
            f"initial totals {str(totals)[:80]}: expected {n} integers from 0 to {top} (R6.6)", "bad_config"
        )
    return CrazyEightsState(config=config, options=options, n=n, totals=totals)


# --------------------------------------------------------------------------- evolve


def _starter_buried(state: CrazyEightsState, event: StarterBuried) -> CrazyEightsState:
    eight = parse_card(event.card)
    cut = event.position + 1
    stock = state.stock
    return engine.replace(state, discard=(), stock=(*stock[:cut], eight, *stock[cut:]), buried=(*state.buried, eight))


evolve, _complete_evolve = engine.evolver(
    CrazyEightsState,
    {
        StarterBuried: _starter_buried,
        HandStarted: lambda state, event: engine.evolve_also(
            state, event, RULES, buried=(), last_hand_values=(), tied=()
        ),
        HandEnded: lambda state, event: engine.evolve_also(state, event, RULES, last_hand_values=event.hand_values),
        MatchEnded: lambda state, event: engine.evolve_also(state, event, RULES, tied=event.tied),
    },
)
"""Apply one event to the state (trusted: no validation, STYLE habit 1): Crazy Eights' own events
and fields here, the common mechanics in the shedding engine (:func:`engine.evolver`).
``StarterBuried`` puts the 8 ``position + 1`` cards down the stock: the top card is turned in its
place next (R3.3).  A penalty draw that gets no card is a turn without a card drawn (R6.2)."""


# --------------------------------------------------------------------------- refusals


Why: TypeAlias = tuple[str, str, str]
"""A refusal before its message is written: (reason code, rule, message template).  The checks
return one, cheaply, so that ``legal_commands`` asks them freely; :func:`_rejected` writes the
message only for a command that is refused."""

_HAND_OVER: Why = ("hand_over", "S11", "{what} by seat {seat}: no hand is in progress")
_NOT_YOUR_TURN: Why = ("not_your_turn", "S3.7", "{what} by seat {seat}: it is seat {to_act}'s turn")
_NOT_IN_HAND: Why = ("card_not_in_hand", "S11", "card {card!r} is not in the hand of seat {seat}")
_SUIT_NOT_ALLOWED: Why = ("suit_not_allowed", "S6.3", "a suit may be named only with an 8, not with {card!r}")
_NO_MATCH: Why = (
    "no_match",
    "R4.1",
    "{card!r} matches neither the rank of {top!r} nor the active suit {active} and is not an 8",
)
_TWOS_PENDING: Why = (
    "penalty_pending",
    "R5.2.3",
    "{what} by seat {seat}: it owes {pending} cards; only a 2 may be played, or draw them",
)
_QUEEN_PENDING: Why = (
    "penalty_pending",
    "R5.3.2",
    "{what} by seat {seat}: it owes {pending} cards for the queen of spades and must draw them",
)
_ALREADY_DRAWN: Why = ("already_drawn", "R4.3", "draw by seat {seat}: it has already drawn a card this turn")
_STOCK_EMPTY: Why = ("stock_empty", "R4.5", "draw by seat {seat}: the stock is empty")
_MUST_PLAY_AFTER_DRAWING: Why = (
    "must_play",
    "R5.6.2",
    "{what} by seat {seat}: it holds a card it can play after drawing and must play",
)
_MUST_PLAY: Why = ("must_play", "R4.4", "pass by seat {seat}: the stock is empty and it holds a card it can play")
_MUST_DRAW: Why = ("must_draw_first", "R4.4", "pass by seat {seat}: it must draw before passing")
_MUST_DRAW_UNTIL: Why = ("must_draw_first", "R5.6.3", "pass by seat {seat}: it must draw until it can play")


def _where(state: CrazyEightsState, seat: int) -> str:
    """The context every refusal message ends with (STYLE habit 5; :func:`refusal_context`)."""
    return refusal_context("crazy_eights", state, seat)


def _rejected(state: CrazyEightsState, seat: int, why: Why, kind: str, card: Card | None = None) -> CommandRejected:
    """The refusal ``why`` of a ``kind`` command by ``seat``, its message naming the input, the game,
    the hand and the seat to act (STYLE habit 5)."""
    reason, rule, template = why
    what = kind if card is None else f"{kind} {card.code!r}"
    where = _where(state, seat)
    if why is _NOT_YOUR_TURN:  # the common refusals first, written directly
        return reject(reason, rule, f"{what} by seat {seat}: it is seat {state.to_act}'s turn {where}")
    if why is _NOT_IN_HAND and card is not None:
        return reject(reason, rule, f"card {card.code!r} is not in the hand of seat {seat} {where}")
    if why is _SUIT_NOT_ALLOWED and card is not None:
        return reject(reason, rule, f"a suit may be named only with an 8, not with {card.code!r} {where}")
    top, active = state.top_card, state.active_suit
    message = template.format(
        what=what,
        seat=seat,
        to_act=state.to_act,
        card=card.code if card is not None else None,
        pending=state.pending_draw,
        top=top.code if top is not None else None,
        active=active.value if active is not None else None,
    )
    return reject(reason, rule, f"{message} {where}")


def _turn_refusal(state: CrazyEightsState, seat: int) -> Why | None:
    if state.phase is not PLAYING:
        return _HAND_OVER
    if seat != state.to_act:
        return _NOT_YOUR_TURN
    return None


def _queen_pending(state: CrazyEightsState) -> bool:
    """True while the pending draw is the queen of spades' five (R5.3; S9.5: bound to the top card)."""
    return state.pending_draw > 0 and state.top_card == QUEEN_OF_SPADES


def _legal_card(state: CrazyEightsState, card: Card) -> bool:
    """R4.1, R5.1.1, S6.5: ``card`` may be played on the top card now."""
    top = state.top_card
    if state.pending_draw > 0:
        return card.rank is Rank.TWO and not _queen_pending(state)  # R5.2.2, R5.3.2
    return card.rank is Rank.EIGHT or (top is not None and card.rank is top.rank) or card.suit == state.active_suit


def holds_legal_card(state: CrazyEightsState, seat: int) -> bool:
    """True if ``seat`` holds a card it could play on the top card now (R4.1, R4.4, R5.6)."""
    return any(_legal_card(state, card) for card in state.hands[seat])


def _play_refusal(state: CrazyEightsState, seat: int, card: Card, suit: Suit | None) -> Why | None:
    """Why ``seat`` may not play ``card`` (naming ``suit``) now, or None (R4.1, R5.1-R5.3, S6.3, S6.5)."""
    why = _turn_refusal(state, seat)
    if why is not None:
        return why
    if card not in state.hands[seat]:
        return _NOT_IN_HAND
    if suit is not None and card.rank is not Rank.EIGHT:
        return _SUIT_NOT_ALLOWED
    if _legal_card(state, card):
        return None
    if state.pending_draw > 0:
        return _QUEEN_PENDING if _queen_pending(state) else _TWOS_PENDING
    return _NO_MATCH


def _draw_refusal(state: CrazyEightsState, seat: int) -> Why | None:
    """Why ``seat`` may not draw now, or None (R4.2, R4.3, R4.5, R5.6.1, R5.6.2; a penalty always)."""
    why = _turn_refusal(state, seat)
    if why is not None or state.pending_draw > 0:
        return why
    if state.options.draw_until_playable:
        if state.drawn and holds_legal_card(state, seat):
            return _MUST_PLAY_AFTER_DRAWING
    elif state.drawn:
        return _ALREADY_DRAWN
    if not state.stock:
        return _STOCK_EMPTY
    return None


def _pass_refusal(state: CrazyEightsState, seat: int) -> Why | None:
    """Why ``seat`` may not pass now, or None (R4.3, R4.4, R5.2.3, R5.3.2, R5.6.2, R5.6.3)."""
    why = _turn_refusal(state, seat)
    if why is not None:
        return why
    if state.pending_draw > 0:
        return _QUEEN_PENDING if _queen_pending(state) else _TWOS_PENDING
    until = state.options.draw_until_playable
    if until and state.drawn and holds_legal_card(state, seat):
        return _MUST_PLAY_AFTER_DRAWING
    if state.drawn and not until:
        return None  # R4.3: after drawing, play or pass
    if state.stock:
        return _MUST_DRAW_UNTIL if until else _MUST_DRAW
    if holds_legal_card(state, seat):
        return _MUST_PLAY
    return None


# --------------------------------------------------------------------------- decide


def _acc(state: CrazyEightsState) -> Acc[CrazyEightsState]:
    return Acc(state, evolve)


def _end_turn(acc: Acc[CrazyEightsState], seat: int) -> None:
    """The turn of ``seat`` ended without a play (R4.6): the hand is blocked after a full round of
    turns without a card played or drawn (R6.2, S10.4), else ``next(seat)`` plays."""
    st = acc.state
    if st.idle_turns >= st.n:
        _end_hand(acc, None, "blocked")
    else:
        acc.emit(turn_started(st.next_seat(seat)))


def _end_hand(acc: Acc[CrazyEightsState], out: int | None, reason: str) -> None:
    """R6.1-R6.6: value the hands, book the points, reveal the seed, decide the match.

    ``out`` is the seat that went out, None for a blocked hand.  Emits Crazy Eights' ``HandEnded``
    (with ``hand_values``) and the common ``SeedRevealed`` (``engine.end_hand``; the stock is never
    reshuffled, R4.5, so it reveals no reshuffle order); then ``MatchEnded`` when the match is over.
    """
    st = acc.state
    n = st.n
    values = tuple(hand_value(h) for h in st.hands)
    points = [0] * n
    low = min(values)
    lowest = tuple(s for s in range(n) if values[s] == low)
    scorer: int | None = out if out is not None else (lowest[0] if len(lowest) == 1 else None)
    if st.options.scoring == "single":  # R6.3: no points; the lowest value wins a blocked hand
        winner = scorer
    else:
        winner = out  # section 9: no winner for a blocked hand of the points game
        if out is not None:  # R6.4
            points[out] = sum(values)
        elif scorer is not None:  # R6.5
            points[scorer] = sum(v - low for v in values)
    totals = engine.end_hand(acc, winner, reason, points, HandEnded, hand_values=values)  # nobody leaves: all shown
    if st.options.scoring == "single":  # R6.3: one hand is the match
        tied = lowest if scorer is None else ()
        acc.emit(MatchEnded(winner=scorer, totals=totals, reason="single_hand", tied=tied))
    elif scorer is not None and totals[scorer] >= st.options.target(n):  # R6.6: only the scorer can reach it
        acc.emit(MatchEnded(winner=scorer, totals=totals, reason="target", tied=()))


_PLAYED: dict[tuple[int, Card, Suit | None, int, Suit], CardPlayed] = {}
"""The ``CardPlayed`` events made so far, by seat, card, suit named and pending draw: one shared
object each (an event is an immutable value)."""


def _card_played(seat: int, card: Card, declared: Suit | None, pending: int, active: Suit) -> CardPlayed:
    """``seat`` plays ``card`` naming ``declared`` (an 8's suit, else None), ``pending`` owed next,
    ``active`` the suit to follow (R5.1.2, S4.3; a last card's own, R5.1.4)."""
    event = _PLAYED[seat, card, declared, pending, active] = CardPlayed(
        seat=seat,
        card=card.code,
        declared_suit=LETTERS[declared] if declared else None,
        active_suit=LETTERS[active],
        announce=False,
        pending_draw=pending,
    )
    return event


_DRAWS: dict[tuple[int, Card], CardsDrawn] = {}
"""The ``CardsDrawn`` events of one card drawn by a ``draw`` made so far, by seat and card: one
shared object each (:data:`_PLAYED`)."""


def _card_drawn(seat: int, card: Card) -> CardsDrawn:
    """``seat`` draws ``card`` by a ``draw`` command (R4.2, R5.6.1)."""
    event = _DRAWS[seat, card] = CardsDrawn(seat=seat, cards=(card.code,), count=1, reason="draw")
    return event


def _decide_play(state: CrazyEightsState, cmd: Play) -> tuple[Event, ...]:
    seat, card = cmd.seat, cmd.card
    if not is_listed(state, cmd):
        why = _play_refusal(state, seat, card, cmd.suit)
        if why is not None:
            raise _rejected(state, seat, why, "play", card)
    opts = state.options
    rank = card.rank
    out = len(state.hands[seat]) == 1  # R6.1, R4.7: any card may go out
    declared = cmd.suit if rank is EIGHT else None
    # R5.1.2, S4.3; the named suit of a last 8 has no use (R5.1.4): its own suit is reported, decision
    # T1 of docs/decisions/crazy_eights.md (the named suit stays in ``declared_suit``, as played)
    active = card.suit if out else declared or card.suit
    pending = 0
    if not out:  # R5.7: going out with an action card has no effect
        if rank is TWO and opts.twos_draw_two:
            pending = state.pending_draw + 2  # R5.2.1, R5.2.2
        elif card is QUEEN_OF_SPADES and opts.queen_spades_draw_five:
            pending = 5  # R5.3.1
    played = _PLAYED.get((seat, card, declared, pending, active)) or _card_played(seat, card, declared, pending, active)
    if out:
        acc = _acc(state)
        acc.emit(played)
        _end_hand(acc, seat, "out")  # R6.1
        return tuple(acc.events)
    nxt = state.next_seat(seat)
    if rank is JACK and opts.jacks_skip:  # R5.4.1; with two players seat plays again (R5.4.2)
        return played, TurnSkipped(seat=nxt, reason="jack"), turn_started(state.next_seat(nxt))
    if rank is ACE and opts.aces_reverse:  # R5.5
        acc = _acc(state)
        acc.emit(played)
        acc.emit(DirectionReversed(direction=-state.direction))
        acc.emit(turn_started(acc.state.next_seat(seat)))
        return tuple(acc.events)
    return played, turn_started(nxt)  # R4.6


def _decide_draw(state: CrazyEightsState, cmd: Draw) -> tuple[Event, ...]:
    if not is_listed(state, cmd):
        why = _draw_refusal(state, cmd.seat)
        if why is not None:
            raise _rejected(state, cmd.seat, why, "draw")
    if state.pending_draw == 0:  # R4.2, R5.6.1: one card, from a stock that is not empty (R4.5)
        card = state.stock[0]
        return (_DRAWS.get((cmd.seat, card)) or _card_drawn(cmd.seat, card),)
    acc = _acc(state)
    if state.pending_draw > 0:  # R5.2.2, R5.3.2, R5.6.4: the whole draw, then the turn ends (S7.3)
        engine.draw(acc, RULES, cmd.seat, state.pending_draw, "penalty")
        _end_turn(acc, cmd.seat)
    else:
        engine.draw(acc, RULES, cmd.seat, 1, "draw")  # R4.2, R5.6.1
    return tuple(acc.events)


def _decide_pass(state: CrazyEightsState, cmd: Pass) -> tuple[Event, ...]:
    seat = cmd.seat
    if not is_listed(state, cmd):
        why = _pass_refusal(state, seat)
        if why is not None:
            raise _rejected(state, seat, why, "pass")
    if state.turn_active or state.idle_turns + 1 < state.n:  # not blocked (R6.2): the next turn (R4.6)
        return passed(seat), turn_started(state.next_seat(seat))
    acc = _acc(state)
    acc.emit(passed(seat))
    _end_turn(acc, seat)
    return tuple(acc.events)


def _decide_next_hand(state: CrazyEightsState, cmd: NextHand) -> tuple[Event, ...]:
    if state.phase is Phase.PLAYING:
        raise reject("hand_in_progress", "S11", f"next_hand: hand {state.hand_no} is still in progress")
    if state.phase is Phase.MATCH_OVER:
        rule = "R6.3" if state.options.scoring == "single" else "R6.6"
        raise reject("match_over", rule, f"next_hand: the match is over after hand {state.hand_no}")
    acc = _acc(state)
    dealer = engine.next_dealer(state)  # R3.1, R6.7
    first = (dealer + 1) % state.n  # R3.5
    starter = engine.start_hand(acc, RULES, cmd.deal, state.options.to_dict(), dealer, first)
    acc.emit(StarterTurned(card=starter.code, active_suit=starter.suit.value, pending_draw=0, chooser=None))  # R3.4
    while starter.rank is Rank.EIGHT:  # R3.3
        stock = acc.state.stock
        acc.emit(StarterBuried(card=starter.code, position=(len(stock) - 1) // 2))
        starter = stock[0]
        acc.emit(StarterTurned(card=starter.code, active_suit=starter.suit.value, pending_draw=0, chooser=None))
    acc.emit(turn_started(first))
    return tuple(acc.events)


decide: Callable[[CrazyEightsState, Command], tuple[Event, ...]] = engine.decider(
    "crazy_eights", {Play: _decide_play, Draw: _decide_draw, Pass: _decide_pass, NextHand: _decide_next_hand}
)
"""Validate a command against the state and return the events it causes (section 8); a refusal
raises :class:`~trapoula.domain.errors.CommandRejected`, its ``reason`` and ``rule`` naming why."""


def legal_commands(state: CrazyEightsState, seat: int) -> tuple[Command, ...]:
    """Every command ``seat`` may issue now; exactly those ``decide`` accepts (section 8).

    Cards in canonical order (S2.3); an 8 is listed without a suit and then with each of the four
    suits (R5.1.2); then ``draw`` and ``pass`` when open.  Worked out once per state and kept on it
    (:class:`~trapoula.domain.games.frozen.Memo`); the commands are shared objects
    (:func:`~trapoula.domain.games.shedding.commands.listed_play`).
    """
    if seat != state.to_act or state.phase is not PLAYING:
        return ()
    legal: tuple[Command, ...] | None = getattr(state, "memo", None)
    return legal if legal is not None else _legal(state, seat)


class _SeatCommands:
    """The commands one seat may be listed, made once (:func:`_commands`): the plays of each card
    (an 8 with each suit named too, R5.1.2), its draw and its pass."""

    __slots__ = ("draw", "pass_", "plays")

    def __init__(self, seat: int) -> None:
        self.plays: dict[Card, tuple[Play, ...]] = {
            card: (
                listed_play(seat, card, None),
                *((listed_play(seat, card, s) for s in SUIT_ORDER) if card.rank is EIGHT else ()),
            )
            for card in deck_52()
        }
        self.draw: Draw = listed_draw(seat)
        self.pass_: Pass = listed_pass(seat)


_COMMANDS: dict[int, _SeatCommands] = {}
"""The listed commands of each seat met so far."""


def _commands(seat: int) -> _SeatCommands:
    made = _COMMANDS.get(seat)
    if made is None:
        made = _COMMANDS[seat] = _SeatCommands(seat)
    return made


_MATCHING: dict[tuple[Rank, Suit | None], frozenset[Card]] = {
    (rank, suit): frozenset(c for c in deck_52() if c.rank is EIGHT or c.rank is rank or c.suit is suit)
    for rank in Rank
    for suit in (*SUIT_ORDER, None)
}
"""The cards that may be played on a top card of a rank with a suit active (R4.1, R5.1.1)."""
_TWOS = frozenset(c for c in deck_52() if c.rank is TWO)
"""The cards that answer a pending draw of twos (R5.2.2)."""
_chain = itertools.chain.from_iterable
_set = object.__setattr__


def _legal(state: CrazyEightsState, seat: int) -> tuple[Command, ...]:
    """:func:`legal_commands` worked out for the seat to act: the checks of :func:`_legal_card`,
    :func:`_draw_refusal` and :func:`_pass_refusal` once the turn is known to be right, over the
    whole hand at once; kept in the state's memo slot (``engine.remember_legal``, written here
    as the one store it is, on the hottest path of a random playout)."""
    hand = state.hands[seat]
    listed = _COMMANDS.get(seat) or _commands(seat)
    if state.pending_draw > 0:  # R5.2.2, R5.3.2: only a 2, and none on the queen of spades; or draw them all
        twos = () if _queen_pending(state) else [c for c in hand if c in _TWOS]
        answers: tuple[Command, ...] = (*_chain(map(listed.plays.__getitem__, twos)), listed.draw)
        _set(state, "memo", answers)
        return answers
    matching = _MATCHING[state.discard[-1].rank, state.active_suit]
    plays = listed.plays
    # a hand is in canonical order (S2.3); each card that may be played lists one play or more
    legal: list[Command] = [play for c in hand if c in matching for play in plays[c]]
    until, drawn, stock = state.options.draw_until_playable, state.drawn, state.stock
    if stock and (not drawn or (until and not legal)):  # R4.3, R4.5, R5.6.1, R5.6.2
        legal.append(listed.draw)
        if drawn and not until:  # R4.3
            legal.append(listed.pass_)
    elif (drawn and not until) or not legal:  # R4.3; R4.4, R5.6.3: no stock (or none to draw) and no play
        legal.append(listed.pass_)
    answer: tuple[Command, ...] = tuple(legal)
    _set(state, "memo", answer)
    return answer


_ONE_SEAT = tuple((seat,) for seat in range(MAX_PLAYERS))


def acting(state: CrazyEightsState) -> tuple[int, ...]:
    """The seat whose move the match waits for (``GameSpec.acting``): the seat to act while a hand
    is in progress, who always has a legal command (R4.2-R4.4: a play, a draw or a pass), else none."""
    to_act = state.to_act
    return _ONE_SEAT[to_act] if to_act is not None and state.phase is PLAYING else ()


# --------------------------------------------------------------------------- deals and audit


def deck(state: CrazyEightsState) -> tuple[Card, ...]:
    """Crazy Eights' deck: one 52-card deck, no jokers (R2.1)."""
    return deck_52()


def explicit_deal(state: CrazyEightsState, raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"hands": [[...] per seat], "starter": "7H", "stock": [...]}``
    (S5.3): the deck order S5.2 would have dealt it from.

    Each seat holds 7 cards with two players, 5 with more (R3.2).  When ``starter`` is an 8, the
    top card of ``stock`` replaces it (R3.3).

    Raises:
        InvalidInput: malformed codes, a hand of the wrong size, cards that are not exactly one
            52-card deck, or reshuffle orders (the stock is never reshuffled, R4.5) (``bad_deal``).
    """
    if raw.get("reshuffles"):
        raise InvalidInput("explicit deal: crazy_eights never reshuffles the stock (R4.5, S8.2)", reason="bad_deal")
    return engine.explicit_deal(state, RULES, raw)


def command_for(state: CrazyEightsState, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, or None if none can (S11)."""
    return engine.command_for(RULES, events, i)


def option_defaults() -> dict[str, Any]:
    """Every option with its default (section 7)."""
    return CrazyEightsOptions().to_dict()


RULES: ShedRules[CrazyEightsState, Command] = ShedRules(
    game="crazy_eights",
    deck=deck_52(),
    deck_name="one 52-card deck",
    hand_size=hand_size,
    hand_size_rule="R3.2",
    reshuffle=Reshuffle.NEVER,
    evolve=evolve,
    penalty_reasons=frozenset({"penalty"}),
    play_command=play_from,
    empty_penalty_idles=True,  # R6.2: a penalty draw is a whole turn (R5.2.2, R5.3.2)
)
"""Crazy Eights' parameters for the shedding engine (S1.2): one 52-card deck, 7 cards each with two
players and 5 with more (R3.2), never a reshuffle (R4.5)."""

_complete_evolve(RULES)
