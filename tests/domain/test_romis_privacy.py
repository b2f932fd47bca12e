"""Romis su iškritimu: sealed submissions (R5, section 9) -- their commitments, what the other seats see
before the round resolves (R5.4, R6.4), and the ``resubmit`` option (R12.4)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Any

from romis_helpers import Table, of

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import deck_hash
from trapoula.domain.events import Event, redact, visible
from trapoula.domain.games.romis import SPEC
from trapoula.domain.games.romis.commands import UseAuxiliary
from trapoula.domain.games.romis.events import HandStarted, RoundResolved, SubmissionSealed

SEAT_0 = ("6H 7H 5H 7D 2C", "3S 8D")
SEAT_2 = ("QS QD 3D 8H 4S", "TS 6C")
VARIANTS = {
    "reveal": ("9D 9C 5S JH KD", "2S 4D"),
    "auxiliary": ("9D 3C 5S JH KD", "9C 4D"),
    "cannot": ("9D 3C 5S JH KD", "2S 4D"),
}
"""Seat 1's hand and auxiliary cards: a pair at once; a pair only with its first auxiliary card; no pair
even with both."""

HEX = re.compile(r"[0-9a-f]{64}")


def nonce(secret: str, message: str) -> str:
    return hmac.new(bytes.fromhex(secret), message.encode(), hashlib.sha256).hexdigest()


def sealed_commitment(seat: int, round_no: int, attempt: int, payload: dict[str, Any], nonce_hex: str) -> str:
    """Section 9 as the brief of the game states it, recomputed here with the standard library."""
    body = {"seat": seat, "round": round_no, "attempt": attempt, "payload": payload, "nonce": nonce_hex}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def play(variant: str) -> Table:
    """3 players: seat 0 reveals 6H 7H, then seat 1 reveals 9C 9D, or turns up 9C and reveals 9C 9D, or
    turns up both auxiliary cards and says it cannot; seat 2 has not submitted yet."""
    t = Table(3)
    hand, aux = VARIANTS[variant]
    t.deal([SEAT_0[0], hand, SEAT_2[0]], [SEAT_0[1], aux, SEAT_2[1]])
    t.reveal(0, "6H 7H")
    if variant == "reveal":
        t.reveal(1, "9C 9D")
    elif variant == "auxiliary":
        t.aux(1)
        t.reveal(1, "9C 9D")
    else:
        t.give_up(1)
    return t


def seen_by(t: Table, viewer: int | None) -> str:
    """Everything ``viewer`` has received: the events it may receive, redacted, and its view; JSON."""
    stream = [(e.event_name(), redact(e, viewer)) for e in t.log if visible(e, viewer)]
    return json.dumps({"events": stream, "view": t.view(viewer)}, sort_keys=True)


def test_r5_4_other_seats_receive_the_same_whatever_the_seat_chose() -> None:
    """R5.4, R6.4, section 9: until the round resolves, seat 0, seat 2 and a spectator receive the same
    events and views, to the byte, whether seat 1 revealed, turned up an auxiliary card first or said it
    cannot -- except the values of the SHA-256 digests (the deal's and the submission's commitments,
    which differ with the deal and the payload and have the same length)."""
    tables = {name: play(name) for name, _ in VARIANTS.items()}
    for viewer in (0, 2, None):
        texts = {name: seen_by(t, viewer) for name, t in tables.items()}
        assert len({len(text) for text in texts.values()}) == 1, viewer
        masked = {HEX.sub("#" * 64, text) for text in texts.values()}
        assert len(masked) == 1, viewer
    view = tables["auxiliary"].view(0)
    assert view["hand_sizes"] == [5, 5, 5] and view["auxiliary_counts"] == [2, 2, 2]
    assert view["submitted"] == [0, 1] and view["waiting"] == [2]
    assert view["commitments"][1] == of(tables["auxiliary"].log, SubmissionSealed)[-1].commitment
    assert [e.event_name() for e in tables["cannot"].log if visible(e, 0)][-2:] == [
        "SubmissionSealed",
        "SubmissionSealed",
    ]


def test_r5_2_the_seats_own_view_shows_its_pending_submission() -> None:
    """R5.2, R6.1: seat 1 sees its hand with the auxiliary card turned up, one auxiliary card left, its
    pending submission, and no legal command; after the round, everybody sees the slot it used."""
    t = play("auxiliary")
    own = t.view(1)
    assert own["hand"] == ["3C", "9C", "9D", "KD", "JH", "5S"]
    assert own["auxiliary_left"] == 1 and own["legal"] == []
    assert own["pending"] == {"kind": "reveal", "cards": ["9C", "9D"], "companions": []}
    assert t.view(0)["pending"]["cards"] == ["6H", "7H"] and t.view(2)["pending"] is None
    t.reveal(2, "QD QS")
    after = t.view(0)
    assert after["auxiliary_counts"] == [2, 1, 2]
    assert after["last_round"]["auxiliary_slots"] == [[], [1], []]
    assert after["hand_sizes"] == [6, 7, 6]
    assert after["revealed"] == [["6H", "7H"], ["9C", "9D"], ["QD", "QS"]]


def test_r5_2_the_commitment_is_sha256_of_the_canonical_submission() -> None:
    """R5.2, R8.3, section 9: the nonce is HMAC-SHA256(secret, "nonce/<hand>/<seat>/<round>/<attempt>/
    <serial>") with the explicit deal's deck hash as the secret (no server secret here); the commitment
    is SHA-256 of the canonical JSON of seat, round, attempt, payload and nonce -- for a reveal the
    cards in canonical order and, for the companions, SHA-256 of their codes (none here) + ":" + the
    companions salt HMAC-SHA256(secret, "companions/..."); for ``cannot`` {"kind": "cannot"} and no
    salt.  RoundResolved publishes the nonces and the companions digests."""
    for variant in ("reveal", "cannot"):
        t = play(variant)
        secret = deck_hash(parse_cards(of(t.log, HandStarted)[0].deck))
        sealed = of(t.log, SubmissionSealed)[-1]
        n1 = nonce(secret, "nonce/1/1/1/1/0")
        assert (sealed.seat, sealed.round, sealed.attempt, sealed.nonce) == (1, 1, 1, n1)
        digest = None
        if variant == "cannot":
            payload: dict[str, Any] = {"kind": "cannot"}
            assert sealed.companions_salt is None
        else:
            salt = nonce(secret, "companions/1/1/1/1/0")
            assert sealed.companions_salt == salt
            digest = hashlib.sha256(f":{salt}".encode()).hexdigest()
            payload = {"kind": "reveal", "cards": ["9C", "9D"], "companions": digest}
        assert sealed.commitment == sealed_commitment(1, 1, 1, payload, n1)
        resolved = of(t.reveal(2, "QD QS"), RoundResolved)[0]
        assert resolved.nonces[1] == n1 and resolved.companion_digests[1] == digest
        assert resolved.nonces[0] == nonce(secret, "nonce/1/0/1/1/0")


def test_r5_4_no_nonce_or_payload_reaches_another_seat_before_the_round_resolves() -> None:
    """R5.2, R5.4: seat 1's nonce and cards appear in nothing seat 0 or a spectator receives until
    RoundResolved, which publishes the nonce; the submitter itself sees both."""
    t = play("reveal")
    sealed = of(t.log, SubmissionSealed)[-1]
    for viewer in (0, 2, None):
        text = seen_by(t, viewer)
        assert sealed.nonce not in text
        assert "9C" not in text
    assert redact(sealed, 1)["nonce"] == sealed.nonce and redact(sealed, 1)["payload"]["cards"] == ["9C", "9D"]
    t.reveal(2, "QD QS")
    assert sealed.nonce in seen_by(t, 0)


def test_r12_4_resubmit_off_keeps_r5_2() -> None:
    """R12.4, R5.2: by default a second submission is ``already_submitted``."""
    t = Table(2)
    t.deal([SEAT_0[0], VARIANTS["reveal"][0]], [SEAT_0[1], VARIANTS["reveal"][1]])
    t.reveal(0, "6H 7H")
    t.rejects("already_submitted", "R5.2", t.reveal_command(0, "5H 6H"))
    assert t.legal(0) == []


def test_r12_4_resubmit_replaces_the_submission_until_the_round_resolves() -> None:
    """R12.4: with ``resubmit`` a seat that has submitted may submit again: a new SubmissionSealed
    with the next serial in its nonce; the round still waits only for the seats that have not submitted
    (``acting``), the submitted seat keeps its legal reveals, and the round opens the last submission."""
    t = Table(2, options={"resubmit": True})
    t.deal([SEAT_0[0], VARIANTS["reveal"][0]], [SEAT_0[1], VARIANTS["reveal"][1]])
    secret = deck_hash(parse_cards(of(t.log, HandStarted)[0].deck))
    t.reveal(0, "6H 7H")
    assert SPEC.acting(t.state) == (1,)
    assert [c["cards"] for c in t.legal(0)] == [["7D", "7H"], ["5H", "6H"], ["6H", "7H"]]
    again = of(t.reveal(0, "6H 5H"), SubmissionSealed)[0]
    assert again.nonce == nonce(secret, "nonce/1/0/1/1/1")
    salt = nonce(secret, "companions/1/0/1/1/1")
    assert again.companions_salt == salt
    digest = hashlib.sha256(f":{salt}".encode()).hexdigest()
    assert again.commitment == sealed_commitment(
        0, 1, 1, {"kind": "reveal", "cards": ["5H", "6H"], "companions": digest}, again.nonce
    )
    t.rejects("not_related", "R4.2", t.reveal_command(0, "5H 7H"))
    t.rejects("already_submitted", "R5.2", UseAuxiliary(0))
    resolved = of(t.reveal(1, "9C 9D"), RoundResolved)[0]
    assert resolved.cards[0] == ("5H", "6H") and resolved.nonces[0] == again.nonce
    assert t.revealed(0) == "5H 6H"


def test_r12_4_resubmit_a_cannot_again() -> None:
    """R12.4, R6.3: a seat with no reveal and no auxiliary card left may say ``cannot`` again."""
    t = Table(2, options={"resubmit": True})
    t.deal(["2C 5D 8H JS KC", "6H 7H 5H 7D 2D"], ["4S 9C", "3S 8D"])
    first = t.give_up(0)
    second = t.cannot(0)
    assert [e.event_name() for e in second] == ["SubmissionSealed"]
    assert of(first, SubmissionSealed)[0].payload == of(second, SubmissionSealed)[0].payload == {"kind": "cannot"}
    assert t.state.serials[0] == 2 and t.legal(0) == [{"kind": "cannot", "seat": 0}]


def test_section_9_event_visibility_declarations() -> None:
    """Section 9: CardsDealt.cards and the sealed payload and nonce go to their seat only; the auxiliary
    cards, an eliminated hand and the shuffled orders are hidden from everybody; AuxiliaryUsed alone is
    withheld."""
    withheld = {name for name, cls in SPEC.event_types.items() if cls.withheld}
    assert withheld == {"AuxiliaryUsed"}
    hidden = {name: set(cls.hidden) for name, cls in SPEC.event_types.items() if cls.hidden}
    assert hidden == {
        "HandStarted": {"seed", "deck", "secret"},
        "AuxiliaryDealt": {"cards"},
        "PlayerEliminated": {"hand"},
        "EliminatedPileRestocked": {"order"},
        "HandCardsRedealt": {"order"},
    }
    private = {name: set(cls.private) for name, cls in SPEC.event_types.items() if cls.private}
    assert private == {
        "CardsDealt": {"cards"},
        "AuxiliaryUsed": {"slot", "card"},
        "SubmissionSealed": {"payload", "nonce", "companions_salt"},
    }


def test_section_9_every_event_round_trips_through_its_payload() -> None:
    """Section 9: every event decodes from its JSON payload to itself (the stored form)."""
    from trapoula.domain.events import from_payload, to_payload

    t = play("auxiliary")
    t.reveal(2, "QD QS")
    t.auto()
    log: list[Event] = t.log
    for event in log:
        assert from_payload(type(event), json.loads(json.dumps(to_payload(event)))) == event


def recorded(log: list[Event]) -> list[tuple[int, str, dict[str, Any]]]:
    """The game events as the audit hands them to ``record_checks``: (seq, name, full payload)."""
    from trapoula.domain.events import to_payload

    return [(i + 1, e.event_name(), json.loads(json.dumps(to_payload(e)))) for i, e in enumerate(log)]


def resubmitted() -> Table:
    """Two players with ``resubmit``: seat 0 seals 6H 7H, then 5H 6H; seat 1 seals 9C 9D; resolved."""
    t = Table(2, options={"resubmit": True})
    t.deal([SEAT_0[0], VARIANTS["reveal"][0]], [SEAT_0[1], VARIANTS["reveal"][1]])
    t.reveal(0, "6H 7H")
    t.reveal(0, "5H 6H")
    t.reveal(1, "9C 9D")
    return t


def test_r5_3_the_audit_finds_every_opening_matching_its_seal() -> None:
    """R5.2, R5.3 (``record_checks``): in a recorded match every sealed payload and nonce hash to the
    commitment, and every resolved round opens the last submission each seat sealed (with
    ``resubmit``: 5H 6H, not 6H 7H)."""
    assert SPEC.record_checks is not None
    t = resubmitted()
    t.auto()
    assert SPEC.record_checks(recorded(t.log)) == ()


def test_r5_3_the_audit_finds_an_opening_that_is_not_the_seal() -> None:
    """R5.3: a RoundResolved rewritten to open seat 0's first submission (6H 7H, with its nonce) instead
    of its last, or with another nonce, does not match the commitment sealed last; R5.2: a sealed payload
    rewritten without its commitment does not hash to it."""
    assert SPEC.record_checks is not None
    t = resubmitted()
    events = recorded(t.log)
    first, last = [p for _, name, p in events if name == "SubmissionSealed"][:2]
    at = next(i for i, (_, name, _p) in enumerate(events) if name == "RoundResolved")
    seq, name, resolved = events[at]
    opened_first = dict(
        resolved, cards=[["6H", "7H"], resolved["cards"][1]], nonces=[first["nonce"], resolved["nonces"][1]]
    )
    assert SPEC.record_checks([*events[:at], (seq, name, opened_first)]) == (
        (seq, "R5.3", "seat 0's opened submission is not the one it sealed last"),
    )
    other_nonce = dict(resolved, nonces=["0" * 64, resolved["nonces"][1]])
    assert [f[:2] for f in SPEC.record_checks([*events[:at], (seq, name, other_nonce)])] == [(seq, "R5.3")]
    sealed_at = next(i for i, (_, n, p) in enumerate(events) if n == "SubmissionSealed" and p is last)
    s_seq, s_name, _ = events[sealed_at]
    forged = dict(last, payload={"kind": "reveal", "cards": ["7D", "7H"], "companions": []})
    findings = SPEC.record_checks([*events[:sealed_at], (s_seq, s_name, forged), *events[sealed_at + 1 : at + 1]])
    assert [f[:2] for f in findings] == [(s_seq, "R5.2"), (seq, "R5.3")]
    assert [f[:2] for f in SPEC.record_checks([(s_seq, s_name, dict(last, payload=None))])] == [(s_seq, "R5.2")]
