"""The lifecycle contract: what every game's events say about its hands, its match and its seats.

The platform (the service, the audit, the projection, the hash chain and the clients) never reads a
game's own events.  It reads the *lifecycle facts* they carry: a game marks each of its event
classes that plays a platform role with :attr:`~trapoula.domain.events.Event.role` and answers
:meth:`~trapoula.domain.events.Event.lifecycle` with one fact of the fixed shape below.  A game's
events keep their names and payloads (the record and the hash chain hold them as they are); the
facts are how the platform reads them.

=====================  =========================  =========================================
role                   fact                       when
=====================  =========================  =========================================
``hand_started``       :class:`HandStart`         a hand begins: its dealer and commitment
``hand_scored``        :class:`HandScore`         a hand is scored or annulled
``hand_revealed``      :class:`HandReveal`        a hand ends and its deal's secret is revealed;
                                                  a record's ``hands`` counts these
``match_ended``        :class:`MatchResult`       the match is over: totals, ranking, winner
``seat_joined``        :class:`SeatJoined`        a newcomer takes a seat in a started match
``seat_vacated``       :class:`SeatVacated`       a player leaves the match or is eliminated
=====================  =========================  =========================================

Every game has exactly one ``hand_started``, at least one ``hand_revealed`` ending each hand, and one
``match_ended``; ``seat_joined`` and ``seat_vacated`` only in a game whose players join and leave during
the match (``GameSpec.seat_changes``).  An event may also be marked
:attr:`~trapoula.domain.events.Event.between_hands`: it comes outside any hand, after a finished one
(a seat change, a game of a rubber won, the match's end), and a record cut after a hand takes it.

>>> from trapoula.domain.registry import GAMES
>>> sorted({str(spec.role_of(name)) for spec in GAMES.values() for name in spec.event_types} - {"None"})
['hand_revealed', 'hand_scored', 'hand_started', 'match_ended', 'match_started', 'seat_joined', 'seat_vacated']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from trapoula.domain.events import Event

if TYPE_CHECKING:
    from trapoula.domain.game import MatchConfig

Seat = int
"""A seat number, 0..n-1."""


class Role(enum.StrEnum):
    """The platform role of a game event (see the module docstring)."""

    MATCH_STARTED = "match_started"
    HAND_STARTED = "hand_started"
    HAND_SCORED = "hand_scored"
    HAND_REVEALED = "hand_revealed"
    MATCH_ENDED = "match_ended"
    SEAT_JOINED = "seat_joined"
    SEAT_VACATED = "seat_vacated"


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand begins (role ``hand_started``)."""

    hand_no: int
    """The hand's number in the match, from 1."""
    dealer: Seat
    """The seat that deals it."""
    explicit_deal: bool
    """True when the deal was entered by hand (a table made for explicit deals), not shuffled from a seed."""
    commitment: str
    """The published commitment to the deal (lowercase hex; each game's rules say what it hashes)."""
    seed: str | None
    """The hand's seed (64 hex digits), hidden until the hand is revealed; None for an explicit deal."""
    deck: tuple[str, ...] | None
    """The deck order the hand was dealt from (card codes, top first), hidden until the hand is
    revealed; None when the game does not record it in this event."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand is scored, or annulled (role ``hand_scored``)."""

    reason: str
    """Why the hand ended, in the game's words (``out``, ``blocked``, ``made``, ``failed`` ...)."""
    winner: int | None
    """The seat that won the hand, or the team (index into ``GameSpec.teams``) in a game that scores
    by team; None when nobody won it."""
    hand_points: tuple[int | None, ...] | None
    """Each seat's points in the hand (None for a seat not in it), or each team's in a game that
    scores by team; None for an annulled hand."""
    totals: tuple[int | None, ...] | None
    """Each seat's total after the hand (None for a seat without one), or each team's in a game that
    scores by team; None for an annulled hand."""


@dataclass(frozen=True, slots=True)
class HandReveal:
    """A hand ends and its deal's secret is revealed (role ``hand_revealed``)."""

    secret: str | None
    """The revealed seed, or the salt of a game that commits to a salt: 64 hex digits for a shuffled
    deal; None or ``""`` for an explicit deal."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The match is over (role ``match_ended``)."""

    totals: tuple[int | None, ...]
    """Each seat's final total (None for a seat that has none); empty when the game keeps only team
    scores."""
    winners: tuple[Seat, ...]
    """The winning seat, or the seats of the winning team, in seat order; empty when nobody won (a
    tie, every player eliminated)."""
    ranking: tuple[Seat, ...]
    """Every seat with a place, best first (ties in seat order); the winning team's seats first in a
    game that scores by team."""
    winner_team: int | None = None
    """The winning team (index into ``GameSpec.teams``) in a game that scores by team, else None."""
    team_scores: tuple[int, ...] = ()
    """Each team's score (games won, points ...) in a game that scores by team, else empty."""


class StartsHand(Event):
    """A game's ``hand_started`` event whose fact (:class:`HandStart`) is its own fields of these names."""

    __slots__ = ()
    hand_no: int
    dealer: Seat
    explicit_deal: bool
    commitment: str
    seed: str | None
    deck: tuple[str, ...]

    role: ClassVar[Role] = Role.HAND_STARTED

    def lifecycle(self) -> HandStart:
        """The hand's start: its number, dealer, commitment, hidden seed and deck order."""
        return HandStart(self.hand_no, self.dealer, self.explicit_deal, self.commitment, self.seed, self.deck)


class ScoresHand(Event):
    """A game's ``hand_scored`` event whose fact (:class:`HandScore`) is its own fields of these names."""

    __slots__ = ()
    reason: str
    winner: int | None
    hand_points: tuple[int | None, ...]
    totals: tuple[int | None, ...]

    role: ClassVar[Role] = Role.HAND_SCORED

    def lifecycle(self) -> HandScore:
        """The hand's score: its reason, winner, points and totals."""
        return HandScore(self.reason, self.winner, self.hand_points, self.totals)


class RevealsSalt(Event):
    """A game's ``hand_revealed`` event that publishes the hand's salt (:class:`HandReveal`): its seed,
    ``""`` for an explicit deal."""

    __slots__ = ()
    salt: str

    role: ClassVar[Role] = Role.HAND_REVEALED

    def lifecycle(self) -> HandReveal:
        """The hand's salt made public: its seed, ``""`` for an explicit deal."""
        return HandReveal(self.salt)


class EndsMatch(Event):
    """A game's ``match_ended`` event naming one winner among the seats' totals (:class:`MatchResult`;
    the game's spec ranks the seats)."""

    __slots__ = ()
    winner: Seat
    totals: tuple[int, ...]

    role: ClassVar[Role] = Role.MATCH_ENDED
    between_hands: ClassVar[bool] = True

    def lifecycle(self) -> MatchResult:
        """The match's result: the totals and the winner."""
        return MatchResult(self.totals, (self.winner,), ())


@dataclass(frozen=True, slots=True)
class SeatJoined:
    """A newcomer takes a seat in a started match (role ``seat_joined``)."""

    seat: Seat
    name: str
    """Display name."""
    bot: str | None
    """The bot level of a computer player, None for a person."""


@dataclass(frozen=True, slots=True)
class SeatVacated:
    """A player leaves the match, or is eliminated from it (role ``seat_vacated``): the seat is
    vacant and its token acts no more."""

    seat: Seat
    reason: str
    """``left`` or ``eliminated``."""


Fact = HandStart | HandScore | HandReveal | MatchResult | SeatJoined | SeatVacated
"""Any lifecycle fact."""


def ranking(totals: Sequence[int | None], higher_wins: bool, winners: Sequence[Seat] = ()) -> tuple[Seat, ...]:
    """Seats ranked best first: ``winners`` first, then by total (highest first when
    ``higher_wins``, else lowest first), ties in seat order; seats without a total last.

    >>> ranking((10, 3, None, 3), higher_wins=False)
    (1, 3, 0, 2)
    >>> ranking((10, 3, 7), higher_wins=True, winners=(2,))
    (2, 0, 1)
    """
    sign = -1 if higher_wins else 1
    scored = sorted(
        (s for s, t in enumerate(totals) if t is not None and s not in winners),
        key=lambda s: (sign * (totals[s] or 0), s),
    )
    unscored = [s for s, t in enumerate(totals) if t is None and s not in winners]
    return (*winners, *scored, *unscored)


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    """The match begins: the game, the seats, the options and where it starts from (S12).

    The one game event every game shares as it is: each game's first event, named in its
    ``event_types`` and built by :meth:`of`.
    """

    role: ClassVar[Role] = Role.MATCH_STARTED

    game: str
    names: tuple[str, ...]
    """Display name per seat."""
    bots: tuple[str | None, ...]
    """Bot level per seat, None for a person."""
    options: dict[str, Any]
    """Every option with its value (defaults filled in)."""
    first_dealer: int
    initial_totals: tuple[int, ...]
    """Each seat's score before the first hand (all 0 for a fresh match)."""

    @classmethod
    def of(
        cls, config: MatchConfig, options: dict[str, Any], first_dealer: int, initial_totals: tuple[int, ...]
    ) -> MatchStarted:
        """The event for a match configured by ``config``: its game, names and bot levels, with the
        options as plain data (defaults filled in), the first dealer and the totals it starts from."""
        return cls(
            game=config.game,
            names=tuple(s.name for s in config.seats),
            bots=tuple(s.bot for s in config.seats),
            options=options,
            first_dealer=first_dealer,
            initial_totals=initial_totals,
        )


MATCH_STARTED = MatchStarted.event_name()
"""The name of every game's first event."""
