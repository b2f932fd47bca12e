"""What a table does by itself: deal hands from seeds, move its bots, seat queued newcomers, and
keep the players' seeds going (:mod:`trapoula.domain.seeding`).

:class:`Dealer` drafts automatic play (it stores nothing): the server's seed of every hand is
``HMAC-SHA256(secret, table_id + "/" + hand_no)`` in hex (docs/shuffle.md), mixed with the seats'
own seeds into the hand's deck seed; a bot's choice and a bot's own seed depend on the secret and
the table (and the version it moves at, or the hand and seat it seeds).  So where a batch of
automatic play ends changes nothing.  The secret never enters the log, the seeds do (the deck seed
hidden in the event that starts the hand until the one that reveals it,
:mod:`trapoula.domain.lifecycle`; the server's seed in ``ServerSeedRevealed`` once the hand is over).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.deal import commitment
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.game import GameSpec, acting_seats
from trapoula.domain.lifecycle import Role
from trapoula.domain.match import Match
from trapoula.domain.seeding import SEED_COMMITTED, SEED_EVENTS, SEED_GIVEN, SERVER_SEED_REVEALED, SeedBook, mix_seeds
from trapoula.service.drafts import Draft, event_draft, game_drafts
from trapoula.service.entries import SEAT_TAKEN
from trapoula.service.errors import clip
from trapoula.service.tablestate import SeatRecord, TableState

log = logging.getLogger(__name__)

CHUNK_EVENTS = 200
"""Most events one save holds: a command with the automatic play after it, or one background
batch of automatic play (a bound of the service, not a rule)."""


def seed_step(
    spec: GameSpec[Any, Any],
    game_state: Any,
    book: SeedBook,
    hands_started: int,
    bot_seats: Sequence[tuple[int, str]],
) -> tuple[str, int, int] | None:
    """The players' seeds' step due at a table that deals from seeds (:mod:`trapoula.domain.seeding`),
    as ``(event name, hand, seat or -1)``; None when none is.  In this order: the server's seed of a
    dealt hand that is over is revealed (``ServerSeedRevealed``); the next hand's server seed is
    committed (``SeedCommitted``, unless the match is over); a bot seat gives its seed for the
    committed hand still to be dealt (``SeedGiven``).  ``game_state`` None: the match has not started.
    """
    over = game_state is not None and bool(spec.is_terminal(game_state))
    hand_over = game_state is None or over or bool(spec.needs_deal(game_state))
    for hand in book.open:
        if hand < hands_started or (hand == hands_started and hand_over):
            return SERVER_SEED_REVEALED, hand, -1
    if over:
        return None
    if book.hand < hands_started + 1:
        return SEED_COMMITTED, hands_started + 1, -1
    pending = book.pending(hands_started)
    if pending is not None:
        for seat, _ in bot_seats:
            if book.seed_of(seat) is None:
                return SEED_GIVEN, pending, seat
    return None


def automatic_due(state: TableState) -> bool:
    """True when a bot must move, the table must deal, or a step of the players' seeds is due
    (automatic play is due)."""
    if not state.started:
        return False
    spec = state.spec
    game_state = state.game_state
    if not state.manual_deal and seed_step(spec, game_state, state.seeds, state.hands_started, state.bot_seats()):
        return True
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
    if who.player_id is not None:
        payload["player_id"] = who.player_id
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

    def bot_seed(self, table_id: str, hand_no: int, seat: int) -> str:
        """The own seed a bot in ``seat`` gives for hand ``hand_no``: HMAC-SHA256(secret,
        "table_id/seed/hand_no/seat"), hex (a bot is the server's: its seed binds nothing)."""
        return hmac.new(self._secret, f"{table_id}/seed/{hand_no}/{seat}".encode(), hashlib.sha256).hexdigest()

    def deck_seed(self, table_id: str, hand_no: int, book: SeedBook) -> str:
        """The seed hand ``hand_no`` is dealt from: the server's seed mixed with the seats' seeds
        (:func:`trapoula.domain.seeding.mix_seeds`) when ``book`` committed that hand, else the
        server's seed alone (a table from before the players' seeds)."""
        server = self.hand_seed(table_id, hand_no)
        return mix_seeds(server, book.given) if book.hand == hand_no else server

    def seed_draft(self, table_id: str, step: tuple[str, int, int]) -> Draft:
        """The table event of a players' seeds step (:func:`seed_step`)."""
        name, hand, seat = step
        if name == SEED_COMMITTED:
            return Draft(name, {"hand": hand, "commitment": commitment(self.hand_seed(table_id, hand))}, "table")
        if name == SEED_GIVEN:
            return Draft(name, {"hand": hand, "seat": seat, "seed": self.bot_seed(table_id, hand, seat)}, f"bot:{seat}")
        return Draft(name, {"hand": hand, "seed": self.hand_seed(table_id, hand)}, "table")

    def seed_drafts(
        self, state: TableState, game_state: Any, book: SeedBook, hands: int, bot_seats: Sequence[tuple[int, str]]
    ) -> tuple[SeedBook, list[Draft]]:
        """Every players' seeds step due (:func:`seed_step`) in ``game_state`` once ``hands`` hands
        are dealt, as drafts, and the book after them; none at a table created for explicit deals.

        A deal saves the commitment to the next hand's server seed (and the bots' seeds for it) just
        before the events that deal the hand (``hands`` then counts the hand being dealt): nobody can
        give a seed in between, and the deal's own events stay the last of its save."""
        drafts: list[Draft] = []
        if state.manual_deal:
            return book, drafts
        while (step := seed_step(state.spec, game_state, book, hands, bot_seats)) is not None:
            draft = self.seed_draft(state.table_id, step)
            drafts.append(draft)
            book = book.apply(draft.name, draft.payload)
        return book, drafts

    def bot_rng(self, table_id: str, version: int) -> random.Random:
        """The random source of the bot moving at ``version`` of a table (from the secret)."""
        digest = hmac.new(self._secret, f"{table_id}/bot/{version}".encode(), hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def deal(
        self,
        state: TableState,
        game_state: Any,
        hand_no: int,
        deal: Mapping[str, Any] | None,
        book: SeedBook | None = None,
    ) -> Any:
        """The game's deal command for hand ``hand_no``: from ``deal`` (an explicit deal, S5.3, given a
        secret of the seed's kind for a game that seals with one), else shuffled from the hand's deck
        seed (:meth:`deck_seed`, the players' seeds in ``book``, default ``state.seeds``).

        Raises:
            InvalidInput: ``deal`` is not a mapping or not a deal of the game (``bad_deal``).
            CommandRejected: the game refuses the deal.
        """
        match = Match(state.spec, game_state)
        if deal is None:
            return match.seeded_deal(self.deck_seed(state.table_id, hand_no, state.seeds if book is None else book))
        if not isinstance(deal, Mapping):
            raise InvalidInput(f"explicit deal {clip(deal)!r} is not a mapping (S5.3)", reason="bad_deal")
        # a secret the one who entered the deal cannot know, revealed with the hand
        return match.explicit_deal(deal, secret=self.hand_seed(state.table_id, hand_no))

    def autoplay(self, state: TableState, game_state: Any, drafts: list[Draft]) -> None:
        """Append bot moves and automatic deals to ``drafts`` while they are due, as long as
        ``drafts`` holds at most :data:`CHUNK_EVENTS` events: a step (a move or a deal with the
        seed steps and the reveal it brings, a seat taken, seeds given) that would pass the bound
        waits for the next batch; a first step always goes in.  ``state`` is the table before
        ``drafts``.

        Deterministic: a bot's choice depends on the secret, the table and the version it moves
        at, a deal's seed on the hand number, so where one batch ends changes nothing.
        """
        spec = state.spec
        bot_seats = state.bot_seats()
        hands = state.hands_started
        waiting = list(state.waiting)
        book = state.seeds
        made, drafts[:] = list(drafts), []
        for d in made:  # seat changes, hands and seed steps the command itself made
            drafts.append(d)
            role = spec.role_of(d.name)
            hands += role is Role.HAND_STARTED
            if role is Role.HAND_REVEALED:
                book = self._reveal(state, book, hands, drafts)
            if d.name in SEED_EVENTS:
                book = book.apply(d.name, d.payload)
            elif d.name == SEAT_TAKEN:
                waiting = [w for w in waiting if w[0] != d.payload.get("queued")]
                if d.payload.get("bot") is not None:
                    bot_seats = tuple(sorted((*bot_seats, (int(d.payload["seat"]), str(d.payload["bot"])))))
            elif role is Role.SEAT_VACATED and spec.seat_changes:
                bot_seats = tuple(b for b in bot_seats if b[0] != d.payload.get("seat"))
        version = state.version + len(drafts)
        while len(drafts) < self.chunk:
            book_after, seeded = self.seed_drafts(state, game_state, book, hands, bot_seats)
            if seeded:
                if drafts and len(drafts) + len(seeded) > self.chunk:
                    return  # the next batch starts with these seeds
                book = book_after
                drafts.extend(seeded)
                version += len(seeded)
                continue
            if waiting and spec.needs_deal(game_state) and not spec.is_terminal(game_state):
                queued, who = waiting.pop(0)  # R6.9: the newcomers queued during the hand sit down
                try:
                    game_state, joined = seat_newcomer(spec, game_state, who, queued)
                except (CommandRejected, InvalidInput):
                    log.exception("table %s: queued join %d refused", state.table_id, queued)
                    waiting.clear()
                    continue
                if drafts and len(drafts) + len(joined) > self.chunk:
                    return  # the next batch seats the newcomer
                drafts.extend(joined)
                version += len(joined)
                if who.bot is not None:
                    bot_seats = tuple(sorted((*bot_seats, (int(joined[-1].payload["seat"]), who.bot))))
                continue
            command, actor = self.next_automatic(state, game_state, bot_seats, hands, version, book)
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
            step: list[Draft] = []  # the step's events with the seed steps it brings
            step_book, step_hands, step_bots = book, hands, bot_seats
            if any(event.role is Role.HAND_STARTED for event in events):  # the next hand's seed, ahead
                step_book, ahead = self.seed_drafts(state, after.state, step_book, hands + 1, bot_seats)
                step.extend(ahead)
            for event in events:
                step.append(event_draft(event, actor))
                step_hands += event.role is Role.HAND_STARTED
                if event.role is Role.HAND_REVEALED:
                    step_book = self._reveal(state, step_book, step_hands, step)
                if event.role is Role.SEAT_VACATED and spec.seat_changes:  # a player gone plays no more
                    gone = getattr(event, "seat", None)
                    step_bots = tuple(b for b in step_bots if b[0] != gone)
            if drafts and len(drafts) + len(step) > self.chunk:
                return  # the next batch starts with this step
            game_state, book, hands, bot_seats = after.state, step_book, step_hands, step_bots
            drafts.extend(step)
            version += len(step)

    def _reveal(self, state: TableState, book: SeedBook, hand: int, drafts: list[Draft]) -> SeedBook:
        """Append the ``ServerSeedRevealed`` of ``hand`` (just ended by the last of ``drafts``, the
        game's ``hand_revealed`` event) when its server seed is committed and not yet revealed:
        right after the hand's own reveal, before whatever follows it (the match's end ...)."""
        if state.manual_deal or hand not in book.open:
            return book
        draft = self.seed_draft(state.table_id, (SERVER_SEED_REVEALED, hand, -1))
        drafts.append(draft)
        return book.apply(draft.name, draft.payload)

    def next_automatic(
        self,
        state: TableState,
        game_state: Any,
        bot_seats: Sequence[tuple[int, str]],
        hands: int,
        version: int,
        book: SeedBook | None = None,
    ) -> tuple[Any, str]:
        """The automatic command due in ``game_state`` and its actor; ``(None, "")`` when none is
        (:meth:`trapoula.domain.match.Match.next_move`: the deal of hand ``hands + 1`` from its deck
        seed (the players' seeds in ``book``, default ``state.seeds``) unless deals are entered by
        hand, else the first waiting bot's move, its random source from the version)."""
        if game_state is None:
            return None, ""
        match = Match(state.spec, game_state, hands)
        seeds = state.seeds if book is None else book
        seed = None if state.manual_deal else (lambda hand_no: self.deck_seed(state.table_id, hand_no, seeds))
        move = match.next_move(dict(bot_seats), seed, lambda: self.bot_rng(state.table_id, version))
        return (None, "") if move is None else (move.command, move.actor)
