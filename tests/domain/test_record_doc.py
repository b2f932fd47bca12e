"""docs/record.md's values are what the code computes, and what an implementation written from the
doc alone computes (DESIGN, Fairness and audit).

The first half of this module re-implements, from the text of docs/record.md and with the standard
library only, the hash chain's canonical JSON (2.3), the signing key's derivation (HKDF-SHA256,
RFC 5869) and Ed25519 itself (RFC 8032), and Romis's sealing hashes (3.4a); the tests check the
doc's examples and test vectors against both, and a signed record made with the vector's secret
against the audit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from trapoula.domain import signing
from trapoula.domain.audit import audit_record
from trapoula.domain.chain import GENESIS, canonical_json, chain_record, event_hash
from trapoula.domain.games.romis import sealing

DOC = Path(__file__).resolve().parents[2] / "docs" / "record.md"

# --------------------------------------------------------------------------- from the doc alone


def doc_canonical(value: Any) -> str:
    """2.3: keys sorted, separators ``,`` and ``:``, every non-ASCII character escaped."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def doc_hash(prev: str, seq: int, name: str, payload: Any, v: int | None = None) -> str:
    """2.3: SHA-256 of prev_hash, a line feed and the canonical JSON of seq, name, (v,) payload."""
    body: dict[str, Any] = {"seq": seq, "name": name, "payload": payload}
    if v is not None:
        body["v"] = v
    return hashlib.sha256((prev + "\n" + doc_canonical(body)).encode("ascii")).hexdigest()


def doc_hkdf(secret: bytes, info: bytes) -> bytes:
    """2.5: HKDF-SHA256 (RFC 5869) with no salt (32 zero bytes), 32 bytes of output: one block."""
    prk = hmac.new(b"\x00" * 32, secret, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


# Ed25519 (RFC 8032 section 5.1), points in extended coordinates (X, Y, Z, T).
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
Point = tuple[int, int, int, int]


def _recover_x(y: int, sign: int) -> int:
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * _SQRT_M1 % _P
    return _P - x if x % 2 != sign else x


_BY = 4 * pow(5, _P - 2, _P) % _P
_BX = _recover_x(_BY, 0)
_BASE: Point = (_BX, _BY, 1, _BX * _BY % _P)


def _add(p: Point, q: Point) -> Point:
    a = (p[1] - p[0]) * (q[1] - q[0]) % _P
    b = (p[1] + p[0]) * (q[1] + q[0]) % _P
    c = 2 * p[3] * q[3] * _D % _P
    d = 2 * p[2] * q[2] % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _times(k: int, p: Point) -> Point:
    out: Point = (0, 1, 1, 0)
    while k:
        if k & 1:
            out = _add(out, p)
        p, k = _add(p, p), k >> 1
    return out


def _encode(p: Point) -> bytes:
    z = pow(p[2], _P - 2, _P)
    x, y = p[0] * z % _P, p[1] * z % _P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _secret_scalar(seed: bytes) -> tuple[int, bytes]:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little") & ((1 << 254) - 8) | (1 << 254)
    return a, h[32:]


def doc_public_key(seed: bytes) -> bytes:
    """RFC 8032 5.1.5: the public key of a 32-byte private key (the seed)."""
    return _encode(_times(_secret_scalar(seed)[0], _BASE))


def doc_sign(seed: bytes, message: bytes) -> bytes:
    """RFC 8032 5.1.6: the (deterministic) signature of ``message``."""
    a, prefix = _secret_scalar(seed)
    public = _encode(_times(a, _BASE))
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % _L
    big_r = _encode(_times(r, _BASE))
    k = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % _L
    return big_r + ((r + k * a) % _L).to_bytes(32, "little")


def doc_statement(head: dict[str, Any]) -> bytes:
    """2.5: the context line, then the canonical JSON of the six fields."""
    return b"trapoula signed head v1\n" + doc_canonical(head).encode("ascii")


def doc_hmac_hex(secret: str, message: str) -> str:
    """3.4a: keyed by the secret's 32 bytes (64 hex digits), over the ASCII message."""
    return hmac.new(bytes.fromhex(secret), message.encode("ascii"), hashlib.sha256).hexdigest()


def doc_submission(seat: int, round_no: int, attempt: int, payload: dict[str, Any], nonce: str) -> str:
    """3.4a: SHA-256 of the canonical JSON of attempt, nonce, payload, round, seat."""
    body = {"seat": seat, "round": round_no, "attempt": attempt, "payload": payload, "nonce": nonce}
    return hashlib.sha256(doc_canonical(body).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- reading the doc


def _block(after: str) -> dict[str, str]:
    """The ``text`` block that follows ``after`` in the doc, as ``key  value`` pairs."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("```text", text.index(after)) + len("```text")
    values: dict[str, str] = {}
    for line in text[start : text.index("```", start)].strip("\n").splitlines():
        key, value = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        values[key] = value
    return values


def _chain_examples() -> list[tuple[str, str]]:
    """2.3's two examples: (canonical JSON, hash(1))."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### 2.3") : text.index("### 2.4")]
    found = re.findall(r"canonical_json = (\S+)\nhash\(1\)\s+= ([0-9a-f]{64})", section)
    return [(json_text, digest) for json_text, digest in found]


VECTOR = "**Test vector**"

# --------------------------------------------------------------------------- the tests


def test_the_chain_examples_are_what_the_code_computes() -> None:
    """2.3: the Passed event at version 1 and at version 2, canonical JSON and hash."""
    examples = _chain_examples()
    assert len(examples) == 2
    for (json_text, digest), v in zip(examples, (None, 2), strict=True):
        body = json.loads(json_text)
        assert doc_canonical(body) == json_text == canonical_json(body)
        version = 1 if v is None else v
        assert digest == event_hash(GENESIS, 1, "Passed", {"seat": 0}, version)
        assert digest == doc_hash(GENESIS, 1, "Passed", {"seat": 0}, v)


def test_canonical_json_writes_numbers_and_strings_as_the_doc_says() -> None:
    """2.3: doubles as Python's repr, integers in decimal, escapes in lower-case hex."""
    value = {"b": [0.0, 100.0, 2.5, 1e16, 1e-05, -100, 2**70], "a": 'a/\x7f\x01\u00e9\U0001f0a1"\\\n'}
    written = canonical_json(value)
    assert written == doc_canonical(value)
    assert written == (
        '{"a":"a/\\u007f\\u0001\\u00e9\\ud83c\\udca1\\"\\\\\\n",'
        '"b":[0.0,100.0,2.5,1e+16,1e-05,-100,1180591620717411303424]}'
    )


def test_the_signature_vector_is_what_the_code_computes() -> None:
    """2.5: secret -> HKDF seed -> public key and key id; the statement and its signature."""
    ex = _block(VECTOR)
    secret = bytes.fromhex(ex["secret"])
    assert secret == bytes(range(32))
    seed = doc_hkdf(secret, b"trapoula record signing key v1")
    assert ex["ed25519 seed"] == seed.hex()
    key = signing.key_from_secret(secret)
    assert ex["public key"] == signing.public_key_hex(key) == doc_public_key(seed).hex()
    assert ex["key id"] == signing.key_id(ex["public key"])
    assert ex["key id"] == hashlib.sha256(bytes.fromhex(ex["public key"])).hexdigest()[:16]

    head = signing.Head(
        ex["table_id"], ex["game"], int(ex["events"]), ex["head"], int(ex["hands"]), json.loads(ex["complete"])
    )
    assert ex["head"] == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    fields = {k: json.loads(ex[k]) for k in ("complete", "events", "hands")}
    fields.update({k: ex[k] for k in ("game", "head", "table_id")})
    assert ex["statement json"] == doc_canonical(fields)
    statement = doc_statement(fields)
    assert statement == signing.statement(head)
    assert statement == b"trapoula signed head v1\n" + ex["statement json"].encode("ascii")

    assert ex["signature"] == signing.sign(key, head) == doc_sign(seed, statement).hex()
    assert signing.verify(ex["public key"], head, ex["signature"])
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(ex["public key"])).verify(
        bytes.fromhex(ex["signature"]), statement
    )  # raises if it does not hold


def test_a_record_signed_with_the_vector_key_is_reported_with_it() -> None:
    """2.5, 3.1: a record signed with the vector's secret verifies its signature (REC8) and the
    statement is built as the doc says: the lines' own count, hands and last hash."""
    ex = _block(VECTOR)
    lines = chain_record("t-doc", "agonia", [("TableCreated", {"game": "agonia"})])
    header = signing.sign_header(lines[0], lines[-1]["hash"], False, signing.key_from_secret(bytes(range(32))))
    fields = {"complete": False, "events": 1, "game": "agonia", "hands": 0, "head": lines[-1]["hash"]}
    fields["table_id"] = "t-doc"
    assert header["signature"] == doc_sign(bytes.fromhex(ex["ed25519 seed"]), doc_statement(fields)).hex()
    report = audit_record([header, *lines[1:]], trusted=[ex["public key"]])
    assert report.signer == ex["public key"] and report.signed
    assert not [p for p in report.problems if p.rule == "REC8"]


def test_the_sealing_example_is_what_the_code_computes() -> None:
    """3.4a: nonce, companions salt and digest, and the commitments of a reveal and a cannot."""
    ex = _block("Worked example (checked by `tests/domain/test_record_doc.py`)")
    secret = "00" * 32
    nonce = doc_hmac_hex(secret, "nonce/1/0/1/1/0")
    salt = doc_hmac_hex(secret, "companions/1/0/1/1/0")
    digest = hashlib.sha256(("2D" + ":" + salt).encode("ascii")).hexdigest()
    assert ex["nonce"] == nonce == sealing.nonce(secret, 1, 0, 1, 1, 0)
    assert ex["companions salt"] == salt == sealing.companions_salt(secret, 1, 0, 1, 1, 0)
    assert ex["companions digest"] == digest == sealing.companions_digest(["2D"], salt)
    reveal = {"kind": "reveal", "cards": ["2C", "2H"], "companions": digest}
    assert ex["reveal commitment"] == doc_submission(0, 1, 1, reveal, nonce)
    assert ex["reveal commitment"] == sealing.submission_commitment(
        0, 1, 1, sealing.canonical_payload("reveal", ["2C", "2H"], digest), nonce
    )
    cannot = {"kind": "cannot"}
    assert ex["cannot commitment"] == doc_submission(0, 1, 1, cannot, nonce)
    assert ex["cannot commitment"] == sealing.submission_commitment(0, 1, 1, sealing.canonical_payload("cannot"), nonce)
