"""What each seat, or a spectator, may see of a Mau Mau match (S13, R2.5, DESIGN Visibility)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from trapoula.domain.cards import CardCode, SuitCode, canonical_codes, codes
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.games.frozen import remember_last
from trapoula.domain.games.mau_mau.commands import command_payload
from trapoula.domain.games.mau_mau.rules import legal_commands
from trapoula.domain.games.mau_mau.state import MauMauState, Phase
from trapoula.domain.games.shedding.state import LastHandView, last_hand_view, turn_keys
from trapoula.domain.wire import CommandPayload, OptionsPayload, Wire, values_of


class MauMauView(TypedDict):
    """What :func:`seat_view` returns (its docstring gives the keys; S13.1, S13.2, R2.5)."""

    game: Literal["mau_mau"]
    phase: Annotated[str, values_of(Phase)]
    hand_no: int
    dealer: int
    """-1 before the first hand."""
    first_player: int
    to_act: int | None
    seat: int | None
    """The viewer: a seat, or null for a spectator."""
    hand: NotRequired[list[CardCode]]
    """The viewer's own cards, canonical order; absent for a spectator or a seat number not in use."""
    hand_sizes: list[int]
    top_card: CardCode | None
    active_suit: SuitCode | None
    discard: list[CardCode]
    """The discard pile, bottom first."""
    stock_count: int
    pending_draw: int
    drawn_this_turn: bool
    direction: Annotated[int, Wire(enum=[1, -1])]
    """+1 clockwise, -1 after a 9 (R5.3)."""
    mau_called: bool
    ace_pending: bool
    totals: list[int | None]
    """Per seat number in use; null for a seat whose player left (R2.5)."""
    names: list[str | None]
    computers: list[str | None]
    """Each seat's computer level, null for a person: a skill of R7.2 (easy, medium, hard) or
    another level the table's bots play at (``bots.levels``: random, heuristic)."""
    seated: list[int]
    left: list[int]
    eliminated: list[int]
    seats_in_hand: list[int]
    commitment: str | None
    explicit_deal: bool
    match_winner: int | None
    options: OptionsPayload
    legal: list[CommandPayload]
    """The viewer's legal commands; empty for a spectator."""
    last_hand: NotRequired[LastHandView]
    """After a hand: how it ended."""


VIEW_TYPE = MauMauView
"""The type of this game's views (``GameSpec.view_type``)."""


def _per_seat(values: tuple[Any, ...], n: int, fill: Any) -> list[Any]:
    """``values`` as a list of one entry per seat number in use, padded with ``fill``."""
    return [*values[:n], *(fill,) * (n - len(values))]


@remember_last
def _public(state: MauMauState) -> tuple[Any, ...]:
    """What every viewer's view shows of ``state``, as immutable values (computed once for the
    views of all viewers): hand sizes, totals, names, computers, discard pile, seated, left,
    eliminated, seats in the hand, and the last hand's hands once it is over (or None)."""
    n = state.n
    vacant, left = state.vacant, state.left
    hands = state.hands
    totals = _per_seat(state.totals, n, 0)
    names = _per_seat(state.names, n, None)
    bots = _per_seat(state.bots, n, None)
    sizes = [len(h) for h in hands[:n]] + [0] * (n - len(hands)) if hands else [0] * n
    for s in vacant:
        sizes[s] = 0
    if left:
        for s in left:
            totals[s] = names[s] = bots[s] = None
    last = None
    if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER) and state.last_hands:
        last = tuple(codes(h) for h in _per_seat(state.last_hands, n, ()))
    return (
        tuple(sizes),
        tuple(totals),
        tuple(names),
        tuple(bots),
        tuple(c.code for c in state.discard),
        tuple(sorted(state.seated)),
        tuple(sorted(left)),
        tuple(sorted(state.eliminated)),
        tuple(sorted(state.in_hand)) if state.hand_no else (),
        last,
    )


def seat_view(state: MauMauState, viewer: Viewer) -> Payload:
    """The view of ``viewer`` (a seat, or None for a spectator), JSON-ready (S13.1, S13.2).

    Shape: ``game, phase, hand_no, dealer, first_player, to_act, seat, hand (own cards, canonical
    order; absent for a spectator or a seat number not in use), hand_sizes, top_card, active_suit,
    discard (bottom first), stock_count, pending_draw, drawn_this_turn, direction (+1 clockwise,
    -1 after a 9, R5.3), mau_called and ace_pending (the seat to act's call, R5.6.4, and its
    obligation after an ace, R5.5.1), totals, names, computers (skill or null), seated, left,
    eliminated, seats_in_hand, commitment, explicit_deal, match_winner, options, legal (command
    payloads), last_hand (after a hand: reason, winner, hands, hand_points)``.

    Per-seat lists run over every seat number in use (R2.5): a seat not in the hand has hand size
    0 (and hand points null in ``last_hand``), a seat whose player left has total and name null,
    an eliminated seat keeps its final total and name and is listed in ``eliminated``.  Never the
    stock's cards, another seat's hand, the seed or a leaver's card order before the hand ends
    (S13.3).
    """
    n = state.n
    top = state.top_card
    hands = state.hands
    sizes, totals, names, bots, discard, seated, left, eliminated, in_hand, last_hands = _public(state)
    view: dict[str, Any] = {
        "game": "mau_mau",
        **turn_keys(state),
        "seat": viewer,
        "hand_sizes": list(sizes),
        "top_card": top.code if top else None,
        "active_suit": state.active_suit.value if state.active_suit else None,
        "discard": list(discard),
        "stock_count": len(state.stock),
        "pending_draw": state.pending_draw,
        "drawn_this_turn": state.drawn,
        "direction": state.direction,
        "mau_called": state.mau_called,
        "ace_pending": state.ace_pending,
        "totals": list(totals),
        "names": list(names),
        "computers": list(bots),
        "seated": list(seated),
        "left": list(left),
        "eliminated": list(eliminated),
        "seats_in_hand": list(in_hand),
        "commitment": state.commitment or None,
        "explicit_deal": state.explicit_deal,
        "match_winner": state.match_winner,
        "options": state.options.to_dict(),
    }
    if viewer is not None and 0 <= viewer < n:
        own = () if viewer in state.vacant or viewer >= len(hands) else hands[viewer]
        view["hand"] = canonical_codes(own)
        view["legal"] = [command_payload(c) for c in legal_commands(state, viewer)]
    else:
        view["legal"] = []
    if last_hands is not None:
        view["last_hand"] = last_hand_view(state, last_hands, _per_seat(state.last_hand_points, n, None))
    return view
