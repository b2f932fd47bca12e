"""The test table every game's helpers build on: a match driven by the domain's match driver
(:class:`trapoula.domain.match.Match`), as the service drives it, with its log of events and the
readers every game's tests share (a seat's view, its legal commands)."""

from __future__ import annotations

from typing import Any, ClassVar

from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec
from trapoula.domain.match import Match


class MatchTable:
    """A match under test: ``state`` is the folded state, ``log`` every event so far.

    A subclass sets ``spec`` and builds ``state`` and ``log``.
    """

    spec: ClassVar[GameSpec[Any, Any]]
    state: Any
    log: list[Event]

    def apply(self, command: Any) -> tuple[Event, ...]:
        """Decide ``command`` and fold its events (:meth:`Match.apply`); return them.

        Raises:
            CommandRejected, InvalidInput: the rules refuse the command (nothing changes).
        """
        match, events = Match(self.spec, self.state).apply(command)
        self.state = match.state
        self.log.extend(events)
        return events

    def view(self, viewer: int | None) -> dict[str, Any]:
        """``seat_view`` of a seat or a spectator."""
        return dict(self.spec.seat_view(self.state, viewer))

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """The legal commands of ``seat`` as plain data."""
        return [dict(self.spec.command_payload(c)) for c in self.spec.legal_commands(self.state, seat)]
