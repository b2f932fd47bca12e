"""Creating tables and taking seats, as methods of ``Tables`` (:class:`TableSeats`): the inputs
checked, the caller's identity verified where the server has the app's key (docs/identity.md),
then the decisions of :mod:`trapoula.service.seating` run as commands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError

from trapoula.domain import bots
from trapoula.domain.errors import InvalidInput
from trapoula.service.autoplay import Dealer
from trapoula.service.commands import Commands
from trapoula.service.errors import ErrorContext, PermissionDenied, clip
from trapoula.service.identity import IdentityVerifier
from trapoula.service.inputs import check_key, check_name, check_request_id, parse_table_id
from trapoula.service.principals import (
    OWNER,
    SPECTATOR,
    Principal,
    derived_table_id,
    derived_token,
    invitation_code,
    new_token,
    token_hash,
)
from trapoula.service.seating import by_invitation, new_table, open_table, owner_only, take_seat
from trapoula.service.store import TableStore


class TableSeats:
    """The seating methods of ``Tables`` (see the module docstring); ``Tables`` sets the parts."""

    store: TableStore
    commands: Commands
    dealer: Dealer
    _secret: bytes
    identity: IdentityVerifier | None

    def create_table(
        self,
        game: str,
        seats: int,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
        manual_deal: bool = False,
        request_id: str | None = None,
        identity_token: str | None = None,
        private: bool = False,
    ) -> tuple[str, str]:
        """Create a table; returns ``(table_id, owner_token)``.

        With an identity key configured (:attr:`identity`), ``identity_token`` must be a valid
        token of the app (docs/identity.md).  A ``private`` table is not listed and is joined only
        with its invitation code (:func:`~trapoula.service.principals.invitation_code` of the
        owner token's hash).

        ``initial_totals`` empty or None means all zero.  ``manual_deal`` makes a table for
        explicit deals (tests, and the audit of a hand dealt at a physical table): it deals a hand
        only on ``next_hand`` and is the only kind of table that accepts an explicit deal (S5.3;
        and each game's ``explicit_deal_rule``); the listings and the table's view say so from its
        creation.  The owner token may start the match and deal hands; only its hash is stored.
        With a ``request_id`` (16 to 128 printable ASCII characters, random, as secret as the
        token) the call may be retried: the same request id answers the same table id and owner
        token, on any replica sharing the secret, and makes one table only (whatever the repeated
        request; the table id and token derive from the request id and the secret, and, with an
        identity key, the creator's id, so that another player replaying the id makes a table
        of its own: :meth:`request_table_id`).

        Raises:
            InvalidInput: unknown game (``unknown_game``), a seat count outside the game's range
                (``bad_seats``), a bad option (``bad_option``), a first dealer or totals that do
                not fit (``bad_config``), a bad request id (``bad_request_id``).
            Unauthenticated: an identity key is configured and ``identity_token`` is missing
                (``identity_required``) or does not verify (``bad_identity``).
        """
        player_id = self.identity.verify(identity_token).player_id if self.identity is not None else None
        request_id = check_request_id(request_id)
        if request_id is None:
            tid, owner_token = None, new_token()
        else:
            tid = derived_table_id(self._secret, _scoped(request_id, player_id))
            owner_token = derived_token(self._secret, f"{tid}/owner/{request_id}")
        created, preset = new_table(
            game, seats, options, first_dealer, initial_totals, manual_deal, owner_token, tid, bool(private)
        )
        table_id = str(created.originator_id)
        try:
            self.store.save_events(table_id, [created])
        except IntegrityError:
            if request_id is None:
                raise
            self.store.load(table_id)  # a retry: the table was created by the first call
        if preset or not manual_deal:  # computer seats an option fixes (GameSpec.preset_bots), the first seed
            self.commands.execute(table_id, None, OWNER, open_table(self.dealer, preset))
        return table_id, owner_token

    def request_table_id(self, request_id: str, player_id: str | None = None) -> str | None:
        """The id of the table a ``create_table`` with ``request_id`` by ``player_id`` (a verified
        player, or None) makes, or made if this is a retry; None for a request id it would refuse."""
        try:
            checked = check_request_id(request_id)
        except InvalidInput:
            return None
        return None if checked is None else str(derived_table_id(self._secret, _scoped(checked, player_id)))

    def invitation_code(self, table_id: str, owner_token: str) -> str:
        """The invitation code of the table ``table_id`` if it is private (``""`` if public), for its
        owner (``owner_token``): the table's own flag decides, not the request that named it."""
        private = self.store.load(table_id).state.private
        return invitation_code(token_hash(owner_token)) if private else ""

    def join(
        self,
        table_id: str,
        name: str,
        seat: int | None = None,
        request_id: str | None = None,
        identity_token: str | None = None,
        invitation: str | None = None,
    ) -> tuple[int, str]:
        """Take a seat (``seat``, or the first free one); returns ``(seat, seat_token)``.

        With an identity key configured (:attr:`identity`) ``identity_token`` is required: the seat
        is the token's player's (``SeatTaken.player_id``), named by the token (``name`` may be empty
        or the same name).  A private table needs its ``invitation`` code.

        In a started match of a game with seat changes (``GameSpec.seat_changes``) the newcomer takes the
        lowest vacant seat between hands, or is queued during a hand: the seat is then -1 and the
        token acts once the next hand seats him.  With a ``request_id`` (as in :meth:`create_table`)
        the call may be retried: the same request id at the same table answers the same seat and
        token, and takes one seat only.

        Raises:
            TableNotFound: no such table.
            InvalidInput: a bad table id (``bad_table_id``), a bad name (``bad_name``: 1 to 64
                characters after stripping spaces, no control characters), a seat out of range
                (``bad_seat``) or a bad request id (``bad_request_id``).
            SeatTaken: the seat is taken or none is free.
            AlreadyStarted: the match has started.
            Unauthenticated: an identity key is configured and ``identity_token`` is missing
                (``identity_required``) or does not verify (``bad_identity``).
            PermissionDenied: a ``name`` other than the token's (``identity_mismatch``), a retried
                request id of another player's seat (``identity_mismatch``), a private table
                without its invitation code or with a wrong one (``bad_invitation``).
        """
        parse_table_id(table_id)
        player_id = None
        if self.identity is not None:
            who = self.identity.verify(identity_token)
            if name and check_name(name) != who.name:
                raise PermissionDenied(
                    f"the name {clip(name)!r} is not the identity token's ({who.name!r})",
                    reason="identity_mismatch",
                    context=ErrorContext(table_id),
                )
            checked, player_id = who.name, who.player_id
        else:
            checked = check_name(name or "")
        request_id = check_request_id(request_id)
        token = new_token() if request_id is None else derived_token(self._secret, f"{table_id}/seat/{request_id}")
        chosen: list[int] = []
        decide = by_invitation(invitation, take_seat(seat, checked, None, token, chosen, player_id))
        self.commands.execute(table_id, None, SPECTATOR, decide)
        return chosen[0], token

    def add_bot(
        self,
        table_id: str,
        level: str,
        seat: int | None = None,
        name: str | None = None,
        principal: Principal = OWNER,
    ) -> int:
        """Seat a server-side bot of ``level`` (one of ``bots.levels(game)``); returns its seat (-1
        while queued, as in :meth:`join`).  Only the table's owner adds bots (``principal``: who
        calls; the servicer passes the caller's, code embedding ``Tables`` acts as the owner).

        Raises:
            TableNotFound, InvalidInput (also ``bad_bot_level``), SeatTaken, AlreadyStarted: as
            :meth:`join`.
            PermissionDenied: the caller is not the owner (``owner_only``).
        """
        level = check_key(level, "bot level", "bad_bot_level")
        parse_table_id(table_id)
        owner_only(table_id, principal, "adds bots to")
        bots.check_level(level, self.store.load(table_id).state.spec.key)
        checked = None if name is None else check_name(name)
        chosen: list[int] = []
        self.commands.execute(table_id, None, SPECTATOR, take_seat(seat, checked, level, None, chosen))
        return chosen[0]


def _scoped(request_id: str, player_id: str | None) -> str:
    """What a table id derives from: the request id, within the verified creator's ids."""
    return request_id if player_id is None else f"{player_id}\x00{request_id}"
