"""What each seat, or a spectator, may see of a Vida match (section 9 "Observable state", DESIGN Visibility)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from trapoula.domain.cards import CardCode, SuitCode, canonical_codes, codes
from trapoula.domain.events import Payload, Viewer, to_payload
from trapoula.domain.games.rulekit import MatchView
from trapoula.domain.games.vida.declarations import combinations
from trapoula.domain.games.vida.rules import SEATS, hand_in_progress, legal_payloads, upcoming_dealer
from trapoula.domain.games.vida.scoring import Contract
from trapoula.domain.games.vida.state import Call, Phase, VidaState
from trapoula.domain.wire import CommandPayload, Wire, values_of

TeamPair = tuple[int, int]
"""One value per team, team 0 first (R2.3)."""


class VidaCall(TypedDict):
    """One call of the auction (R4.2): a bid's ``points`` and ``suit``, a vida's ``level``."""

    seat: int
    call: Annotated[str, Wire(enum=["bid", "pass", "vida"])]
    points: NotRequired[int]
    suit: NotRequired[SuitCode | None]
    level: NotRequired[int]


class VidaBid(TypedDict):
    """The highest bid so far (R4.3)."""

    seat: int
    points: int
    suit: SuitCode | None


class VidaContract(TypedDict):
    """The contract (``Contract.to_dict``, section 9 ``AuctionClosed.contract``)."""

    holder: int
    team: int
    points: int
    suit: SuitCode
    level: int
    multiplier: int


class VidaSeatCards(TypedDict):
    """A seat and its cards (the widow taken, R5.1)."""

    seat: int
    cards: list[CardCode]


class VidaSeatCard(TypedDict):
    """A seat and one card (a trick's card, belote R5.9)."""

    seat: int
    card: CardCode


class VidaTrick(TypedDict):
    """A finished trick (R4.14)."""

    trick_no: int
    leader: int
    winner: int
    cards: list[CardCode]
    points: int


class VidaAnnounced(TypedDict):
    """The kinds a seat declared under the Pilotta timing (R5.8)."""

    seat: int
    kinds: list[str]


class VidaDeclarations(TypedDict):
    """The declarations as published (R5.7, R5.8)."""

    announced: list[VidaAnnounced]
    resolution: Annotated[dict[str, Any], Wire(ref="event.DeclarationsResolved")] | None
    """The ``DeclarationsResolved`` payload once compared, else null."""


class VidaCombination(TypedDict):
    """One of the viewer's own combinations (R5.2, R5.3)."""

    kind: str
    cards: list[CardCode]
    points: int


class VidaGift(TypedDict):
    """A card given in open vida, who to whom (R5.1, D30)."""

    from_seat: int
    to_seat: int


class VidaGiven(TypedDict):
    """A card the viewer gave (R5.1)."""

    to_seat: int
    card: CardCode


class VidaView(MatchView):
    """What :func:`seat_view` returns (its docstring gives the keys; section 9)."""

    game: Literal["vida"]
    seat: int | None
    """The viewer: a seat, or null for a spectator."""
    phase: Annotated[str, values_of(Phase)]
    to_act: int | None
    dealer: int | None
    first_dealer: int | None
    hand_no: int
    game_no: int
    names: list[str]
    commitment: str | None
    explicit_deal: bool
    hand: list[CardCode]
    hand_sizes: list[int]
    widow: list[CardCode]
    widow_taken: VidaSeatCards | None
    auction: list[VidaCall]
    bid: VidaBid | None
    level: int
    contract: VidaContract | None
    trump: SuitCode | None
    trick_no: int
    leader: int | None
    trick: list[VidaSeatCard]
    tricks: list[VidaTrick]
    tricks_won: TeamPair
    declarations: VidaDeclarations
    combinations: list[VidaCombination]
    belote: VidaSeatCard | None
    gifts: list[VidaGift]
    received: CardCode | None
    given: list[VidaGiven]
    trick_points_raw: TeamPair
    trick_points: TeamPair
    declaration_points: TeamPair
    belote_points: TeamPair
    contract_points: TeamPair
    capot_team: int | None
    contract_made: bool | None
    hand_points: TeamPair
    annulled: bool
    totals: TeamPair
    games_won: TeamPair
    next_dealer: int | None
    legal: list[CommandPayload]
    """The viewer's legal commands; empty for others and spectators."""


VIEW_TYPE = VidaView
"""The type of this game's views (``GameSpec.view_type``)."""


def _call(call: Call) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": call.seat, "call": call.call}
    if call.call == "bid":
        out["points"] = call.points
        out["suit"] = call.suit.value if call.suit is not None else None
    elif call.call == "vida":
        out["level"] = call.level
    return out


def _contract(contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    return contract.to_dict()


def seat_view(state: VidaState, viewer: Viewer) -> Payload:
    """The view of ``viewer`` (a seat 0-3, or None for a spectator), JSON-ready (section 9).

    Keys: ``game, seat, phase`` (``new`` before the first deal, then ``auction``, ``exchange``,
    ``play``, ``hand_over``, and ``match_over`` at the end), ``to_act, dealer, first_dealer, hand_no,
    game_no, names, commitment, explicit_deal, hand`` (own cards, canonical order; [] for a
    spectator), ``hand_sizes, widow`` (face up, open vida, R3.4), ``widow_taken`` (``{seat, cards}``
    once the holder took it, R5.1), ``auction`` (``[{seat, call, points?, suit?, level?}]``),
    ``bid`` (the current highest ``{seat, points, suit}``), ``level, contract`` (``{holder, team,
    points, suit, level, multiplier}``), ``trump, trick_no, leader, trick`` (``[{seat, card}]``),
    ``tricks`` (``[{trick_no, leader, winner, cards, points}]``), ``tricks_won, declarations``
    (``{announced: [{seat, kinds}], resolution}``: the kinds declared under the Pilotta timing and
    the comparison as published, R5.7, R5.8), ``combinations`` (the viewer's own combinations once
    play has begun), ``belote`` (``{seat, card}`` once announced, R5.9), ``gifts`` (``[{from_seat,
    to_seat}]``), ``received`` (the card given to the viewer, R5.1), ``given`` (the holder's own
    gifts ``[{to_seat, card}]``); of the last finished hand (section 9): ``trick_points_raw,
    trick_points, declaration_points, belote_points, contract_points, capot_team, contract_made,
    hand_points, annulled``; ``totals, games_won, hand_over, next_dealer, match_over, winner,
    options, legal`` (this seat's legal command payloads; [] for others and spectators).

    Never shows another seat's cards, the losing team's combinations, the deck, the seed, or a
    card given between two other seats (R5.1, R5.7, D30).
    """
    seat = viewer if viewer is not None and 0 <= viewer < SEATS else None
    phase = state.phase
    in_hand = hand_in_progress(state)
    last = state.last_score
    hand = canonical_codes(state.hands[seat]) if seat is not None and state.hands else []
    received = next((c.code for g, r, c in state.gifts if r == seat and seat is not None), None)
    given = [{"to_seat": r, "card": c.code} for g, r, c in state.gifts if g == seat and seat is not None]
    bid = state.bid
    resolution = to_payload(state.resolution) if state.resolution is not None else None
    mine: list[dict[str, Any]] = []
    if seat is not None and state.play_hands:
        mine = [
            {"kind": c.kind, "cards": list(codes(c.cards)), "points": c.points}
            for c in combinations(state.play_hands[seat])
        ]
    zero = [0, 0]
    view: dict[str, Any] = {
        "game": "vida",
        "seat": viewer,
        "phase": phase.value,
        "to_act": state.to_act if in_hand else None,
        "dealer": state.dealer if state.dealer >= 0 else None,
        "first_dealer": state.first_dealer,
        "hand_no": state.hand_no,
        "game_no": state.game_no,
        "names": [s.name for s in state.config.seats],
        "commitment": state.commitment or None,
        "explicit_deal": state.explicit_deal,
        "hand": hand,
        "hand_sizes": [len(h) for h in state.hands],
        "widow": list(codes(state.widow)),
        "widow_taken": (
            {"seat": state.contract.holder, "cards": list(codes(state.widow_taken))}
            if state.widow_taken and state.contract is not None
            else None
        ),
        "auction": [_call(c) for c in state.auction],
        "bid": {"seat": bid.seat, "points": bid.points, "suit": bid.suit.value if bid.suit else None} if bid else None,
        "level": state.level,
        "contract": _contract(state.contract),
        "trump": state.trump.value if state.trump is not None else None,
        "trick_no": state.trick_no,
        "leader": state.leader,
        "trick": [{"seat": s, "card": c.code} for s, c in state.trick],
        "tricks": [
            {
                "trick_no": t.trick_no,
                "leader": t.leader,
                "winner": t.winner,
                "cards": list(codes(t.cards)),
                "points": t.points,
            }
            for t in state.tricks
        ],
        "tricks_won": list(state.tricks_won),
        "declarations": {
            "announced": [{"seat": s, "kinds": list(k)} for s, k in state.declared],
            "resolution": resolution,
        },
        "combinations": mine,
        "belote": {"seat": state.belote[0], "card": state.belote[1].code} if state.belote is not None else None,
        "gifts": [{"from_seat": g, "to_seat": r} for g, r, _ in state.gifts],
        "received": received,
        "given": given,
        "trick_points_raw": list(last.trick_points_raw) if last else zero,
        "trick_points": list(last.trick_points) if last else zero,
        "declaration_points": list(last.declaration_points) if last else zero,
        "belote_points": list(last.belote_points) if last else zero,
        "contract_points": list(last.contract_points) if last else zero,
        "capot_team": last.capot_team if last else None,
        "contract_made": last.contract_made if last else None,
        "hand_points": list(last.hand_points) if last else zero,
        "annulled": state.last_annulled,
        "totals": list(state.totals),
        "games_won": list(state.games_won),
        "hand_over": phase in (Phase.HAND_OVER, Phase.MATCH_OVER),
        "next_dealer": upcoming_dealer(state) if phase is Phase.HAND_OVER else None,
        "match_over": phase is Phase.MATCH_OVER,
        "winner": state.winner,
        "options": state.options.to_dict(),
        "legal": legal_payloads(state, seat) if seat is not None else [],
    }
    return view
