"""What the generic property harness needs to know about each game beyond ``GameSpec``.

Everything the harness can do through :class:`~trapoula.domain.game.GameSpec` it does there
(decide, evolve, legal commands, views, redaction, payloads).  A game adds an :class:`Adapter`
here for the few facts the spec does not expose: its options grid (each game's section 7), where
its cards are (to check conservation, S4.1), the whole space of commands to try (to check that
``decide`` refuses exactly what ``legal_commands`` leaves out), and how to write an explicit deal
(S5.3).  ``test_playouts.test_every_registered_game_has_an_adapter`` fails until a new game in
``trapoula.domain.registry.GAMES`` gets one.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.events import Event, Payload, Viewer
from trapoula.domain.games.agonia.state import AgoniaState
from trapoula.domain.games.shedding import events as shedding_events
from trapoula.domain.registry import GAMES

_SUITS = ("C", "D", "H", "S")

Zones = tuple[Sequence[Sequence[str]], Sequence[str], Sequence[str]]
"""(hands per seat, stock top first, discard pile bottom first), as card codes."""

SEAT_CHANGE_EVENTS = frozenset({"PlayerJoined", "PlayerLeft", "PlayerEliminated"})
SEAT_CHANGES: dict[str, type[Event]] = {
    "PlayerJoined": shedding_events.PlayerJoined,
    "PlayerLeft": shedding_events.PlayerLeft,
    "PlayerEliminated": shedding_events.PlayerEliminated,
}
"""The classes of the seat-change events: a game that uses another class of one of these names
(``romis``'s ``PlayerEliminated``, R7.1) emits it."""
"""The shedding engine's seat-change events: only games with ``GameSpec.seat_changes`` emit them."""


def plain_key(payload: Payload) -> Hashable:
    """A payload as a hashable value, lists as tuples (no two orders of one command are alike)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in payload.items()))


def plays(payload: Payload) -> bool:
    """A ``play`` command."""
    return payload.get("kind") == "play"


def no_variants(payload: Payload) -> Sequence[Payload]:
    """No other form of ``payload`` is the same command."""
    return ()


def shedding_zones(state: Any) -> Zones:
    """A shedding game's hands, stock and discard pile (S4.1)."""
    return tuple(codes(h) for h in state.hands), codes(state.stock), codes(state.discard)


def shedding_revealed(state: Any) -> frozenset[str]:
    """The hands a shedding game shows once a hand is over (S10): those left at its end."""
    if state.phase.name in ("HAND_OVER", "MATCH_OVER"):
        return frozenset(c.code for hand in state.last_hands for c in hand)
    return frozenset()


@cache
def shedding_universe(seat: int, kinds: tuple[str, ...]) -> tuple[Payload, ...]:
    """Every card code's ``play`` of ``seat`` without a suit and naming each suit, then ``kinds``."""
    out: list[Payload] = []
    for code in codes(deck_52()):
        out.append({"kind": "play", "seat": seat, "card": code})
        out.extend({"kind": "play", "seat": seat, "card": code, "suit": s} for s in _SUITS)
    out.extend({"kind": kind, "seat": seat} for kind in kinds)
    return tuple(out)


@dataclass(frozen=True)
class Adapter:
    """Per-game knowledge for the property harness (see the module docstring)."""

    key: str
    """The game key in ``GAMES``."""
    option_grid: Mapping[str, tuple[Any, ...]]
    """Every option key of the game (section 7) -> the values a random match draws from."""
    single_hand: Mapping[str, Any]
    """Options that make a match a single hand (agonia R7.1: ``target_points`` 0)."""
    zones: Callable[[Any], Zones]
    """Where every card is: each hand, the stock and the discard pile (S4.1)."""
    revealed: Callable[[Any], frozenset[str]]
    """Cards every viewer may see once a hand is over (S10.5: every hand is revealed)."""
    command_universe: Callable[[Any, int], Sequence[Payload]]
    """Every well-formed command a seat could send, legal or not (for the refusal check)."""
    explicit_deal: Callable[[Any, random.Random], tuple[Mapping[str, Any], list[list[str]]]]
    """A random explicit deal for the next hand (S5.3) and the hand each seat must then hold."""
    legality_key: Callable[[Payload], Hashable] = plain_key
    """A command payload without the parts that never affect legality (agonia: ``announce``)."""
    is_play: Callable[[Payload], bool] = plays
    """True for a command that plays a card (the random player prefers those)."""
    variants: Callable[[Payload], Sequence[Payload]] = no_variants
    """Other forms of a legal command that ``decide`` also accepts (agonia: the announce flipped)."""
    never_emitted: frozenset[str] = frozenset()
    """Event types of ``spec.event_types`` the game never emits (the others must all occur).  For a
    game without seat changes the seat-change events (``SEAT_CHANGE_EVENTS``) are added."""
    expected_reasons: frozenset[str] = frozenset()
    """``EventName/reason`` values that a full property run must reach."""
    seats: Callable[[Any], int] | None = None
    """How many seat numbers a state uses, for a game whose table grows (``mau_mau`` R6.9.2);
    None: the case's number of players throughout."""
    rare: Mapping[str, tuple[float, float]] = dataclasses.field(default_factory=dict)
    """Command kinds the random player keeps apart -> the chance, at each step inside a hand and
    between hands, that some seat to which one is open issues one (``mau_mau``: ``mau``, ``leave``)."""
    table_commands: Callable[[Any], tuple[Sequence[Payload], Sequence[Payload]]] | None = None
    """Table commands other than ``next_hand`` (``mau_mau``: ``join``): (accepted now, refused now)."""
    p_table: float = 0.0
    """The chance that the random player issues one of the accepted table commands instead of the
    deal when both are due."""
    long_match: Mapping[str, Any] | None = None
    """Options for a long match drawn with single-hand options (None: the grid's largest values)."""
    initial_totals: Callable[[tuple[int, ...], Mapping[str, Any]], tuple[int, ...]] | None = None
    """Maps random initial totals from 0..90 into the game's range for the match's options
    (``mau_mau``: 0 or less, above the elimination limit, R6.6)."""
    p_plays: tuple[float, float, float] = (0.9, 0.7, 0.03)
    """The random player's chance of playing a card when one is legal, for the usual player, one
    who draws a lot and one who hoards cards (``random_case`` draws them 85 : 12 : 3)."""
    nudge: Callable[[Any, int, Sequence[Payload], random.Random], Payload | None] | None = None
    """A move the random player of a seat makes instead of its usual choice, or None: ``(state, seat,
    legal payloads, rng)`` (``mau_mau``: usually call "Mau" before the next-to-last card, R5.6.1)."""

    known: Callable[[Any, Viewer], frozenset[str]] | None = None
    """Cards outside the public discard zone that ``viewer`` may see while a hand is in progress
    (``vida``: the face-up widow, the winning team's shown declarations, R5.7, and the card a seat
    gave or received, R5.1); None: none."""

    invariants: Callable[[Any, Any], None] | None = None
    """The game's own checks of each event and the state it led to, ``(event, state)``, raising
    AssertionError (``vida``: trick points total 162 before rounding and 160 after, R2.7, R6.4)."""

    silent: Callable[[Any, Payload], bool] | None = None
    """Whether the rules accept a seat's command and store no event for it, ``(state, payload)``
    (``mau_mau``: a "Mau" call repeated in a turn, R5.6.3-R5.6.4); None: every accepted command stores
    at least one event.  The harness checks both ways: such a command causes no event, any other
    accepted command causes one."""

    state_check: Callable[[Any], None] | None = None
    """The game's own checks of a sampled state (where the universe check runs), raising
    AssertionError (``romis``: no sealed choice shows to another viewer, R5.4)."""

    def __post_init__(self) -> None:
        spec = GAMES.get(self.key)
        if spec is not None and not spec.seat_changes:
            # the shedding engine's own seat-change classes; romis's PlayerEliminated (R7.1) is another
            unused = {n for n in SEAT_CHANGE_EVENTS & set(spec.event_types) if spec.event_types[n] is SEAT_CHANGES[n]}
            object.__setattr__(self, "never_emitted", self.never_emitted | unused)


_CONVENTION = {
    "zones": "_zones",
    "revealed": "_revealed",
    "known": "_known",
    "command_universe": "_universe",
    "legality_key": "_legality_key",
    "is_play": "_is_play",
    "variants": "_variants",
    "explicit_deal": "_explicit_deal",
    "nudge": "_nudge",
    "invariants": "_invariants",
    "initial_totals": "_initial_totals",
    "table_commands": "_table_commands",
}
"""The fields of :class:`Adapter` that :func:`adapter` takes from a game's adapter module, and the
names the module gives them."""


def adapter(namespace: Mapping[str, Any], **fields: Any) -> Adapter:
    """An :class:`Adapter` of ``fields``, each function field not given taken from ``namespace`` (a
    game's adapter module) where it defines it under its name in :data:`_CONVENTION`."""
    found = {field: namespace[name] for field, name in _CONVENTION.items() if name in namespace and field not in fields}
    return Adapter(**found, **fields)


# --------------------------------------------------------------------------- agonia


@cache
def _agonia_universe_for(seat: int) -> tuple[Payload, ...]:
    out: list[Payload] = []
    for code in codes(deck_52()):
        for suit in (None, *_SUITS):
            for announce in (False, True):
                payload: Payload = {"kind": "play", "seat": seat, "card": code}
                if suit is not None:
                    payload["suit"] = suit
                if announce:
                    payload["announce"] = True
                out.append(payload)
    out.append({"kind": "draw", "seat": seat})
    out.append({"kind": "pass", "seat": seat})
    out.extend({"kind": "choose_suit", "seat": seat, "suit": s} for s in _SUITS)
    return tuple(out)


def _agonia_universe(state: AgoniaState, seat: int) -> Sequence[Payload]:
    """Every card code (in the hand or not) with and without each suit and announce; draw; pass;
    choose_suit with every suit: 526 commands per seat."""
    return _agonia_universe_for(seat)


def _agonia_legality_key(payload: Payload) -> Hashable:
    # R7.5.1-R7.5.3: a play needing an announcement is accepted without it (and penalised), and
    # an announcement nobody needs is accepted and ignored.
    return tuple(sorted((k, v) for k, v in payload.items() if k != "announce"))


def _agonia_variants(payload: Payload) -> Sequence[Payload]:
    if payload.get("kind") != "play":
        return ()
    flipped = {k: v for k, v in payload.items() if k != "announce"}
    if not payload.get("announce"):
        flipped["announce"] = True
    return (flipped,)


def _agonia_explicit_deal(state: AgoniaState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    cards = list(codes(deck_52()))
    rng.shuffle(cards)
    hands = [cards[7 * i : 7 * i + 7] for i in range(state.n)]
    rest = cards[7 * state.n :]
    raw = {"hands": hands, "starter": rest[0], "stock": rest[1:]}
    return raw, hands


AGONIA = Adapter(
    key="agonia",
    option_grid={
        "target_points": (0, 30, 60, 100),
        "starter_ace_suit": ("ace", "first_player", "dealer", "previous_winner"),
        "ace_last_card": (False, True),
        "eight_last_card": (False, True),
        "announce_cards": (False, True),
        "announce_penalty": ("draw_one", "skip_turn", "ten_points"),
        "seven_last_card": ("penalty_then_out", "forbidden"),
    },
    single_hand={"target_points": 0},
    zones=shedding_zones,
    revealed=shedding_revealed,
    command_universe=_agonia_universe,
    legality_key=_agonia_legality_key,
    variants=_agonia_variants,
    explicit_deal=_agonia_explicit_deal,
    never_emitted=frozenset({"DirectionReversed"}),  # R2.3: no reverse card
    expected_reasons=frozenset(
        {
            "CardsDrawn/draw",  # R4.2
            "CardsDrawn/penalty",  # R5.2.2
            "CardsDrawn/last_seven",  # R5.2.6
            "CardsDrawn/announce_penalty",  # R7.5.2 draw_one
            "TurnSkipped/nine",  # R5.4
            "TurnSkipped/starter_nine",  # R3.4.2
            "TurnSkipped/announce_penalty",  # R7.5.2 skip_turn
            "HandEnded/out",  # R6.1
            "HandEnded/blocked",  # S10.4, R6.5
            "MatchEnded/single_hand",  # R6.7
            "MatchEnded/target",  # R6.7
        }
    ),
)
"""Agonia (docs/rules/agonia.md): every option of section 7, one 52-card deck."""


ADAPTERS: dict[str, Adapter] = {AGONIA.key: AGONIA}
"""Game key -> adapter; one entry per game in ``trapoula.domain.registry.GAMES``."""

from .adapter_crazy_eights import CRAZY_EIGHTS  # noqa: E402  (it imports Adapter from here)

ADAPTERS[CRAZY_EIGHTS.key] = CRAZY_EIGHTS

from .adapter_mau_mau import MAU_MAU  # noqa: E402  (it imports Adapter from here)

ADAPTERS[MAU_MAU.key] = MAU_MAU

from .adapter_vida import VIDA  # noqa: E402  (it imports Adapter from here)

ADAPTERS[VIDA.key] = VIDA

from .adapter_giminaiciai import GIMINAICIAI  # noqa: E402  (it imports Adapter from here)

ADAPTERS[GIMINAICIAI.key] = GIMINAICIAI

from .adapter_romis import ROMIS  # noqa: E402  (it imports Adapter from here)

ADAPTERS[ROMIS.key] = ROMIS
