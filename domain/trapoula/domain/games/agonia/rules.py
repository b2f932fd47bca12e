"""Agonia as a decider (docs/rules/agonia.md; shared mechanics docs/rules/shedding-common.md).

``decide`` validates and returns events; ``evolve`` applies one event without checking it;
``legal_commands`` agrees with ``decide``.  Every refusal raises
:class:`~trapoula.domain.errors.CommandRejected` naming its reason code and rule number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import LETTERS, SUIT_ORDER, SUITS, Card, Rank, Suit, deck_52, parse_card
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.agonia.commands import ChooseSuit, Command, Draw, NextHand, Pass, Play, command_payload
from trapoula.domain.games.agonia.events import AnnouncementMissed, SuitChosen
from trapoula.domain.games.agonia.options import AgoniaOptions, parse_options
from trapoula.domain.games.agonia.state import AgoniaState, Phase
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding.commands import listed, listed_draw, listed_pass
from trapoula.domain.games.shedding.engine import (
    Acc,
    Reshuffle,
    ShedRules,
    is_listed,
    passed,
    remember_legal,
    turn_started,
)
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    HandStarted,
    MatchEnded,
    StarterTurned,
    TurnSkipped,
    TurnStarted,
)
from trapoula.domain.games.shedding.state import PLAYING, refusal_context

HAND_SIZE = 7
"""Cards dealt to each player (R3.2)."""
MAX_TOTAL = 100_000
"""The largest score a match may be taken up from (initial totals, R6.6)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4
"""R2.2."""

POINTS: Mapping[Rank, int] = {
    **{
        r: r.face_value
        for r in (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE)
    },
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 11,
}
"""Card points (R2.4): 2-9 face value, T J Q K 10, A 11."""


def card_points(cards: Sequence[Card]) -> int:
    """The points of some cards (R2.4).

    >>> from trapoula.domain.cards import parse_cards
    >>> card_points(parse_cards("KH 7D 2C"))
    19
    """
    return sum(POINTS[c.rank] for c in cards)


_reject = CommandRejected
"""What ``engine.reject`` does (a refusal naming its reason code and rule, S11), one call shorter."""
ACE, SEVEN, EIGHT, NINE = Rank.ACE, Rank.SEVEN, Rank.EIGHT, Rank.NINE
"""The ranks the rules test in their hot paths, as module constants (``Rank.ACE`` is a slow class
attribute look-up)."""


# --------------------------------------------------------------------------- initial state


def initial_state(config: MatchConfig) -> AgoniaState:
    """The state before the first deal (R2.2, R3.1, section 7).

    Raises:
        InvalidInput: wrong number of seats (``bad_seats``), a bad option (``bad_option``), a
            first dealer out of range or initial totals of the wrong length (``bad_config``).
    """
    n = len(config.seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput(f"agonia needs 2 to 4 players, got {n} (R2.2)", reason="bad_seats")
    options = parse_options(config.options)
    if config.first_dealer is not None and not 0 <= config.first_dealer < n:
        raise InvalidInput(f"first_dealer {config.first_dealer!r} is not a seat 0..{n - 1} (R3.1)", "bad_config")
    totals = tuple(config.initial_totals) if config.initial_totals is not None else (0,) * n
    if len(totals) != n or any(
        isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= MAX_TOTAL for t in totals
    ):
        raise InvalidInput(
            f"initial totals {str(totals)[:80]}: expected {n} integers from 0 to {MAX_TOTAL} (R6.6)", "bad_config"
        )
    return AgoniaState(config=config, options=options, n=n, totals=totals, extra_points=(0,) * n)


def next_dealer(state: AgoniaState) -> int:
    """The dealer of the next hand (R3.1): the first dealer, then one seat to the left each hand."""
    return engine.next_dealer(state)


# --------------------------------------------------------------------------- evolve


def _turn_skipped(state: AgoniaState, event: TurnSkipped) -> AgoniaState:
    if event.reason == "announce_penalty":
        return engine.replace(state, skip_owed=state.skip_owed - {event.seat})
    return state


def _announcement_missed(state: AgoniaState, event: AnnouncementMissed) -> AgoniaState:
    penalty = event.penalty
    if penalty == "skip_turn":
        return engine.replace(state, skip_owed=state.skip_owed | {event.seat})
    if penalty == "ten_points":
        extra = list(state.extra_points)
        extra[event.seat] += 10
        return engine.replace(state, extra_points=tuple(extra))
    return state


def _suit_chosen(state: AgoniaState, event: SuitChosen) -> AgoniaState:
    return engine.replace(state, active_suit=SUITS[event.suit], chooser=None)


evolve, _complete_evolve = engine.evolver(
    AgoniaState,
    {
        TurnSkipped: _turn_skipped,
        AnnouncementMissed: _announcement_missed,
        SuitChosen: _suit_chosen,
        StarterTurned: lambda state, event: engine.evolve_also(
            state, event, RULES, chooser=event.chooser, to_act=event.chooser
        ),
        HandStarted: lambda state, event: engine.evolve_also(
            state, event, RULES, chooser=None, skip_owed=frozenset(), extra_points=(0,) * state.n
        ),
    },
)
"""Apply one event to the state (trusted: no validation, STYLE habit 1): Agonia's own events and
fields here, the common mechanics in the shedding engine (:func:`engine.evolver`)."""


# --------------------------------------------------------------------------- decide helpers


def _draw(acc: Acc[AgoniaState], seat: int, count: int, reason: str) -> None:
    """Draw ``count`` cards for ``seat`` with the reshuffles of R4.8/S8 (S7.3: what can be had)."""
    engine.draw(acc, RULES, seat, count, reason)


def _acc(state: AgoniaState) -> Acc[AgoniaState]:
    return Acc(state, evolve)


def _begin_turn(acc: Acc[AgoniaState], seat: int, owed: frozenset[int] | None = None) -> None:
    """Give the turn to ``seat`` coming from another player, applying owed skips (R7.5.2).

    ``owed``, when the caller knows it, is the seats owing a skip once the events so far apply:
    a seat not among them takes the turn without those events being folded first."""
    if owed is not None and seat not in owed:
        acc.emit(turn_started(seat))
        return
    for _ in range(acc.state.n + 1):
        st = acc.state
        if seat not in st.skip_owed:
            break
        if st.pending_draw > 0:
            _draw(acc, seat, st.pending_draw, "penalty")
        acc.emit(TurnSkipped(seat=seat, reason="announce_penalty"))
        seat = st.next_seat(seat)
    acc.emit(turn_started(seat))


def _end_hand(acc: Acc[AgoniaState], winner: int | None, reason: str) -> None:
    """R6.1-R6.9: score the hand, reveal the seed, decide the match."""
    st = acc.state
    points = tuple(
        (0 if seat == winner else card_points(st.hands[seat])) + st.extra_points[seat] for seat in range(st.n)
    )
    totals = engine.end_hand(acc, winner, reason, points)
    target = st.options.target_points
    if target == 0 or any(t > target for t in totals):  # R6.7
        low = min(totals)
        leaders = [s for s, t in enumerate(totals) if t == low]
        if len(leaders) == 1:  # R6.8: a tie for lowest plays another hand
            acc.emit(MatchEnded(winner=leaders[0], totals=totals, reason="single_hand" if target == 0 else "target"))


def _where(state: AgoniaState, seat: int) -> str:
    """The context every refusal message ends with (STYLE habit 5; :func:`refusal_context`)."""
    return refusal_context("agonia", state, seat)


def _turn_refusal(state: AgoniaState, seat: int, kind: str) -> CommandRejected | None:
    if state.phase is not PLAYING:
        return _reject("hand_over", "S11", f"{kind} by seat {seat}: no hand is in progress {_where(state, seat)}")
    if state.chooser is not None:
        return _reject(
            "suit_choice_pending",
            "R7.2.2",
            f"{kind} by seat {seat}: seat {state.chooser} must choose the suit first {_where(state, seat)}",
        )
    if seat != state.to_act:
        return _reject(
            "not_your_turn",
            "S3.7",
            f"{kind} by seat {seat}: it is seat {state.to_act}'s turn {_where(state, seat)}",
        )
    return None


def needs_announce(state: AgoniaState, seat: int) -> bool:
    """R7.5.1: with ``announce_cards`` on, a play that leaves two or one card must announce."""
    return state.options.announce_cards and len(state.hands[seat]) - 1 in (1, 2)


def _is_beta(state: AgoniaState, seat: int, card: Card) -> bool:
    """R7.3: an ace of the active suit as the last card, with ``ace_last_card`` on."""
    return (
        state.options.ace_last_card
        and card.rank is Rank.ACE
        and len(state.hands[seat]) == 1
        and card.suit == state.active_suit
    )


_QUIET = CommandRejected("refused", "S11", "a refusal whose message was not asked for")
"""What :func:`_play_refusal` returns for a refused card when told to be ``quiet``."""


def _play_refusal(
    state: AgoniaState, seat: int, card: Card, suit: Suit | None, *, quiet: bool = False
) -> CommandRejected | None:
    """Why ``seat`` may not play ``card`` (with ``suit``) now, or None (R4.1, R4.6, R5.1-R5.4, R7.3-R7.6).

    With ``quiet`` a refusal of the card is :data:`_QUIET` instead, its message unwritten (for
    :func:`legal_commands`, which only asks whether there is one)."""
    refusal = _turn_refusal(state, seat, "play")
    if refusal is not None:
        return refusal
    top = state.top_card
    assert top is not None
    hand = state.hands[seat]
    if card not in hand:
        return (
            _QUIET
            if quiet
            else _reject(
                "card_not_in_hand",
                "S11",
                f"card {card.code!r} is not in the hand of seat {seat} {_where(state, seat)}",
            )
        )
    if suit is not None and card.rank is not Rank.ACE:
        return (
            _QUIET
            if quiet
            else _reject(
                "suit_not_allowed",
                "S6.3",
                f"a suit may be declared only with an ace, not {card.code!r} {_where(state, seat)}",
            )
        )
    if state.pending_draw > 0 and card.rank is not Rank.SEVEN:
        return (
            _QUIET
            if quiet
            else _reject(
                "penalty_pending",
                "R5.2.3",
                f"{card.code!r} cannot be played: seat {seat} owes {state.pending_draw} cards; "
                f"only a 7 may be played {_where(state, seat)}",
            )
        )
    last = len(hand) == 1
    if card.rank is Rank.ACE:
        if _is_beta(state, seat, card):
            return None
        if top.rank is Rank.ACE:
            return (
                _QUIET
                if quiet
                else _reject(
                    "ace_on_ace",
                    "R5.1.3",
                    f"ace {card.code!r} cannot be played on ace {top.code!r} {_where(state, seat)}",
                )
            )
        if last:
            return (
                _QUIET
                if quiet
                else _reject(
                    "last_card_forbidden",
                    "R4.6",
                    f"an ace ({card.code!r}) may not be the last card {_where(state, seat)}",
                )
            )
        return None
    if card.rank is not top.rank and card.suit != state.active_suit:
        active = state.active_suit.value if state.active_suit else "?"
        return (
            _QUIET
            if quiet
            else _reject(
                "no_match",
                "R4.1",
                f"{card.code!r} matches neither rank of {top.code!r} nor the active suit {active} "
                f"{_where(state, seat)}",
            )
        )
    if last:
        if card.rank is Rank.EIGHT and not state.options.eight_last_card:
            return (
                _QUIET
                if quiet
                else _reject(
                    "last_card_forbidden",
                    "R4.6",
                    f"an 8 ({card.code!r}) may not be the last card {_where(state, seat)}",
                )
            )
        if card.rank is Rank.NINE:
            return (
                _QUIET
                if quiet
                else _reject(
                    "last_card_forbidden",
                    "R4.6",
                    f"a 9 ({card.code!r}) may not be the last card {_where(state, seat)}",
                )
            )
        if card.rank is Rank.SEVEN and state.options.seven_last_card == "forbidden":
            return (
                _QUIET
                if quiet
                else _reject(
                    "last_card_forbidden",
                    "R7.6.2",
                    f"a 7 ({card.code!r}) may not be the last card {_where(state, seat)}",
                )
            )
    return None


def _draw_refusal(state: AgoniaState, seat: int) -> CommandRejected | None:
    refusal = _turn_refusal(state, seat, "draw")
    if refusal is not None or state.pending_draw > 0:
        return refusal
    if state.drawn:
        return _reject("already_drawn", "R4.3", f"seat {seat} has already drawn a card this turn (agonia)")
    if not state.can_draw():
        return _reject(
            "stock_empty",
            "R4.7",
            "no card can be drawn: the stock is empty and the discard pile holds only its top card",
        )
    return None


def _pass_refusal(state: AgoniaState, seat: int) -> CommandRejected | None:
    refusal = _turn_refusal(state, seat, "pass")
    if refusal is not None:
        return refusal
    if state.pending_draw > 0:
        return _reject(
            "penalty_pending", "R5.2.3", f"seat {seat} owes {state.pending_draw} cards: draw them or play a 7"
        )
    if not state.drawn and state.can_draw():
        return _reject("must_draw_first", "R4.4", f"seat {seat} must draw a card before passing")
    return None


# --------------------------------------------------------------------------- decide


_PLAYED: dict[tuple[int, Card, Suit | None, Suit, bool, int], CardPlayed] = {}
"""The ``CardPlayed`` events made so far, by their fields: one shared object each (an event is an
immutable value)."""


def _card_played(
    seat: int, card: Card, declared: Suit | None, active: Suit, announce: bool, pending: int
) -> CardPlayed:
    key = (seat, card, declared, active, announce, pending)
    event = _PLAYED.get(key)
    if event is None:
        event = _PLAYED[key] = CardPlayed(
            seat=seat,
            card=card.code,
            declared_suit=LETTERS[declared] if declared else None,
            active_suit=LETTERS[active],
            announce=announce,
            pending_draw=pending,
        )
    return event


def _decide_play(state: AgoniaState, cmd: Play) -> tuple[Event, ...]:
    if not is_listed(state, cmd):
        refusal = _play_refusal(state, cmd.seat, cmd.card, cmd.suit)
        if refusal is not None:
            raise refusal
    opts = state.options
    seat, card = cmd.seat, cmd.card
    rank = card.rank
    remaining = len(state.hands[seat]) - 1
    if rank is ACE and not _is_beta(state, seat, card):
        declared = cmd.suit
        active = declared or card.suit  # R5.1.2
    else:
        declared, active = None, card.suit  # R7.3: a declared suit is ignored
    pending = state.pending_draw + 2 if rank is SEVEN else 0  # R5.2.1-R5.2.2
    acc = _acc(state)
    acc.emit(_card_played(seat, card, declared, active, cmd.announce, pending))
    missed = opts.announce_cards and remaining in (1, 2) and not cmd.announce  # R7.5.1
    if missed:
        acc.emit(AnnouncementMissed(seat=seat, cards_left=remaining, penalty=opts.announce_penalty))
    if remaining == 0 and not (rank is EIGHT and opts.eight_last_card):
        if rank is SEVEN:  # R5.2.6, R6.2
            _draw(acc, state.next_seat(seat), pending, "last_seven")
        _end_hand(acc, winner=seat, reason="out")  # R6.1
        return tuple(acc.events)
    if missed and opts.announce_penalty == "draw_one":  # R7.5.2
        _draw(acc, seat, 1, "announce_penalty")
    owed = state.skip_owed | {seat} if missed and opts.announce_penalty == "skip_turn" else state.skip_owed
    if rank is EIGHT:  # R5.3.1, R7.4
        acc.emit(turn_started(seat))
    elif rank is NINE:  # R5.4
        skipped = state.next_seat(seat)
        acc.emit(TurnSkipped(seat=skipped, reason="nine"))
        if state.n == 2:
            acc.emit(turn_started(seat))  # R5.4.2
        else:
            _begin_turn(acc, state.next_seat(skipped), owed)
    else:
        _begin_turn(acc, state.next_seat(seat), owed)
    return tuple(acc.events)


def _decide_draw(state: AgoniaState, cmd: Draw) -> tuple[Event, ...]:
    if not is_listed(state, cmd):
        refusal = _draw_refusal(state, cmd.seat)
        if refusal is not None:
            raise refusal
    acc = _acc(state)
    if state.pending_draw > 0:
        _draw(acc, cmd.seat, state.pending_draw, "penalty")  # R5.2.2; the turn goes on (R5.2.4)
    else:
        _draw(acc, cmd.seat, 1, "draw")  # R4.2
    return tuple(acc.events)


def _decide_pass(state: AgoniaState, cmd: Pass) -> tuple[Event, ...]:
    if not is_listed(state, cmd):
        refusal = _pass_refusal(state, cmd.seat)
        if refusal is not None:
            raise refusal
    acc = _acc(state)
    acc.emit(passed(cmd.seat))
    idle = 0 if state.turn_active else state.idle_turns + 1  # what Passed makes of it (S10.4)
    if idle >= state.n:  # S10.4, R6.5
        _end_hand(acc, winner=None, reason="blocked")
    else:
        _begin_turn(acc, state.next_seat(cmd.seat), state.skip_owed)
    return tuple(acc.events)


def _decide_choose_suit(state: AgoniaState, cmd: ChooseSuit) -> tuple[Event, ...]:
    if state.phase is not PLAYING:
        raise _reject("hand_over", "S11", f"choose_suit by seat {cmd.seat}: no hand is in progress")
    if state.chooser is None:
        raise _reject("no_suit_choice", "R7.2", f"choose_suit by seat {cmd.seat}: no suit choice is pending")
    if cmd.seat != state.chooser:
        raise _reject("not_your_turn", "R7.2.3", f"choose_suit by seat {cmd.seat}: seat {state.chooser} chooses")
    acc = _acc(state)
    acc.emit(SuitChosen(seat=cmd.seat, suit=cmd.suit.value))
    acc.emit(turn_started(state.first_player))  # R7.2.2, decision 31
    return tuple(acc.events)


def _decide_next_hand(state: AgoniaState, cmd: NextHand) -> tuple[Event, ...]:
    if state.phase is Phase.PLAYING:
        raise _reject("hand_in_progress", "S11", f"next_hand: hand {state.hand_no} is still in progress")
    if state.phase is Phase.MATCH_OVER:
        raise _reject("match_over", "R6.8", "next_hand: the match is over")
    n = state.n
    acc = _acc(state)
    dealer = next_dealer(state)
    first = (dealer + 1) % n  # R3.3
    starter = engine.start_hand(acc, RULES, cmd.deal, state.options.to_dict(), dealer, first)
    chooser: int | None = None
    if starter.rank is Rank.ACE and state.options.starter_ace_suit != "ace":  # R7.2
        mode = state.options.starter_ace_suit
        if mode == "first_player":
            chooser = first
        elif mode == "dealer":
            chooser = dealer
        else:
            chooser = state.last_winner if state.last_winner is not None else first
    pending = 2 if starter.rank is Rank.SEVEN else 0  # R3.4.1
    acc.emit(StarterTurned(card=starter.code, active_suit=starter.suit.value, pending_draw=pending, chooser=chooser))
    if chooser is None:
        if starter.rank is Rank.NINE:  # R3.4.2
            acc.emit(TurnSkipped(seat=first, reason="starter_nine"))
            acc.emit(TurnStarted(seat=(first + 1) % n))
        else:
            acc.emit(TurnStarted(seat=first))
    return tuple(acc.events)


decide: Callable[[AgoniaState, Command], tuple[Event, ...]] = engine.decider(
    "agonia",
    {
        Play: _decide_play,
        Draw: _decide_draw,
        Pass: _decide_pass,
        ChooseSuit: _decide_choose_suit,
        NextHand: _decide_next_hand,
    },
)
"""Validate a command against the state and return the events it causes (section 8); a refusal
raises :class:`~trapoula.domain.errors.CommandRejected`, its ``reason`` and ``rule`` naming why."""


def legal_commands(state: AgoniaState, seat: int) -> tuple[Command, ...]:
    """Every command ``seat`` may issue now; exactly those ``decide`` accepts (section 8).

    An ace is listed without a suit and with each of the four suits; ``announce`` is set where
    R7.5.1 asks for it (the same play without it is also accepted, and penalised).  Worked out once
    per state and kept on it (:class:`~trapoula.domain.games.frozen.Memo`); the commands are
    shared objects (:func:`~trapoula.domain.games.shedding.commands.listed`).
    """
    if state.phase is not PLAYING:
        return ()
    chooser = state.chooser
    if seat != (state.to_act if chooser is None else chooser):
        return ()
    legal: tuple[Command, ...] | None = getattr(state, "memo", None)
    return legal if legal is not None else remember_legal(state, _legal(state, seat))


def _listed_play(seat: int, card: Card, suit: Suit | None, announce: bool) -> Play:
    return listed(
        ("agonia", "play", seat, card, suit, announce), lambda: Play(seat, card, suit, announce), command_payload
    )


def _listed_choice(seat: int, suit: Suit) -> ChooseSuit:
    return listed(("agonia", "choose_suit", seat, suit), lambda: ChooseSuit(seat, suit), command_payload)


def _legal(state: AgoniaState, seat: int) -> tuple[Command, ...]:
    """:func:`legal_commands` worked out for the seat the match waits for."""
    if state.chooser is not None:
        return tuple(_listed_choice(seat, s) for s in SUIT_ORDER)
    out: list[Command] = []
    announce = needs_announce(state, seat)
    for card in state.hands[seat]:  # canonical order (S2.3); one deck, so no card twice
        if _play_refusal(state, seat, card, None, quiet=True) is None:
            out.append(_listed_play(seat, card, None, announce))
            if card.rank is ACE:
                out.extend(_listed_play(seat, card, s, announce) for s in SUIT_ORDER)
    if _draw_refusal(state, seat) is None and _explicit_reshuffle_refusal(state, seat) is None:
        out.append(listed_draw(seat))
    if _pass_refusal(state, seat) is None:
        out.append(listed_pass(seat))
    return tuple(out)


def _explicit_reshuffle_refusal(state: AgoniaState, seat: int) -> CommandRejected | None:
    """S8.5: ``draw`` is refused when the reshuffle it triggers has an explicit order that is not a
    permutation of the pile; only an explicit deal with reshuffle orders left can do that."""
    if len(state.reshuffle_orders) >= len(state.explicit_reshuffles):
        return None
    try:
        _decide_draw(state, Draw(seat))
    except CommandRejected as refusal:
        return refusal
    return None


# --------------------------------------------------------------------------- deals and audit


def deck(state: AgoniaState) -> tuple[Card, ...]:
    """Agonia's deck: one 52-card deck (R2.1)."""
    return deck_52()


def explicit_deal(state: AgoniaState, raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"hands": [[...] per seat], "starter": "7H", "stock": [...],
    "reshuffles": [[...]]}`` (S5.3): the deck order S5.2 would have dealt it from.

    Raises:
        InvalidInput: malformed codes, a hand of the wrong size, or cards that are not exactly one
            52-card deck (``bad_deal``).
    """
    return engine.explicit_deal(state, RULES, raw)


def command_for(state: AgoniaState, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, or None if none can (S11)."""
    event = events[i]
    if isinstance(event, SuitChosen):
        return ChooseSuit(event.seat, Suit(event.suit))
    return engine.command_for(RULES, events, i)


def _play_from(event: CardPlayed) -> Command:
    declared = event.declared_suit
    return Play(event.seat, parse_card(event.card), Suit(declared) if declared else None, event.announce)


def option_defaults() -> dict[str, Any]:
    """Every option with its default (section 7)."""
    return AgoniaOptions().to_dict()


RULES: ShedRules[AgoniaState, Command] = ShedRules(
    game="agonia",
    deck=deck_52(),
    deck_name="one 52-card deck",
    hand_size=lambda n: HAND_SIZE,
    hand_size_rule="R3.2",
    reshuffle=Reshuffle.LOW_STOCK,
    evolve=evolve,
    penalty_reasons=frozenset({"penalty", "last_seven"}),
    play_command=_play_from,
)
"""Agonia's parameters for the shedding engine (S1.2): one 52-card deck, 7 cards each, reshuffles
when a draw leaves one card or the stock is empty (R4.8)."""

_complete_evolve(RULES)
