"""Romis su iškritimu as a decider (docs/rules/romis.md R1-R13, sections 7-10).

``decide`` validates a command and returns the events it causes; ``evolve`` applies one event without
checking it; ``legal_commands`` lists exactly what ``decide`` accepts (a reveal in canonical form;
``decide`` accepts its cards in any order).  Refusals raise
:class:`~trapoula.domain.errors.CommandRejected` with the reason codes of section 8, in the order of
its lists.

Event order (section 9):

* deal (``next_hand``): [``MatchStarted`` before the first hand], ``HandStarted``,
  ``ShuffleCommitted`` (``deal``), ``CardsDealt`` (``hand``) for each seat in the seat order after the
  dealer, ``AuxiliaryDealt`` for each seat in that order, ``RoundOpened`` (round 1, attempt 1);
* ``use_auxiliary``: ``AuxiliaryUsed`` (withheld from the others, R5.4);
* ``reveal`` / ``cannot``: ``SubmissionSealed``; when it is the last live seat's (R5.3), in the same
  decision: ``RoundResolved``; [``PlayerEliminated`` per seat that could not, in the seat order after
  the dealer (R7.1)]; then one of

  - one live seat left (R10.1): ``HandWon``, then the end of the hand;
  - every card face up in front of the live seats (R10.5): the end of the hand;
  - nobody revealed (R7.4): ``NobodyCouldReveal``, then the extra cards -- [``ShuffleCommitted``
    (``eliminated_pile``), ``EliminatedPileRestocked``] and ``CardsDealt`` (``extra``) per seat
    served (R9.1, R9.2) -- or, with no card left, the redeal -- ``ShuffleCommitted`` (``redeal``),
    ``HandCardsRedealt``, ``CardsDealt`` (``redeal``) (R9.3) -- then ``RoundOpened`` (same round, next
    attempt); or, with no card left after the redeal, the end of the hand (``stalemate``, R9.4);
  - otherwise, after rounds 1 and 2, the obligatory deal ([restock], ``CardsDealt`` ``first_deal`` /
    ``second_deal``, R4.3, R4.5), then ``RoundOpened`` (next round, attempt 1);

* the end of a hand: ``HandEnded`` (every hidden card public), one ``ShuffleRevealed`` for every shuffle of
  the hand (the deal first), [``MatchEnded``] (R10.9, R11).

The product's decisions T1-T7 (docs/decisions/romis.md), confirmed by the rules owners, are rules now:
R12.4 the ``resubmit`` option (T1); R9.5 an obligatory deal that finds the stock empty (possible only
after extra cards in rounds 1-2) is served like an extra deal (R9.1, R9.2; T2); R9.6 the redeal deals
one card at a time (T3); R7.6 the order of the eliminated pile (T4); R10.10 the order of the final
lay-down (T5); R5.6 the canonical order of a sealed reveal (T6); R3.9 an explicit deal may name only
the next hand's dealer (T7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Card, codes, deck_52, parse_card, parse_cards, sorted_cards
from trapoula.domain.deal import (
    Deal,
    check_whole_deck,
    deal_cards,
    deal_fields,
    deal_refusal,
    deck_hash,
    hands_in_deal_order,
    shuffle,
)
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import replace_fields
from trapoula.domain.games.romis.commands import Cannot, Command, NextHand, Reveal, UseAuxiliary
from trapoula.domain.games.romis.events import (
    AuxiliaryDealt,
    AuxiliaryUsed,
    CardsDealt,
    EliminatedPileRestocked,
    HandCardsRedealt,
    HandEnded,
    HandStarted,
    HandWon,
    MatchEnded,
    MatchStarted,
    NobodyCouldReveal,
    PlayerEliminated,
    RoundOpened,
    RoundResolved,
    ShuffleCommitted,
    ShuffleRevealed,
    SubmissionSealed,
)
from trapoula.domain.games.romis.options import RomisOptions, parse_options
from trapoula.domain.games.romis.reveals import (
    check_reveal,
    final_lay_down,
    has_legal_reveal,
    legal_reveals,
    required_count,
)
from trapoula.domain.games.romis.sealing import (
    REDEAL_LABEL,
    canonical_payload,
    companions_digest,
    companions_salt,
    eliminated_pile_label,
    nonce,
    salt,
    shuffle_commitment,
    submission_commitment,
)
from trapoula.domain.games.romis.state import Phase, RomisState, Shuffle, Submission
from trapoula.domain.games.rulekit import Acc, Phases, dealer_and_totals, dispatch, seat_count, sole_leader

NEW, PLAY, HAND_OVER, MATCH_OVER = Phase.NEW, Phase.PLAY, Phase.HAND_OVER, Phase.MATCH_OVER
"""The phases as module constants (a member read off its enum class is a slow look-up)."""
PHASES = Phases(NEW, (PLAY,), HAND_OVER, MATCH_OVER)
"""Where a match stands: a deal is due before the first hand and between hands (R10.9), a hand is
played from ``HandStarted`` until ``HandEnded`` (R10), the match is over once won (R11)."""

__all__ = [
    "AUX_COUNT",
    "DECK",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MULTIPLIERS",
    "acting",
    "command_for",
    "commitment",
    "deal_layout",
    "decide",
    "deck",
    "evolve",
    "explicit_deal",
    "hand_in_progress",
    "initial_state",
    "legal_commands",
    "option_defaults",
    "seat_order",
    "upcoming_dealer",
]

MIN_PLAYERS = 2
"""R1, R2.3."""
MAX_PLAYERS = 4
"""R1, R2.3."""
EXPLICIT_DEAL_RULE = "R3.7"
"""The rule of an explicit deal, cited when a table refuses one (``GameSpec.explicit_deal_rule``)."""
HAND_SIZE = 5
"""R3.3."""
AUX_COUNT = 2
"""R3.4: auxiliary cards per player."""
FIRST_DEAL = 3
"""R4.3: cards per live player after round 1."""
SECOND_DEAL = 1
"""R4.5: cards per live player after round 2."""
MULTIPLIERS = (1, 2, 4)
"""R10.4: the winner's multiplier by the number of his unused auxiliary cards (0, 1, 2)."""
DECK: tuple[Card, ...] = deck_52()
"""The 52 cards (R2.1), canonical order."""
_DECK_SET = frozenset(DECK)


# --------------------------------------------------------------------------- the deal


def seat_order(dealer: int, n: int, live: Sequence[bool] | None = None) -> tuple[int, ...]:
    """The seat order after the dealer (R2.4): dealer+1, ..., dealer (mod n), skipping seats whose
    ``live`` entry is False.

    >>> seat_order(1, 3), seat_order(1, 3, (True, True, False))
    ((2, 0, 1), (0, 1))
    """
    seats = tuple((dealer + 1 + p) % n for p in range(n))
    return seats if live is None else tuple(s for s in seats if live[s])


def deal_layout(
    order: Sequence[Card], dealer: int, n: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Each seat's 5 cards and 2 auxiliary cards (by seat, in the order dealt) and the stock, top
    first (R3.3-R3.6): ``order[i]``, i < 5n, goes to the hand of the i-th seat (mod n) of the seat
    order after the dealer; ``order[5n+i]``, i < 2n, is an auxiliary card of the same seat (slot 1
    for i < n, else slot 2); ``order[7n:]`` is the stock.

    >>> hands, aux, stock = deal_layout(DECK, 1, 2)
    >>> codes(hands[0][:2]), codes(aux[1]), len(stock)
    (('2C', '4C'), ('KC', '2D'), 38)
    """
    seq = seat_order(dealer, n)
    hands: list[list[Card]] = [[] for _ in range(n)]
    aux: list[list[Card]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[seq[i % n]].append(order[i])
    base = HAND_SIZE * n
    for i in range(AUX_COUNT * n):
        aux[seq[i % n]].append(order[base + i])
    return tuple(map(tuple, hands)), tuple(map(tuple, aux)), tuple(order[(HAND_SIZE + AUX_COUNT) * n :])


def commitment(seed: str | None, order: Sequence[Card]) -> str:
    """The deal's commitment (R3.2, section 9): lowercase hex SHA-256 of the deck order's codes joined
    by ``,``, then ``:``, then the salt -- the seed for a seeded deal, ``""`` for an explicit one.

    >>> import hashlib
    >>> commitment(None, parse_cards("7C 8C")) == hashlib.sha256(b"7C,8C:").hexdigest()
    True
    """
    return shuffle_commitment(codes(order), seed or "")


def upcoming_dealer(state: RomisState) -> int:
    """The dealer of the next hand: the first dealer (R3.1), then the next seat each hand (R3.8)."""
    if state.phase is NEW:
        return state.first_dealer
    return (state.dealer + 1) % state.n


# --------------------------------------------------------------------------- initial state


def initial_state(config: MatchConfig) -> RomisState:
    """The state before the first deal (R2.3, R3.1, section 7).

    ``config.first_dealer`` defaults to seat n-1 (R3.1); ``config.initial_totals`` are the totals
    before this match's first hand (R12.2, default all 0); the first hand's bonus factor is the
    option ``carried_bonus_factor`` (R12.3).

    Raises:
        InvalidInput: not 2 to 4 seats (``bad_seats``, R2.3); a bad option (``bad_option``); a first
            dealer that is not a seat, or initial totals that are not n integers (``bad_config``).
    """
    n = seat_count(config, "romis", MIN_PLAYERS, MAX_PLAYERS, "R2.3")
    options = parse_options(config.options)
    fd, totals = dealer_and_totals(config, n, "R12.2")
    return RomisState(
        config=config,
        options=options,
        n=n,
        first_dealer=fd,
        totals=totals,
        next_bonus_factor=options.carried_bonus_factor,
    )


# --------------------------------------------------------------------------- evolve


def _set(state: RomisState, **changes: Any) -> RomisState:
    """``dataclasses.replace`` without re-running ``__init__`` (frozen, slots; :func:`replace_fields`)."""
    return replace_fields(state, changes)


def _put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def _minus(cards: tuple[Card, ...], gone: Sequence[Card]) -> tuple[Card, ...]:
    out = set(gone)
    return tuple(c for c in cards if c not in out)


def _secret(seed: str | None, secret: str | None, deck: Sequence[Card]) -> str:
    """The hand's secret (sealing): the seed; for an explicit deal the server's secret, or without
    one the explicit deck's hash (``Deal.reshuffle_seed``)."""
    if seed is not None:
        return seed
    return secret if secret is not None else deck_hash(deck)


def _evolve_hand_started(state: RomisState, event: HandStarted) -> RomisState:
    order = parse_cards(event.deck)
    n = state.n
    empty: tuple[tuple[Card, ...], ...] = ((),) * n
    return _set(
        state,
        phase=PLAY,
        hand_no=event.hand_no,
        dealer=event.dealer,
        bonus_factor=event.bonus_factor,
        seed=event.seed,
        secret=_secret(event.seed, event.secret, order),
        deck=order,
        commitment=event.commitment,
        explicit_deal=event.explicit_deal,
        hands=empty,
        aux=empty,
        aux_used=(0,) * n,
        aux_pending=empty,
        revealed=empty,
        companions=empty,
        live=(True,) * n,
        round=0,
        attempt=0,
        required=0,
        submissions=(None,) * n,
        serials=(0,) * n,
        stock=order,
        pile=(),
        shuffles=(Shuffle("deal", "deal", order),),
        restocks=0,
        redealt=False,
        hand_points=(0,) * n,
        eliminated_hands=empty,
        last_round=None,
    )


def _evolve_resolved(state: RomisState, event: RoundResolved) -> RomisState:
    """R5.3: reveals applied from the sealed submissions (cards face up, companions face down)."""
    hands, revealed, companions = list(state.hands), list(state.revealed), list(state.companions)
    for seat, kind in enumerate(event.kinds):
        sub = state.submissions[seat]
        if kind != "reveal" or sub is None:
            continue
        hands[seat] = _minus(hands[seat], (*sub.cards, *sub.companions))
        companions[seat] = (*_minus(companions[seat], sub.cards), *sub.companions)
        revealed[seat] = (*revealed[seat], *sub.cards)
    return _set(
        state,
        hands=tuple(hands),
        revealed=tuple(revealed),
        companions=tuple(companions),
        aux_pending=((),) * state.n,
        submissions=(None,) * state.n,
        last_round=event,
    )


def _evolve_eliminated(state: RomisState, seat: int) -> RomisState:
    """R7.3: the seat's revealed cards, hand and companions go to the eliminated pile (R7.6)."""
    gone = (*state.revealed[seat], *state.hands[seat], *state.companions[seat])
    return _set(
        state,
        live=_put(state.live, seat, False),
        pile=(*state.pile, *gone),
        eliminated_hands=_put(state.eliminated_hands, seat, state.hands[seat]),
        hands=_put(state.hands, seat, ()),
        revealed=_put(state.revealed, seat, ()),
        companions=_put(state.companions, seat, ()),
    )


def evolve(state: RomisState, event: Event) -> RomisState:
    """Apply one event to the state (trusted: no validation, STYLE habit 1).

    Derived facts follow the rules: ``HandStarted`` puts the whole deck in the stock and dealt cards
    leave it (R3.6); ``RoundResolved`` applies the sealed reveals (R5.3); ``PlayerEliminated`` moves
    the seat's cards to the eliminated pile (R7.3); ``EliminatedPileRestocked`` puts the shuffled pile
    under the stock (R9.1); ``HandCardsRedealt`` gathers the live hands into the stock (R9.3);
    ``HandWon`` lays the winner's cards down (R10.2).  The hand's shuffles are remembered for
    ``ShuffleRevealed``.
    """
    match event:
        case SubmissionSealed(seat=seat, payload=payload, nonce=nonce_hex, commitment=digest, companions_salt=salt_hex):
            kind = str(payload.get("kind"))
            companions = parse_cards(payload.get("companions", ()))
            sub = Submission(
                kind=kind,
                cards=parse_cards(payload.get("cards", ())),
                companions=companions,
                nonce=nonce_hex,
                commitment=digest,
                companions_digest=None if salt_hex is None else companions_digest(codes(companions), salt_hex),
            )
            return _set(
                state,
                submissions=_put(state.submissions, seat, sub),
                serials=_put(state.serials, seat, state.serials[seat] + 1),
            )
        case AuxiliaryUsed(seat=seat, slot=slot, card=code):
            return _set(
                state,
                hands=_put(state.hands, seat, (*state.hands[seat], parse_card(code))),
                aux_used=_put(state.aux_used, seat, state.aux_used[seat] + 1),
                aux_pending=_put(state.aux_pending, seat, (*state.aux_pending[seat], slot)),
            )
        case RoundResolved():
            return _evolve_resolved(state, event)
        case RoundOpened(round=round_no, attempt=attempt, required=required):
            n = state.n
            return _set(
                state,
                round=round_no,
                attempt=attempt,
                required=required,
                submissions=(None,) * n,
                serials=(0,) * n,
                aux_pending=((),) * n,
            )
        case CardsDealt(seat=seat, cards=dealt_codes):
            dealt = parse_cards(dealt_codes)
            return _set(
                state, hands=_put(state.hands, seat, (*state.hands[seat], *dealt)), stock=_minus(state.stock, dealt)
            )
        case AuxiliaryDealt(seat=seat, cards=aux_codes):
            aux = parse_cards(aux_codes)
            return _set(state, aux=_put(state.aux, seat, aux), stock=_minus(state.stock, aux))
        case PlayerEliminated(seat=seat, points=points):
            s = _evolve_eliminated(state, seat)
            return _set(s, hand_points=_put(s.hand_points, seat, points))
        case EliminatedPileRestocked(order=order_codes):
            order = parse_cards(order_codes)
            k = state.restocks + 1
            return _set(
                state,
                stock=(*state.stock, *order),
                pile=(),
                restocks=k,
                shuffles=(*state.shuffles, Shuffle("eliminated_pile", eliminated_pile_label(k), order)),
            )
        case HandCardsRedealt(order=order_codes):
            order = parse_cards(order_codes)
            hands = tuple(() if state.live[s] else h for s, h in enumerate(state.hands))
            return _set(
                state,
                hands=hands,
                stock=(*state.stock, *order),
                redealt=True,
                shuffles=(*state.shuffles, Shuffle("redeal", REDEAL_LABEL, order)),
            )
        case HandWon(seat=seat, laid_down=laid_codes, points=points):
            laid = parse_cards(laid_codes)
            return _set(
                state,
                hands=_put(state.hands, seat, _minus(state.hands[seat], laid)),
                companions=_put(state.companions, seat, _minus(state.companions[seat], laid)),
                revealed=_put(state.revealed, seat, (*state.revealed[seat], *laid)),
                hand_points=_put(state.hand_points, seat, points),
            )
        case HandStarted():
            return _evolve_hand_started(state, event)
        case HandEnded(totals=totals, hand_points=points, bonus_factor=factor):
            return _set(
                state,
                phase=HAND_OVER,
                totals=tuple(totals),
                hand_points=tuple(points),
                next_bonus_factor=factor,
                last=event,
                submissions=(None,) * state.n,
            )
        case MatchEnded(winner=winner):
            return _set(state, phase=MATCH_OVER, winner=winner)
        case MatchStarted():
            return _set(state, match_started=True)
    return state  # ShuffleCommitted, NobodyCouldReveal, ShuffleRevealed change nothing


# --------------------------------------------------------------------------- refusals


def _where(state: RomisState) -> str:
    return f"(romis, hand {state.hand_no}, round {state.round}, attempt {state.attempt})"


def _reject(state: RomisState, reason: str, rule: str, message: str) -> CommandRejected:
    """A refusal naming its reason code, rule and the input (STYLE habit 5)."""
    return CommandRejected(reason, rule, f"{message} {_where(state)}")


def _common(state: RomisState, seat: int, what: str, *, resubmit: bool) -> None:
    """``hand_over`` (R4.1), ``eliminated`` (R7.3), ``already_submitted`` (R5.2; not for a new
    submission with the ``resubmit`` option, R12.4).

    Raises:
        InvalidInput: ``seat`` is not a seat of the table (``bad_seat``).
        CommandRejected: the first refusal that applies.
    """
    if state.phase is not PLAY:
        raise _reject(state, "hand_over", "R4.1", f"{what} by seat {seat}: no hand is in progress")
    if not 0 <= seat < state.n:
        raise InvalidInput(f"romis: seat {seat} is not a seat 0..{state.n - 1} (R2.4)", reason="bad_seat")
    if not state.live[seat]:
        raise _reject(state, "eliminated", "R7.3", f"{what} by seat {seat}: he is out of this hand")
    if state.submissions[seat] is not None and not resubmit:
        raise _reject(
            state, "already_submitted", "R5.2", f"{what} by seat {seat}: he has already submitted in this round"
        )


def _can_reveal(state: RomisState, seat: int) -> bool:
    return has_legal_reveal(state.round, state.hands[seat], state.companions[seat], state.revealed[seat])


def _describe(cmd: Reveal) -> str:
    out = "reveal " + " ".join(c.code for c in cmd.cards)
    if cmd.companions:
        out += " with companions " + " ".join(c.code for c in cmd.companions)
    return out


# --------------------------------------------------------------------------- decide


def _decide_next_hand(state: RomisState, cmd: NextHand) -> tuple[Event, ...]:
    """R3.1-R3.8, R13.4: the commitment, the hands, the auxiliary cards, round 1."""
    if state.phase is MATCH_OVER:
        raise _reject(state, "match_over", "R11.1", "next_hand: the match is over")
    if state.phase is PLAY:
        raise _reject(state, "hand_in_progress", "R10.9", f"next_hand: hand {state.hand_no} is still in progress")
    order = tuple(cmd.deal.order)
    if len(order) != len(DECK) or frozenset(order) != _DECK_SET:
        raise _reject(state, "bad_deal", "R3.7", "next_hand: the deal is not exactly the 52-card deck (R2.1)")
    acc = Acc(state, evolve)
    dealer = upcoming_dealer(state)
    n = state.n
    if not state.match_started:
        acc.emit(MatchStarted.of(state.config, state.options.to_dict(), dealer, state.totals))
    digest = commitment(cmd.deal.seed, order)
    hand_no = state.hand_no + 1
    acc.emit(
        HandStarted(
            hand_no=hand_no,
            dealer=dealer,
            bonus_factor=state.next_bonus_factor,
            explicit_deal=cmd.deal.explicit,
            commitment=digest,
            seed=cmd.deal.seed,
            deck=codes(order),
            secret=cmd.deal.secret if cmd.deal.explicit else None,
        )
    )
    acc.emit(ShuffleCommitted(hand_no=hand_no, purpose="deal", commitment=digest))
    hands, aux, _ = deal_layout(order, dealer, n)
    seq = seat_order(dealer, n)
    for seat in seq:
        acc.emit(CardsDealt(seat=seat, count=HAND_SIZE, stage="hand", cards=codes(hands[seat])))
    for seat in seq:
        acc.emit(AuxiliaryDealt(seat=seat, count=AUX_COUNT, cards=codes(aux[seat])))
    acc.emit(RoundOpened(round=1, attempt=1, required=required_count(1), live=tuple(range(n))))
    return tuple(acc.events)


def _decide_use_auxiliary(state: RomisState, cmd: UseAuxiliary) -> tuple[Event, ...]:
    """R6.1, R6.2, R13.2: ``no_auxiliary``, ``reveal_possible`` after the common refusals."""
    seat = cmd.seat
    _common(state, seat, "use_auxiliary", resubmit=False)
    used = state.aux_used[seat]
    if used >= AUX_COUNT:
        raise _reject(state, "no_auxiliary", "R6.2", f"use_auxiliary by seat {seat}: both auxiliary cards are used")
    if _can_reveal(state, seat):
        raise _reject(state, "reveal_possible", "R6.1", f"use_auxiliary by seat {seat}: he has a legal reveal")
    return (AuxiliaryUsed(seat=seat, slot=used + 1, card=state.aux[seat][used].code),)


def _check_submission(state: RomisState, cmd: Reveal | Cannot) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """R13.1 / R13.3 refusals; the canonical cards and companions of an accepted reveal."""
    seat = cmd.seat
    if isinstance(cmd, Cannot):
        _common(state, seat, "cannot", resubmit=state.options.resubmit)
        if _can_reveal(state, seat):
            raise _reject(state, "reveal_possible", "R4.7", f"cannot by seat {seat}: he has a legal reveal")
        if state.aux_used[seat] < AUX_COUNT:
            raise _reject(
                state, "auxiliary_left", "R6.3", f"cannot by seat {seat}: an auxiliary card is left to turn up"
            )
        return (), ()
    what = _describe(cmd)
    _common(state, seat, what, resubmit=state.options.resubmit)
    refusal = check_reveal(
        state.round, state.hands[seat], state.companions[seat], state.revealed[seat], cmd.cards, cmd.companions
    )
    if refusal is not None:
        raise _reject(state, refusal.reason, refusal.rule, f"{what} by seat {seat}: {refusal.message}")
    return sorted_cards(cmd.cards), sorted_cards(cmd.companions)


def _decide_submission(state: RomisState, cmd: Reveal | Cannot) -> tuple[Event, ...]:
    """R5.1-R5.3: seal the submission; resolve the round when it is the last one."""
    cards, companions = _check_submission(state, cmd)
    seat = cmd.seat
    kind = "cannot" if isinstance(cmd, Cannot) else "reveal"
    serial = state.serials[seat]
    nonce_hex = nonce(state.secret, state.hand_no, seat, state.round, state.attempt, serial)
    if kind == "cannot":
        salt_hex: str | None = None
        sealed = canonical_payload(kind)
        stored: dict[str, Any] = {"kind": kind}
    else:
        salt_hex = companions_salt(state.secret, state.hand_no, seat, state.round, state.attempt, serial)
        sealed = canonical_payload(kind, codes(cards), companions_digest(codes(companions), salt_hex))
        stored = {"kind": kind, "cards": codes(cards), "companions": codes(companions)}
    digest = submission_commitment(seat, state.round, state.attempt, sealed, nonce_hex)
    acc = Acc(state, evolve)
    acc.emit(
        SubmissionSealed(
            seat=seat,
            round=state.round,
            attempt=state.attempt,
            commitment=digest,
            payload=stored,
            nonce=nonce_hex,
            companions_salt=salt_hex,
        )
    )
    st = acc.state
    if all(st.submissions[s] is not None for s in range(st.n) if st.live[s]):
        _resolve(acc)
    return tuple(acc.events)


def _resolve(acc: Acc[RomisState]) -> None:
    """R5.3, R7, R10.1, R10.5, then the next deal and round."""
    st = acc.state
    n = st.n
    kinds: list[str | None] = [None] * n
    shown: list[tuple[str, ...]] = [()] * n
    fresh = [False] * n
    laid = [0] * n
    nonces: list[str | None] = [None] * n
    digests: list[str | None] = [None] * n
    for seat in range(n):
        sub = st.submissions[seat]
        if not st.live[seat] or sub is None:
            continue
        kinds[seat], shown[seat], nonces[seat] = sub.kind, codes(sub.cards), sub.nonce
        digests[seat] = sub.companions_digest
        fresh[seat], laid[seat] = bool(sub.companions), len(sub.companions)
    acc.emit(
        RoundResolved(
            round=st.round,
            attempt=st.attempt,
            kinds=tuple(kinds),
            cards=tuple(shown),
            new_combination=tuple(fresh),
            companions=tuple(laid),
            auxiliary_slots=st.aux_pending,
            nonces=tuple(nonces),
            companion_digests=tuple(digests),
        )
    )
    anyone = any(k == "reveal" for k in kinds)
    if anyone:
        for seat in seat_order(st.dealer, n, st.live):
            if kinds[seat] == "cannot":
                s = acc.state
                acc.emit(
                    PlayerEliminated(seat=seat, round=st.round, points=len(s.revealed[seat]), hand=codes(s.hands[seat]))
                )
    st = acc.state
    live = [s for s in range(n) if st.live[s]]
    if len(live) == 1:
        _win(acc, live[0])
        return
    if sum(len(st.revealed[s]) for s in live) == len(DECK):
        _end(acc, "all_revealed")
        return
    if not anyone:
        acc.emit(NobodyCouldReveal(round=st.round, attempt=st.attempt))
        if not _extra(acc):
            return
        acc.emit(RoundOpened(round=st.round, attempt=st.attempt + 1, required=st.required, live=tuple(live)))
        return
    if st.round == 1:
        _deal(acc, "first_deal", FIRST_DEAL, seat_order(st.dealer, n, st.live))
    elif st.round == 2:
        _deal(acc, "second_deal", SECOND_DEAL, seat_order(st.dealer, n, st.live))
    nxt = st.round + 1
    acc.emit(RoundOpened(round=nxt, attempt=1, required=required_count(nxt), live=tuple(live)))


def _deal(acc: Acc[RomisState], stage: str, per_seat: int, seats: Sequence[int]) -> None:
    """Deal ``per_seat`` cards one at a time to ``seats`` in that order (R4.3, R4.5, R7.4).  When a card
    is needed and the stock is empty, the eliminated pile is shuffled and becomes the stock (R9.1; its
    events come first); when both are exhausted the deal stops (R9.2, R9.5)."""
    st = acc.state
    stock = list(st.stock)
    restocked: tuple[Card, ...] | None = None
    got: dict[int, list[Card]] = {s: [] for s in seats}
    dry = False
    for _ in range(per_seat):
        for seat in seats:
            if not stock and restocked is None and st.pile:
                label = eliminated_pile_label(st.restocks + 1)
                restocked = shuffle(st.pile, st.secret, label)
                stock = list(restocked)
            if not stock:
                dry = True
                break
            got[seat].append(stock.pop(0))
        if dry:
            break
    if restocked is not None:
        order = codes(restocked)
        label = eliminated_pile_label(st.restocks + 1)
        acc.emit(
            ShuffleCommitted(
                hand_no=st.hand_no,
                purpose="eliminated_pile",
                commitment=shuffle_commitment(order, salt(st.secret, label)),
            )
        )
        acc.emit(EliminatedPileRestocked(count=len(order), order=order))
    for seat in seats:
        if got[seat]:
            acc.emit(CardsDealt(seat=seat, count=len(got[seat]), stage=stage, cards=codes(got[seat])))


def _extra(acc: Acc[RomisState]) -> bool:
    """R7.4, R7.5, R9.1-R9.4: one extra card for each live seat without auxiliary cards; with no card
    left anywhere, the hand's one redeal; after it, the stalemate.  False when the hand ended."""
    st = acc.state
    if st.stock or st.pile:
        seats = [s for s in seat_order(st.dealer, st.n, st.live) if st.aux_used[s] >= AUX_COUNT]
        _deal(acc, "extra", 1, seats)
        return True
    if not st.redealt:
        _redeal(acc)
        return True
    _end(acc, "stalemate")
    return False


def _redeal(acc: Acc[RomisState]) -> None:
    """R9.3: the live seats' hand cards, gathered in the seat order after the dealer, are shuffled and
    dealt again one at a time in that order, each seat receiving as many as he had (R9.6)."""
    st = acc.state
    seats = seat_order(st.dealer, st.n, st.live)
    gathered = [c for s in seats for c in st.hands[s]]
    counts = tuple(len(st.hands[s]) if st.live[s] else 0 for s in range(st.n))
    order = shuffle(gathered, st.secret, REDEAL_LABEL)
    order_codes = codes(order)
    acc.emit(
        ShuffleCommitted(
            hand_no=st.hand_no,
            purpose="redeal",
            commitment=shuffle_commitment(order_codes, salt(st.secret, REDEAL_LABEL)),
        )
    )
    acc.emit(HandCardsRedealt(counts=counts, order=order_codes))
    got: dict[int, list[Card]] = {s: [] for s in seats}
    queue = list(order)
    while queue:
        for seat in seats:
            if queue and len(got[seat]) < counts[seat]:
                got[seat].append(queue.pop(0))
    for seat in seats:
        if got[seat]:
            acc.emit(CardsDealt(seat=seat, count=len(got[seat]), stage="redeal", cards=codes(got[seat])))


def _win(acc: Acc[RomisState], seat: int) -> None:
    """R10.1-R10.4, R10.6: the final lay-down and the winner's points."""
    st = acc.state
    laid = final_lay_down(st.hands[seat], st.companions[seat], st.revealed[seat])
    count = len(st.revealed[seat]) + len(laid)
    multiplier = MULTIPLIERS[AUX_COUNT - st.aux_used[seat]]
    bonus = st.n * st.bonus_factor
    acc.emit(
        HandWon(
            seat=seat,
            laid_down=codes(laid),
            revealed_count=count,
            multiplier=multiplier,
            bonus=bonus,
            points=multiplier * count + bonus,
        )
    )
    _end(acc, "winner", seat)


def _end(acc: Acc[RomisState], reason: str, winner: int | None = None) -> None:
    """R10.5-R10.7, R10.9, R11: the hand's points and totals, every hidden card and shuffle, the match."""
    st = acc.state
    n = st.n
    points = list(st.hand_points)
    if reason != "winner":  # R10.5, R10.7: each live seat scores his revealed cards
        for seat in range(n):
            if st.live[seat]:
                points[seat] = len(st.revealed[seat])
    factor = 1 if reason == "winner" else st.bonus_factor + 1 if reason == "all_revealed" else st.bonus_factor
    totals = tuple(t + p for t, p in zip(st.totals, points, strict=True))
    acc.emit(
        HandEnded(
            hand_no=st.hand_no,
            reason=reason,
            winner=winner,
            hand_points=tuple(points),
            totals=totals,
            bonus_factor=factor,
            hands=tuple(codes(st.hands[s]) if st.live[s] else () for s in range(n)),
            eliminated_hands=tuple(codes(h) for h in st.eliminated_hands),
            auxiliary=tuple(codes(a) for a in st.aux),
            companions=tuple(codes(c) for c in st.companions),
        )
    )
    deal, *later = st.shuffles
    acc.emit(
        ShuffleRevealed(
            hand_no=st.hand_no,
            purpose=deal.purpose,
            order=codes(deal.order),
            salt=st.seed or "",
            later=tuple((sh.purpose, codes(sh.order), salt(st.secret, sh.label)) for sh in later),
            secret=None if st.seed is not None else st.secret,
        )
    )
    leader = sole_leader(totals, st.options.target_score)  # R11.1, R11.2
    if leader is not None:
        acc.emit(MatchEnded(winner=leader, totals=totals))


decide: Callable[[RomisState, Command], tuple[Event, ...]] = dispatch(
    "romis",
    {
        Reveal: _decide_submission,
        Cannot: _decide_submission,
        UseAuxiliary: _decide_use_auxiliary,
        NextHand: _decide_next_hand,
    },
)
"""Validate ``command`` against ``state`` and return the events it causes (section 8).

Raises:
    CommandRejected: the rules refuse the command; ``reason`` and ``rule`` name why (R13.1-R13.4).
    InvalidInput: the command names a seat that is not at the table (``bad_seat``).
"""


# --------------------------------------------------------------------------- legal commands


def legal_commands(state: RomisState, seat: int) -> tuple[Command, ...]:
    """Every command ``seat`` may issue now (section 8), agreeing with ``decide``.

    During a round, for a live seat that has not submitted (or, with the ``resubmit`` option, also one
    that has, R12.4): every legal reveal in canonical form (R4.7, R8; see
    :func:`~trapoula.domain.games.romis.reveals.legal_reveals`); when there is none, ``use_auxiliary``
    while an auxiliary card is left and the seat has not submitted (R6.1), else ``cannot`` (R6.3).
    """
    if state.phase is not PLAY or not 0 <= seat < state.n or not state.live[seat]:
        return ()
    submitted = state.submissions[seat] is not None
    if submitted and not state.options.resubmit:
        return ()
    choices = legal_reveals(state.round, state.hands[seat], state.companions[seat], state.revealed[seat])
    if choices:
        return tuple(Reveal(seat, cards, companions) for cards, companions in choices)
    if state.aux_used[seat] < AUX_COUNT:
        return () if submitted else (UseAuxiliary(seat),)
    return (Cannot(seat),)


def acting(state: RomisState) -> tuple[int, ...]:
    """The seats the round waits for (R5.3): live seats that have not submitted in this attempt (with
    the ``resubmit`` option too: a seat that has submitted may still replace it, but is not waited for)."""
    if state.phase is not PLAY:
        return ()
    return tuple(s for s in range(state.n) if state.live[s] and state.submissions[s] is None)


hand_in_progress = PHASES.hand_in_progress

# --------------------------------------------------------------------------- deals and audit


def deck(state: RomisState) -> tuple[Card, ...]:
    """Romis's deck: the 52 cards (R2.1), canonical order."""
    return DECK


_bad_deal = deal_refusal("romis", EXPLICIT_DEAL_RULE)


def explicit_deal(state: RomisState, raw: Mapping[str, Any]) -> Deal:
    """Build the next hand's deal from ``{"hands": [[5 codes] per seat], "stock": [codes, top first]}``
    (R3.7), with an optional ``"dealer"`` that must be the next hand's dealer (:func:`upcoming_dealer`,
    R3.1, R3.8; R3.9).

    The auxiliary cards are the first 2n cards of ``stock`` (R3.7); the deck order is that of R3.6:
    the hands interleaved one card at a time from the seat after the dealer, then ``stock``.

    Raises:
        InvalidInput: unknown or missing fields, lists of the wrong size, codes that do not parse, a
            dealer that is not the next hand's, or cards that are not exactly the 52-card deck
            (``bad_deal``).
    """
    n = state.n
    dealer = upcoming_dealer(state)
    if deal_fields(raw, dealer, _bad_deal) != {"hands", "stock"}:
        raise _bad_deal(f"expected 'hands' and 'stock' (and optionally 'dealer'), not {sorted(map(str, raw))}")
    dealt = hands_in_deal_order(raw["hands"], n, HAND_SIZE, dealer, _bad_deal)
    stock = deal_cards(raw["stock"], "stock", len(DECK) - HAND_SIZE * n, _bad_deal)
    order = (*dealt, *stock)
    check_whole_deck(order, DECK, _bad_deal)
    return Deal(order=tuple(order), seed=None)


def _submission_command(event: SubmissionSealed) -> Reveal | Cannot:
    payload = event.payload
    if not isinstance(payload, Mapping):
        raise InvalidInput("romis: a SubmissionSealed without its payload (R5.2)", reason="bad_event")
    kind = payload.get("kind")
    if kind == "cannot":
        return Cannot(event.seat)
    if kind != "reveal":
        raise InvalidInput(f"romis: submission kind {str(kind)[:16]!r} (R5.1)", reason="bad_event")
    return Reveal(event.seat, parse_cards(payload.get("cards", ())), parse_cards(payload.get("companions", ())))


def command_for(state: RomisState, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, or None (section 8).

    ``MatchStarted`` and ``HandStarted`` open the table's ``next_hand``; ``AuxiliaryUsed`` a
    ``use_auxiliary``; ``SubmissionSealed`` the ``reveal`` or ``cannot`` of its (private) payload --
    and, for the last submission of a round, every event of the resolution that follows it.

    Raises:
        InvalidInput: a ``SubmissionSealed`` whose payload names no submission (``bad_event``), or a
            card code that does not parse (``bad_card``).
    """
    event = events[i]
    match event:
        case MatchStarted():
            nxt = events[i + 1] if i + 1 < len(events) else None
            if isinstance(nxt, HandStarted):
                return NextHand(Deal(order=parse_cards(nxt.deck), seed=nxt.seed, secret=nxt.secret))
            return None
        case HandStarted():
            if i > 0 and isinstance(events[i - 1], MatchStarted):
                return None
            return NextHand(Deal(order=parse_cards(event.deck), seed=event.seed, secret=event.secret))
        case AuxiliaryUsed(seat=seat):
            return UseAuxiliary(seat)
        case SubmissionSealed():
            return _submission_command(event)
    return None


def option_defaults() -> dict[str, Any]:
    """Every option with its default (section 7)."""
    return RomisOptions().to_dict()
