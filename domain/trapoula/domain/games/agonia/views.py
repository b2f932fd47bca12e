"""What each seat, or a spectator, may see of an Agonia match (S13, DESIGN Visibility)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from trapoula.domain.cards import CardCode, codes
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.games.agonia.commands import command_payload
from trapoula.domain.games.agonia.rules import legal_commands
from trapoula.domain.games.agonia.state import AgoniaState
from trapoula.domain.games.shedding.commands import listed_payload
from trapoula.domain.games.shedding.state import LastHandView, ShedView, last_hand_view, public_parts, shed_keys


class AgoniaView(ShedView):
    """What :func:`seat_view` returns (its docstring gives the keys; S13.1, S13.2)."""

    game: Literal["agonia"]
    chooser: int | None
    """The seat that chooses the suit on an ace up-card (R7.2), else null."""
    hand: NotRequired[list[CardCode]]
    """The viewer's own cards, canonical order; absent for a spectator."""
    last_hand: NotRequired[LastHandView]
    """After a hand: how it ended."""


VIEW_TYPE = AgoniaView
"""The type of this game's views (``GameSpec.view_type``)."""


def seat_view(state: AgoniaState, viewer: Viewer) -> Payload:
    """The view of ``viewer`` (a seat, or None for a spectator), JSON-ready (S13.1, S13.2).

    Shape: ``game, phase, hand_no, dealer, first_player, to_act, chooser, seat, hand (own cards,
    canonical order; absent for a spectator), hand_sizes, top_card, active_suit, discard (bottom
    first), stock_count, pending_draw, drawn_this_turn, direction, totals, last_hand (after a hand:
    reason, winner, hands, hand_points), match_winner, options, legal (command payloads)``.
    Never the stock's cards, another seat's hand, or the seed before the hand ends (S13.3).
    """
    parts = public_parts(state)
    names, last_hands = parts[4:]
    view: dict[str, Any] = {
        "game": "agonia",
        **shed_keys(state, viewer, parts, chooser=state.chooser),
        "commitment": state.commitment or None,
        "explicit_deal": state.explicit_deal,
        "match_winner": state.match_winner,
        "options": state.options.to_dict(),
        "names": list(names),
    }
    if viewer is not None and 0 <= viewer < state.n:
        view["hand"] = list(codes(state.hands[viewer])) if state.hands else []  # canonical order (S2.3)
        view["legal"] = [listed_payload(c, command_payload) for c in legal_commands(state, viewer)]
    else:
        view["legal"] = []
    if last_hands is not None:
        view["last_hand"] = last_hand_view(state, last_hands, list(state.last_hand_points))
    return view
