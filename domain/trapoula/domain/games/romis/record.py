"""The audit's own check of a Romis record: sealed submissions and their opening (docs/rules/romis.md R5.2,
R5.3, section 9; ``GameSpec.record_checks``).

The rules replay decides every recorded command again, but it rebuilds a ``reveal`` or ``cannot``
from the recorded payload itself: it would not notice a payload, commitment and nonce rewritten
together after the round.  This check reads the record as the players saw it: each
``RoundResolved`` must open, for every live seat, exactly the last submission that seat sealed in
that attempt -- its kind, its cards and its number of companions -- and the opened nonce with the
sealed payload must hash to the commitment published before the round resolved
(:func:`~trapoula.domain.games.romis.sealing.submission_commitment`).  Each ``SubmissionSealed``
must also hash to its own commitment.  A finding names the event's ``seq``, the rule and what
differs; a malformed payload is a finding, never an exception.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from trapoula.domain.game import RecordedEvent, RecordFinding
from trapoula.domain.games.romis.sealing import canonical_payload, companions_digest, submission_commitment

__all__ = ["check_record"]


def _codes(value: Any) -> list[str] | None:
    if isinstance(value, list | tuple) and all(isinstance(c, str) for c in value):
        return list(value)
    return None


def _payload(raw: Any, salt: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A recorded ``SubmissionSealed.payload`` with its companions salt: ``(the payload as sealed,
    what it commits to)`` -- the companions replaced by their digest (sealing) -- or None when it is
    malformed."""
    if not isinstance(raw, Mapping):
        return None
    kind = raw.get("kind")
    if kind == "cannot" and set(raw) == {"kind"} and salt is None:
        return {"kind": "cannot"}, canonical_payload("cannot")
    cards, companions = _codes(raw.get("cards")), _codes(raw.get("companions"))
    if kind != "reveal" or cards is None or companions is None or set(raw) != {"kind", "cards", "companions"}:
        return None
    if not isinstance(salt, str):
        return None
    digest = companions_digest(companions, salt)
    return {"kind": kind, "cards": cards, "companions": companions, "digest": digest}, canonical_payload(
        "reveal", cards, digest
    )


def _at(values: Any, seat: int) -> Any:
    if isinstance(values, list | tuple) and 0 <= seat < len(values):
        return values[seat]
    return None


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _sealed(seq: int, p: Mapping[str, Any], findings: list[RecordFinding]) -> tuple[Any, dict[str, Any]] | None:
    """Check one ``SubmissionSealed`` against its own commitment (R5.2); its key and payload if usable."""
    seat, round_no, attempt, nonce, digest = (p.get(k) for k in ("seat", "round", "attempt", "nonce", "commitment"))
    both = _payload(p.get("payload"), p.get("companions_salt"))
    if not (_is_int(seat) and _is_int(round_no) and _is_int(attempt)) or both is None or not isinstance(nonce, str):
        findings.append((seq, "R5.2", "the sealed submission's seat, round, attempt, payload or nonce is malformed"))
        return None
    payload, committed = both
    if submission_commitment(seat, round_no, attempt, committed, nonce) != digest:
        findings.append(
            (seq, "R5.2", f"seat {seat}'s sealed payload and nonce do not hash to its commitment {str(digest)[:16]}...")
        )
    return (seat, round_no, attempt), dict(payload, nonce=nonce, commitment=digest)


def _opened(
    seq: int, p: Mapping[str, Any], sealed: Mapping[tuple[Any, Any, Any], dict[str, Any]], findings: list[RecordFinding]
) -> None:
    """Check that a ``RoundResolved`` opens the last sealed submission of every live seat (R5.3)."""
    kinds = p.get("kinds")
    round_no, attempt = p.get("round"), p.get("attempt")
    if not isinstance(kinds, list | tuple) or not _is_int(round_no) or not _is_int(attempt):
        findings.append((seq, "R5.3", "the resolved round's round, attempt or kinds are malformed"))
        return
    for seat, kind in enumerate(kinds):
        if kind is None:
            continue
        last = sealed.get((seat, round_no, attempt))
        if last is None:
            findings.append(
                (seq, "R5.3", f"seat {seat} is opened but sealed nothing in round {round_no}, attempt {attempt}")
            )
            continue
        cards, companions = _codes(_at(p.get("cards"), seat)), last.get("companions", [])
        nonce = _at(p.get("nonces"), seat)
        opened_kind = kind if kind in ("reveal", "cannot") else None
        if opened_kind != last["kind"] or (cards or []) != last.get("cards", []):
            findings.append((seq, "R5.3", f"seat {seat}'s opened submission is not the one it sealed last"))
            continue
        if _at(p.get("companions"), seat) != len(companions):
            findings.append((seq, "R5.3", f"seat {seat}'s opened companions are not the number it sealed"))
            continue
        opened_digest = _at(p.get("companion_digests"), seat)
        if opened_digest != last.get("digest"):
            findings.append((seq, "R5.3", f"seat {seat}'s opened companions digest is not the one it sealed"))
            continue
        payload = canonical_payload(opened_kind, cards or [], opened_digest if isinstance(opened_digest, str) else "")
        if (
            not isinstance(nonce, str)
            or submission_commitment(seat, round_no, attempt, payload, nonce) != last["commitment"]
        ):
            findings.append(
                (seq, "R5.3", f"seat {seat}'s opened submission and nonce do not hash to the commitment it sealed")
            )


def check_record(events: Sequence[RecordedEvent]) -> tuple[RecordFinding, ...]:
    """Every sealed submission hashes to its commitment (R5.2) and every resolved round opens the last
    submission each live seat sealed in that attempt, hashing with the opened nonce to the commitment
    published before (R5.3).  ``events`` are the recorded game events ``(seq, name, full payload)``;
    returns ``(seq, rule, message)`` findings, in the order of the record."""
    findings: list[RecordFinding] = []
    sealed: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
    for seq, name, payload in events:
        if name == "HandStarted":
            sealed = {}
        elif name == "SubmissionSealed":
            got = _sealed(seq, payload, findings)
            if got is not None:
                sealed[got[0]] = got[1]
        elif name == "RoundResolved":
            _opened(seq, payload, sealed, findings)
    return tuple(findings)
