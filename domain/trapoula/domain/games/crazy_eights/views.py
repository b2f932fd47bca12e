"""What each seat, or a spectator, may see of a Crazy Eights match (S13, DESIGN Visibility)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from trapoula.domain.cards import CardCode
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.games.crazy_eights.rules import legal_commands
from trapoula.domain.games.crazy_eights.state import CrazyEightsState
from trapoula.domain.games.shedding.commands import listed_payload
from trapoula.domain.games.shedding.state import LastHandView, ShedView, last_hand_view, public_parts, shed_keys


class CrazyEightsLastHand(LastHandView):
    """The ``last_hand`` of a Crazy Eights view (section 9)."""

    hand_values: list[int]
    """Each seat's card values left (R6.5)."""


class CrazyEightsView(ShedView):
    """What :func:`seat_view` returns (its docstring gives the keys; S13.1, S13.2)."""

    game: Literal["crazy_eights"]
    target: int | None
    """The points-game target (R6.6); null in the single game."""
    tied: list[int]
    """The seats sharing a tie that ended the match (R6.3)."""
    hand: NotRequired[list[CardCode]]
    """The viewer's own cards, canonical order; absent for a spectator."""
    last_hand: NotRequired[CrazyEightsLastHand]
    """After a hand: how it ended."""


VIEW_TYPE = CrazyEightsView
"""The type of this game's views (``GameSpec.view_type``)."""


def seat_view(state: CrazyEightsState, viewer: Viewer) -> Payload:
    """The view of ``viewer`` (a seat, or None for a spectator), JSON-ready (S13.1, S13.2).

    Shape: ``game, phase, hand_no, dealer, first_player, to_act, seat, hand (own cards, canonical
    order; absent for a spectator), hand_sizes, top_card, active_suit, discard (bottom first),
    stock_count, pending_draw, drawn_this_turn, direction (+1 clockwise, -1 after an odd number of
    reversing aces, R5.5), totals, target (the points-game target, R6.6; None in the single game),
    commitment, explicit_deal, match_winner, tied (the seats sharing a tie that ended the match,
    R6.3; empty otherwise), options, names, legal (command payloads), last_hand`` (after a hand:
    ``reason, winner, hands, hand_points, hand_values``, section 9).
    Never the stock's cards, another seat's hand, the seed, or where an 8 was buried before the
    hand ends (S13.3, R3.3).
    """
    parts = public_parts(state)
    names, last_hands = parts[4:]
    opts = state.options
    view: dict[str, Any] = {
        "game": "crazy_eights",
        **shed_keys(state, viewer, parts),
        "target": opts.target(state.n) if opts.scoring == "points" else None,
        "commitment": state.commitment or None,
        "explicit_deal": state.explicit_deal,
        "match_winner": state.match_winner,
        "tied": list(state.tied),
        "options": opts.to_dict(),
        "names": list(names),
    }
    if viewer is not None and 0 <= viewer < state.n:
        view["hand"] = [c.code for c in state.hands[viewer]] if state.hands else []  # canonical order (S2.3)
        view["legal"] = [listed_payload(c) for c in legal_commands(state, viewer)]
    else:
        view["legal"] = []
    if last_hands is not None:
        view["last_hand"] = {
            **last_hand_view(state, last_hands, list(state.last_hand_points)),
            "hand_values": list(state.last_hand_values),
        }
    return view
