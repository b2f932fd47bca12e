"""What each seat, or a spectator, may see of a Romis su iškritimu match (section 9, R5.4, DESIGN Visibility).

The public part of the view is that of the last resolved round (R5.4): hand sizes and auxiliary
counts leave out the auxiliary cards turned up in the current attempt, which only their owner
knows until the round resolves (R6.4).  Of a pending submission the others see only that it exists
and its commitment (R5.2).  So what another seat or a spectator is shown does not depend on
whether a seat revealed, turned up an auxiliary card or said it cannot, until the round resolves.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from trapoula.domain.cards import CardCode, canonical_codes, codes
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.games.romis.commands import command_payload
from trapoula.domain.games.romis.rules import AUX_COUNT, hand_in_progress, legal_commands, upcoming_dealer
from trapoula.domain.games.romis.state import Phase, RomisState
from trapoula.domain.games.rulekit import EndedHandView, ScoredMatchView, ended_hand_view
from trapoula.domain.wire import CommandPayload, Wire, values_of

__all__ = ["VIEW_TYPE", "RomisView", "seat_view"]

SubmissionKind = Annotated[str, Wire(enum=["reveal", "cannot"])]
"""What a sealed submission is (R13.1, R13.3)."""


class RomisLastRound(TypedDict):
    """The last ``RoundResolved`` of a Romis view, per seat (R5.3)."""

    round: int
    attempt: int
    kinds: list[SubmissionKind | None]
    cards: list[list[CardCode]]
    new_combination: list[bool]
    companions: list[int]
    auxiliary_slots: list[list[int]]
    nonces: list[str | None]


class RomisPending(TypedDict):
    """The viewer's own sealed submission (R5.2)."""

    kind: SubmissionKind
    cards: list[CardCode]
    companions: list[CardCode]


class RomisLastHand(EndedHandView):
    """The ``last_hand`` of a Romis view (section 9): its hidden cards until the next hand starts."""

    bonus_factor: int
    hands: NotRequired[list[list[CardCode]]]
    eliminated_hands: NotRequired[list[list[CardCode]]]
    auxiliary: NotRequired[list[list[CardCode]]]
    companions: NotRequired[list[list[CardCode]]]


class RomisView(ScoredMatchView):
    """What :func:`seat_view` returns (its docstring gives the keys; section 9, R5.4)."""

    game: Literal["romis"]
    seat: int | None
    """The viewer: a seat, or null for a spectator."""
    phase: Annotated[str, values_of(Phase)]
    bonus_factor: int
    round: int | None
    attempt: int | None
    required: int | None
    live: list[int]
    eliminated: list[int]
    submitted: list[int]
    commitments: list[str | None]
    waiting: list[int]
    auxiliary_counts: list[int]
    companion_counts: list[int]
    revealed: list[list[CardCode]]
    eliminated_pile_count: int
    last_round: RomisLastRound | None
    companions: list[CardCode]
    auxiliary_left: int | None
    pending: RomisPending | None
    last_hand: RomisLastHand | None
    legal: list[CommandPayload]
    """The viewer's legal commands; empty for others and spectators."""


VIEW_TYPE = RomisView
"""The type of this game's views (``GameSpec.view_type``)."""


def _public(state: RomisState) -> dict[str, Any]:
    """The per-seat facts everybody may see, as of the last resolved round (R5.4)."""
    n = state.n
    if not hand_in_progress(state):
        return {
            "hand_sizes": [0] * n,
            "auxiliary_counts": [0] * n,
            "companion_counts": [0] * n,
            "revealed": [list(codes(r)) for r in state.revealed] if state.revealed else [[] for _ in range(n)],
        }
    return {
        "hand_sizes": [len(h) - len(p) for h, p in zip(state.hands, state.aux_pending, strict=True)],
        "auxiliary_counts": [
            AUX_COUNT - used + len(p) if live else 0
            for used, p, live in zip(state.aux_used, state.aux_pending, state.live, strict=True)
        ],
        "companion_counts": [len(c) for c in state.companions],
        "revealed": [list(codes(r)) for r in state.revealed],
    }


def _last_round(state: RomisState) -> dict[str, Any] | None:
    event = state.last_round
    if event is None:
        return None
    return {
        "round": event.round,
        "attempt": event.attempt,
        "kinds": list(event.kinds),
        "cards": [list(c) for c in event.cards],
        "new_combination": list(event.new_combination),
        "companions": list(event.companions),
        "auxiliary_slots": [list(s) for s in event.auxiliary_slots],
        "nonces": list(event.nonces),
    }


def _own(state: RomisState, seat: int | None) -> dict[str, Any]:
    """The seat's own cards and submission (R5.2, R6.1, R8.3); empty for a spectator or between hands."""
    if seat is None or not hand_in_progress(state) or not state.live[seat]:
        return {"hand": [], "companions": [], "auxiliary_left": None, "pending": None}
    sub = state.submissions[seat]
    pending = None
    if sub is not None:
        pending = {"kind": sub.kind, "cards": list(codes(sub.cards)), "companions": list(codes(sub.companions))}
    return {
        "hand": canonical_codes(state.hands[seat]),
        "companions": canonical_codes(state.companions[seat]),
        "auxiliary_left": AUX_COUNT - state.aux_used[seat],
        "pending": pending,
    }


def seat_view(state: RomisState, viewer: Viewer) -> Payload:
    """The view of ``viewer`` (a seat, or None for a spectator), JSON-ready (section 9).

    Keys: ``game, seat, phase`` (``new``, ``play``, ``hand_over``, ``match_over``), ``names, players,
    hand_no, dealer, first_dealer, next_dealer, bonus_factor`` (R10.6), ``commitment`` (the deal's,
    R3.2), ``explicit_deal, round, attempt, required`` (cards to reveal, R4), ``live`` and
    ``eliminated`` (seats), ``submitted`` (seats that have sealed a submission in this attempt) and
    ``commitments`` (per seat, the commitment of its sealed submission or None, R5.2), ``waiting`` (the
    live seats that have not submitted), the public per-seat facts of the last resolved round
    ``hand_sizes, auxiliary_counts, companion_counts, revealed`` (R5.4), ``stock_count,
    eliminated_pile_count``, ``last_round`` (the last ``RoundResolved``: kinds, cards, new
    combinations, companions laid, auxiliary slots, nonces), the viewer's own ``hand, companions,
    auxiliary_left`` (his auxiliary cards not yet turned up) and ``pending`` (his sealed submission:
    ``{kind, cards, companions}``), ``hand_points`` (this hand so far), ``totals`` (before this hand
    while it lasts, after it once it ended), ``target_score``, ``last_hand`` (the last finished
    hand: ``{hand_no, reason, winner, hand_points, totals, bonus_factor}`` and, until the next hand
    starts, its hidden cards ``hands, eliminated_hands, auxiliary, companions``), ``hand_over,
    match_over, winner, options, legal`` (this seat's legal command payloads; [] for others and
    spectators).

    Never shows during a hand another seat's hand, companions, auxiliary cards, pending submission or
    nonce, the stock's cards, the deck or the seed.
    """
    n = state.n
    seat = viewer if viewer is not None and 0 <= viewer < n else None
    phase = state.phase
    in_hand = hand_in_progress(state)
    last = state.last
    live = [s for s in range(n) if state.live[s]] if in_hand else []
    view: dict[str, Any] = {
        "game": "romis",
        "seat": viewer,
        "phase": phase.value,
        "names": [s.name for s in state.config.seats],
        "players": n,
        "hand_no": state.hand_no,
        "dealer": state.dealer if state.dealer >= 0 else None,
        "first_dealer": state.first_dealer,
        "next_dealer": upcoming_dealer(state) if phase in (Phase.NEW, Phase.HAND_OVER) else None,
        "bonus_factor": state.bonus_factor if in_hand else state.next_bonus_factor,
        "commitment": state.commitment or None,
        "explicit_deal": state.explicit_deal,
        "round": state.round if in_hand else None,
        "attempt": state.attempt if in_hand else None,
        "required": state.required if in_hand else None,
        "live": live,
        "eliminated": [s for s in range(n) if not state.live[s]] if in_hand else [],
        "submitted": [s for s in live if state.submissions[s] is not None],
        "commitments": [
            sub.commitment if in_hand and (sub := state.submissions[s]) is not None else None for s in range(n)
        ],
        "waiting": [s for s in live if state.submissions[s] is None],
        **_public(state),
        "stock_count": len(state.stock) if in_hand else 0,
        "eliminated_pile_count": len(state.pile) if in_hand else 0,
        "last_round": _last_round(state),
        **_own(state, seat),
        "hand_points": list(state.hand_points) if state.hand_points else [0] * n,
        "totals": list(state.totals),
        "target_score": state.options.target_score,
        "last_hand": (
            {
                **ended_hand_view(last),
                "bonus_factor": last.bonus_factor,
                **(
                    {
                        "hands": [list(h) for h in last.hands],
                        "eliminated_hands": [list(h) for h in last.eliminated_hands],
                        "auxiliary": [list(a) for a in last.auxiliary],
                        "companions": [list(c) for c in last.companions],
                    }
                    if not in_hand
                    else {}
                ),
            }
            if last is not None
            else None
        ),
        "hand_over": phase in (Phase.HAND_OVER, Phase.MATCH_OVER),
        "match_over": phase is Phase.MATCH_OVER,
        "winner": state.winner,
        "options": state.options.to_dict(),
        "legal": [command_payload(c) for c in legal_commands(state, seat)] if seat is not None else [],
    }
    return view
