"""Signed heads of a table's hash chain (docs/record.md, signatures).

The hash chain (:mod:`trapoula.domain.chain`) shows that no line of a record was changed *unless
the chain was recomputed*: whoever holds a record can recompute it.  A signed head closes that
gap: the server signs, with its Ed25519 key (RFC 8032), the statement "table ``table_id`` of
``game`` has ``events`` events whose last hash is ``head``, ``hands`` finished hands, and its
match is ``complete`` (over) or not".  Anyone holding the server's public key can check the
statement; an edit with the chain recomputed changes ``head`` and fails it, and a record cut
short of a signed head is seen as such.

The statement is the canonical JSON (:func:`~trapoula.domain.chain.canonical_json`) of
``{"complete", "events", "game", "hands", "head", "table_id"}``, prefixed with the ASCII text
:data:`CONTEXT`; the signature is 64 bytes, written as 128 lowercase hex digits.

A server's signing key is derived from its secret (:func:`key_from_secret`, HKDF-SHA256), so
that replicas sharing a secret share a key; :func:`key_id` names a public key in a few characters.

>>> key = key_from_secret(bytes(32))
>>> head = Head("t1", "agonia", events=3, head="ab" * 32, hands=0, complete=False)
>>> verify(public_key_hex(key), head, sign(key, head))
True
>>> verify(public_key_hex(key), head._replace(events=2), sign(key, head))
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from trapoula.domain.chain import RECORD_VERSION, canonical_json
from trapoula.domain.errors import InvalidInput

__all__ = [
    "CONTEXT",
    "KEY_INFO",
    "SCHEME",
    "SIGNED_FIELDS",
    "Head",
    "cut_record",
    "key_from_secret",
    "key_from_seed",
    "key_id",
    "public_key_hex",
    "sign",
    "sign_header",
    "signed_heads",
    "statement",
    "verify",
]

SCHEME = "ed25519"
"""The signature scheme's name, as a record's header gives it."""
CONTEXT = b"trapoula signed head v1\n"
"""The bytes before the statement's JSON in what is signed: a signature made for something else
with the same key can never pass for a signed head."""
KEY_INFO = b"trapoula record signing key v1"
"""HKDF's ``info`` for a server's signing key (:func:`key_from_secret`); salt: none."""


class Head(NamedTuple):
    """What a signed head states about a table's log (see the module docstring)."""

    table_id: str
    game: str
    events: int
    """How many events the log has up to the head (its last ``seq``)."""
    head: str
    """The hash of event number ``events`` (64 lowercase hex digits)."""
    hands: int
    """How many hands are finished (events of role ``hand_revealed``) up to the head."""
    complete: bool
    """True when the match is over at the head: no event follows it."""


def statement(head: Head) -> bytes:
    """The bytes signed for ``head``: :data:`CONTEXT` then the canonical JSON of its fields.

    >>> statement(Head("t", "agonia", 1, "0" * 64, 0, True))[len(CONTEXT):]
    b'{"complete":true,"events":1,"game":"agonia","hands":0,"head":"0000000000000000000000000000000000000000000000000000000000000000","table_id":"t"}'
    """
    return CONTEXT + canonical_json(head._asdict()).encode("ascii")


def key_from_seed(seed: bytes) -> Ed25519PrivateKey:
    """The Ed25519 private key of a 32-byte seed (RFC 8032 section 5.1.5).

    Raises:
        InvalidInput: ``seed`` is not 32 bytes (``bad_signing_key``).
    """
    if len(seed) != 32:
        raise InvalidInput(f"an Ed25519 key seed is 32 bytes, not {len(seed)}", reason="bad_signing_key")
    return Ed25519PrivateKey.from_private_bytes(seed)


def key_from_secret(secret: bytes) -> Ed25519PrivateKey:
    """A server's signing key from its secret: the seed is HKDF-SHA256(secret, salt none, info
    :data:`KEY_INFO`, 32 bytes) (RFC 5869), so replicas sharing a secret sign alike."""
    seed = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KEY_INFO).derive(secret)
    return key_from_seed(seed)


def public_key_hex(key: Ed25519PrivateKey) -> str:
    """The raw 32-byte public key of ``key`` in lowercase hex (64 digits)."""
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def key_id(public_key: str) -> str:
    """A short name of a public key given in hex: the first 16 hex digits of the SHA-256 of its 32 bytes.

    Raises:
        InvalidInput: not 64 hex digits (``bad_public_key``).
    """
    return hashlib.sha256(_public_bytes(public_key)).hexdigest()[:16]


def sign(key: Ed25519PrivateKey, head: Head) -> str:
    """The signature of ``head``'s :func:`statement` by ``key``, 128 lowercase hex digits."""
    return key.sign(statement(head)).hex()


def verify(public_key: str, head: Head, signature: str) -> bool:
    """True when ``signature`` (hex) is ``public_key``'s (hex) signature of ``head``'s statement;
    False for any other signature, including one that is not 128 hex digits.

    Raises:
        InvalidInput: ``public_key`` is not 64 hex digits (``bad_public_key``).
    """
    verifier = Ed25519PublicKey.from_public_bytes(_public_bytes(public_key))
    if len(signature) != 128 or not _is_lower_hex(signature):
        return False
    try:
        verifier.verify(bytes.fromhex(signature), statement(head))
    except InvalidSignature:
        return False
    return True


def _is_lower_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def _public_bytes(public_key: str) -> bytes:
    if not isinstance(public_key, str) or len(public_key) != 64 or not _is_lower_hex(public_key):
        raise InvalidInput("a public key is 64 lowercase hex digits (32 bytes, Ed25519)", reason="bad_public_key")
    return bytes.fromhex(public_key)


SIGNED_FIELDS = ("signer", "complete", "signature")
"""The fields a signed record's header (format version 2) adds to an unsigned one's (docs/record.md 2.1)."""


def sign_header(header: Mapping[str, Any], head: str, complete: bool, key: Ed25519PrivateKey) -> dict[str, Any]:
    """``header`` (a record's first line, :func:`~trapoula.domain.chain.record_header`) signed: format
    version 2, with ``signer`` (``{"scheme": "ed25519", "public_key": hex}``), ``complete`` and
    ``signature``, the signature of the :class:`Head` its ``table_id``, ``game``, ``events`` and
    ``hands`` state with ``head`` (the last event line's hash; 64 zeros for none) and ``complete``
    (True when the record holds the whole match, to its end)."""
    stated = Head(header["table_id"], header["game"], header["events"], head, header["hands"], complete)
    return {
        **header,
        "version": RECORD_VERSION,
        "signer": {"scheme": SCHEME, "public_key": public_key_hex(key)},
        "complete": complete,
        "signature": sign(key, stated),
    }


def signed_heads(
    header: Mapping[str, Any], heads: Sequence[tuple[int, int, str, bool]], key: Ed25519PrivateKey
) -> list[dict[str, Any]]:
    """A record header's ``heads`` (docs/record.md 2.5): for each hand's end ``(hands, events, head,
    complete)`` of the record (the finished hands up to it, the event lines up to it, the hash of
    its last line, whether the match ends there), the signature of the :class:`Head` the record
    cut there states.  Whoever holds the record may cut it at any of these and put that entry's
    ``complete`` and ``signature`` (with its ``events`` and ``hands``) in the header: the shorter
    record then verifies as what it is, a signed prefix (:func:`cut_record`).
    """
    table_id, game = header["table_id"], header["game"]
    return [
        {
            "hands": hands,
            "events": events,
            "head": head,
            "complete": complete,
            "signature": sign(key, Head(table_id, game, events, head, hands, complete)),
        }
        for hands, events, head, complete in heads
    ]


def cut_record(lines: Sequence[Mapping[str, Any]], hands: int) -> list[dict[str, Any]]:
    """A signed record (header first) cut at the signed head of its hand ``hands``'s end: the event
    lines up to it, the header's ``events``, ``hands``, ``complete`` and ``signature`` those of
    that head, its ``heads`` those up to it (docs/record.md 2.5).

    Raises:
        InvalidInput: the header names no signed head for ``hands`` finished hands (``no_signed_head``).
    """
    header = dict(lines[0])
    raw = header.get("heads")
    heads = (
        [h for h in raw if isinstance(h, Mapping) and isinstance(h.get("events"), int)] if isinstance(raw, list) else []
    )
    entry = next((h for h in heads if h.get("hands") == hands), None)
    if entry is None or not 0 <= entry["events"] <= len(lines) - 1:
        raise InvalidInput(f"the record has no signed head at the end of hand {hands}", reason="no_signed_head")
    events = entry["events"]
    header.update(events=events, hands=hands, complete=entry.get("complete"), signature=entry.get("signature"))
    header["heads"] = [h for h in heads if h["events"] <= events]
    return [header, *(dict(line) for line in lines[1 : events + 1])]
