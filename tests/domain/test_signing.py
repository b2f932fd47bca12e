"""Signed heads (docs/record.md, signatures): Ed25519 as RFC 8032 defines it, the server's key
derived from its secret as RFC 5869 defines HKDF, and a statement that any changed field breaks."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from trapoula.domain.errors import InvalidInput
from trapoula.domain.signing import (
    CONTEXT,
    KEY_INFO,
    Head,
    key_from_secret,
    key_from_seed,
    key_id,
    public_key_hex,
    sign,
    statement,
    verify,
)

# RFC 8032 section 7.1, TEST 1 (the empty message).
RFC_SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
RFC_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
RFC_SIGNATURE = (
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065"
    "224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)

HEAD = Head("828ce6cb-t", "agonia", events=539, head="ab" * 32, hands=6, complete=True)


def test_the_key_of_a_seed_is_rfc_8032s() -> None:
    key = key_from_seed(bytes.fromhex(RFC_SEED))
    assert public_key_hex(key) == RFC_PUBLIC
    assert key.sign(b"").hex() == RFC_SIGNATURE


def test_a_seed_is_32_bytes() -> None:
    with pytest.raises(InvalidInput) as bad:
        key_from_seed(bytes(31))
    assert bad.value.reason == "bad_signing_key"


def test_the_servers_key_is_hkdf_sha256_of_its_secret_with_no_salt() -> None:
    # RFC 5869 written out with the standard library: extract with a zero salt, expand one block.
    secret = bytes.fromhex("5e" * 32)
    prk = hmac.new(bytes(32), secret, hashlib.sha256).digest()
    seed = hmac.new(prk, KEY_INFO + b"\x01", hashlib.sha256).digest()
    assert public_key_hex(key_from_secret(secret)) == public_key_hex(key_from_seed(seed))
    assert public_key_hex(key_from_secret(bytes(32))) != public_key_hex(key_from_secret(secret))


def test_the_statement_is_the_context_then_canonical_json() -> None:
    assert CONTEXT == b"trapoula signed head v1\n"
    assert statement(HEAD) == (
        b"trapoula signed head v1\n"
        b'{"complete":true,"events":539,"game":"agonia","hands":6,"head":"' + b"ab" * 32 + b'","table_id":"828ce6cb-t"}'
    )


def test_a_signature_verifies_and_any_changed_field_breaks_it() -> None:
    key = key_from_secret(b"server secret")
    public = public_key_hex(key)
    signature = sign(key, HEAD)
    assert len(signature) == 128 and verify(public, HEAD, signature)
    changed = [
        HEAD._replace(table_id="828ce6cb-u"),
        HEAD._replace(game="mau_mau"),
        HEAD._replace(events=538),
        HEAD._replace(head="ab" * 31 + "ac"),
        HEAD._replace(hands=5),
        HEAD._replace(complete=False),
    ]
    for head in changed:
        assert not verify(public, head, signature), head
    other = public_key_hex(key_from_secret(b"another secret"))
    assert not verify(other, HEAD, signature)


@pytest.mark.parametrize("signature", ["", "00" * 64, "AB" * 64, "zz" * 64, "ab" * 63])
def test_a_malformed_or_foreign_signature_is_false(signature: str) -> None:
    assert not verify(public_key_hex(key_from_secret(b"s")), HEAD, signature)


@pytest.mark.parametrize("public", ["", "ab" * 31, "AB" * 32, "g" * 64])
def test_a_malformed_public_key_is_refused(public: str) -> None:
    with pytest.raises(InvalidInput) as bad:
        verify(public, HEAD, "00" * 64)
    assert bad.value.reason == "bad_public_key"
    with pytest.raises(InvalidInput):
        key_id(public)


def test_key_id_is_the_start_of_the_keys_sha_256() -> None:
    assert key_id(RFC_PUBLIC) == hashlib.sha256(bytes.fromhex(RFC_PUBLIC)).hexdigest()[:16]
