"""The shape every game shares: a decider plus its views and codecs (DESIGN, Layers; STYLE habit 1).

A game is a :class:`GameSpec`: plain data and module-level functions.  The service and the
clients drive every game through this one interface, so adding a game adds no code to them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar, Generic, NotRequired, Protocol, TypedDict, TypeVar

from trapoula.domain.cards import Card, parse_card
from trapoula.domain.deal import Deal, commitment, deck_hash
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, Payload, Seat, Viewer
from trapoula.domain.lifecycle import Fact, MatchResult, Role, ranking
from trapoula.domain.text import PLAIN_TEXT, GameText

S = TypeVar("S")
"""A game's state type."""
C = TypeVar("C")
"""A game's command type."""

BotPolicy = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], random.Random], Mapping[str, Any]]
"""A computer player's choice: ``(view, legal, rng) -> one of legal`` (DESIGN, Visibility).

``view`` is one seat's view (``GameSpec.seat_view``), ``legal`` its non-empty ``view["legal"]``
list of command payloads, ``rng`` the source of every random choice.  It returns one of the
payloads of ``legal``.
"""


def seed_commitment(seed: str | None, order: Sequence[Card]) -> str:
    """The shedding games' commitment to a hand's deal (S5.1, S5.3): SHA-256 of the seed's 32 bytes
    for a seeded deal; for an explicit deal (``seed`` None) the hash of the deck order."""
    return commitment(seed) if seed is not None else deck_hash(order)


RecordedEvent = tuple[int, str, Mapping[str, Any]]
"""One recorded game event as ``GameSpec.record_checks`` reads it: ``(seq, name, full payload)``."""

RecordFinding = tuple[int, str, str]
"""One defect ``GameSpec.record_checks`` found: ``(seq of the event, rule broken, message)``."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat (S12 ``MatchStarted.seats``)."""

    seat: Seat
    """Seat number."""
    name: str
    """Display name."""
    bot: str | None = None
    """The bot level (``random``, ``heuristic``) for a computer player, None for a person."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Everything that fixes a match before its first event.

    ``options`` holds the game's option keys with plain values; unknown keys are refused by the
    game's ``parse_options``.  ``initial_totals`` and ``first_dealer`` let a match start from the
    middle of another (an audit of a physical table).
    """

    game: str
    """The game key, e.g. ``"agonia"``."""
    seats: tuple[SeatInfo, ...]
    """The seats, 0..n-1."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Option key -> plain value (each game's spec, section 7)."""
    first_dealer: Seat | None = None
    """The dealer of the first hand; None means the game's default."""
    initial_totals: tuple[int, ...] | None = None
    """Each seat's score so far, None for a fresh match."""


@dataclass(frozen=True, slots=True)
class AuditRules:
    """The rules an audit cites for what a game's rules file says in general (``GameSpec.audit_rules``).

    The defaults name the sections every rules file has: section 8 its commands, section 9 its
    events; a game names its own rules where it has them (the shedding games' S11, S12, S5.1, S5.3).
    """

    commands: str = "section 8"
    """A recorded event that no valid command explains, or a command the rules cannot decide."""
    events: str = "section 9"
    """A recorded event that differs from what the rules produce, where ``GameSpec.event_rules``
    names no rule for it."""
    seeded: str = "section 9"
    """A seeded hand whose revealed seed, commitment or deck order do not agree."""
    explicit: str = "section 9"
    """An explicitly dealt hand whose deck order does not hash to its commitment."""


@dataclass(frozen=True, slots=True)
class GameSpec(Generic[S, C]):
    """A game as data: metadata plus its decider functions (STYLE habit 1).

    Every function is pure.  ``decide`` raises :class:`~trapoula.domain.errors.CommandRejected`
    for a refused command and :class:`~trapoula.domain.errors.InvalidInput` for a malformed one.
    """

    key: str
    """Game key (DESIGN, Games)."""
    title: str
    """Human title."""
    summary: str
    """One line for listings."""
    min_players: int
    max_players: int
    initial_state: Callable[[MatchConfig], S]
    """The state before any event: the match configured, no hand dealt."""
    decide: Callable[[S, C], tuple[Event, ...]]
    """Validate a command against a state; return the events it causes."""
    evolve: Callable[[S, Event], S]
    """Apply one event (trusted, unchecked)."""
    is_terminal: Callable[[S], bool]
    """True when the match is over."""
    legal_commands: Callable[[S, Seat], tuple[C, ...]]
    """The commands a seat may issue now (agrees with ``decide``)."""
    seat_view: Callable[[S, Viewer], Payload]
    """What a seat (or a spectator, None) may see, JSON-ready, with its legal commands."""
    parse_command: Callable[[Mapping[str, Any]], C]
    """Build a command from plain data (``{"kind": "play", "seat": 0, "card": "7H"}``)."""
    command_payload: Callable[[C], Payload]
    """The plain-data form of a command (inverse of ``parse_command``)."""
    command_seat: Callable[[C], Seat | None]
    """The seat a command acts for; None for a table command (``next_hand``)."""
    event_types: Mapping[str, type[Event]]
    """Event name -> class, for decoding stored events."""
    needs_deal: Callable[[S], bool]
    """True when the next command must be the table's ``next_hand`` (a deal is due)."""
    deal_command: Callable[[S, Deal], C]
    """The ``next_hand`` command that deals ``deal``."""
    deck: Callable[[S], Sequence[Any]]
    """The game's canonical deck for this state (for a seeded deal)."""
    explicit_deal: Callable[[S, Mapping[str, Any]], Deal]
    """Build an explicit deal (hands, starter, stock, reshuffles) for this state (S5.3)."""
    command_for: Callable[[S, Sequence[Event], int], C | None]
    """For an audit: the command whose events start at ``events[i]`` (``(state, events, i)``), else None."""
    parse_options: Callable[[Mapping[str, Any]], Any]
    """Validate option keys/values and return the game's options value."""
    option_defaults: Callable[[], Payload]
    """The options with their defaults, as plain data."""
    hand_in_progress: Callable[[S], bool]
    """True while a hand is being played (its hidden fields must stay hidden)."""
    acting: Callable[[S], tuple[Seat, ...]] | None = None
    """The seats whose move the match waits for (bots move, clients prompt); None means every
    seat with a legal command.  A game where some command is always open (``mau_mau``'s
    ``leave``, R6.10) says here who must act."""
    bot_levels: Mapping[str, BotPolicy] = field(default_factory=dict)
    """Computer-player levels: level name -> policy.  Every game offers at least ``random`` and
    ``heuristic`` (:mod:`trapoula.domain.bots` supplies a uniform ``random`` where a game has none)."""
    higher_totals_win: bool = False
    """True when the standings rank the highest total first (``crazy_eights`` points, ``mau_mau``'s
    negative points); False when the lowest total leads (``agonia``)."""
    target_option: str | None = None
    """The option that sets how long a match lasts (``agonia``: ``target_points``), for tools that
    offer a ``--target`` shorthand; None when the game has none."""
    join_command: Callable[[str, str | None], C] | None = None
    """The command that seats a newcomer in a started match: ``(name, bot level or None) -> command``
    (``mau_mau`` R6.9); None for a game that takes no newcomers once the match started."""
    seat_changes: bool = False
    """True when players may join and leave during the match (``mau_mau`` R6.9-R6.10): the table
    then accepts ``join`` between hands and ``leave`` at any time, through ``decide``."""
    teams: tuple[tuple[Seat, ...], ...] = ()
    """The partnerships when the game scores by team (``vida`` R2.3: ``((0, 2), (1, 3))``); its
    totals, winner and results then count per team, in this order.  Empty: every seat for itself."""
    event_rules: Mapping[str, str] = field(default_factory=dict)
    """Event name -> the rule a recorded event of that name breaks when it differs from what the
    rules produce (for the audit's findings); events not listed cite ``audit_rules.events``."""
    audit_rules: AuditRules = AuditRules()
    """The rules the audit cites for commands, events and commitments in general (:class:`AuditRules`)."""
    commitment: Callable[[str | None, Sequence[Card]], str] = seed_commitment
    """The commitment published in ``HandStarted`` for a deal: ``(seed or None for an explicit
    deal, deck order top first) -> hex digest``; the audit recomputes it (``vida`` R3.2 commits to
    the salt and the deck; the shedding games to the seed, S5.1)."""
    reveal_seed_field: str = "seed"
    """The payload field of the game's ``hand_revealed`` event that reveals the hand's seed (``seed``,
    or ``salt`` in a game that commits to a salt; empty for an explicit deal).  Documentation for
    readers of a record: the platform reads the revealed secret from the event's lifecycle fact
    (:class:`~trapoula.domain.lifecycle.HandReveal`)."""
    record_checks: Callable[[Sequence[RecordedEvent]], Sequence[RecordFinding]] | None = None
    """Checks the audit runs over the recorded game events besides replaying them through the
    rules, for what the rules alone do not prove (``romis``: every opened submission hashes to the
    commitment sealed before the round resolved, R5.2-R5.3); None when a game has none."""
    explicit_deal_rule: str = "S5.3"
    """The rule of the game's explicit deal (``S5.3`` for the shedding games; ``vida`` R3.2,
    ``giminaiciai`` R3.8, ``romis`` R3.7): what a table cites when it refuses one, since only a table
    created for explicit deals accepts one."""
    preset_bots: Callable[[Any], Mapping[int, str]] = field(default=lambda options: {})
    """Computer seats an option fixes at creation (``mau_mau`` R7.2 ``computer_seats``):
    parsed options -> {seat: level}."""
    state_version: int = 1
    """The version of what the game folds from its events: its state classes and what ``evolve``
    makes of each event.  Bumped on purpose when either changes (a field of the state, a fix to
    ``evolve``, an upcaster that reads old events differently), so that the service's stored
    snapshots of the game's tables, keyed by it, are no longer used (docs/events.md)."""
    view_type: type | None = None
    """The ``TypedDict`` of what ``seat_view`` returns (its views module's ``VIEW_TYPE``), from which the
    game's JSON Schema describes its views (:mod:`trapoula.domain.schema`); None for a game that
    declares none (its views are then described as open objects with a ``legal`` list)."""
    text: GameText = PLAIN_TEXT
    """How the game reads in the terminal (:class:`~trapoula.domain.text.GameText`): its commands,
    events and views in words, its menu and its typed moves; :data:`~trapoula.domain.text.PLAIN_TEXT`
    for a game that gives none (it then plays plainly: commands and events as their data)."""

    def role_of(self, name: str) -> Role | None:
        """The platform role of this game's event ``name`` (:mod:`trapoula.domain.lifecycle`); None
        for an event without one and for a name that is not the game's."""
        cls = self.event_types.get(name)
        return cls.role if cls is not None else None

    def fact(self, event: Event) -> Fact | None:
        """The lifecycle fact ``event`` carries (:meth:`Event.lifecycle`), None for an event without a
        role; a match result whose event leaves the ranking to the game is ranked here by the totals
        (``higher_totals_win``), its winners first (:func:`trapoula.domain.lifecycle.ranking`)."""
        fact = event.lifecycle()
        if isinstance(fact, MatchResult) and not fact.ranking:
            return dataclasses.replace(fact, ranking=ranking(fact.totals, self.higher_totals_win, fact.winners))
        return fact


S_contra = TypeVar("S_contra", contravariant=True)
"""A game's state type where a protocol only reads it."""


class Rules(Protocol[S, C]):
    """A game's rules module as :func:`decider` reads it: the decider's functions (DESIGN, Layers).

    A module satisfies it by defining these functions at module level with these shapes; each is
    the ``GameSpec`` field of the same name.
    """

    def initial_state(self, config: MatchConfig, /) -> S:
        """The state before any event (``GameSpec.initial_state``)."""

    def decide(self, state: S, command: C, /) -> tuple[Event, ...]:
        """The events a command causes (``GameSpec.decide``)."""

    def evolve(self, state: S, event: Event, /) -> S:
        """Apply one event (``GameSpec.evolve``)."""

    def legal_commands(self, state: S, seat: Seat, /) -> tuple[C, ...]:
        """The commands a seat may issue now (``GameSpec.legal_commands``)."""

    def deck(self, state: S, /) -> Sequence[Any]:
        """The canonical deck for a seeded deal (``GameSpec.deck``)."""

    def explicit_deal(self, state: S, raw: Mapping[str, Any], /) -> Deal:
        """An explicit deal from plain data (``GameSpec.explicit_deal``)."""

    def command_for(self, state: S, events: Sequence[Event], i: int, /) -> C | None:
        """For an audit: the command whose events start at ``events[i]`` (``GameSpec.command_for``)."""

    def option_defaults(self) -> Payload:
        """The options with their defaults (``GameSpec.option_defaults``)."""


class Progress(Protocol[S_contra]):
    """Where a match stands, as :func:`decider` reads it from a game's rules (or shared engine) module."""

    def is_terminal(self, state: S_contra, /) -> bool:
        """True when the match is over (``GameSpec.is_terminal``)."""

    def needs_deal(self, state: S_contra, /) -> bool:
        """True when the table must deal the next hand (``GameSpec.needs_deal``)."""

    def hand_in_progress(self, state: S_contra, /) -> bool:
        """True while a hand is being played (``GameSpec.hand_in_progress``)."""


class Codec(Protocol[C]):
    """A game's commands module as :func:`decider` reads it: the plain-data form of its commands."""

    def parse_command(self, raw: Mapping[str, Any], /) -> C:
        """A seat command from plain data (``GameSpec.parse_command``)."""

    def command_payload(self, command: C, /) -> Payload:
        """A command's plain-data form (``GameSpec.command_payload``)."""

    def command_seat(self, command: C, /) -> Seat | None:
        """The seat a command acts for (``GameSpec.command_seat``)."""


class Decider(TypedDict, Generic[S, C]):
    """The ``GameSpec`` fields a game's modules supply (:func:`decider`), to pass as ``**decider(...)``."""

    initial_state: Callable[[MatchConfig], S]
    decide: Callable[[S, C], tuple[Event, ...]]
    evolve: Callable[[S, Event], S]
    legal_commands: Callable[[S, Seat], tuple[C, ...]]
    deck: Callable[[S], Sequence[Any]]
    explicit_deal: Callable[[S, Mapping[str, Any]], Deal]
    command_for: Callable[[S, Sequence[Event], int], C | None]
    option_defaults: Callable[[], Payload]
    is_terminal: Callable[[S], bool]
    needs_deal: Callable[[S], bool]
    hand_in_progress: Callable[[S], bool]
    parse_command: Callable[[Mapping[str, Any]], C]
    command_payload: Callable[[C], Payload]
    command_seat: Callable[[C], Seat | None]
    deal_command: Callable[[Any, Deal], NextHand]


_DECIDER_FIELDS = frozenset(Decider.__annotations__)
"""The ``GameSpec`` fields :func:`decider` supplies, which :func:`spec_fields` leaves to it."""


def decider(rules: Rules[S, C], progress: Progress[S], codec: Codec[C]) -> Decider[S, C]:
    """The ``GameSpec`` fields of a game's decider, read from its modules: ``rules`` (its rules
    module), ``progress`` (what says where a match stands: the rules module, an engine it shares with
    other games, or the :class:`~trapoula.domain.games.rulekit.Phases` of its rules) and ``codec``
    (its commands module).  Each field is the module's
    function of the same name, unwrapped, so a ``GameSpec`` built with it calls the game's
    functions directly (DESIGN, Layers; each game's sections 8 and 9); the table's deal is every
    game's :class:`NextHand` (:func:`deal_command`)."""
    return {
        "initial_state": rules.initial_state,
        "decide": rules.decide,
        "evolve": rules.evolve,
        "legal_commands": rules.legal_commands,
        "deck": rules.deck,
        "explicit_deal": rules.explicit_deal,
        "command_for": rules.command_for,
        "option_defaults": rules.option_defaults,
        "is_terminal": progress.is_terminal,
        "needs_deal": progress.needs_deal,
        "hand_in_progress": progress.hand_in_progress,
        "parse_command": codec.parse_command,
        "command_payload": codec.command_payload,
        "command_seat": codec.command_seat,
        "deal_command": deal_command,
    }


def spec_fields(*modules: ModuleType) -> dict[str, Any]:
    """The ``GameSpec`` fields a game's modules define by name, beyond its decider (:func:`decider`):
    a field ``f`` is a module's attribute ``f`` (a function: ``seat_view``, ``parse_options``,
    ``acting``) or ``F`` (a constant: ``TEXT``, ``EVENT_TYPES``, ``EVENT_RULES``, ``MIN_PLAYERS``),
    the first of ``modules`` that defines it winning; a field no module defines keeps its default.
    Read once when the game's ``GameSpec`` is built, so the spec holds the modules' own functions
    (DESIGN, Layers; each game's sections 8 and 9), to pass as ``**spec_fields(views, options, ...)``
    next to ``**decider(...)``, whose fields it never reads.

    Returns:
        Field name -> value, for the fields some module defines.
    """
    found: dict[str, Any] = {}
    for spec_field in dataclasses.fields(GameSpec):
        if spec_field.name in _DECIDER_FIELDS:
            continue
        for module in modules:
            names = vars(module)
            name = spec_field.name if spec_field.name in names else spec_field.name.upper()
            if name in names:
                found[spec_field.name] = names[name]
                break
    return found


@dataclass(frozen=True, slots=True)
class NextHand:
    """The table's command that deals the next hand from ``deal`` (each game's section 8: the
    shedding games' S11, ``giminaiciai`` R3.2 and R3.8, ``romis`` R3 and R13.4, ``vida`` R3.2); it
    names no seat, and its deal comes from the table (``GameSpec.deal_command``)."""

    deal: Deal
    plain_fields: ClassVar[Mapping[str, object]] = {"explicit": NotRequired[bool]}
    """The fields of its plain-data form besides ``kind`` (:meth:`payload`), name -> type, for the
    game's JSON Schema (:mod:`trapoula.domain.schema`): a command class whose plain form is not its
    dataclass fields says so here.  ``explicit`` is written by :meth:`payload`; a game that writes
    only the kind of the table's command leaves it out."""

    def payload(self) -> Payload:
        """The plain-data form: ``{"kind": "next_hand", "explicit": bool}`` (the deal itself stays
        secret until the hand ends)."""
        return {"kind": "next_hand", "explicit": self.deal.explicit}


@dataclass(frozen=True, slots=True)
class SeatCommand:
    """A seat command that names nothing but its seat (each game's section 8: a draw, a pass, a
    call); each such command is its own subclass, so that a game's rules tell them apart, naming
    its kind in its plain-data form: ``class Pass(SeatCommand, kind="pass")``."""

    seat: int
    kind: ClassVar[str]
    """The command's kind in its plain-data form (each subclass's own)."""

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super(SeatCommand, cls).__init_subclass__(**kwargs)  # not super(): slots=True makes this class anew
        if kind:  # absent when ``dataclass(slots=True)`` makes the class anew: it keeps the kind
            cls.kind = kind

    def payload(self) -> Payload:
        """The plain-data form: ``{"kind": kind, "seat": seat}``."""
        return {"kind": self.kind, "seat": self.seat}


class Seated(Protocol):
    """A seat command: one that names the seat it acts for."""

    @property
    def seat(self) -> Seat:
        """The seat the command acts for."""


def command_seat(command: Seated | NextHand) -> Seat | None:
    """The seat a command acts for; None for the table's :class:`NextHand` (``GameSpec.command_seat``)."""
    return None if isinstance(command, NextHand) else command.seat


def deal_command(state: Any, deal: Deal) -> NextHand:
    """The table's ``next_hand`` command dealing ``deal`` (``GameSpec.deal_command``; each game's
    section 8 says when a hand is dealt)."""
    return NextHand(deal)


CommandFields = Mapping[str, tuple[frozenset[str], frozenset[str]]]
"""A game's seat commands: kind -> (required fields, optional fields) of its plain-data form."""


def command_shape(game: str, raw: Any, fields: CommandFields) -> tuple[str, Seat]:
    """Check the shape every seat command shares and return its ``(kind, seat)``: ``raw`` is a
    mapping whose ``kind`` is one of ``fields``, with each required field of that kind, no field
    outside its required and optional ones, and an integer ``seat`` (each game's section 8).

    Raises:
        InvalidInput: not a mapping, an unknown kind, a missing or extra field (``bad_command``), a
            seat that is not an integer (``bad_seat``); the message reads ``"<game>: ... (section 8)"``.
    """

    def bad(message: str, reason: str = "bad_command") -> InvalidInput:
        return command_error(game, message, reason)

    if not isinstance(raw, Mapping):
        raise bad(f"command {str(raw)[:40]!r} is not a mapping")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in fields:
        raise bad(f"unknown command {str(kind)[:32]!r}; expected one of {', '.join(fields)}")
    required, optional = fields[kind]
    missing = sorted(required - set(raw))
    if missing:
        raise bad(f"command {kind!r} lacks field(s) {missing}")
    extra = sorted(str(k) for k in set(raw) - required - optional)
    if extra:
        raise bad(f"command {kind!r} takes no field(s) {extra}")
    seat = raw["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise bad(f"command {kind!r}: seat {str(seat)[:32]!r} is not an integer", "bad_seat")
    return kind, seat


def command_error(game: str, message: str, reason: str = "bad_command") -> InvalidInput:
    """The error of a malformed plain command of ``game`` (each game's section 8): its message reads
    ``"<game>: <message> (section 8)"``, with ``reason`` (``bad_command``, ``bad_seat``, ``bad_card``)."""
    return InvalidInput(f"{game}: {message} (section 8)", reason=reason)


def card_field(game: str, value: Any, what: str) -> Card:
    """The card of a plain command's card field ``value`` (``what`` names it in the message).

    Raises:
        InvalidInput: ``value`` is not a string (:func:`command_error`, ``bad_card``), or a code that
            does not parse (``bad_card``, :func:`~trapoula.domain.cards.parse_card`).
    """
    if not isinstance(value, str):
        raise command_error(game, f"{what} {str(value)[:32]!r} is not a card code", "bad_card")
    return parse_card(value)


def acting_seats(game: GameSpec[S, C], state: S, seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """The seats among ``seats`` whose move the match waits for (``GameSpec.acting``)."""
    if game.acting is not None:
        waiting = game.acting(state)
        if len(waiting) < 2:  # the usual case: one seat to act, or none
            return waiting if not waiting or waiting[0] in seats else ()
        return tuple(s for s in seats if s in waiting)
    return tuple(s for s in seats if game.legal_commands(state, s))


def replay(game: GameSpec[S, C], config: MatchConfig, events: Sequence[Event]) -> S:
    """Fold ``events`` over the initial state: replaying is nothing else (DESIGN, Layers)."""
    state = game.initial_state(config)
    for event in events:
        state = game.evolve(state, event)
    return state
