"""The hashes of Romis su iškritimu: shuffle commitments, salts, nonces and sealed submissions
(docs/rules/romis.md R3.2, R5.2, R9.1, R9.3, section 9).

Every hand has one *secret*: the 64-hex-digit seed of a seeded deal, or for an explicit deal the
hash of its deck order (:func:`trapoula.domain.deal.deck_hash`, i.e. ``Deal.reshuffle_seed``).
Everything random or hidden inside the hand is derived from it, so that a replay and the audit
reproduce it exactly:

* ``hmac_hex(secret, message)`` = HMAC-SHA256 with key ``bytes.fromhex(secret)`` when the secret is
  64 hex digits (always, in practice), else ``secret.encode("utf-8")``, over ``message`` in UTF-8;
  lowercase hex.
* The deal's commitment (R3.2) is ``SHA-256(",".join(order) + ":" + salt)`` in lowercase hex, with
  the salt the seed for a seeded deal and ``""`` for an explicit one.
* The k-th shuffle of the eliminated pile in a hand (R9.1, k = 1, 2, ...) has the label
  ``eliminated_pile/<k>``, the redeal of R9.3 the label ``redeal``.  Its order is
  :func:`trapoula.domain.deal.shuffle` ``(cards, secret, label)`` and its salt ``hmac_hex(secret,
  label)``; its commitment is formed like the deal's, with that salt.
* The nonce of a sealed submission (R5.2) is ``hmac_hex(secret,
  "nonce/<hand_no>/<seat>/<round>/<attempt>/<serial>")``, where ``serial`` counts the seat's
  earlier submissions in the same attempt of the round (0 for the first; only the ``resubmit``
  option, R12.4, makes it more than 0).
* The submission's commitment is ``SHA-256`` (lowercase hex) of the canonical JSON
  ``json.dumps({"seat": s, "round": r, "attempt": a, "payload": p, "nonce": n}, sort_keys=True,
  separators=(",", ":"))`` where the payload ``p`` is ``{"kind": "reveal", "cards": [...],
  "companions": d}`` (the codes in canonical card order) or ``{"kind": "cannot"}``.  ``d`` is the
  *companions digest* ``SHA-256(",".join(companions) + ":" + companions_salt)`` (lowercase hex; the
  companions in canonical card order, none unless the reveal starts a new combination, R8.2), with
  ``companions_salt = hmac_hex(secret, "companions/<hand_no>/<seat>/<round>/<attempt>/<serial>")``:
  the round publishes the nonce and the digest, so anyone can check the commitment then, while the
  face-down companions (R8.3) stay hidden -- they cannot be found by trying the few possible sets --
  until the hand ends and its secret is revealed.
* The hand's secret is the seed of a seeded deal; for an explicit deal, the 64 hex digits the server
  adds to it (``Deal.secret``), so that whoever entered the deal cannot compute a nonce; for an
  explicit deal made outside a server, the hash of its deck order.

>>> secret = "00" * 32
>>> len(nonce(secret, 1, 0, 1, 1, 0)), salt(secret, "redeal") == hmac_hex(secret, "redeal")
(64, True)
>>> shuffle_commitment(["7C", "8C"], "") == hashlib.sha256(b"7C,8C:").hexdigest()
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "REDEAL_LABEL",
    "canonical_payload",
    "companions_digest",
    "companions_salt",
    "eliminated_pile_label",
    "hmac_hex",
    "nonce",
    "salt",
    "shuffle_commitment",
    "submission_commitment",
]

REDEAL_LABEL = "redeal"
"""The label of the redeal of R9.3 (at most one per hand)."""

_HEX = frozenset("0123456789abcdefABCDEF")


def _key(secret: str) -> bytes:
    """The HMAC key of a hand's secret: its 32 bytes when it is 64 hex digits, else its UTF-8 text."""
    if len(secret) == 64 and _HEX.issuperset(secret):
        return bytes.fromhex(secret)
    return secret.encode("utf-8")


def hmac_hex(secret: str, message: str) -> str:
    """HMAC-SHA256 of ``message`` (UTF-8) keyed by the hand's secret, lowercase hex (64 digits)."""
    return hmac.digest(_key(secret), message.encode("utf-8"), "sha256").hex()


def eliminated_pile_label(k: int) -> str:
    """The label of the k-th shuffle of the eliminated pile in a hand (R9.1; k = 1, 2, ...)."""
    return f"eliminated_pile/{k}"


def salt(secret: str, label: str) -> str:
    """The salt of a shuffle inside the hand (R9.1, R9.3): ``hmac_hex(secret, label)``."""
    return hmac_hex(secret, label)


def shuffle_commitment(order: Sequence[str], salt_text: str) -> str:
    """A shuffle's commitment (R3.2, section 9 ``ShuffleCommitted``): lowercase hex SHA-256 of the
    card codes joined by ``,``, then ``:``, then the salt."""
    return hashlib.sha256(f"{','.join(order)}:{salt_text}".encode()).hexdigest()


def nonce(secret: str, hand_no: int, seat: int, round_no: int, attempt: int, serial: int) -> str:
    """The nonce of a sealed submission (R5.2): ``hmac_hex(secret, "nonce/<hand>/<seat>/<round>/
    <attempt>/<serial>")``; 64 hex digits, private to the seat until the round resolves."""
    return hmac_hex(secret, f"nonce/{hand_no}/{seat}/{round_no}/{attempt}/{serial}")


def companions_salt(secret: str, hand_no: int, seat: int, round_no: int, attempt: int, serial: int) -> str:
    """The salt of a reveal's companions digest (R8.2, R8.3): ``hmac_hex(secret, "companions/<hand>/
    <seat>/<round>/<attempt>/<serial>")``; known to the seat, derivable by all once the hand's secret
    is revealed."""
    return hmac_hex(secret, f"companions/{hand_no}/{seat}/{round_no}/{attempt}/{serial}")


def companions_digest(companions: Sequence[str], salt_text: str) -> str:
    """The digest a reveal commits to for its face-down companions (R8.2, R8.3): lowercase hex
    SHA-256 of the codes joined by ``,``, then ``:``, then the salt (no companions: the empty list)."""
    return hashlib.sha256(f"{','.join(companions)}:{salt_text}".encode()).hexdigest()


def canonical_payload(kind: str, cards: Sequence[str] = (), digest: str = "") -> dict[str, Any]:
    """The payload a submission commits to (R5.1): ``{"kind": "cannot"}``, or ``{"kind": "reveal",
    "cards": [...], "companions": digest}`` with the codes as given (the rules give them in canonical
    card order) and the companions digest (:func:`companions_digest`)."""
    if kind == "cannot":
        return {"kind": "cannot"}
    return {"kind": "reveal", "cards": list(cards), "companions": digest}


def submission_commitment(seat: int, round_no: int, attempt: int, payload: Mapping[str, Any], nonce_hex: str) -> str:
    """The public commitment of a sealed submission (R5.2, section 9): SHA-256 (lowercase hex) of
    the canonical JSON of seat, round, attempt, payload (:func:`canonical_payload`) and nonce."""
    body = {
        "seat": seat,
        "round": round_no,
        "attempt": attempt,
        "payload": {k: list(v) if isinstance(v, tuple | list) else v for k, v in payload.items()},
        "nonce": nonce_hex,
    }
    text = _CANONICAL.encode(body)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""``json.dumps(body, sort_keys=True, separators=(",", ":"))``'s encoder, made once."""
