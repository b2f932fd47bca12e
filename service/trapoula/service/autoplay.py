"""What a table does by itself: deal hands from seeds, move its bots, seat queued newcomers.

:class:`Dealer` drafts automatic play (it stores nothing): the seed of every hand is
``HMAC-SHA256(secret, table_id + "/" + hand_no)`` in hex (docs/shuffle.md); a bot's choice depends
on the secret, the table and the version it moves at.  So where a batch of automatic play ends
changes nothing.  The secret never enters the log, the seed does (hidden in the event that starts
the hand until the one that reveals it, :mod:`trapoula.domain.lifecycle`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.game import GameSpec, acting_seats
from trapoula.domain.lifecycle import Role
from trapoula.domain.match import Match
from trapoula.service.drafts import Draft, event_draft, game_drafts
from trapoula.service.entries import SEAT_TAKEN
from trapoula.service.errors import clip
from trapoula.service.tablestate import SeatRecord, TableState

log = logging.getLogger(__name__)

CHUNK_EVENTS = 200
"""Most events one save holds: a command with the automatic play after it, or one background
batch of automatic play (a bound of the service, not a rule)."""


def automatic_due(state: TableState) -> bool:
    """True when a bot must move or the table must deal (automatic play is due)."""
    if not state.started:
        return False
    spec = state.spec
    game_state = state.game_state
    if spec.is_terminal(game_state):
        return False
    if spec.needs_deal(game_state):
        return bool(state.waiting) or not state.manual_deal
    return bool(acting_seats(spec, game_state, tuple(s for s, _ in state.bot_seats())))


def seat_newcomer(
    spec: GameSpec[Any, Any], game_state: Any, who: SeatRecord, queued: int | None, wanted: int | None = None
) -> tuple[Any, list[Draft]]:
    """The game's join command for ``who`` (``GameSpec.join_command``) and the ``SeatTaken`` that
    follows the event of role ``seat_joined`` it causes (a game with ``seat_changes``).

    Raises:
        CommandRejected: the rules refuse the join, or the game takes no newcomers (``no_seat_changes``).
        InvalidInput: ``wanted`` is not the seat the rules give (``bad_seat``).
    """
    if spec.join_command is None:
        raise CommandRejected("no_seat_changes", "section 8", f"{spec.title} takes no newcomers during a match")
    command = spec.join_command(who.name, who.bot)
    game_state, drafts = game_drafts(spec, game_state, command, "table")
    joined = next((d for d in drafts if spec.role_of(d.name) is Role.SEAT_JOINED), None)
    if joined is None:  # pragma: no cover - a join that seats nobody is a game defect
        raise CommandRejected("join_failed", "section 9", "the join seated nobody")
    seat = int(joined.payload["seat"])
    if wanted is not None and wanted != seat:
        raise InvalidInput(f"seat {wanted}: the rules seat this newcomer in seat {seat}", "bad_seat")
    payload = {"seat": seat, "name": who.name, "bot": who.bot, "token_hash": who.token_hash, "queued": queued}
    drafts.append(Draft(SEAT_TAKEN, payload, "table"))
    return game_state, drafts


class Dealer:
    """Drafts a table's automatic play from the server's ``secret`` (see the module docstring).

    Args:
        secret: the key hand seeds and bot choices derive from.
        chunk: most events one batch holds (:data:`CHUNK_EVENTS`).
    """

    def __init__(self, secret: bytes, chunk: int = CHUNK_EVENTS) -> None:
        self._secret = secret
        self.chunk = max(1, chunk)
        """Most events one batch holds."""

    def hand_seed(self, table_id: str, hand_no: int) -> str:
        """The seed of hand ``hand_no`` of a table: HMAC-SHA256(secret, "table_id/hand_no"), hex."""
        return hmac.new(self._secret, f"{table_id}/{hand_no}".encode(), hashlib.sha256).hexdigest()

    def bot_rng(self, table_id: str, version: int) -> random.Random:
        """The random source of the bot moving at ``version`` of a table (from the secret)."""
        digest = hmac.new(self._secret, f"{table_id}/bot/{version}".encode(), hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def deal(self, state: TableState, game_state: Any, hand_no: int, deal: Mapping[str, Any] | None) -> Any:
        """The game's deal command for hand ``hand_no``: from ``deal`` (an explicit deal, S5.3, given a
        secret of the seed's kind for a game that seals with one), else shuffled from the hand's seed.

        Raises:
            InvalidInput: ``deal`` is not a mapping or not a deal of the game (``bad_deal``).
            CommandRejected: the game refuses the deal.
        """
        match = Match(state.spec, game_state)
        if deal is None:
            return match.seeded_deal(self.hand_seed(state.table_id, hand_no))
        if not isinstance(deal, Mapping):
            raise InvalidInput(f"explicit deal {clip(deal)!r} is not a mapping (S5.3)", reason="bad_deal")
        # a secret the one who entered the deal cannot know, revealed with the hand
        return match.explicit_deal(deal, secret=self.hand_seed(state.table_id, hand_no))

    def autoplay(self, state: TableState, game_state: Any, drafts: list[Draft]) -> None:
        """Append bot moves and automatic deals to ``drafts`` while they are due, until ``drafts``
        holds :data:`CHUNK_EVENTS` events (a step that would pass the bound waits for the next
        batch; a first step always goes in).  ``state`` is the table before ``drafts``.

        Deterministic: a bot's choice depends on the secret, the table and the version it moves
        at, a deal's seed on the hand number, so where one batch ends changes nothing.
        """
        spec = state.spec
        bot_seats = state.bot_seats()
        hands = state.hands_started + sum(spec.role_of(d.name) is Role.HAND_STARTED for d in drafts)
        version = state.version + len(drafts)
        waiting = list(state.waiting)
        for d in drafts:  # seat changes the command itself made
            if d.name == SEAT_TAKEN:
                waiting = [w for w in waiting if w[0] != d.payload.get("queued")]
                if d.payload.get("bot") is not None:
                    bot_seats = tuple(sorted((*bot_seats, (int(d.payload["seat"]), str(d.payload["bot"])))))
            elif spec.role_of(d.name) is Role.SEAT_VACATED and spec.seat_changes:
                bot_seats = tuple(b for b in bot_seats if b[0] != d.payload.get("seat"))
        while len(drafts) < self.chunk:
            if waiting and spec.needs_deal(game_state) and not spec.is_terminal(game_state):
                queued, who = waiting.pop(0)  # R6.9: the newcomers queued during the hand sit down
                try:
                    game_state, joined = seat_newcomer(spec, game_state, who, queued)
                except (CommandRejected, InvalidInput):
                    log.exception("table %s: queued join %d refused", state.table_id, queued)
                    waiting.clear()
                    continue
                drafts.extend(joined)
                version += len(joined)
                if who.bot is not None:
                    bot_seats = tuple(sorted((*bot_seats, (int(joined[-1].payload["seat"]), who.bot))))
                continue
            command, actor = self.next_automatic(state, game_state, bot_seats, hands, version)
            if command is None:
                return
            try:
                after, events = Match(spec, game_state).apply(command)
            except (CommandRejected, InvalidInput):
                log.exception("table %s: automatic command %r refused", state.table_id, command)
                return
            if not events:
                log.error("table %s: automatic command %r caused no event", state.table_id, command)
                return
            if drafts and len(drafts) + len(events) > self.chunk:
                return  # the next batch starts with this step
            game_state = after.state
            for event in events:
                drafts.append(event_draft(event, actor))
                hands += event.role is Role.HAND_STARTED
                if event.role is Role.SEAT_VACATED and spec.seat_changes:  # a player gone plays no more
                    gone = getattr(event, "seat", None)
                    bot_seats = tuple(b for b in bot_seats if b[0] != gone)
            version += len(events)

    def next_automatic(
        self, state: TableState, game_state: Any, bot_seats: Sequence[tuple[int, str]], hands: int, version: int
    ) -> tuple[Any, str]:
        """The automatic command due in ``game_state`` and its actor; ``(None, "")`` when none is
        (:meth:`trapoula.domain.match.Match.next_move`: the deal of hand ``hands + 1`` unless deals
        are entered by hand, else the first waiting bot's move, its random source from the version)."""
        if game_state is None:
            return None, ""
        match = Match(state.spec, game_state, hands)
        seed = None if state.manual_deal else (lambda hand_no: self.hand_seed(state.table_id, hand_no))
        move = match.next_move(dict(bot_seats), seed, lambda: self.bot_rng(state.table_id, version))
        return (None, "") if move is None else (move.command, move.actor)
