"""What each seat, or a spectator, may see of a Giminaičiai match (section 9, DESIGN Visibility)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from trapoula.domain.cards import CardCode, canonical_codes, codes
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.games.frozen import remember_last
from trapoula.domain.games.giminaiciai.commands import command_payload
from trapoula.domain.games.giminaiciai.rules import hand_in_progress, legal_commands, upcoming_dealer
from trapoula.domain.games.giminaiciai.state import GiminaiciaiState, Phase
from trapoula.domain.games.rulekit import EndedHandView, ScoredMatchView, ended_hand_view
from trapoula.domain.wire import CommandPayload, values_of

__all__ = ["VIEW_TYPE", "GiminaiciaiView", "seat_view"]


class GiminaiciaiLastHand(EndedHandView):
    """The ``last_hand`` of a Giminaičiai view (section 9)."""

    remaining: list[list[CardCode]] | None
    """The cards unfinished players held (R8.2), until the next hand starts; then null."""


class GiminaiciaiView(ScoredMatchView):
    """What :func:`seat_view` returns (its docstring gives the keys; section 9)."""

    game: Literal["giminaiciai"]
    seat: int | None
    """The viewer: a seat, or null for a spectator."""
    phase: Annotated[str, values_of(Phase)]
    to_act: int | None
    drawn: bool
    taken: CardCode | None
    discard_pile: list[CardCode]
    discard_top: CardCode | None
    laid: list[list[list[CardCode]]]
    """Each seat's laid groups, as listed (R5.5)."""
    finished: list[int]
    last_hand: GiminaiciaiLastHand | None
    legal: list[CommandPayload]
    """The viewer's legal commands; empty for others and spectators."""


VIEW_TYPE = GiminaiciaiView
"""The type of this game's views (``GameSpec.view_type``)."""


@remember_last
def _public(state: GiminaiciaiState) -> tuple[Any, ...]:
    """What every viewer's view shows of ``state``, as immutable values (computed once for the
    views of all viewers): names, hand sizes, discard pile and the groups laid down."""
    n = state.n
    in_hand = hand_in_progress(state)
    hands = state.hands if state.hands else ((),) * n
    return (
        tuple(s.name for s in state.config.seats),
        tuple(len(h) for h in hands) if in_hand else (0,) * n,
        codes(state.pile) if in_hand else (),
        tuple(tuple(codes(g) for g in groups) for groups in state.laid) if state.laid else ((),) * n,
    )


def seat_view(state: GiminaiciaiState, viewer: Viewer) -> Payload:
    """The view of ``viewer`` (a seat, or None for a spectator), JSON-ready (section 9).

    Keys: ``game, seat, phase`` (``new``, ``play``, ``hand_over``, ``match_over``), ``names, players,
    hand_no, dealer, first_dealer, to_act, drawn`` (the seat to act has drawn, R4.3), ``taken`` (the
    card he took from the discard pile this turn, R4.5), ``commitment, explicit_deal, hand`` (own cards,
    canonical order; [] for a spectator and a finished seat), ``hand_sizes, stock_count,
    discard_pile`` (bottom first; public, R3.4), ``discard_top, laid`` (each seat's laid groups as
    listed, R5.5), ``finished`` (seats in the order they finished), ``hand_points`` (this hand so far,
    R7), ``totals`` (before this hand while it lasts, after it once it ended), ``target_score``,
    ``last_hand`` (``{hand_no, reason, winner, hand_points, totals, remaining}`` of the last finished
    hand: ``remaining`` shows the cards unfinished players held, R8.2), ``hand_over, next_dealer,
    match_over, winner, options, legal`` (this seat's legal command payloads; [] for others and
    spectators).

    Never shows another seat's cards during a hand, the stock's cards, the deck or the seed.
    """
    n = state.n
    seat = viewer if viewer is not None and 0 <= viewer < n else None
    phase = state.phase
    in_hand = hand_in_progress(state)
    last = state.last
    hands = state.hands if state.hands else ((),) * n
    names, sizes, pile, laid = _public(state)
    view: dict[str, Any] = {
        "game": "giminaiciai",
        "seat": viewer,
        "phase": phase.value,
        "names": list(names),
        "players": n,
        "hand_no": state.hand_no,
        "dealer": state.dealer if state.dealer >= 0 else None,
        "first_dealer": state.first_dealer,
        "to_act": state.to_act if in_hand else None,
        "drawn": state.drawn if in_hand else False,
        "taken": state.taken.code if in_hand and state.taken is not None else None,
        "commitment": state.commitment or None,
        "explicit_deal": state.explicit_deal,
        "hand": canonical_codes(hands[seat]) if seat is not None and in_hand else [],
        "hand_sizes": list(sizes),
        "stock_count": len(state.stock) if in_hand else 0,
        "discard_pile": list(pile),
        "discard_top": state.pile[-1].code if in_hand and state.pile else None,
        "laid": [[list(g) for g in groups] for groups in laid],
        "finished": list(state.finished),
        "hand_points": list(state.hand_points) if state.hand_points else [0] * n,
        "totals": list(state.totals),
        "target_score": state.options.target_score,
        "last_hand": (
            {
                **ended_hand_view(last),
                # the cards left in hands are shown until the next hand starts (section 9)
                "remaining": [list(r) for r in last.remaining] if not in_hand else None,
            }
            if last is not None
            else None
        ),
        "hand_over": phase in (Phase.HAND_OVER, Phase.MATCH_OVER),
        "next_dealer": upcoming_dealer(state) if phase in (Phase.NEW, Phase.HAND_OVER) else None,
        "match_over": phase is Phase.MATCH_OVER,
        "winner": state.winner,
        "options": state.options.to_dict(),
        "legal": [command_payload(c) for c in legal_commands(state, seat)] if seat is not None else [],
    }
    return view
