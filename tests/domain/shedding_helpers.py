"""What the shedding games' test tables share: a match driven through a ``GameSpec`` as the service
drives it, with readers of its public state (S4) and the refusal check (S11).  Each game's helper
module subclasses :class:`ShedTable` with its own setup and commands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from match_table import MatchTable

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order (S2.3): 2C 3C ... AC 2D ... AS."""


class ShedTable(MatchTable):
    """A shedding match under test: ``state`` is the folded state, ``log`` every event so far.

    A subclass sets ``spec``, builds ``state`` and defines ``command(kind, seat, **fields)``.
    """

    def command(self, kind: str, seat: int, **fields: Any) -> Any:
        """The game's command of ``kind`` for ``seat`` (each game's helper builds it)."""
        raise NotImplementedError

    def draw(self, seat: int) -> tuple[Event, ...]:
        """``draw``."""
        return self.apply(self.command("draw", seat))

    def pass_(self, seat: int) -> tuple[Event, ...]:
        """``pass``."""
        return self.apply(self.command("pass", seat))

    def offered(self, command: Any, legal: Sequence[Any]) -> bool:
        """True when ``legal`` offers ``command`` (a game may compare fewer fields)."""
        return command in legal

    def rejects(self, reason: str, rule: str, command: Any) -> CommandRejected:
        """Assert that ``command`` is refused with ``reason`` citing ``rule``, that nothing changes,
        and that ``legal_commands`` does not offer it (section 8, S11)."""
        before, logged = self.state, len(self.log)
        with pytest.raises(CommandRejected) as info:
            self.apply(command)
        assert (info.value.reason, info.value.rule) == (reason, rule), str(info.value)
        assert self.state is before
        assert len(self.log) == logged
        seat = self.spec.command_seat(command)
        if seat is not None and 0 <= seat < self.state.n:
            assert not self.offered(command, self.spec.legal_commands(self.state, seat))
        return info.value

    def hand(self, seat: int) -> str:
        """The seat's hand, canonical order (S2.3), space-separated."""
        return " ".join(sorted(codes(self.state.hands[seat]), key=ALL_CODES.index))

    @property
    def to_act(self) -> int | None:
        """The seat to act (S3.7)."""
        return self.state.to_act  # type: ignore[no-any-return]

    @property
    def top(self) -> str:
        """The code of the top card."""
        top = self.state.top_card
        assert top is not None
        return str(top.code)

    @property
    def active_suit(self) -> str | None:
        """The active suit letter (S4.3)."""
        return self.state.active_suit.value if self.state.active_suit else None

    @property
    def pending(self) -> int:
        """The pending draw (S9)."""
        return int(self.state.pending_draw)

    @property
    def discard(self) -> str:
        """The discard pile, bottom first, space-separated."""
        return " ".join(codes(self.state.discard))
