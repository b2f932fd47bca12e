"""Top Card's rules as a decider (the rules are in the package docstring, T1-T8).

State, commands and options are small immutable values; cards are codes (``"7H"``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from top_card.events import CardPlayed, CardsDealt, HandEnded, HandStarted, MatchEnded, SeedRevealed, TrickWon
from trapoula.domain.cards import Card, codes, deck_52, parse_card, parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event, Payload, Viewer
from trapoula.domain.game import MatchConfig, NextHand, card_field, command_shape
from trapoula.domain.game import command_seat as command_seat  # the platform's, as the spec reads it
from trapoula.domain.game import deal_command as deal_command  # the platform's table deal
from trapoula.domain.lifecycle import MatchStarted

KEY = "top_card"
"""The game key."""
CARDS_EACH = 3
"""Cards dealt to each seat (T3), and tricks in a hand."""
RANKS = "23456789TJQKA"
"""Ranks from low to high (T5)."""
TARGET_DEFAULT, TARGET_MAX = 3, 50
"""``target_points``: its default and its largest value (T7)."""


@dataclass(frozen=True, slots=True)
class Options:
    """The table's options (T8)."""

    target_points: int = TARGET_DEFAULT
    """The total that ends the match (T7)."""


@dataclass(frozen=True, slots=True)
class Play:
    """``play``: ``seat`` plays ``card`` (T4)."""

    seat: int
    card: str


Command = Play | NextHand


@dataclass(frozen=True, slots=True)
class State:
    """A match of Top Card.  ``phase``: ``new``, ``play``, ``between`` or ``over``."""

    n: int
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    options: Options
    first_dealer: int
    phase: str = "new"
    hand_no: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    trick: tuple[tuple[int, str], ...] = ()
    """The cards played to the trick so far: (seat, card), in order."""
    to_act: int | None = None
    tricks_won: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    seed: str | None = None
    explicit: bool = False


def parse_options(raw: Mapping[str, Any]) -> Options:
    """The options of T8.

    Raises:
        InvalidInput: an unknown option (``bad_option``), a target that is no whole number in
            1..50 (``bad_option``).
    """
    unknown = sorted(str(k) for k in raw if k != "target_points")
    if unknown:
        raise InvalidInput(f"{KEY}: unknown option(s) {unknown}; known: target_points (T8)", reason="bad_option")
    target = raw.get("target_points", TARGET_DEFAULT)
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= TARGET_MAX:
        raise InvalidInput(
            f"{KEY}: target_points {str(target)[:20]!r} is not a whole number 1..{TARGET_MAX} (T7)", reason="bad_option"
        )
    return Options(target)


def option_defaults() -> Payload:
    """Every option with its default (T8)."""
    return {"target_points": TARGET_DEFAULT}


def initial_state(config: MatchConfig) -> State:
    """The match before its first deal (T1-T2).

    Raises:
        InvalidInput: 2-4 seats are needed (``bad_seats``), bad options, a bad first dealer.
    """
    n = len(config.seats)
    if not 2 <= n <= 4:
        raise InvalidInput(f"{KEY}: {n} seats; Top Card takes 2 to 4 (T1)", reason="bad_seats")
    dealer = 0 if config.first_dealer is None else config.first_dealer
    if not 0 <= dealer < n:
        raise InvalidInput(f"{KEY}: first dealer {dealer} is not a seat (T2)", reason="bad_dealer")
    totals = config.initial_totals if config.initial_totals is not None else (0,) * n
    return State(
        n=n,
        names=tuple(s.name for s in config.seats),
        bots=tuple(s.bot for s in config.seats),
        options=parse_options(config.options),
        first_dealer=dealer,
        totals=tuple(totals),
    )


def deck(state: State) -> tuple[Card, ...]:
    """The 52 cards in canonical order (T3)."""
    return deck_52()


def needs_deal(state: State) -> bool:
    """True before a hand (T3)."""
    return state.phase in ("new", "between")


def is_terminal(state: State) -> bool:
    """True once a total reached the target (T7)."""
    return state.phase == "over"


def hand_in_progress(state: State) -> bool:
    """True while a hand is played (its cards hidden)."""
    return state.phase == "play"


def legal_commands(state: State, seat: int) -> tuple[Command, ...]:
    """The seat to act plays any card of its hand (T4); nobody else acts."""
    if state.phase != "play" or seat != state.to_act:
        return ()
    return tuple(Play(seat, card) for card in state.hands[seat])


def _strength(card: str) -> int:
    return RANKS.index(card[0])


def decide(state: State, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes (T3-T7).

    Raises:
        CommandRejected: ``hand_in_progress`` / ``match_over`` for a deal out of place (T3),
            ``not_your_turn``, ``card_not_in_hand`` (T4), ``hand_over``.
    """
    if isinstance(command, NextHand):
        if state.phase == "over":
            raise CommandRejected("match_over", "T7", "the match is over")
        if state.phase == "play":
            raise CommandRejected("hand_in_progress", "T3", "a hand is being played")
        return _deal(state, command.deal)
    if state.phase != "play":
        raise CommandRejected("hand_over", "T4", "no hand is being played")
    if command.seat != state.to_act:
        raise CommandRejected("not_your_turn", "T4", f"seat {state.to_act} plays now, not seat {command.seat}")
    if command.card not in state.hands[command.seat]:
        raise CommandRejected("card_not_in_hand", "T4", f"{command.card} is not in seat {command.seat}'s hand")
    events: list[Event] = [CardPlayed(command.seat, command.card)]
    trick = (*state.trick, (command.seat, command.card))
    if len(trick) < state.n:
        return tuple(events)
    best = max(range(len(trick)), key=lambda k: (_strength(trick[k][1]), -k))
    winner = trick[best][0]
    trick_no = CARDS_EACH - len(state.hands[command.seat]) + 1
    events.append(TrickWon(winner, trick_no))
    if trick_no < CARDS_EACH:
        return tuple(events)
    won = [w + (1 if s == winner else 0) for s, w in enumerate(state.tricks_won)]
    totals = tuple(t + w for t, w in zip(state.totals, won, strict=True))
    top = max(won)
    hand_winner = won.index(top) if won.count(top) == 1 else None
    events += [HandEnded(hand_winner, tuple(won), totals), SeedRevealed(state.seed)]
    if max(totals) >= state.options.target_points:
        best_total = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best_total]
        events.append(MatchEnded(leaders[0] if len(leaders) == 1 else None, totals))
    return tuple(events)


def _deal(state: State, deal: Deal) -> tuple[Event, ...]:
    hand_no = state.hand_no + 1
    dealer = state.first_dealer if hand_no == 1 else (state.dealer + 1) % state.n
    order = codes(deal.order)
    events: list[Event] = []
    if state.phase == "new":
        events.append(
            MatchStarted(
                game=KEY,
                names=state.names,
                bots=state.bots,
                options={"target_points": state.options.target_points},
                first_dealer=state.first_dealer,
                initial_totals=state.totals,
            )
        )
    events.append(HandStarted(hand_no, dealer, deal.explicit, deal.commitment, deal.seed, tuple(order)))
    for k in range(state.n):
        seat = (dealer + 1 + k) % state.n
        events.append(CardsDealt(seat, tuple(order[j] for j in range(k, CARDS_EACH * state.n, state.n))))
    return tuple(events)


def evolve(state: State, event: Event) -> State:
    """Apply one event (trusted)."""
    match event:
        case MatchStarted():
            return state
        case HandStarted(hand_no=hand_no, dealer=dealer, seed=seed, explicit_deal=explicit):
            first = (dealer + 1) % state.n
            return replace(
                state,
                phase="play",
                hand_no=hand_no,
                dealer=dealer,
                hands=((),) * state.n,
                trick=(),
                to_act=first,
                tricks_won=(0,) * state.n,
                seed=seed,
                explicit=explicit,
            )
        case CardsDealt(seat=seat, cards=cards):
            hands = list(state.hands)
            hands[seat] = tuple(cards)
            return replace(state, hands=tuple(hands))
        case CardPlayed(seat=seat, card=card):
            hands = list(state.hands)
            hands[seat] = tuple(c for c in hands[seat] if c != card)
            return replace(state, hands=tuple(hands), trick=(*state.trick, (seat, card)), to_act=(seat + 1) % state.n)
        case TrickWon(seat=seat):
            won = tuple(w + (1 if s == seat else 0) for s, w in enumerate(state.tricks_won))
            return replace(state, trick=(), to_act=seat, tricks_won=won)
        case HandEnded(totals=totals):
            return replace(state, phase="between", to_act=None, totals=tuple(totals))
        case SeedRevealed():
            return state
        case MatchEnded():
            return replace(state, phase="over")
    raise InvalidInput(f"{KEY}: {type(event).__name__} is not an event of the game", reason="bad_event")


def seat_view(state: State, viewer: Viewer) -> Payload:
    """What ``viewer`` (a seat, or None for a spectator) sees: its own hand only (T3)."""
    legal = [command_payload(c) for c in legal_commands(state, viewer)] if viewer is not None else []
    return {
        "game": KEY,
        "seat": viewer,
        "phase": state.phase,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "hand": list(state.hands[viewer]) if viewer is not None and state.hands else None,
        "hand_sizes": [len(h) for h in state.hands],
        "trick": [[s, c] for s, c in state.trick],
        "totals": list(state.totals),
        "target_points": state.options.target_points,
        "legal": legal,
    }


COMMAND_FIELDS = {"play": (frozenset({"kind", "seat", "card"}), frozenset())}
"""The seat commands' fields (T4)."""


def parse_command(raw: Mapping[str, Any]) -> Command:
    """A command from plain data: ``{"kind": "play", "seat": 0, "card": "7H"}`` or
    ``{"kind": "next_hand", "deal": ...}`` (which needs a Deal, built by the table).

    Raises:
        InvalidInput: not a command of the game (``bad_command``), a bad card code (``bad_card``).
    """
    if isinstance(raw, Mapping) and raw.get("kind") == "next_hand" and isinstance(raw.get("deal"), Deal):
        return NextHand(raw["deal"])
    _, seat = command_shape(KEY, raw, COMMAND_FIELDS)
    return Play(seat, card_field(KEY, raw["card"], "card").code)


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command."""
    if isinstance(command, Play):
        return {"kind": "play", "seat": command.seat, "card": command.card}
    return {"kind": "next_hand"}


def explicit_deal(state: State, raw: Mapping[str, Any]) -> Deal:
    """An explicit deal ``{"hands": [[3 codes] per seat, from the seat after the dealer]}`` (T3):
    the deck order deals those cards, the rest of the deck follows in canonical order.

    Raises:
        InvalidInput: not that shape, a code that is no card, a card twice (``bad_deal``).
    """
    hands = raw.get("hands") if isinstance(raw, Mapping) else None
    if set(raw) - {"hands"} or not isinstance(hands, list) or len(hands) != state.n:
        raise InvalidInput(f"{KEY}: an explicit deal is {{'hands': [{state.n} lists of 3 cards]}} (T3)", "bad_deal")
    if any(not isinstance(h, list) or len(h) != CARDS_EACH for h in hands):
        raise InvalidInput(f"{KEY}: each hand of an explicit deal holds {CARDS_EACH} cards (T3)", "bad_deal")
    dealt = [parse_card(hands[k][j]) for j in range(CARDS_EACH) for k in range(state.n)]
    if len(set(dealt)) != len(dealt):
        raise InvalidInput(f"{KEY}: an explicit deal names a card twice (T3)", "bad_deal")
    rest = [c for c in deck_52() if c not in set(dealt)]
    return Deal(order=(*dealt, *rest))


def command_for(state: State, events: Sequence[Event], i: int) -> Command | None:
    """For an audit: the command whose events start at ``events[i]``, else None."""
    event = events[i]
    if isinstance(event, MatchStarted):
        nxt = events[i + 1] if i + 1 < len(events) else None
        event = nxt if isinstance(nxt, HandStarted) else event
    if isinstance(event, HandStarted):
        return NextHand(Deal(order=parse_cards(event.deck), seed=event.seed))
    if isinstance(event, CardPlayed):
        return Play(event.seat, event.card)
    return None


def random_bot(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> Mapping[str, Any]:
    """``random``: any card (T4)."""
    return rng.choice(legal)


def heuristic_bot(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> Mapping[str, Any]:
    """``heuristic``: the highest card when it beats the trick so far, else the lowest (T5)."""
    ranked = sorted(legal, key=lambda c: _strength(str(c["card"])))
    best_so_far = max((_strength(c) for _, c in view.get("trick") or ()), default=-1)
    top = ranked[-1]
    return top if _strength(str(top["card"])) > best_so_far else ranked[0]
