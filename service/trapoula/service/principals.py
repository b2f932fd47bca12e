"""Who is calling: seats, the owner, spectators, and the tokens that tell them apart.

A token is 32 random bytes (URL-safe base64); the log keeps only its SHA-256 (:func:`token_hash`),
compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from typing import Literal

from trapoula.domain.events import Viewer
from trapoula.service.tablestate import TableState


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a seat, the table's owner, or a spectator (no token).

    ``former`` is the token of a seat its player left or lost (``seat_vacated``): it sees
    what a spectator sees, and may only repeat the seat's earlier commands (``until``: the version
    the seat was freed at).  ``waiting`` is a queued newcomer's token (R6.9), a spectator until the
    next hand seats him.
    """

    kind: Literal["seat", "owner", "spectator", "former", "waiting"]
    seat: int | None = None
    """The seat, for ``kind`` ``seat`` and ``former``."""
    until: int = 0
    """For ``former``: the version at which the seat was freed."""
    since: int = 0
    """For ``seat`` and ``former``: the occupancy (``SeatRecord.since``) its command ids belong to."""

    @property
    def caller(self) -> str:
        """Whose command ids these are (``recording.caller``): the actor, with the occupancy of a
        seat taken after the start."""
        return f"{self.actor}#{self.since}" if self.since and self.kind in ("seat", "former") else self.actor

    @property
    def viewer(self) -> Viewer:
        """The seat whose view this principal gets (None: a spectator's view)."""
        return self.seat if self.kind == "seat" else None

    @property
    def actor(self) -> str:
        """How the log names this principal (``seat:2``, ``owner``)."""
        return f"seat:{self.seat}" if self.kind in ("seat", "former") else self.kind


SPECTATOR = Principal("spectator")
"""The principal of a caller without a token."""
OWNER = Principal("owner")
"""The principal of the table owner's token."""


def seat_principal(seat: int) -> Principal:
    """The principal of a seat token."""
    return Principal("seat", seat)


def token_hash(token: str) -> str:
    """SHA-256 (hex) of a token: what the log keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh token: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def derived_token(secret: bytes, label: str) -> str:
    """The token a retried call gets again: HMAC-SHA256(secret, ``label``), URL-safe base64 (43
    characters), where ``label`` holds the caller's request id (as secret as the token).

    >>> derived_token(bytes(32), "t/seat/r") == derived_token(bytes(32), "t/seat/r") != derived_token(bytes(32), "x")
    True
    """
    digest = hmac.new(secret, label.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def derived_table_id(secret: bytes, request_id: str) -> uuid.UUID:
    """The table id a retried ``create_table`` with ``request_id`` gets again (a version-4 UUID made
    from HMAC-SHA256(secret, "create/" + request_id))."""
    digest = hmac.new(secret, f"create/{request_id}".encode(), hashlib.sha256).digest()
    return uuid.UUID(bytes=digest[:16], version=4)


def principal_of(state: TableState, token: str | None) -> Principal | None:
    """Whose ``token`` it is at the table in ``state``: :data:`SPECTATOR` for no token, the owner,
    a present seat, a queued newcomer (``waiting``) or a seat its player left (``former``); None:
    nobody's."""
    if not token:
        return SPECTATOR
    h = token_hash(token)
    if hmac.compare_digest(h, state.owner_token_hash):
        return OWNER
    for i, s in enumerate(state.seats):
        if s is not None and s.token_hash is not None and hmac.compare_digest(h, s.token_hash):
            return Principal("seat", i, since=s.since)
    for _, who in state.waiting:
        if who.token_hash is not None and hmac.compare_digest(h, who.token_hash):
            return Principal("waiting")
    for gone_hash, seat, until, since in reversed(state.former):
        if hmac.compare_digest(h, gone_hash):
            return Principal("former", seat, until, since)
    return None


INVITATION_LABEL = b"trapoula invitation code"
"""What the invitation code of a private table signs (:func:`invitation_code`)."""


def invitation_code(owner_token_hash: str) -> str:
    """The invitation code of a private table whose owner token has the SHA-256 ``owner_token_hash``
    (hex): HMAC-SHA256(the hash's bytes, :data:`INVITATION_LABEL`), its first 16 bytes URL-safe
    base64 (22 characters).  Every replica works it out from the stored hash alone, so it needs
    no storage and survives restarts; it tells nothing of the owner token, and only the server
    (which keeps the hash out of every record and log) and the owner can compute it.

    >>> len(invitation_code("00" * 32)), invitation_code("00" * 32) == invitation_code("00" * 32)
    (22, True)
    """
    digest = hmac.new(bytes.fromhex(owner_token_hash), INVITATION_LABEL, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def invited(state: TableState, code: str | None) -> bool:
    """True when ``code`` is the invitation code of the private table in ``state`` (compared in
    constant time); always True at a public table."""
    if not state.private:
        return True
    expected = invitation_code(state.owner_token_hash).encode("ascii")
    return bool(code) and hmac.compare_digest((code or "").encode("utf-8"), expected)
