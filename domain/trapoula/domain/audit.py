"""Offline audit of a match record (DESIGN, Fairness and audit; docs/record.md).

A record is a header line and one line per stored event of a table, hash-chained (see
:mod:`trapoula.domain.chain`).  :func:`audit_record` checks it without trusting whoever produced
it:

1. the header (format, version, game, counts) — rule ``REC1``; in a signed record (format
   version 2) the server's signature of the header's statement and the last event's hash, and
   whether the record holds the whole match as it says — rule ``REC8``;
2. every line's shape and the hash chain: ``seq`` numbering, ``prev_hash`` links and each
   ``hash`` recomputed over the line as written (with its schema version ``v`` when it has one)
   — rules ``REC2`` to ``REC5``; then each game event is decoded at its version and upcast to
   its class's current shape (``REC6``, docs/events.md), the shape every later check reads;
3. each hand's commitment: a seeded hand's revealed seed hashes to the commitment published in
   ``HandStarted``, equals the hand's hidden seed and shuffles the game's deck into exactly the
   recorded deck order (S5.1); an explicit hand's deck order hashes to its commitment (S5.3);
   then the game's own checks of its record (``GameSpec.record_checks``: ``romis``'s sealed
   submissions, each opened one hashing to the commitment sealed before the round resolved); and
   the players' seeds: the server's seed committed before any seat gave one, each hand's deck seed
   the server's seed mixed with the seats' (``REC9``, docs/shuffle.md 2a);
4. the rules: every game event is replayed.  At each position the game names the command that
   must have caused it (``command_for``); the rules decide that command again from the state so
   far, and the recorded events must be exactly the events the rules produce.  A command the
   rules refuse is reported with the rule it breaks.

Every discrepancy found is reported, not only the first; the record is verified when there is
none.  Table-level events (``TableCreated``, ``SeatTaken``) are chain-checked but not replayed.
Findings are worded in the rules' and the record's terms (the refused command, the rule, the
field that differs); an exception raised inside the rules by a crafted record is never quoted.

The function is pure: it takes parsed JSON lines and returns an :class:`AuditReport`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from trapoula.domain.cards import codes, parse_cards
from trapoula.domain.chain import (
    GENESIS,
    RECORD_FORMAT,
    RECORD_UNSIGNED,
    RECORD_VERSION,
    canonical_json,
    hash_of_written,
)
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event, decoder, payload_mismatch, to_payload
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.lifecycle import MATCH_STARTED, HandReveal, HandScore, HandStart, MatchResult, Role
from trapoula.domain.registry import GAMES
from trapoula.domain.seeding import SEED_COMMITTED, SEED_EVENTS, SEED_GIVEN, mix_seeds
from trapoula.domain.signing import SCHEME, Head, key_id, verify
from trapoula.domain.tableevents import fields_of
from trapoula.domain.upcasting import upcast
from trapoula.domain.wire import as_read_back

__all__ = [
    "FORMAT",
    "TABLE_EVENTS",
    "VERSION",
    "AuditReport",
    "HandResult",
    "Problem",
    "audit_record",
]

FORMAT = RECORD_FORMAT
"""The header's ``format`` value."""
VERSION = RECORD_VERSION
"""The record format version a server writes now (signed); this module reads it and :data:`UNSIGNED`."""
UNSIGNED = RECORD_UNSIGNED
"""The format version of a record written before records were signed: read, reported unsigned."""
TABLE_EVENTS = frozenset({"TableCreated", "SeatTaken", "JoinQueued", "TimedOut", *SEED_EVENTS})
"""Table-level events: chain-checked, not replayed through the rules."""

_HEX = frozenset("0123456789abcdef")

_KIND_ORDER = {"header": 0, "signature": 0, "commitment": 1, "seal": 1, "rules": 2, "chain": 3, "format": 4}


@dataclass(frozen=True, slots=True)
class Problem:
    """One discrepancy in a record.

    ``seq`` is the event's position in the table log (0 for the header); ``name`` the event name
    (``"header"`` for the header); ``rule`` the rule broken (``S5.1``, ``R4.1`` ..., or a record
    format rule ``REC1``-``REC9`` of docs/record.md); ``kind`` one of ``header``, ``format``,
    ``chain``, ``commitment``, ``seal`` (``GameSpec.record_checks``), ``rules``, ``signature``
    (``REC8``).
    """

    seq: int
    name: str
    rule: str
    message: str
    kind: str = "rules"

    def __str__(self) -> str:
        where = "header" if self.seq == 0 else f"seq {self.seq} {self.name}"
        return f"{where}: {self.message} (rule {self.rule})"


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand as the rules scored it."""

    hand_no: int
    reason: str
    """``out`` or ``blocked`` (or a game's own reason)."""
    winner: int | None
    hand_points: tuple[int | None, ...]
    """Each seat's points in the hand (None: a seat not in the hand, ``mau_mau`` R2.5)."""
    totals: tuple[int | None, ...]
    """Each seat's total after it (None: a seat that left, ``mau_mau`` R2.5)."""
    verified: bool
    """True when no problem was found from its ``HandStarted`` to its ``SeedRevealed``."""
    explicit: bool = False
    """True for a hand dealt by the table's owner (an explicit deal, S5.3), not shuffled from a seed."""
    commitment: str = ""
    """The commitment published when the hand started (S5.1, S5.3; each game's own)."""
    seed: str | None = None
    """The seed the hand was shuffled from, revealed at its end; None for an explicit deal.  With
    the players' seeds, the deck seed: the server's seed mixed with the seats' (docs/shuffle.md 2a)."""
    server_seed: str | None = None
    """The server's own seed (``ServerSeedRevealed``), None when the hand took no players' seeds."""
    server_commitment: str | None = None
    """The commitment to the server's seed published before any seat gave one (``SeedCommitted``);
    None when the hand took no players' seeds (an explicit deal, a record from before them)."""
    player_seeds: tuple[tuple[int, str], ...] = ()
    """``(seat, seed)`` of every seat that gave its own seed for the hand, in seat order."""

    def line(self, name: Callable[[int], str]) -> str:
        """One line of the report: how the hand was dealt, its commitment, the players' seeds,
        how it ended.

        ``name`` gives a seat's (or a team's) display name.
        """
        dealt = "dealt by the table's owner, not shuffled" if self.explicit else f"shuffled from seed {self.seed}"
        if self.explicit:
            mixed = ""
        elif self.server_commitment is None:
            mixed = "; the server's seed alone (no players' seeds)"
        else:
            seats = ", ".join(str(seat) for seat, _ in self.player_seeds) or "none"
            server = f"server seed {self.server_seed} (committed {self.server_commitment})"
            mixed = f"; {server} mixed with the seeds of seats: {seats}"
        winner = "no winner" if self.winner is None else f"won by {name(self.winner)}"
        checked = "verified" if self.verified else "NOT verified"
        return f"hand {self.hand_no}: {dealt}; commitment {self.commitment}{mixed}; {self.reason}, {winner}; {checked}"


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The result of :func:`audit_record`.  ``ok`` is True when no problem was found."""

    table_id: str | None
    game: str | None
    events: int
    """Event lines in the record."""
    hands: int
    """Finished hands in the record (``SeedRevealed`` events)."""
    hands_verified: int
    """Finished hands with no problem from their ``HandStarted`` to their ``SeedRevealed``."""
    problems: tuple[Problem, ...]
    """Every problem, ordered by ``seq`` (the commitment before the rules before the chain)."""
    names: tuple[str, ...] = ()
    """Display name per seat (from ``MatchStarted``)."""
    results: tuple[HandResult, ...] = ()
    """Each finished hand as the rules scored it."""
    totals: tuple[int | None, ...] | None = None
    """Each seat's total after the last hand, as the rules computed it."""
    winner: int | None = None
    """The match winner (from the rules' ``MatchEnded``), None when the match is not over."""
    match_over: bool = False
    teams: tuple[tuple[int, ...], ...] = ()
    """The game's partnerships (``GameSpec.teams``, ``vida`` R2.3): then ``totals`` and ``winner``
    count per team, in this order."""
    signer: str | None = None
    """The public key (64 hex digits, Ed25519) whose signature the header carries; None for an
    unsigned record (format version 1) or a header without a readable key."""
    signed: bool = False
    """True when the header's signature is the signer's over this record's statement (REC8)."""
    complete: bool | None = None
    """What a signed header says: True when the record holds the whole match; None when unsigned."""
    signed_heads: tuple[int, ...] = ()
    """The hands at whose end the header's ``heads`` hold a valid signature of the record cut there
    (docs/record.md 2.5): the places this record may be cut and still verify."""

    @property
    def ok(self) -> bool:
        """True when the record holds no discrepancy."""
        return not self.problems

    @property
    def first(self) -> Problem | None:
        """The first problem, or None."""
        return self.problems[0] if self.problems else None

    def summary(self) -> str:
        """A few human-readable lines: verdict, hands, totals and every problem."""
        lines = [
            f"table {self.table_id or '?'} ({self.game or '?'}): {self.events} events, "
            f"{self.hands} finished hand(s), {self.hands_verified} verified"
        ]
        if self.totals is not None:
            shown = (f"{self.standing_name(i)} {t}" for i, t in enumerate(self.totals) if t is not None)
            lines.append("totals: " + ", ".join(shown))
        if self.match_over:
            who = "none" if self.winner is None else self.standing_name(self.winner)
            lines.append(f"match winner: {who}")
        lines.extend(result.line(self.standing_name) for result in self.results)
        if self.signer is None:
            lines.append("unsigned: a record of format version 1 (nothing proves it whole or unedited but its chain)")
        elif self.signed:
            whole = "the whole match" if self.complete else "the match up to a hand's end (not over)"
            lines.append(f"signed by key {key_id(self.signer)} (ed25519 {self.signer}): {whole}")
        else:
            lines.append(f"signed by key {key_id(self.signer)} (ed25519 {self.signer}): NOT accepted (REC8 below)")
        if self.signed_heads:
            at = ", ".join(str(h) for h in self.signed_heads)
            lines.append(f"signed heads at the end of hand(s) {at}: the record may be cut there (trapoula cut)")
        if self.ok:
            lines.append("record verified")
        else:
            lines.append(f"{len(self.problems)} problem(s):")
            lines.extend(f"  {p}" for p in self.problems)
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data for programs (``trapoula verify --json``): ``ok``, the
        record's ``table_id``, ``game``, ``events``, ``hands``, ``hands_verified``, the signature
        (``signer``, ``signed``, ``complete``), the match (``names``, ``totals``, ``winner``,
        ``match_over``, ``teams``), ``results`` (one object per hand: :class:`HandResult`'s fields)
        and ``problems`` (``seq``, ``name``, ``rule``, ``message``, ``kind``)."""
        data: dict[str, Any] = as_read_back(dataclasses.asdict(self))
        data["ok"] = self.ok
        return data

    def standing_name(self, index: int) -> str:
        """Who ``totals[index]`` (or ``winner``) stands for: ``Anna (seat 0)``, or in a team game
        ``team 0 (Anna and Chrysa)`` (``vida`` R2.3)."""
        if self.teams:
            if not 0 <= index < len(self.teams):
                return f"team {index}"
            members = " and ".join(self._seat_name(m) for m in self.teams[index])
            return f"team {index} ({members})"
        return f"{self.names[index]} (seat {index})" if 0 <= index < len(self.names) else f"seat {index}"

    def _seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"


@dataclass(slots=True)
class _Line:
    seq: int
    name: str
    payload: dict[str, Any]
    """As recorded; for a decoded game event, its payload at the class's current version (upcast)."""
    version: Any = 1
    """The schema version the event was stored with: the line's ``v`` (1 when absent; whatever the
    line says when it is malformed, which the decoding then refuses)."""
    event: Event | None = None
    written: str = ""
    """``canonical_json(payload)``, written once for the hash chain and the rules' comparison."""


@dataclass(slots=True)
class _Audit:
    problems: list[Problem] = field(default_factory=list)

    def add(self, seq: int, name: str, rule: str, message: str, kind: str) -> None:
        self.problems.append(Problem(seq, name, rule, message, kind))


# --------------------------------------------------------------------------- header and chain


def _check_header(audit: _Audit, header: Mapping[str, Any], lines: Sequence[_Line]) -> GameSpec[Any, Any] | None:
    def bad(message: str) -> None:
        audit.add(0, "header", "REC1", message, "header")

    if header.get("format") != FORMAT:
        bad(f"format {header.get('format')!r} is not {FORMAT!r}")
    if header.get("version") not in (VERSION, UNSIGNED) or type(header.get("version")) is not int:
        bad(f"version {header.get('version')!r} is not {VERSION} (signed) or {UNSIGNED} (unsigned)")
    if not isinstance(header.get("table_id"), str):
        bad(f"table_id {header.get('table_id')!r} is not a string")
    game = header.get("game")
    spec = GAMES.get(game) if isinstance(game, str) else None
    if spec is None:
        bad(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")
    if header.get("events") != len(lines):
        bad(f"header says {header.get('events')!r} events, the record holds {len(lines)}")
    finished = _finished_hands(spec, lines)
    if header.get("hands") != finished:
        bad(f"header says {header.get('hands')!r} hands, the record holds {finished} finished hand(s)")
    return spec


def _signer(audit: _Audit, header: Mapping[str, Any]) -> str | None:
    """The public key a signed header names (REC8), None for an unsigned one; a signed header
    without a readable ``signer`` is a problem."""
    if header.get("version") != VERSION:
        return None
    signer = header.get("signer")
    key = signer.get("public_key") if isinstance(signer, Mapping) else None
    scheme = signer.get("scheme") if isinstance(signer, Mapping) else None
    if scheme != SCHEME or not isinstance(key, str) or len(key) != 64 or not set(key) <= _HEX:
        audit.add(0, "header", "REC8", f"signer {str(signer)[:80]!r} is not an ed25519 public key", "signature")
        return None
    return key


def _check_signature(
    audit: _Audit,
    header: Mapping[str, Any],
    signer: str,
    raw: Sequence[Mapping[str, Any]],
    finished: int,
    trusted: Collection[str] | None,
) -> bool:
    """Whether the header's signature is ``signer``'s over the statement this record makes: its
    table, game, event lines, finished hands, the last line's hash and ``complete`` (REC8).  A
    record cut, lengthened or edited after signing, even with its chain recomputed, states
    something else, and the signature fails."""
    complete = header.get("complete")
    signature = header.get("signature")
    last = raw[-1].get("hash") if raw else GENESIS
    table_id, game = header.get("table_id"), header.get("game")
    if not isinstance(complete, bool) or not isinstance(signature, str):
        audit.add(0, "header", "REC8", "a signed header needs complete (true or false) and a signature", "signature")
        return False
    if not (isinstance(table_id, str) and isinstance(game, str) and isinstance(last, str)):
        audit.add(0, "header", "REC8", "the signature's statement cannot be read off this record", "signature")
        return False
    stated = Head(table_id, game, len(raw), last, finished, complete)
    if not verify(signer, stated, signature):
        audit.add(
            0,
            "header",
            "REC8",
            f"the signature of key {key_id(signer)} does not match this record: it is incomplete (cut "
            "anywhere but at a signed head), lengthened or edited after the server signed it (or the header was)",
            "signature",
        )
        return False
    if trusted is not None and signer not in trusted:
        audit.add(0, "header", "REC8", f"signed by key {key_id(signer)}, which is not a trusted key", "signature")
        return False
    return True


_HEAD_FIELDS = frozenset({"hands", "events", "head", "complete", "signature"})


def _check_heads(
    audit: _Audit,
    header: Mapping[str, Any],
    signer: str,
    raw: Sequence[Mapping[str, Any]],
    spec: GameSpec[Any, Any] | None,
    lines: Sequence[_Line],
) -> tuple[int, ...]:
    """The header's ``heads`` (REC8, docs/record.md 2.5): each a signed statement of the record cut
    at a hand's end, which must name a place in this record (its event count, the hash of its last
    line, the hands finished there, ``complete`` only at the record's end) and carry ``signer``'s
    signature of it.  Returns the finished-hand counts whose signed head holds, in order."""

    def bad(message: str) -> None:
        audit.add(0, "header", "REC8", message, "signature")

    heads = header.get("heads")
    if heads is None:
        return ()
    if not isinstance(heads, list):
        bad("heads is not a list of signed heads")
        return ()
    table_id, game = header.get("table_id"), header.get("game")
    roles = _roles(spec) if spec is not None else {}
    ends = [0]
    for line in lines:
        ends.append(ends[-1] + (roles.get(line.name) is Role.HAND_REVEALED))
    good: list[int] = []
    for index, entry in enumerate(heads):
        if not isinstance(entry, Mapping) or set(entry) != _HEAD_FIELDS:
            bad(f"heads[{index}] does not have exactly the fields {sorted(_HEAD_FIELDS)}")
            continue
        events, hands, head = entry["events"], entry["hands"], entry["head"]
        if not _is_int(events) or not 0 <= events <= len(raw):
            bad(f"heads[{index}] names {events!r} events; the record holds {len(raw)}")
            continue
        last = raw[events - 1].get("hash") if events else GENESIS
        complete = entry["complete"]
        if head != last or hands != ends[events] or (complete is True and events != len(raw)):
            bad(f"heads[{index}] (hand {hands!r}) does not state this record cut after {events} events")
            continue
        stated = Head(str(table_id), str(game), events, str(head), hands, complete is True)
        if not isinstance(complete, bool) or not isinstance(entry["signature"], str):
            bad(f"heads[{index}] needs complete (true or false) and a signature")
        elif not verify(signer, stated, entry["signature"]):
            bad(f"heads[{index}]: the signature of key {key_id(signer)} does not match the record cut at hand {hands}")
        else:
            good.append(hands)
    return tuple(good)


def _finished_hands(spec: GameSpec[Any, Any] | None, lines: Sequence[_Line]) -> int:
    """The lines that end a hand and reveal its deal (role ``hand_revealed``); 0 for an unknown game."""
    if spec is None:
        return 0
    roles = _roles(spec)
    return sum(1 for line in lines if roles.get(line.name) is Role.HAND_REVEALED)


def _roles(spec: GameSpec[Any, Any]) -> dict[str, Role | None]:
    """``spec.role_of`` of each of the game's event names, for the loops over every line (a name
    that is not the game's has no role: ``get`` gives None)."""
    return {name: cls.role for name, cls in spec.event_types.items()}


def _parse_lines(audit: _Audit, raw: Sequence[Mapping[str, Any]]) -> list[_Line]:
    """Check each line's shape and the hash chain (REC2-REC5); return the usable lines."""
    out: list[_Line] = []
    prev_hash = GENESIS
    expected_seq = 1
    for index, line in enumerate(raw, start=1):
        seq, name, payload = line.get("seq"), line.get("name"), line.get("payload")
        version = line.get("v", 1)
        if (type(seq) is not int or type(name) is not str or type(payload) is not dict) and (
            isinstance(seq, bool)
            or not isinstance(seq, int)
            or not isinstance(name, str)
            or not isinstance(payload, dict)
        ):
            audit.add(
                seq if isinstance(seq, int) and not isinstance(seq, bool) else index,
                name if isinstance(name, str) else "?",
                "REC2",
                f"line {index + 1} lacks an integer seq, a string name or an object payload",
                "format",
            )
            continue
        if "v" in line and not (_is_int(version) and version > 1):
            audit.add(
                seq,
                name,
                "REC2",
                f"v {version!r} is not an integer above 1 (a line without v is at version 1)",
                "format",
            )
        if seq != expected_seq:
            audit.add(seq, name, "REC3", f"seq {seq} where {expected_seq} was expected", "chain")
        recorded_prev, recorded_hash = line.get("prev_hash"), line.get("hash")
        if recorded_prev != prev_hash:
            audit.add(
                seq,
                name,
                "REC4",
                f"prev_hash {recorded_prev!r} is not the hash of the event before ({prev_hash})",
                "chain",
            )
        link = recorded_prev if isinstance(recorded_prev, str) else prev_hash
        written = canonical_json(payload)
        actual = hash_of_written(link, seq, name, written, version)
        if recorded_hash != actual:
            audit.add(
                seq,
                name,
                "REC5",
                f"hash {recorded_hash!r} is not the hash of the event's content ({actual}): the event was changed",
                "chain",
            )
        prev_hash = recorded_hash if isinstance(recorded_hash, str) else actual
        expected_seq = seq + 1
        out.append(_Line(seq, name, payload, version, None, written))
    return out


_FIELDS: dict[type, frozenset[str]] = {}


def _fields(cls: type) -> frozenset[str]:
    """The field names of the event class ``cls`` (a class's fields never change)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names


def _decode(audit: _Audit, spec: GameSpec[Any, Any], lines: Sequence[_Line]) -> list[_Line]:
    """Decode the game events (REC6); table events are skipped, unknown names reported."""
    out: list[_Line] = []
    decoders: dict[type, Callable[[Any, int | None], Event]] = {}
    for line in lines:
        if line.name in TABLE_EVENTS:
            continue
        cls = spec.event_types.get(line.name)
        if cls is None:
            audit.add(line.seq, line.name, "REC6", f"unknown event name {line.name!r} for game {spec.key!r}", "format")
            continue
        try:
            current = upcast(cls, line.payload, line.version) if line.version != cls.version else line.payload
        except InvalidInput as exc:
            audit.add(line.seq, line.name, "REC6", f"the {line.name} payload does not decode: {exc.message}", "format")
            continue
        fields = _fields(cls)
        mismatch = payload_mismatch(cls, current) if current.keys() != fields else None
        if mismatch is not None:
            audit.add(line.seq, line.name, "REC6", f"the {line.name} payload {mismatch}", "format")
            continue
        decode = decoders.get(cls)
        if decode is None:
            decode = decoders[cls] = decoder(cls)
        try:
            line.event = decode(current, None)
        except InvalidInput as exc:
            audit.add(line.seq, line.name, "REC6", f"the {line.name} payload does not decode: {exc.message}", "format")
            continue
        except (TypeError, ValueError):
            audit.add(line.seq, line.name, "REC6", f"the {line.name} payload does not decode", "format")
            continue
        if current is not line.payload or len(current) != len(fields):
            line.payload = to_payload(line.event)  # the upcast form, with defaults filled, for the checks below
            line.written = canonical_json(line.payload)
        out.append(line)
    return out


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_table_events(audit: _Audit, spec: GameSpec[Any, Any], lines: Sequence[_Line]) -> None:
    """The table events' shape (REC7): one ``TableCreated`` first, each seat taken once, before
    the match starts, with a token hash (never a token; a server bot may have no token).

    In a game with seat changes (``GameSpec.seat_changes``, ``mau_mau`` R6.9-R6.10) a seat may
    also be taken after the start, right after the game's ``PlayerJoined`` for that seat, and a
    seat freed by ``PlayerLeft`` or ``PlayerEliminated`` may be taken again; ``JoinQueued`` lines
    may appear after the start.

    A hand dealt explicitly (``HandStarted.explicit_deal``) at a table whose ``TableCreated`` does not
    say ``manual_deal`` breaks the game's explicit-deal rule (S5.3; ``vida`` R3.2, ``giminaiciai``
    R3.8, ``romis`` R3.7): only a table created for explicit deals may deal one."""

    def bad(line: _Line, message: str) -> None:
        audit.add(line.seq, line.name, "REC7", message, "format")

    roles = _roles(spec)
    ordinary = False
    seats: int | None = None
    taken: set[int] = set()
    game_started = False
    previous: _Line | None = None
    for index, line in enumerate(lines):
        before, previous = previous, line
        if line.name == "TableCreated":
            if index != 0:
                bad(line, "TableCreated is not the table's first event")
            if line.payload.get("game") != spec.key:
                bad(line, f"game {line.payload.get('game')!r} is not {spec.key!r}")
            raw = line.payload.get("seats")
            seats = raw if _is_int(raw) else None
            ordinary = line.payload.get("manual_deal") is not True
            if seats is None:
                bad(line, f"seats {raw!r} is not a number")
        elif line.name == "SeatTaken":
            p = line.payload
            seat, token_hash, bot = p.get("seat"), p.get("token_hash"), p.get("bot")
            joined = (
                spec.seat_changes
                and before is not None
                and spec.role_of(before.name) is Role.SEAT_JOINED
                and before.payload.get("seat") == seat
            )
            if game_started and not joined:
                bad(line, "a seat was taken after the match started, not right after the game's newcomer event")
            limit = spec.max_players if joined else seats
            if not _is_int(seat) or limit is None or not 0 <= seat < limit:
                bad(line, f"seat {seat!r} is not a seat of the table")
            elif seat in taken:
                bad(line, f"seat {seat} was already taken")
            else:
                taken.add(seat)
            if not isinstance(p.get("name"), str):
                bad(line, f"name {p.get('name')!r} is not text")
            if bot is not None and not isinstance(bot, str):
                bad(line, f"bot {bot!r} is neither null nor a level")
            if not _is_seed(token_hash) and not (bot is not None and token_hash is None):
                bad(line, "token_hash is not a SHA-256 hex digest (only a server bot may have none)")
        elif line.name == "JoinQueued":
            p = line.payload
            if not (spec.seat_changes and game_started):
                bad(line, "a join was queued, but the game takes no newcomers during a match")
            if not isinstance(p.get("name"), str):
                bad(line, f"name {p.get('name')!r} is not text")
            if not _is_seed(p.get("token_hash")) and not (p.get("bot") is not None and p.get("token_hash") is None):
                bad(line, "token_hash is not a SHA-256 hex digest (only a server bot may have none)")
        elif line.name == "TimedOut":  # docs/clock.md C4: a seated player's time ran out in the match
            p = line.payload
            if not game_started:
                bad(line, "a seat's time ran out before the match started")
            if not _is_int(p.get("seat")) or p.get("seat") not in taken:
                bad(line, f"seat {p.get('seat')!r} timed out, but it is not a seat someone holds")
            if not isinstance(p.get("deadline"), str) or not isinstance(p.get("policy"), str):
                bad(line, "TimedOut needs a deadline and a policy, both text")
        elif line.name in SEED_EVENTS:
            continue  # the players' seeds: REC9 (_check_seeds)
        else:
            game_started = True
            role = roles.get(line.name)
            if role is Role.HAND_STARTED and ordinary and line.payload.get("explicit_deal") is True:
                audit.add(
                    line.seq,
                    line.name,
                    spec.explicit_deal_rule,
                    f"hand {line.payload.get('hand_no')!r} was dealt explicitly at a table not created for explicit "
                    "deals (TableCreated.manual_deal is not true)",
                    "format",
                )
            if role is Role.SEAT_VACATED and spec.seat_changes:
                taken.discard(line.payload.get("seat"))
    if lines and lines[0].name != "TableCreated":
        bad(lines[0], "the record does not start with TableCreated")


def _config(audit: _Audit, spec: GameSpec[Any, Any], lines: Sequence[_Line], game: list[_Line]) -> MatchConfig | None:
    """The match configuration from ``MatchStarted``, cross-checked with the table events (REC7)."""
    if not game:
        return None
    first = game[0]
    if first.name != MATCH_STARTED:
        audit.add(first.seq, first.name, "REC7", f"the first game event is not {MATCH_STARTED}", "format")
        return None
    p = first.payload
    absent = [key for key in ("names", "bots", "options", "first_dealer", "initial_totals") if key not in p]
    if absent:
        audit.add(first.seq, first.name, "REC7", f"MatchStarted lacks field(s) {absent}", "format")
        return None
    try:
        names = tuple(str(n) for n in p["names"])
        bots = tuple(p["bots"])
        config = MatchConfig(
            game=spec.key,
            seats=tuple(SeatInfo(i, names[i], bots[i]) for i in range(len(names))),
            options=dict(p["options"]),
            first_dealer=p["first_dealer"],
            initial_totals=tuple(p["initial_totals"]),
        )
        spec.initial_state(config)
    except InvalidInput as exc:
        audit.add(
            first.seq, first.name, "REC7", f"MatchStarted does not describe a valid match: {exc.message}", "format"
        )
        return None
    except (KeyError, IndexError, TypeError, ValueError):
        audit.add(
            first.seq,
            first.name,
            "REC7",
            "MatchStarted does not describe a valid match: its names, bots, options, first_dealer and "
            "initial_totals do not fit together",
            "format",
        )
        return None
    for line in lines:
        if line.name == "TableCreated":
            _check_created(audit, spec, line, config)
        elif line.name == "SeatTaken" and line.seq < first.seq:
            seat, name, bot = line.payload.get("seat"), line.payload.get("name"), line.payload.get("bot")
            if isinstance(seat, int) and 0 <= seat < len(names) and isinstance(name, str) and name != names[seat]:
                audit.add(
                    line.seq,
                    line.name,
                    "REC7",
                    f"seat {seat} was taken by {name!r}, but MatchStarted names {names[seat]!r}",
                    "format",
                )
            if isinstance(seat, int) and 0 <= seat < len(bots) and bot != bots[seat]:
                played_by = "a person" if bot is None else f"a {bot!r} bot"
                audit.add(
                    line.seq,
                    line.name,
                    "REC7",
                    f"seat {seat} was taken by {played_by}, not as MatchStarted says",
                    "format",
                )
    return config


def _check_created(audit: _Audit, spec: GameSpec[Any, Any], line: _Line, config: MatchConfig) -> None:
    """``TableCreated`` configures the match that ``MatchStarted`` starts (REC7): its seat count, its
    options (as given; the game fills in the defaults), its first dealer and initial totals (when
    it gives them; null leaves them to the game)."""

    def bad(message: str) -> None:
        audit.add(line.seq, line.name, "REC7", message, "format")

    p = line.payload
    seats = p.get("seats")
    if isinstance(seats, int) and seats != len(config.seats):
        bad(f"{seats} seats, but MatchStarted names {len(config.seats)}")
    given = p.get("options")
    try:
        same = spec.parse_options(given if isinstance(given, Mapping) else {}) == spec.parse_options(config.options)
    except InvalidInput as exc:
        bad(f"its options are not the game's: {exc.message}")
    else:
        if not same:
            bad(f"its options {canonical_json(given)[:200]} are not those MatchStarted plays with")
    if p.get("first_dealer") is not None and p.get("first_dealer") != config.first_dealer:
        bad(f"first_dealer {p.get('first_dealer')!r}, but MatchStarted's is {config.first_dealer!r}")
    totals = p.get("initial_totals")
    started = tuple(config.initial_totals or ())
    if totals is not None and (not isinstance(totals, list) or tuple(totals) != started):
        bad(f"initial_totals {str(totals)[:80]}, but MatchStarted's are {list(started)}")


# --------------------------------------------------------------------------- commitments


@dataclass(slots=True)
class _SeedRound:
    """What the record says of one hand's players' seeds."""

    commitment: str
    given: dict[int, str] = field(default_factory=dict)
    server_seed: str | None = None
    refused: bool = False
    """True when a server's seed was revealed for the hand but does not hash to its commitment."""


def _check_seeds(audit: _Audit, spec: GameSpec[Any, Any], lines: Sequence[_Line]) -> dict[int, _SeedRound]:
    """The players' seeds (REC9, docs/shuffle.md 2a; :mod:`trapoula.domain.seeding`): each hand's
    ``SeedCommitted`` comes before any ``SeedGiven`` for it and before the hand is dealt; each seat
    gives at most one seed per hand, before the deal; ``ServerSeedRevealed`` comes after the hand
    ends and hashes to the commitment; the hand's deck seed (``HandStarted``'s seed) is the server's
    seed mixed with the seats' seeds.  Once a record commits to a hand's server seed, every later
    seeded hand must be committed too.  Returns the rounds by hand number."""

    def bad(line: _Line, message: str) -> None:
        audit.add(line.seq, line.name, "REC9", message, "commitment")

    roles = _roles(spec)
    rounds: dict[int, _SeedRound] = {}
    dealt: dict[int, tuple[_Line, HandStart]] = {}
    ended: set[int] = set()
    current: int | None = None
    seats = next((ln.payload.get("seats") for ln in lines if ln.name == "TableCreated"), None)
    limit = spec.max_players if spec.seat_changes else seats if _is_int(seats) else spec.max_players
    shapes = {name: fields_of(name)[1] for name in SEED_EVENTS}
    for line in lines:
        if line.name in SEED_EVENTS:
            p = line.payload
            if set(p) != shapes[line.name]:
                bad(line, f"{line.name} has fields {sorted(p)}, not {sorted(shapes[line.name])}")
                continue
            hand = p["hand"]
            if not _is_int(hand) or hand < 1:
                bad(line, f"hand {hand!r} is not a hand number")
                continue
            seeded = rounds.get(hand)
            if line.name == SEED_COMMITTED:
                if not _is_seed(p["commitment"]):
                    bad(line, f"commitment {p['commitment']!r} is not 64 lower-case hex digits")
                elif seeded is not None or hand in dealt:
                    bad(line, f"hand {hand}'s server seed is committed after its deal or a second time")
                else:
                    rounds[hand] = _SeedRound(p["commitment"])
            elif seeded is None:
                bad(line, f"hand {hand}: {line.name} before the server committed to its seed")
            elif line.name == SEED_GIVEN:
                seat, seed = p["seat"], p["seed"]
                if hand in dealt:
                    bad(line, f"seat {seat!r} gave a seed for hand {hand} after it was dealt")
                elif not _is_int(seat) or not 0 <= seat < limit:
                    bad(line, f"seat {seat!r} is not a seat of the table")
                elif not _is_seed(seed):
                    bad(line, f"seat {seat}'s seed {seed!r} is not 64 lower-case hex digits")
                elif seat in seeded.given:
                    bad(line, f"seat {seat} gave a second seed for hand {hand}")
                else:
                    seeded.given[seat] = seed
            elif hand not in ended:
                bad(line, f"hand {hand}'s server seed is revealed before the hand is over")
            elif seeded.server_seed is not None or not _is_seed(p["seed"]):
                bad(line, f"hand {hand}: a second or malformed server seed {p['seed']!r}")
            elif hashlib.sha256(bytes.fromhex(p["seed"])).hexdigest() != seeded.commitment:
                bad(line, f"hand {hand}: the server's seed does not hash to its commitment {seeded.commitment}")
                seeded.refused = True
            else:
                seeded.server_seed = p["seed"]
            continue
        role = roles.get(line.name)
        fact = spec.fact(line.event) if line.event is not None and role is not None else None
        if isinstance(fact, HandStart):
            current = fact.hand_no
            dealt[current] = (line, fact)
        elif role is Role.HAND_REVEALED and current is not None:
            ended.add(current)
    first = min(rounds, default=None)
    for hand_no, (line, start) in dealt.items():
        seeded = rounds.get(hand_no)
        if start.explicit_deal:
            if seeded is not None and seeded.given:
                bad(line, f"hand {hand_no} was dealt explicitly, though seats gave seeds for it")
            continue
        if seeded is None:
            if first is not None and hand_no > first:
                bad(line, f"hand {hand_no} was shuffled without a committed server seed (the players' seeds)")
            continue
        if hand_no not in ended:
            continue
        if seeded.server_seed is None:
            if not seeded.refused:  # a wrong one is reported where it is revealed
                bad(line, f"hand {hand_no} is over but the server's seed is not revealed (ServerSeedRevealed)")
        elif mix_seeds(seeded.server_seed, seeded.given.items()) != start.seed:
            bad(line, f"hand {hand_no}'s deck seed is not the server's seed mixed with the seats' seeds")
    return rounds


def _check_commitments(audit: _Audit, spec: GameSpec[Any, Any], config: MatchConfig, game: Sequence[_Line]) -> None:
    """Each hand's commitment, hand by hand (``GameSpec.audit_rules``: S5.1 / S5.3 in the shedding
    games, R3.2 in the others): from the game events of role ``hand_started`` and ``hand_revealed``."""
    deck = tuple(spec.deck(spec.initial_state(config)))
    started: _Line | None = None
    roles = _roles(spec)
    for line in game:
        role = roles.get(line.name)
        if role is Role.HAND_STARTED:
            started = line
        elif role is Role.HAND_REVEALED and started is not None:
            _check_hand_commitment(audit, spec, deck, started, line)
            started = None


def _check_record(audit: _Audit, spec: GameSpec[Any, Any], game: Sequence[_Line]) -> None:
    """The game's own checks of its recorded events (``GameSpec.record_checks``), kind ``seal``."""
    if spec.record_checks is None:
        return
    names = {line.seq: line.name for line in game}
    for seq, rule, message in spec.record_checks([(line.seq, line.name, line.payload) for line in game]):
        audit.add(seq, names.get(seq, "?"), rule, message, "seal")


def _is_seed(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


def _seed_matches(spec: GameSpec[Any, Any], deck: tuple[Any, ...], seed: Any, published: Any) -> bool:
    """True when ``seed`` is a seed whose deal the game commits to as ``published``."""
    if not _is_seed(seed) or not isinstance(published, str):
        return False
    return bool(spec.commitment(seed, Deal.from_seed(deck, seed).order) == published)


def _check_hand_commitment(
    audit: _Audit, spec: GameSpec[Any, Any], deck: tuple[Any, ...], hs: _Line, sr: _Line
) -> None:
    start, reveal = spec.fact(hs.event) if hs.event else None, spec.fact(sr.event) if sr.event else None
    if not isinstance(start, HandStart) or not isinstance(reveal, HandReveal):  # pragma: no cover - decoded lines
        return
    hand_no, published, hidden, revealed = start.hand_no, start.commitment, start.seed, reveal.secret
    order = list(start.deck) if start.deck is not None else None
    if start.explicit_deal:
        rule = spec.audit_rules.explicit
        if hidden is not None or revealed not in (None, ""):
            audit.add(sr.seq, sr.name, rule, f"hand {hand_no} was dealt explicitly but reveals a seed", "commitment")
        try:
            actual = spec.commitment(None, parse_cards(order)) if order is not None else None
        except InvalidInput as exc:
            audit.add(hs.seq, hs.name, rule, f"hand {hand_no}: bad deck order: {exc}", "commitment")
            return
        if actual != published:
            audit.add(
                hs.seq,
                hs.name,
                rule,
                f"hand {hand_no}: the explicit deck order hashes to {actual}, not to the commitment {published!r}",
                "commitment",
            )
        return
    rule = spec.audit_rules.seeded
    if not isinstance(published, str):
        audit.add(hs.seq, hs.name, rule, f"hand {hand_no}: no commitment was published", "commitment")
        return
    revealed_ok = _seed_matches(spec, deck, revealed, published)
    hidden_ok = _seed_matches(spec, deck, hidden, published)
    if not revealed_ok:
        audit.add(
            sr.seq,
            sr.name,
            rule,
            f"hand {hand_no}: the revealed seed {revealed!r} does not match the commitment {published} "
            f"published in HandStarted (seq {hs.seq})",
            "commitment",
        )
    if not hidden_ok:
        audit.add(
            hs.seq,
            hs.name,
            rule,
            f"hand {hand_no}: the hand's seed {hidden!r} does not match its commitment {published}",
            "commitment",
        )
    if revealed_ok and hidden_ok and hidden != revealed:  # pragma: no cover - a SHA-256 collision
        audit.add(sr.seq, sr.name, rule, f"hand {hand_no}: the revealed seed is not the hand's seed", "commitment")
    seed = revealed if revealed_ok else hidden if hidden_ok else None
    if seed is not None:
        shuffled = list(codes(Deal.from_seed(deck, seed).order))
        if order != shuffled:
            audit.add(
                hs.seq,
                hs.name,
                rule,
                f"hand {hand_no}: the recorded deck order is not the one the seed gives",
                "commitment",
            )
        revealed_deck = sr.payload.get("deck")
        if "deck" in sr.payload and revealed_deck != shuffled:
            audit.add(
                sr.seq, sr.name, rule, f"hand {hand_no}: the revealed deck is not the one the seed gives", "commitment"
            )


# --------------------------------------------------------------------------- rules replay


_EXACT = frozenset({str, int, bool, type(None)})
"""The JSON types whose values are written alike exactly when they are equal and of one type."""


def _same_json(got: Any, want: Any) -> bool:
    """True when ``got`` and ``want`` are written alike by :func:`canonical_json` (JSON-exact: true
    is not 1, 1.0 is not 1).  Equal values of one plain type, or equal lists of such values, item by
    item of one type, are alike without writing them; anything else is compared written out."""
    kind = type(want)
    if kind is type(got):
        if kind in _EXACT:
            return bool(got == want)
        if kind is list and got == want and _EXACT.issuperset(map(type, want)):
            return list(map(type, got)) == list(map(type, want))
    return canonical_json(got) == canonical_json(want)


def _first_difference(expected: Event, recorded: _Line) -> str | None:
    """None when ``recorded`` is exactly ``expected``; else a sentence naming the first difference."""
    if recorded.name != expected.event_name():
        return f"the rules produce {expected.event_name()} here, the record has {recorded.name}"
    want = to_payload(expected)
    if canonical_json(want) == recorded.written:  # the usual case: written alike, so alike field by field
        return None
    for key, value in want.items():
        got = recorded.payload.get(key)
        if not _same_json(got, value):  # JSON-exact: true is not 1
            return f"field {key!r} is {got!r}, the rules give {value!r}"
    extra = sorted(set(recorded.payload) - set(want))
    if extra:
        return f"unexpected field(s) {extra}"
    return None


class _Replay:
    """The rules replay of one record's game events."""

    def __init__(self, audit: _Audit, spec: GameSpec[Any, Any], config: MatchConfig, game: Sequence[_Line]) -> None:
        self.audit = audit
        self.spec = spec
        self.game = game
        self.events: list[Event] = []
        for line in game:
            assert line.event is not None  # _decode keeps only decoded lines
            self.events.append(line.event)
        self.state: Any = spec.initial_state(config)
        self.command_for: Callable[..., Any] = spec.command_for
        self.results: list[tuple[int, int, int, HandScore]] = []
        """(hand number, seq of its start, seq of its score, the score as the rules give it)."""
        self.hand_start_seq = 0
        self.hand_no = 0
        self.totals: tuple[int | None, ...] | None = None
        self.winner: int | None = None
        self.match_over = False
        self.commitment_seqs = {p.seq for p in audit.problems if p.kind == "commitment"}

    def problem(self, line: _Line, rule: str, message: str) -> None:
        self.audit.add(line.seq, line.name, rule, message, "rules")

    def _evolve_trusted(self, start: int) -> int:
        """Apply the recorded event at ``start`` and the events that follow it up to the next one
        that opens a command; return the next position, or -1 when an event cannot be applied.

        The event at ``start`` was already reported (its command refused, malformed or missing),
        which says why it cannot be applied; a following event that cannot be applied is
        reported here.
        """
        i = start
        while True:
            try:
                self.state = self.spec.evolve(self.state, self.events[i])
            except Exception:  # a recorded event that does not fit the state at all
                if i != start:
                    line = self.game[i]
                    rule = self.spec.event_rules.get(line.name) or self.spec.audit_rules.events
                    self.problem(
                        line,
                        rule,
                        f"the recorded {line.name} does not fit hand {self.hand_no} as replayed so far "
                        f"({_short(line.payload)}); the rest of the hand is not replayed",
                    )
                return -1
            i += 1
            if i >= len(self.events) or self._opens_command(i):
                return i

    def _opens_command(self, i: int) -> bool:
        try:
            return self.command_for(self.state, self.events, i) is not None
        except Exception:
            return True

    def _skip_hand(self, start: int) -> int:
        """After an event that cannot be applied: apply what can be, up to the next hand."""
        i = start
        while i < len(self.events) and self.spec.role_of(self.game[i].name) is not Role.HAND_STARTED:
            with contextlib.suppress(Exception):
                self.state = self.spec.evolve(self.state, self.events[i])
            i += 1
        return i

    def _note(self, event: Event, seq: int) -> None:
        fact = self.spec.fact(event)
        if isinstance(fact, HandStart):
            self.hand_start_seq = seq
            self.hand_no = fact.hand_no
        elif isinstance(fact, HandScore):
            self.results.append((self.hand_no, self.hand_start_seq, seq, fact))
            if fact.totals is not None:
                self.totals = tuple(fact.totals)
        elif isinstance(fact, MatchResult):
            self.match_over = True
            self.winner = fact.winner_team if fact.winner_team is not None else next(iter(fact.winners), None)
            if fact.totals:
                self.totals = tuple(fact.totals)

    def run(self) -> None:
        i = 0
        n = len(self.events)
        while i < n:
            line = self.game[i]
            try:
                cmd = self.command_for(self.state, self.events, i)
            except InvalidInput as exc:
                self.problem(
                    line,
                    self.spec.audit_rules.commands,
                    f"the recorded {line.name} does not name a valid command: {exc.message}",
                )
                i = self._skip_hand(i + 1)
                continue
            except Exception:  # e.g. a suit letter that is no suit: the fields make no command
                self.problem(
                    line,
                    self.spec.audit_rules.commands,
                    f"the recorded {line.name} does not name a valid command ({_short(line.payload)})",
                )
                i = self._skip_hand(i + 1)
                continue
            if cmd is None:
                self.problem(line, self.spec.audit_rules.commands, "event not caused by any command")
                i = self._after_failure(i)
                continue
            try:
                expected = self.spec.decide(self.state, cmd)
            except CommandRejected as exc:
                self.problem(line, exc.rule, f"the rules refuse {self._describe(cmd)}: {exc.message} ({exc.reason})")
                i = self._after_failure(i)
                continue
            except InvalidInput as exc:
                self.problem(
                    line,
                    self.spec.audit_rules.commands,
                    f"malformed command {self._describe(cmd)}: {exc.message} ({exc.reason})",
                )
                i = self._after_failure(i)
                continue
            except Exception:  # a record crafted to upset the rules: report, never crash
                self.problem(
                    line,
                    self.spec.audit_rules.commands,
                    f"the rules cannot decide {self._describe(cmd)} in this position",
                )
                i = self._after_failure(i)
                continue
            if not expected:
                self.problem(
                    line, self.spec.audit_rules.commands, f"the rules produce no event for {self._describe(cmd)}"
                )
                i = self._after_failure(i)
                continue
            i = self._compare(i, expected)

    def _after_failure(self, i: int) -> int:
        """Go on after a recorded command the rules could not check: trust its events."""
        nxt = self._evolve_trusted(i)
        return nxt if nxt >= 0 else self._skip_hand(i + 1)

    def _describe(self, cmd: Any) -> str:
        """A command in words: ``play card 4C by seat 0``, ``next_hand``."""
        try:
            payload = dict(self.spec.command_payload(cmd))
        except Exception:
            return repr(cmd)
        kind = payload.pop("kind", "command")
        seat = payload.pop("seat", None)
        words = [str(kind)]
        for key, value in payload.items():
            if value is None or value is False:
                continue
            words.append(str(key) if value is True else f"{key} {_value(value)}")
        if seat is not None:
            words.append(f"by seat {_value(seat)}")
        return " ".join(words)

    def _compare(self, i: int, expected: Sequence[Event]) -> int:
        n = len(self.events)
        for k, event in enumerate(expected):
            if i + k >= n:
                last = self.game[-1]
                self.audit.add(
                    last.seq,
                    last.name,
                    "REC7",
                    f"the record ends before the {event.event_name()} the rules produce after it",
                    "rules",
                )
                break
            line = self.game[i + k]
            diff = _first_difference(event, line)
            if diff is not None and line.seq not in self.commitment_seqs:
                rule = (
                    self.spec.event_rules.get(line.name)
                    or self.spec.event_rules.get(event.event_name())
                    or self.spec.audit_rules.events
                )
                self.problem(line, rule, f"the recorded event is not what the rules produce: {diff}")
                break
        for k, event in enumerate(expected):  # go on from what the rules say happened
            self.state = self.spec.evolve(self.state, event)
            self._note(event, self.game[min(i + k, n - 1)].seq)
        return i + len(expected)


def _value(value: Any, limit: int = 40) -> str:
    """A payload value in a message: text as is, anything else as JSON, cut at ``limit``."""
    text = value if isinstance(value, str) else canonical_json(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short(payload: Mapping[str, Any]) -> str:
    """A payload's fields in a message: ``seat 0, card 4C, declared_suit X``."""
    return ", ".join(f"{key} {_value(value)}" for key, value in payload.items())


# --------------------------------------------------------------------------- entry point


def audit_record(lines: Sequence[Mapping[str, Any]], trusted: Collection[str] | None = None) -> AuditReport:
    """Audit a record given as parsed JSON lines (header first); see the module docstring.

    Args:
        lines: the record's lines, each a mapping: the header, then one per event with ``seq``,
            ``name``, ``payload``, ``prev_hash`` and ``hash``.
        trusted: the public keys (64 hex digits) whose signature the record must carry (REC8);
            None to accept any signer's valid signature, or an unsigned record.

    Returns:
        The report: every problem found (ordered by seq), the hands verified, the totals and
        the winner as the rules computed them.  Never raises for a bad record: every defect is
        a :class:`Problem`.
    """
    audit = _Audit()
    if not lines:
        audit.add(0, "header", "REC1", "the record is empty: no header line", "header")
        return AuditReport(None, None, 0, 0, 0, tuple(audit.problems))
    header = lines[0]
    body = _parse_lines(audit, lines[1:])
    spec = _check_header(audit, header, body)
    table_id = header.get("table_id") if isinstance(header.get("table_id"), str) else None
    game_key = header.get("game") if isinstance(header.get("game"), str) else None
    finished = _finished_hands(spec, body)
    signer = _signer(audit, header)
    signed = signer is not None and _check_signature(audit, header, signer, lines[1:], finished, trusted)
    heads = _check_heads(audit, header, signer, lines[1:], spec, body) if signer is not None else ()
    if signer is None and trusted is not None:
        audit.add(
            0, "header", "REC8", "the record is not signed by a trusted key: it carries no signature", "signature"
        )
    complete = header.get("complete") if signed else None
    if spec is None:
        problems = _ordered(audit.problems)
        return AuditReport(
            table_id, game_key, len(body), finished, 0, problems, signer=signer, signed=signed, signed_heads=heads
        )
    _check_table_events(audit, spec, body)
    game = _decode(audit, spec, body)
    rounds = _check_seeds(audit, spec, body)
    config = _config(audit, spec, body, game)
    names: tuple[str, ...] = ()
    replay: _Replay | None = None
    if config is not None:
        names = tuple(s.name for s in config.seats)
        _check_commitments(audit, spec, config, game)
        _check_record(audit, spec, game)
        replay = _Replay(audit, spec, config, game)
        replay.run()
        if spec.hand_in_progress(replay.state):
            last = game[-1]
            audit.add(last.seq, last.name, "REC7", "the record ends in the middle of a hand", "format")
        if complete is not None and complete != replay.match_over:
            says = "holds the whole match" if complete else "stops before the match's end"
            message = f"the signed header says the record {says}; its events say otherwise"
            end = game[-1] if game else None
            audit.add(end.seq if end else 0, end.name if end else "header", "REC8", message, "signature")
    problems = _ordered(audit.problems)
    results: list[HandResult] = []
    if replay is not None:
        seqs = [p.seq for p in problems]
        roles = _roles(spec)
        end_seqs = sorted(line.seq for line in game if roles.get(line.name) is Role.HAND_REVEALED)
        starts = {line.seq: spec.fact(line.event) for line in game if line.event is not None}
        for hand_no, start, ended, score in replay.results:
            reveal = next((s for s in end_seqs if s > ended), ended)
            clean = not any(start <= s <= reveal for s in seqs)
            fact = starts.get(start)
            begun = fact if isinstance(fact, HandStart) else None
            results.append(
                HandResult(
                    hand_no=hand_no,
                    reason=score.reason,
                    winner=score.winner,
                    hand_points=tuple(score.hand_points or ()),
                    totals=tuple(score.totals or ()),
                    verified=clean,
                    explicit=begun.explicit_deal if begun is not None else False,
                    commitment=begun.commitment if begun is not None else "",
                    seed=begun.seed if begun is not None else None,
                    **_seed_fields(rounds.get(hand_no)),
                )
            )
    return AuditReport(
        table_id=table_id,
        game=game_key,
        events=len(body),
        hands=finished,
        hands_verified=sum(1 for r in results if r.verified),
        problems=problems,
        names=names,
        results=tuple(results),
        totals=replay.totals if replay is not None else None,
        winner=replay.winner if replay is not None else None,
        match_over=replay.match_over if replay is not None else False,
        teams=spec.teams,
        signer=signer,
        signed=signed,
        complete=complete if isinstance(complete, bool) else None,
        signed_heads=heads,
    )


def _seed_fields(seeded: _SeedRound | None) -> dict[str, Any]:
    """:class:`HandResult`'s players' seeds fields of a hand's round (None: it had none)."""
    if seeded is None:
        return {}
    return {
        "server_seed": seeded.server_seed,
        "server_commitment": seeded.commitment,
        "player_seeds": tuple(sorted(seeded.given.items())),
    }


def _ordered(problems: Sequence[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(problems, key=lambda p: (p.seq, _KIND_ORDER.get(p.kind, 9))))
