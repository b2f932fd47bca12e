"""Who a player is, as the app that embeds trapoula says: identity tokens (JWTs) and their check.

An app that embeds trapoula knows its users; trapoula does not.  The app signs a short-lived JSON
Web Token (RFC 7519) for its user, and the user's client sends it with ``CreateTable`` and
``JoinTable`` (``identity_token``).  A server configured with the app's verification key
(``--identity-key-file``) then requires one on both calls and takes the player's id and display
name from its claims; the seat records the id (``SeatTaken.player_id``), so that the history and
the standings count per verified player, not per display name (docs/identity.md).

The key file holds one of (:func:`load_verifier` tells them apart by their text):

* a JWK Set (JSON with a ``keys`` list, RFC 7517): each key by its ``kid``, the token's header
  naming one (a set of one key needs none);
* a PEM public key (``-----BEGIN PUBLIC KEY-----``): RSA (RS256/384/512, PS256/384/512), EC
  (ES256/384/512) or Ed25519 (EdDSA);
* otherwise a shared secret for HMAC (HS256/384/512): the file's text without surrounding white
  space, at least :data:`MIN_SECRET_BYTES` bytes.

The claims: ``sub`` (the player's id, 1 to :data:`MAX_PLAYER_ID` printable characters), ``exp``
(required; :data:`LEEWAY_SECONDS` of clock skew allowed), ``name`` (the display name; else
``preferred_username``; else the id) and, when the server is configured with them, ``aud`` and
``iss``.  Verification is PyJWT's; this module only chooses the keys and algorithms and turns
each failure into a clear, token-free message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from trapoula.domain.errors import InvalidInput
from trapoula.service.errors import Unauthenticated
from trapoula.service.inputs import check_name

MIN_SECRET_BYTES = 32
"""Fewest bytes a shared HMAC secret may have (RFC 7518 3.2: at least the hash's size)."""
MAX_PLAYER_ID = 128
"""Most characters of a player id (the ``sub`` claim)."""
MAX_TOKEN_CHARS = 8192
"""Most characters of an identity token; a longer one is refused unread."""
LEEWAY_SECONDS = 30.0
"""Clock skew allowed on ``exp``, ``nbf`` and ``iat``, in seconds."""

_HMAC = ("HS256", "HS384", "HS512")
_RSA = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")
_EC = ("ES256", "ES384", "ES512")
_ED = ("EdDSA",)


@dataclass(frozen=True, slots=True)
class Identity:
    """A verified player: the app's id for the user (``sub``) and the display name its token gives."""

    player_id: str
    name: str


class IdentityVerifier:
    """Checks identity tokens against the app's key(s) (see the module docstring).

    Args:
        keys: the verification keys: ``{kid: (key, algorithms)}``; the kid ``""`` is the key a
            token without a ``kid`` header uses (a PEM key, a shared secret, a one-key set).
        audience: the ``aud`` a token must name (None: a token that names an audience is refused,
            as PyJWT does, since it was meant for another service).
        issuer: the ``iss`` a token must carry (None: not checked).
        source: what the keys were read from, for messages (``file.jwks``).
    """

    def __init__(
        self,
        keys: dict[str, tuple[Any, tuple[str, ...]]],
        audience: str | None = None,
        issuer: str | None = None,
        source: str = "",
    ) -> None:
        if not keys:
            raise ValueError(f"no usable verification key in {source or 'the key set'}")
        self._keys = dict(keys)
        self.audience = audience
        self.issuer = issuer
        self.source = source

    def __repr__(self) -> str:
        keys = len(self._keys)
        return f"IdentityVerifier({self.source!r}, {keys} key(s), aud={self.audience!r}, iss={self.issuer!r})"

    def verify(self, token: str | None) -> Identity:
        """The player ``token`` names, once its signature and claims are checked.

        Raises:
            Unauthenticated: no token (``identity_required``); a token that is malformed, signed by
                another key or with an algorithm the key does not allow, expired, not yet valid,
                for another audience or issuer, or without ``sub`` or ``exp`` (``bad_identity``).
                The message names the failure, never the token.
            InvalidInput: a verified token whose display name is not a valid name (``bad_name``).
        """
        if not token:
            raise Unauthenticated(
                "this server requires an identity token (identity_token) from the app you play through",
                reason="identity_required",
            )
        if len(token) > MAX_TOKEN_CHARS:
            raise Unauthenticated(f"identity token longer than {MAX_TOKEN_CHARS} characters")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError as exc:
            raise Unauthenticated(f"identity token is not a JWT this server reads ({type(exc).__name__})") from None
        kid = header.get("kid")
        found = (self._keys.get(kid) if isinstance(kid, str) else None) or self._keys.get("")
        if found is None:
            raise Unauthenticated(f"identity token names key id {str(kid)[:40]!r}, which this server does not know")
        key, algorithms = found
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=list(algorithms),
                audience=self.audience,
                issuer=self.issuer,
                leeway=LEEWAY_SECONDS,
                options={"require": ["exp", "sub"]},
            )
        except jwt.ExpiredSignatureError:
            raise Unauthenticated("identity token has expired") from None
        except jwt.ImmatureSignatureError:
            raise Unauthenticated("identity token is not valid yet (nbf or iat in the future)") from None
        except jwt.InvalidAudienceError:
            if self.audience is None:
                raise Unauthenticated("identity token names an audience; this server expects none") from None
            raise Unauthenticated(f"identity token is not for this server's audience {self.audience!r}") from None
        except jwt.InvalidIssuerError:
            raise Unauthenticated(f"identity token is not from issuer {self.issuer!r}") from None
        except jwt.MissingRequiredClaimError as exc:
            raise Unauthenticated(f"identity token lacks the {exc.claim!r} claim") from None
        except jwt.InvalidAlgorithmError:
            raise Unauthenticated(
                f"identity token's algorithm {str(header.get('alg'))[:16]!r} is not one this key allows"
            ) from None
        except jwt.InvalidSignatureError:
            raise Unauthenticated("identity token's signature does not verify with this server's key") from None
        except jwt.InvalidTokenError as exc:
            raise Unauthenticated(f"identity token refused: {type(exc).__name__}") from None
        return _identity(claims)


def _identity(claims: dict[str, Any]) -> Identity:
    sub = claims.get("sub")
    if not isinstance(sub, str) or not 1 <= len(sub) <= MAX_PLAYER_ID or not sub.isprintable():
        raise Unauthenticated(f"identity token's sub is not 1 to {MAX_PLAYER_ID} printable characters")
    name = claims.get("name")
    if not isinstance(name, str) or not name.strip():
        name = claims.get("preferred_username")
    if not isinstance(name, str) or not name.strip():
        name = sub
    try:
        checked = check_name(name)
    except InvalidInput as exc:
        raise InvalidInput(f"identity token's display name: {exc}", reason="bad_name") from None
    return Identity(sub, checked)


def _pem_algorithms(key: Any) -> tuple[str, ...]:
    if isinstance(key, rsa.RSAPublicKey):
        return _RSA
    if isinstance(key, ec.EllipticCurvePublicKey):
        return _EC
    if isinstance(key, ed25519.Ed25519PublicKey):
        return _ED
    raise ValueError(f"unsupported public key type {type(key).__name__} (RSA, EC or Ed25519)")


def verifier_from_text(
    text: str, audience: str | None = None, issuer: str | None = None, source: str = ""
) -> IdentityVerifier:
    """The verifier of a key file's ``text`` (a JWK Set, a PEM public key or a shared secret).

    Raises:
        ValueError: a JWK Set with no usable key, a PEM that is not a public key of a supported
            type, or a shared secret shorter than :data:`MIN_SECRET_BYTES` bytes.
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
            keyset = jwt.PyJWKSet.from_dict(data)
        except (ValueError, jwt.PyJWKSetError, jwt.PyJWKError) as exc:
            raise ValueError(f"{source or 'key file'}: not a usable JWK Set: {exc}") from None
        keys: dict[str, tuple[Any, tuple[str, ...]]] = {}
        for jwk in keyset.keys:
            if jwk.algorithm_name in _HMAC:
                raise ValueError(f"{source or 'key file'}: a symmetric key in a JWK Set is not accepted")
            algorithms = (jwk.algorithm_name,) if jwk.algorithm_name else _pem_algorithms(jwk.key)
            keys[jwk.key_id or ""] = (jwk.key, algorithms)
        if len(keys) == 1:
            keys[""] = next(iter(keys.values()))
        return IdentityVerifier(keys, audience, issuer, source)
    if stripped.startswith("-----BEGIN"):
        try:
            public = load_pem_public_key(stripped.encode("ascii"))
        except ValueError as exc:
            raise ValueError(f"{source or 'key file'}: not a PEM public key: {exc}") from None
        return IdentityVerifier({"": (public, _pem_algorithms(public))}, audience, issuer, source)
    secret = stripped.encode("utf-8")
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(
            f"{source or 'key file'}: a shared secret needs at least {MIN_SECRET_BYTES} bytes, not {len(secret)}"
        )
    return IdentityVerifier({"": (secret, _HMAC)}, audience, issuer, source)


def load_verifier(path: str | Path, audience: str | None = None, issuer: str | None = None) -> IdentityVerifier:
    """The verifier of the key file at ``path`` (see :func:`verifier_from_text`).

    Raises:
        ValueError: the file cannot be read or holds no usable key (the message names the file).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"identity key file {path}: {exc}") from None
    return verifier_from_text(text, audience, issuer, str(path))
