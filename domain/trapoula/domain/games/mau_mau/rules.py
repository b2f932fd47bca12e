"""Mau Mau as a decider (docs/rules/mau_mau.md; shared mechanics docs/rules/shedding-common.md).

``decide`` validates and returns events; ``evolve`` applies one event without checking it;
``legal_commands`` agrees with ``decide``.  Every refusal raises
:class:`~trapoula.domain.errors.CommandRejected` naming its reason code and rule number.  The
deal, the draws and reshuffles, the turn order over vacant seats and the seat changes are the
shedding engine's (:mod:`~trapoula.domain.games.shedding.engine`); this module holds what is
Mau Mau's own: the covered up-card (R3.4), the turn (R4), the special cards and the "Mau" call
(R5), scoring, elimination and the match (R6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import SUIT_ORDER, Card, Rank, Suit, deck_104
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.mau_mau.commands import (
    Command,
    Draw,
    Join,
    Leave,
    Mau,
    NextHand,
    Pass,
    Play,
    join_command,
)
from trapoula.domain.games.mau_mau.events import MauCalled, MauMissed, StarterTurned
from trapoula.domain.games.mau_mau.options import MauMauOptions, Skill, parse_options
from trapoula.domain.games.mau_mau.state import MauMauState, Phase
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding.commands import play_from
from trapoula.domain.games.shedding.engine import Acc, Reshuffle, ShedRules, reject, remember_legal
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    DirectionReversed,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    PlayerEliminated,
    PlayerJoined,
    PlayerLeft,
    TurnSkipped,
    TurnStarted,
)
from trapoula.domain.games.shedding.state import MATCH_OVER, PLAYING, refusal_context

SEVEN, JACK = Rank.SEVEN, Rank.JACK
"""The ranks the legal list tests, as module constants (``Rank.JACK`` is a slow class attribute look-up)."""

HAND_SIZE = 7
"""Cards dealt to each player (R3.3)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""R2.2."""
MAX_TOTAL = 100_000
"""The most negative total a match may be taken up from (initial totals, R6.5)."""

POINTS: Mapping[Rank, int] = {
    **{
        r: r.face_value
        for r in (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE)
    },
    Rank.TEN: 10,
    Rank.JACK: 20,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 11,
}
"""Card points (R2.4): 2-9 face value, T Q K 10, J 20, A 11."""

SPECIAL: frozenset[Rank] = frozenset({Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.ACE})
"""The special ranks (R5); such an up-card is covered by the next stock card (R3.4)."""


def card_points(cards: Sequence[Card]) -> int:
    """The points of some cards (R2.4), as a positive number; a hand scores minus this (R6.3).

    >>> from trapoula.domain.cards import parse_cards
    >>> card_points(parse_cards("JH AS 7C TD"))  # the worked example of R6.4
    48
    """
    return sum(POINTS[c.rank] for c in cards)


# --------------------------------------------------------------------------- initial state


def initial_state(config: MatchConfig) -> MauMauState:
    """The state before the first deal (R2.2, R3.1, section 7).

    Seats ``config.seats`` are all seated; ``computer_seats`` (R7.2) sets their skills, else the
    configuration's bot level is kept.

    Raises:
        InvalidInput: wrong number of seats (``bad_seats``), a bad option or a computer seat that
            is not a seat (``bad_option``), a first dealer out of range or initial totals of the
            wrong length, above 0, or at or below the elimination limit (``bad_config``, R7.3, R6.6).
    """
    n = len(config.seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput(f"mau_mau needs 2 to 5 players, got {n} (R2.2)", reason="bad_seats")
    options = parse_options(config.options)
    skills = options.skills()
    outside = sorted(s for s in skills if s >= n)
    if outside:
        raise InvalidInput(f"mau_mau option computer_seats: seat(s) {outside} not among seats 0..{n - 1}", "bad_option")
    if config.first_dealer is not None and not 0 <= config.first_dealer < n:
        raise InvalidInput(f"first_dealer {config.first_dealer!r} is not a seat 0..{n - 1} (R3.1)", "bad_config")
    totals = tuple(config.initial_totals) if config.initial_totals is not None else (0,) * n
    if len(totals) != n or any(
        isinstance(t, bool) or not isinstance(t, int) or not -MAX_TOTAL <= t <= 0 for t in totals
    ):
        raise InvalidInput(
            f"initial totals {str(totals)[:80]}: expected {n} integers from {-MAX_TOTAL} to 0 (R6.5)", "bad_config"
        )
    out = [seat for seat, t in enumerate(totals) if t <= options.elimination_limit]
    if out:
        raise InvalidInput(
            f"initial totals {str(totals)[:80]}: seat(s) {out} would already be eliminated at or below the limit "
            f"{options.elimination_limit} (R7.3, R6.6)",
            "bad_config",
        )
    return MauMauState(
        config=config,
        options=options,
        n=n,
        totals=totals,
        names=tuple(s.name for s in config.seats),
        bots=tuple(skills.get(i, s.bot) for i, s in enumerate(config.seats)),
    )


# --------------------------------------------------------------------------- evolve


def evolve(state: MauMauState, event: Event) -> MauMauState:
    """Apply one event to the state (trusted: no validation, STYLE habit 1).

    Mau Mau's own events and fields here (the call, R5.6; the ace's extra card, R5.5); the common mechanics in
    ``engine.evolve_common`` (a penalty taken with nothing to draw is an idle turn there, S10.4:
    ``RULES.empty_penalty_idles``).
    """
    match event:
        case MauCalled():
            return engine.replace(state, mau_called=True)
        case MauMissed():
            return state
        case CardPlayed(card=code):
            played = engine.evolve_common(state, event, RULES, ace_pending=code[0] == "A")
        case TurnStarted() | HandStarted() | HandEnded():
            played = engine.evolve_common(state, event, RULES, mau_called=False, ace_pending=False)
        case PlayerLeft(seat=seat) if seat == state.to_act:  # R6.10.2: they lapse
            played = engine.evolve_common(state, event, RULES, mau_called=False, ace_pending=False)
        case _:
            played = engine.evolve_common(state, event, RULES)
    return state if played is None else played


# --------------------------------------------------------------------------- refusals


def _where(state: MauMauState, seat: int) -> str:
    """The context every refusal message ends with (STYLE habit 5; :func:`refusal_context`)."""
    return refusal_context("mau_mau", state, seat)


def _turn_refusal(state: MauMauState, seat: int, kind: str, rule: str = "S3.7") -> CommandRejected | None:
    if state.phase is not Phase.PLAYING:
        return reject("hand_over", "S11", f"{kind} by seat {seat}: no hand is in progress {_where(state, seat)}")
    if seat != state.to_act:
        return reject(
            "not_your_turn", rule, f"{kind} by seat {seat}: it is seat {state.to_act}'s turn {_where(state, seat)}"
        )
    return None


def _play_refusal(state: MauMauState, seat: int, card: Card, suit: Suit | None) -> CommandRejected | None:
    """Why ``seat`` may not play ``card`` (with ``suit``) now, or None (R4.1, R5.1.3, R5.4, S6.3)."""
    refusal = _turn_refusal(state, seat, "play")
    if refusal is not None:
        return refusal
    if card not in state.hands[seat]:
        return reject(
            "card_not_in_hand", "S11", f"card {card.code!r} is not in the hand of seat {seat} {_where(state, seat)}"
        )
    if suit is not None and card.rank is not Rank.JACK:
        return reject(
            "suit_not_allowed",
            "S6.3",
            f"a suit may be chosen only with a jack, not {card.code!r} {_where(state, seat)}",
        )
    if state.pending_draw > 0 and card.rank is not Rank.SEVEN:
        return reject(
            "penalty_pending",
            "R5.1.3",
            f"{card.code!r} cannot be played: seat {seat} owes {state.pending_draw} cards; only a 7 may be played "
            f"{_where(state, seat)}",
        )
    if card.rank is Rank.JACK:  # R5.4.1: on any card, a jack included
        return None
    top = state.top_card
    assert top is not None
    if card.rank is not top.rank and card.suit != state.active_suit:
        active = state.active_suit.value if state.active_suit else "?"
        return reject(
            "no_match",
            "R4.1",
            f"{card.code!r} matches neither rank of {top.code!r} nor the active suit {active} {_where(state, seat)}",
        )
    return None


def _draw_refusal(state: MauMauState, seat: int) -> CommandRejected | None:
    refusal = _turn_refusal(state, seat, "draw")
    if refusal is not None or state.pending_draw > 0:
        return refusal
    if not engine.can_draw(state, RULES):
        return reject(
            "stock_empty",
            "R4.4",
            f"draw by seat {seat}: no card can be drawn, the stock is empty and the discard pile holds only its "
            f"top card {_where(state, seat)}",
        )
    return None


def _pass_refusal(state: MauMauState, seat: int) -> CommandRejected | None:
    refusal = _turn_refusal(state, seat, "pass")
    if refusal is not None:
        return refusal
    if state.pending_draw > 0:
        return reject(
            "penalty_pending",
            "R5.1.3",
            f"pass by seat {seat}: it owes {state.pending_draw} cards; draw them or play a 7 {_where(state, seat)}",
        )
    if engine.can_draw(state, RULES):
        if state.ace_pending:
            return reject(
                "must_play_or_draw",
                "R5.5.1",
                f"pass by seat {seat}: after an ace it must play another card or draw {_where(state, seat)}",
            )
        return reject(
            "must_draw_first",
            "R4.4",
            f"pass by seat {seat}: it may pass only when no card can be drawn {_where(state, seat)}",
        )
    return None


def _join_refusal(state: MauMauState) -> CommandRejected | None:
    if state.phase is Phase.MATCH_OVER:
        return reject("match_over", "R6.9", f"join: the match is over (mau_mau, hand {state.hand_no})")
    if state.phase is Phase.PLAYING:
        return reject(
            "hand_in_progress",
            "R6.9",
            f"join: players join between hands; hand {state.hand_no} is in progress (mau_mau)",
        )
    if len(state.seated) >= MAX_PLAYERS:
        return reject("table_full", "R6.9", f"join: {MAX_PLAYERS} players are seated already (mau_mau, R2.2)")
    return None


def _leave_refusal(state: MauMauState, seat: int) -> CommandRejected | None:
    if state.phase is Phase.MATCH_OVER:
        return reject("match_over", "R6.10", f"leave by seat {seat}: the match is over (mau_mau, hand {state.hand_no})")
    if seat not in state.seated:
        return reject(
            "not_seated", "R6.10", f"leave by seat {seat}: no player sits there (mau_mau, hand {state.hand_no})"
        )
    return None


# --------------------------------------------------------------------------- decide helpers


def _acc(state: MauMauState) -> Acc[MauMauState]:
    return Acc(state, evolve)


def _draw(acc: Acc[MauMauState], seat: int, count: int, reason: str) -> None:
    """Draw ``count`` cards for ``seat``, reshuffling when the stock is empty (R4.6, S7.3, S8)."""
    engine.draw(acc, RULES, seat, count, reason)


def _players(state: MauMauState) -> int:
    """How many players take part in the hand in progress (S10.4)."""
    return state.n - len(state.vacant)


def _end_turn(acc: Acc[MauMauState], seat: int) -> None:
    """The turn of ``seat`` ended without a card played: the hand is blocked after as many such
    turns in a row as players (S10.4, R6.8), else the next player's turn begins (R4.5)."""
    st = acc.state
    if st.idle_turns >= _players(st):
        _end_hand(acc, winner=None, reason="blocked")
    else:
        acc.emit(TurnStarted(seat=st.next_seat(seat)))


def _match_over_if_alone(acc: Acc[MauMauState]) -> None:
    """R6.7: the match ends when at most one player is seated; he wins (nobody, R6.8, if a blocked
    hand eliminated every player)."""
    st = acc.state
    seated = st.seated
    if len(seated) <= 1:
        winner = min(seated) if seated else None
        acc.emit(MatchEnded(winner=winner, totals=engine.shown_totals(st, st.totals), reason="last_player"))


def _end_hand(acc: Acc[MauMauState], winner: int | None, reason: str) -> None:
    """R6.1-R6.8: score the hand (minus the points left in each hand, 0 for the winner, None for a
    seat not in it), reveal the seed, eliminate, and end the match when one player is left."""
    st = acc.state
    in_hand = st.in_hand
    points = tuple(
        (0 if seat == winner else -card_points(st.hands[seat])) if seat in in_hand else None for seat in range(st.n)
    )
    totals = engine.end_hand(acc, winner, reason, points)
    limit = st.options.elimination_limit
    for seat in sorted(in_hand):
        if seat != winner and totals[seat] <= limit:  # R6.6, R7.1
            acc.emit(PlayerEliminated(seat=seat, total=totals[seat]))
    _match_over_if_alone(acc)


# --------------------------------------------------------------------------- decide


def _decide_play(state: MauMauState, cmd: Play) -> tuple[Event, ...]:
    refusal = _play_refusal(state, cmd.seat, cmd.card, cmd.suit)
    if refusal is not None:
        raise refusal
    seat, card = cmd.seat, cmd.card
    remaining = len(state.hands[seat]) - 1
    if card.rank is Rank.JACK:  # R5.4.2
        declared = cmd.suit
        active = declared or card.suit
    else:
        declared, active = None, card.suit
    pending = state.pending_draw + 2 if card.rank is Rank.SEVEN else 0  # R5.1.1, R5.1.2
    acc = _acc(state)
    acc.emit(
        CardPlayed(
            seat=seat,
            card=card.code,
            declared_suit=declared.value if declared else None,
            active_suit=active.value,
            announce=False,
            pending_draw=pending,
        )
    )
    if remaining == 0:  # R6.1, R5.5.4
        if card.rank is Rank.SEVEN:  # R6.2, S10.3
            _draw(acc, state.next_seat(seat), pending, "last_seven")
        _end_hand(acc, winner=seat, reason="out")
        return tuple(acc.events)
    nxt: int | None
    if card.rank is Rank.EIGHT:  # R5.2: the next player misses his turn
        skipped = state.next_seat(seat)
        acc.emit(TurnSkipped(seat=skipped, reason="eight"))
        nxt = state.next_seat(skipped)  # with two players: the player of the 8 again (R5.2.2)
    elif card.rank is Rank.NINE:  # R5.3: reverse
        acc.emit(DirectionReversed(direction=-state.direction))
        nxt = acc.state.next_seat(seat)
    elif card.rank is Rank.ACE:  # R5.5.1: the same turn goes on
        nxt = None
    else:
        nxt = state.next_seat(seat)
    if remaining == 1 and not state.mau_called:  # R5.6.2: after the play and its effect
        acc.emit(MauMissed(seat=seat))
        _draw(acc, seat, 2, "mau_penalty")
    if nxt is not None:
        acc.emit(TurnStarted(seat=nxt))
    return tuple(acc.events)


def _decide_draw(state: MauMauState, cmd: Draw) -> tuple[Event, ...]:
    refusal = _draw_refusal(state, cmd.seat)
    if refusal is not None:
        raise refusal
    acc = _acc(state)
    if state.pending_draw > 0:
        _draw(acc, cmd.seat, state.pending_draw, "penalty")  # R5.1.2; the turn ends (R5.1.4)
    else:
        _draw(acc, cmd.seat, 1, "draw")  # R4.2; the turn ends (R4.3, R5.5.2)
    _end_turn(acc, cmd.seat)
    return tuple(acc.events)


def _decide_pass(state: MauMauState, cmd: Pass) -> tuple[Event, ...]:
    refusal = _pass_refusal(state, cmd.seat)
    if refusal is not None:
        raise refusal
    acc = _acc(state)
    acc.emit(Passed(seat=cmd.seat))  # R4.4
    _end_turn(acc, cmd.seat)
    return tuple(acc.events)


def _decide_mau(state: MauMauState, cmd: Mau) -> tuple[Event, ...]:
    refusal = _turn_refusal(state, cmd.seat, "mau", "R5.6.5")
    if refusal is not None:
        raise refusal
    if state.mau_called:  # R5.6.3-R5.6.4: a repeat in the same turn is accepted, changes nothing, stores nothing
        return ()
    return (MauCalled(seat=cmd.seat),)  # R5.6.1, R5.6.3: never punished


def _decide_join(state: MauMauState, cmd: Join) -> tuple[Event, ...]:
    refusal = _join_refusal(state)
    if refusal is not None:
        raise refusal
    acc = _acc(state)
    engine.join(acc, RULES, state.options.to_dict(), cmd.name, cmd.computer, MAX_PLAYERS)  # R6.9.1, R6.9.2
    return tuple(acc.events)


def _decide_leave(state: MauMauState, cmd: Leave) -> tuple[Event, ...]:
    refusal = _leave_refusal(state, cmd.seat)
    if refusal is not None:
        raise refusal
    seat = cmd.seat
    acc = _acc(state)
    left = engine.leave(acc, RULES, state.options.to_dict(), seat)
    st = acc.state
    if not left.during_hand:  # R6.10.1
        _match_over_if_alone(acc)
    elif len(st.in_hand) < 2:  # R6.10.3: abandoned, no points booked, then R6.7
        _end_hand_abandoned(acc)
    elif seat == state.to_act:  # R6.10.2: the turn goes on from his seat
        acc.emit(TurnStarted(seat=st.next_seat(seat)))
    return tuple(acc.events)


def _end_hand_abandoned(acc: Acc[MauMauState]) -> None:
    st = acc.state
    points = tuple(0 if seat in st.in_hand else None for seat in range(st.n))
    engine.end_hand(acc, None, "abandoned", points)
    _match_over_if_alone(acc)


def _decide_next_hand(state: MauMauState, cmd: NextHand) -> tuple[Event, ...]:
    if state.phase is Phase.PLAYING:
        raise reject("hand_in_progress", "S11", f"next_hand: hand {state.hand_no} is still in progress (mau_mau)")
    if state.phase is Phase.MATCH_OVER:
        raise reject("match_over", "R6.7", f"next_hand: the match is over (mau_mau, hand {state.hand_no})")
    acc = _acc(state)
    dealer = engine.next_dealer(state)  # R3.1, R3.2
    first = engine.first_player(state, dealer)  # R3.5
    card = engine.start_hand(acc, RULES, cmd.deal, state.options.to_dict(), dealer, first)
    covers: str | None = None
    while True:  # R3.4: a special up-card is covered by the next stock card, repeatedly
        acc.emit(
            StarterTurned(card=card.code, active_suit=card.suit.value, pending_draw=0, chooser=None, covers=covers)
        )
        if card.rank not in SPECIAL or not acc.state.stock:
            break
        covers, card = card.code, acc.state.stock[0]
    acc.emit(TurnStarted(seat=first))
    return tuple(acc.events)


decide: Callable[[MauMauState, Command], tuple[Event, ...]] = engine.decider(
    "mau_mau",
    {
        Play: _decide_play,
        Draw: _decide_draw,
        Pass: _decide_pass,
        Mau: _decide_mau,
        Leave: _decide_leave,
        Join: _decide_join,
        NextHand: _decide_next_hand,
    },
)
"""Validate a command against the state and return the events it causes (section 8): none for a
"Mau" call repeated in the turn, which is accepted and changes nothing (R5.6.3-R5.6.4); a refusal
raises :class:`~trapoula.domain.errors.CommandRejected`, its ``reason`` and ``rule`` naming why."""


def legal_commands(state: MauMauState, seat: int) -> tuple[Command, ...]:
    """Every seat command ``seat`` may issue now; exactly those ``decide`` accepts (section 8).

    The seat to act: each legal card once (a jack also with each of the four suits), ``draw``,
    ``pass``, ``mau`` (R5.6.3: always open on one's turn).  Every seated player: ``leave``, at any
    time (R6.10).  ``join`` is the table's, never a seat's.
    """
    phase = state.phase
    if phase is MATCH_OVER:
        return ()
    if phase is PLAYING and seat == state.to_act:  # the seat to act's list is worked out once per state
        legal: tuple[Command, ...] | None = getattr(state, "memo", None)
        return legal if legal is not None else remember_legal(state, _legal(state, seat))
    return _legal(state, seat)


def _legal(state: MauMauState, seat: int) -> tuple[Command, ...]:
    """:func:`legal_commands` worked out."""
    out: list[Command] = []
    if state.phase is PLAYING and seat == state.to_act:
        top, active, pending = state.top_card, state.active_suit, state.pending_draw
        assert top is not None
        previous = None
        for card in state.hands[seat]:  # canonical order (S2.3); what _play_refusal accepts, in short
            if card is previous:  # the same card of the other deck: listed once
                continue
            previous = card
            rank = card.rank
            if rank is SEVEN if pending else rank is JACK or rank is top.rank or card.suit is active:
                out.append(Play(seat, card))
                if rank is JACK:
                    out.extend(Play(seat, card, s) for s in SUIT_ORDER)
        can_draw = engine.can_draw(state, RULES)
        if pending or can_draw:  # R4.2, R5.1.2 (_draw_refusal)
            out.append(Draw(seat))
        else:  # R4.4 (_pass_refusal)
            out.append(Pass(seat))
        out.append(Mau(seat))
    if seat in state.seated:
        out.append(Leave(seat))
    if len(state.reshuffle_orders) < len(state.explicit_reshuffles):
        # S8.5: with explicit reshuffle orders left, a command that reshuffles (a draw, a missed
        # call's penalty, a leave) is refused when its order does not fit
        out = [c for c in out if _accepted(state, c)]
    return tuple(out)


def _accepted(state: MauMauState, command: Command) -> bool:
    try:
        decide(state, command)
    except CommandRejected:
        return False
    return True


def acting(state: MauMauState) -> tuple[int, ...]:
    """The seats whose move the match waits for: the seat to act during a hand, nobody between
    hands (``leave`` is always open to every seated player, R6.10, but never awaited)."""
    to_act = state.to_act
    return (to_act,) if to_act is not None and state.phase is PLAYING else ()


# --------------------------------------------------------------------------- deals and audit


def deck(state: MauMauState) -> tuple[Card, ...]:
    """Mau Mau's deck: two 52-card decks, each code twice (R2.1, S2.2)."""
    return deck_104()


def explicit_deal(state: MauMauState, raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"hands": [[...] per seat, [] for a vacant seat], "starter":
    "7H", "stock": [...], "reshuffles": [[...]]}`` (S5.3, R3.4, section 8): the deck order S5.2
    would have dealt it from.  ``reshuffles`` also gives the orders of leavers' cards (R6.10.2).

    Raises:
        InvalidInput: malformed codes, a hand of the wrong size, cards for a vacant seat, or cards
            that are not exactly two 52-card decks (``bad_deal``).
    """
    return engine.explicit_deal(state, RULES, raw)


def command_for(state: MauMauState, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, or None if none can (S11).

    A seat change recorded before the first hand starts with ``MatchStarted``.
    """
    event = events[i]
    if isinstance(event, MatchStarted) and i + 1 < len(events):
        nxt = events[i + 1]
        if isinstance(nxt, PlayerJoined | PlayerLeft):
            event = nxt
    match event:
        case MauCalled(seat=seat):
            return Mau(seat)
        case PlayerLeft(seat=seat):
            return Leave(seat)
        case PlayerJoined(name=name, computer=computer):
            try:
                return join_command(name, computer)
            except InvalidInput:
                return None
    return engine.command_for(RULES, events, i)


def option_defaults() -> dict[str, Any]:
    """Every option with its default (section 7)."""
    return MauMauOptions().to_dict()


def preset_bots(options: MauMauOptions) -> dict[int, Skill]:
    """The computer seats the ``computer_seats`` option sets at creation: seat -> skill (R7.2)."""
    return options.skills()


RULES: ShedRules[MauMauState, Command] = ShedRules(
    game="mau_mau",
    deck=deck_104(),
    deck_name="two 52-card decks (104 cards)",
    hand_size=lambda n: HAND_SIZE,
    hand_size_rule="R3.3",
    reshuffle=Reshuffle.WHEN_EMPTY,
    evolve=evolve,
    penalty_reasons=frozenset({"penalty", "last_seven"}),
    play_command=play_from,
    empty_penalty_idles=True,  # S10.4: a penalty taken with nothing to draw ends a turn without a card
)
"""Mau Mau's parameters for the shedding engine (S1.2): 104 cards, 7 each, a reshuffle only when a
card must be drawn from an empty stock (R4.6)."""
