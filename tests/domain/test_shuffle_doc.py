"""docs/shuffle.md is precise enough to recompute every deck (DESIGN, Fairness and audit; S5, S8).

The first half of this module re-implements the shuffle from the text of docs/shuffle.md alone,
with ``hashlib`` and ``hmac`` and without ``trapoula.domain.deal``; the tests check it against the
code for several seeds, the 52-, 104- and 32-card decks, reshuffles and explicit deals, check the
doc's worked example against both, and follow a whole Agonia hand (deal and reshuffles) with it.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import string
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from trapoula.domain import deal as code
from trapoula.domain.cards import codes, deck_32, deck_52, deck_104, parse_cards
from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.registry import GAMES
from trapoula.domain.seeding import mix_seeds

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"

# --------------------------------------------------------------------------- from the doc alone

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def doc_deck_52() -> list[str]:
    """Section 7: by suit C D H S, within a suit 2 ... A."""
    return [r + s for s in SUITS for r in RANKS]


def doc_deck_104() -> list[str]:
    """Section 7: the 52-card order twice."""
    return doc_deck_52() + doc_deck_52()


def doc_deck_32() -> list[str]:
    """Section 7: by suit C D H S, within a suit 7 8 9 T J Q K A."""
    return [r + s for s in SUITS for r in "789TJQKA"]


def doc_seed_bytes(seed: str) -> bytes:
    """Section 1: exactly 64 hexadecimal digits, taken as 32 bytes."""
    if len(seed) != 64 or any(c not in string.hexdigits for c in seed):
        raise ValueError(f"not a seed: {seed!r}")
    return bytes.fromhex(seed)


def doc_commitment(seed: str) -> str:
    """Section 2: hex(SHA-256(seed bytes))."""
    return hashlib.sha256(doc_seed_bytes(seed)).hexdigest()


def doc_block(seed: str, label: str, counter: int) -> bytes:
    """Section 3: HMAC-SHA256(seed bytes, UTF-8(label) || '/' || uint64_be(counter))."""
    message = label.encode("utf-8") + b"\x2f" + counter.to_bytes(8, "big")
    return hmac.new(doc_seed_bytes(seed), message, hashlib.sha256).digest()


def doc_integers(seed: str, label: str) -> Iterator[int]:
    """Section 3: four big-endian 64-bit integers per block, blocks 0, 1, 2, ..."""
    counter = 0
    while True:
        block = doc_block(seed, label, counter)
        for k in range(4):
            yield int.from_bytes(block[8 * k : 8 * k + 8], "big")
        counter += 1


def doc_below(stream: Iterator[int], m: int) -> int:
    """Section 4: rejection sampling below the largest multiple of m not above 2**64."""
    limit = 2**64 - (2**64 % m)
    while True:
        x = next(stream)
        if x < limit:
            return x % m


def doc_shuffle(items: Sequence[str], seed: str, label: str) -> list[str]:
    """Section 5: Fisher-Yates from the end; the result is read top first."""
    a = list(items)
    stream = doc_integers(seed, label)
    for i in range(len(a) - 1, 0, -1):
        j = doc_below(stream, i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def doc_deck_hash(order: Sequence[str]) -> str:
    """Section 10: hex(SHA-256(codes joined by single spaces, top first))."""
    return hashlib.sha256(" ".join(order).encode("ascii")).hexdigest()


def doc_deal(order: Sequence[str], n: int, h: int, dealer: int) -> tuple[dict[int, list[str]], str, list[str]]:
    """Section 8: position r*n + p goes to seat (first + p) mod n; then the up-card; then the stock."""
    first = (dealer + 1) % n
    hands = {(first + p) % n: [order[r * n + p] for r in range(h)] for p in range(n)}
    return hands, order[n * h], list(order[n * h + 1 :])


def doc_order_of_explicit_deal(
    hands: Sequence[Sequence[str]], starter: str, stock: Sequence[str], dealer: int
) -> list[str]:
    """Section 10: the order section 8 would have dealt the explicit hands from."""
    n, h = len(hands), len(hands[0])
    first = (dealer + 1) % n
    return [hands[(first + p) % n][r] for r in range(h) for p in range(n)] + [starter, *stock]


# --------------------------------------------------------------------------- the tests

SEEDS = (
    "00" * 32,
    "ff" * 32,
    hashlib.sha256(b"trapoula").hexdigest(),
    "0123456789abcdef" * 4,
    "287046f39861f03f7e2192a443da4668cf4005c446bab33ffa1e269b640911a8",
    "DEADBEEF" * 8,  # upper-case digits are the same bytes (section 1)
)

DECKS = {
    52: (deck_52, doc_deck_52),
    104: (deck_104, doc_deck_104),
    32: (deck_32, doc_deck_32),
}


@pytest.mark.parametrize("size", sorted(DECKS))
def test_the_canonical_decks_are_the_documented_orders(size: int) -> None:
    """Section 7: 52 = 2C ... AS by suit; 104 = that twice; 32 = 7C ... AS by suit."""
    ours, documented = DECKS[size]
    assert list(codes(ours())) == documented()
    assert len(documented()) == size


@pytest.mark.parametrize("seed", SEEDS)
def test_the_commitment_is_sha256_of_the_seed_bytes(seed: str) -> None:
    """Section 2 agrees with deal.commitment and verify_reveal."""
    assert code.commitment(seed) == doc_commitment(seed)
    assert code.verify_reveal(seed, doc_commitment(seed))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_stream_is_the_hmac_blocks_read_as_big_endian_integers(seed: str) -> None:
    """Section 3: the first 12 integers (three blocks) of two labels agree with the code."""
    for label in ("deal", "reshuffle/2"):
        ours = code.random_stream(seed, label)
        theirs = doc_integers(seed, label)
        assert [next(ours) for _ in range(12)] == [next(theirs) for _ in range(12)]


def test_rejection_sampling_discards_integers_at_or_above_the_limit() -> None:
    """Section 4: for m = 3 the limit is 2**64 - 1, so 2**64 - 1 is discarded and 5 gives 2."""
    stream = [2**64 - 1, 5, 7]
    assert code.uniform(iter(stream), 3) == doc_below(iter(stream), 3) == 2
    assert code.uniform(iter([2**64 - 2]), 3) == doc_below(iter([2**64 - 2]), 3) == (2**64 - 2) % 3


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("size", sorted(DECKS))
def test_every_deal_order_is_recomputed_from_the_doc(seed: str, size: int) -> None:
    """Sections 5-7: the label ``deal`` over the canonical deck, for the 52-, 104- and 32-card decks."""
    ours, documented = DECKS[size]
    dealt = code.Deal.from_seed(ours(), seed)
    assert list(codes(dealt.order)) == doc_shuffle(documented(), seed, "deal")
    assert dealt.commitment == doc_commitment(seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_reshuffle_order_is_recomputed_from_the_doc(seed: str) -> None:
    """Sections 6 and 8: reshuffle k shuffles the given cards (bottom first) with ``reshuffle/k``."""
    rng = random.Random(seed)
    dealt = code.Deal.from_seed(deck_52(), seed)
    for k in (1, 2, 3, 10):
        pile = rng.sample(doc_deck_52(), rng.randint(2, 45))
        expected = doc_shuffle(pile, seed, f"reshuffle/{k}")
        assert list(codes(dealt.reshuffle_order(k, parse_cards(pile)))) == expected
        assert list(codes(code.shuffle(parse_cards(pile), seed, code.reshuffle_label(k)))) == expected
    pile = doc_deck_52()
    assert doc_shuffle(pile, seed, "reshuffle/1") != doc_shuffle(pile, seed, "reshuffle/2")  # the label matters


def test_an_explicit_deal_commits_to_its_deck_hash_and_reshuffles_from_it() -> None:
    """Section 10: commitment = SHA-256 of the codes joined by spaces; reshuffles not given use
    the deck hash as seed; given reshuffles are used as they are."""
    order = doc_shuffle(doc_deck_52(), "ab" * 32, "deal")
    explicit = code.Deal(order=parse_cards(order), seed=None)
    assert explicit.commitment == doc_deck_hash(order) == code.deck_hash(parse_cards(order))
    assert doc_deck_hash(["2C", "3C"]) == hashlib.sha256(b"2C 3C").hexdigest()
    pile = ["7H", "8H", "9H", "TH", "JH"]
    assert list(codes(explicit.reshuffle_order(1, parse_cards(pile)))) == doc_shuffle(
        pile, doc_deck_hash(order), "reshuffle/1"
    )
    given = code.Deal(order=parse_cards(order), seed=None, reshuffles=(parse_cards("JH TH 9H 8H 7H"),))
    assert list(codes(given.reshuffle_order(1, parse_cards(pile)))) == ["JH", "TH", "9H", "8H", "7H"]
    assert list(codes(given.reshuffle_order(2, parse_cards(pile)))) == doc_shuffle(
        pile, doc_deck_hash(order), "reshuffle/2"
    )


def _worked_example() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 9. Worked example") :]
    block = section[section.index("```text") + len("```text") : section.index("```", section.index("```text") + 7)]
    values: dict[str, str] = {}
    for line in block.strip("\n").splitlines():
        key, value = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        values[key] = value
    return values


def test_an_explicit_agonia_deal_commits_to_the_documented_deck_order() -> None:
    """Section 10: the deck order rebuilt from explicit hands (S5.2 positions), and its hash as
    the commitment of the hand (S5.3)."""
    spec = GAMES["agonia"]
    state = spec.initial_state(MatchConfig("agonia", tuple(SeatInfo(s, f"p{s}") for s in range(3)), first_dealer=1))
    cards = doc_shuffle(doc_deck_52(), "cd" * 32, "deal")
    hands = [cards[0:7], cards[7:14], cards[14:21]]
    raw = {"hands": hands, "starter": cards[21], "stock": cards[22:]}
    events = spec.decide(state, spec.deal_command(state, spec.explicit_deal(state, raw)))
    started = _first(events, "HandStarted")
    order = doc_order_of_explicit_deal(hands, cards[21], cards[22:], dealer=1)
    assert started.explicit_deal and started.seed is None
    assert list(started.deck) == order
    assert started.commitment == doc_deck_hash(order)
    assert order[:3] == [hands[2][0], hands[0][0], hands[1][0]]  # first player: seat 2


def test_the_worked_example_of_the_doc_is_what_the_code_computes() -> None:
    """Section 9, value by value, against trapoula.domain.deal and the re-implementation."""
    ex = _worked_example()
    seed = ex["seed"]
    assert seed == "0" * 64
    assert ex["commitment"] == code.commitment(seed) == doc_commitment(seed)
    assert ex["deal block 0"] == doc_block(seed, "deal", 0).hex()
    stream = code.random_stream(seed, "deal")
    assert ex["deal integers 0-3"].split() == [str(next(stream)) for _ in range(4)]
    stream = code.random_stream(seed, "deal")
    assert ex["j for i = 51 … 42"].split() == [str(code.uniform(stream, i + 1)) for i in range(51, 41, -1)]
    order = list(codes(code.shuffle(deck_52(), seed, "deal")))
    assert order == doc_shuffle(doc_deck_52(), seed, "deal")
    assert ex["deal order 0-9"].split() == order[:10]
    assert ex["deal order 52"].split() == order
    assert ex["deal order 32, 0-9"].split() == list(codes(code.shuffle(deck_32(), seed, "deal")))[:10]
    assert ex["deal order 104, 0-9"].split() == list(codes(code.shuffle(deck_104(), seed, "deal")))[:10]
    pile = ex["reshuffle/1 of"].split()
    assert ex["gives"].split() == list(codes(code.shuffle(parse_cards(pile), seed, "reshuffle/1")))
    assert ex["deck hash, 52 order"] == code.deck_hash(parse_cards(order)) == doc_deck_hash(order)


def test_the_worked_example_deal_to_four_players_is_as_the_doc_says() -> None:
    """Section 9's four-player deal (dealer seat 3) agrees with the Agonia deal (S5.2, R3.2)."""
    spec = GAMES["agonia"]
    state = spec.initial_state(MatchConfig("agonia", tuple(SeatInfo(s, f"p{s}") for s in range(4))))
    events = spec.decide(state, spec.deal_command(state, code.Deal.from_seed(spec.deck(state), "0" * 64)))
    dealt = {e.seat: list(e.cards) for e in events if e.event_name() == "CardsDealt"}
    assert sorted(dealt[0]) == sorted(["AD", "QC", "7C", "5C", "4S", "JS", "AS"])
    assert sorted(dealt[1]) == sorted(["QH", "6D", "5D", "AC", "QD", "6C", "9S"])
    assert sorted(dealt[2]) == sorted(["2D", "KD", "7H", "9H", "6H", "8C", "2S"])
    assert sorted(dealt[3]) == sorted(["KH", "2H", "JD", "JH", "3D", "8S", "5S"])
    starter = next(e for e in events if e.event_name() == "StarterTurned")
    assert starter.card == "9C"
    text = DOC.read_text(encoding="utf-8")
    for seat, hand in dealt.items():
        written = re.search(rf"seat {seat}\s+`([^`]*)`", text)
        assert written is not None and sorted(written.group(1).split()) == sorted(hand)


def _first(events: Sequence[Any], name: str) -> Any:
    return next(e for e in events if e.event_name() == name)


@pytest.mark.parametrize("n", [2, 3])
def test_an_agonia_hand_is_recomputed_card_by_card_from_the_doc(n: int) -> None:
    """Sections 2, 5, 8 against a whole Agonia hand: the deal, every card drawn, and every
    reshuffle (the discard pile without its top card, bottom first, label ``reshuffle/k``),
    followed from the events alone."""
    seed = hashlib.sha256(f"shuffle-doc/{n}".encode()).hexdigest()
    spec = GAMES["agonia"]
    state = spec.initial_state(
        MatchConfig("agonia", tuple(SeatInfo(s, f"p{s}") for s in range(n)), {"target_points": 0})
    )
    events = list(spec.decide(state, spec.deal_command(state, code.Deal.from_seed(spec.deck(state), seed))))
    order = doc_shuffle(doc_deck_52(), seed, "deal")
    started = _first(events, "HandStarted")
    assert started.commitment == doc_commitment(seed)
    assert list(started.deck) == order
    hands, upcard, stock = doc_deal(order, n, 7, started.dealer)
    for e in events:
        if e.event_name() == "CardsDealt":
            assert sorted(e.cards) == sorted(hands[e.seat])
    assert _first(events, "StarterTurned").card == upcard

    discard = [upcard]
    reshuffles: list[list[str]] = []
    for event in events:
        state = spec.evolve(state, event)
    steps = 0
    while spec.hand_in_progress(state):
        steps += 1
        assert steps < 5000
        seat = next(s for s in range(n) if spec.legal_commands(state, s))
        legal = spec.legal_commands(state, seat)
        kinds = [spec.command_payload(c)["kind"] for c in legal]
        if len(reshuffles) < 2:  # draw whenever allowed, then play: the stock runs out, twice
            pick = kinds.index("draw") if "draw" in kinds else (kinds.index("play") if "play" in kinds else 0)
        else:  # then play whenever possible, so that the hand ends
            pick = kinds.index("play") if "play" in kinds else 0
        new = spec.decide(state, legal[pick])
        for event in new:
            name = event.event_name()
            if name == "CardPlayed":
                discard.append(event.card)
            elif name == "StockReshuffled":
                k = len(reshuffles) + 1
                assert event.k == k
                expected = doc_shuffle(discard[:-1], seed, f"reshuffle/{k}")
                assert list(event.order) == expected
                reshuffles.append(expected)
                stock.extend(expected)
                discard = discard[-1:]
            elif name == "CardsDrawn":
                assert list(event.cards) == stock[: event.count]
                del stock[: event.count]
            elif name == "SeedRevealed":
                assert event.seed == seed
                assert [list(o) for o in event.reshuffle_orders] == reshuffles
            state = spec.evolve(state, event)
        events.extend(new)
    assert len(reshuffles) >= 2, "the draw-first player should have emptied the stock twice"


# --------------------------------------------------------------------------- the players' seeds (2a)


def doc_deck_seed(server_seed: str, given: dict[int, str]) -> str:
    """Section 2a: HMAC-SHA256(server seed bytes, "players" || (uint32_be(seat) || seed bytes) for
    each seat that gave a seed, in seat order), hex."""
    message = b"players" + b"".join(
        seat.to_bytes(4, "big") + doc_seed_bytes(seed) for seat, seed in sorted(given.items())
    )
    return hmac.new(doc_seed_bytes(server_seed), message, hashlib.sha256).hexdigest()


def _players_example() -> dict[str, str]:
    """The worked example of section 2a, ``name -> value`` (the block after "Worked example (checked")."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 2a.") : text.index("## 3.")]
    block = section[section.index("```text") + len("```text") : section.index("```", section.index("```text") + 7)]
    rows = [re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in block.strip().splitlines()]
    return {row[0]: row[1] if len(row) > 1 else "" for row in rows}


def test_the_players_seeds_change_the_deck_as_the_documented_test_vector_says() -> None:
    """Section 2a, value by value, against trapoula.domain.seeding and the re-implementation: the
    server's commitment, the deck seed with no seat's seed and with seats 0 and 2 (seat 1 empty),
    and the first ten cards of the 52-card deal from it."""
    ex = _players_example()
    server = ex["server seed"]
    assert server == "0" * 64
    assert ex["SeedCommitted"] == doc_commitment(server) == code.commitment(server)
    assert ex["no seat's seed"] == doc_deck_seed(server, {}) == mix_seeds(server, [])
    given = {0: ex["seat 0 gives"], 2: ex["seat 2 gives"]}
    assert "seat 1 gives none" in ex
    deck_seed = doc_deck_seed(server, given)
    assert ex["deck seed"] == deck_seed == mix_seeds(server, [(2, given[2]), (1, None), (0, given[0])])
    assert deck_seed != doc_deck_seed(server, {0: given[0]}) != doc_deck_seed(server, {})  # each seat's counts
    assert len(b"players") + 2 * (4 + 32) == 79 and "(79 bytes)" in ex["message"]
    order = doc_shuffle(doc_deck_52(), deck_seed, "deal")
    assert (
        ex["deal order 52, 0-9"].split() == order[:10] == list(codes(code.shuffle(deck_52(), deck_seed, "deal")))[:10]
    )


@pytest.mark.parametrize("seed", ["AB" * 32, "ab" * 31, "zz" * 32, 7])
def test_a_players_seed_is_64_lower_case_hex_digits(seed: Any) -> None:
    """Section 2a: anything else is refused (``bad_seed``), upper case included."""
    with pytest.raises(InvalidInput) as refused:
        mix_seeds("0" * 64, [(0, seed)])
    assert refused.value.reason == "bad_seed"


# --------------------------------------------------------------------------- romis (section 12)


def doc_hmac_hex(secret: str, message: str) -> str:
    """Section 12: HMAC-SHA256 keyed by the secret's 32 bytes (64 hex digits), else its UTF-8 text."""
    hexdigits = len(secret) == 64 and all(c in string.hexdigits for c in secret)
    key = bytes.fromhex(secret) if hexdigits else secret.encode("utf-8")
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()


def doc_later_shuffle(cards: Sequence[str], secret: str, label: str) -> tuple[list[str], str, str]:
    """Section 12: (order, salt, commitment) of a shuffle inside a Romis hand."""
    order = doc_shuffle(cards, secret, label)
    salt = doc_hmac_hex(secret, label)
    return order, salt, hashlib.sha256((",".join(order) + ":" + salt).encode("ascii")).hexdigest()


def _romis_example() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 12. Romis") :]
    start = section.index("```text") + len("```text")
    block = section[start : section.index("```", start)]
    return [tuple(re.split(r"\s{2,}", line.strip(), maxsplit=1)) for line in block.strip("\n").splitlines()]  # type: ignore[misc]


def test_the_romis_worked_example_is_what_the_code_computes() -> None:
    """Section 12, value by value, against the romis sealing module and the re-implementation."""
    from trapoula.domain.games.romis import sealing

    rows = _romis_example()
    assert rows[0] == ("secret", "0" * 64)
    secret = rows[0][1]
    checked = 0
    for i, (key, value) in enumerate(rows):
        if not key.endswith(" of"):
            continue
        label = key.removesuffix(" of")
        cards = value.split()
        given = dict(rows[i + 1 : i + 4])
        order, salt, commitment = doc_later_shuffle(cards, secret, label)
        assert given["gives"].split() == order == list(codes(code.shuffle(parse_cards(cards), secret, label)))
        assert given["salt"] == salt == sealing.salt(secret, label)
        assert given["commitment"] == commitment == sealing.shuffle_commitment(order, salt)
        checked += 1
    assert checked == 2


def test_a_romis_restock_is_recomputed_from_the_events_alone() -> None:
    """Section 12 against a Romis hand whose eliminated pile becomes the stock (R9.1): the pile is
    rebuilt from the events (revealed cards in order, then PlayerEliminated.hand), shuffled with
    ``eliminated_pile/1`` under the hand's secret, and compared with ShuffleCommitted,
    EliminatedPileRestocked and ShuffleRevealed.later."""
    from romis_helpers import restocked

    t = restocked()
    t.auto()
    events = [(e.event_name(), e) for e in t.log]
    started = next(e for name, e in events if name == "HandStarted")
    secret = started.secret if started.secret is not None else doc_deck_hash(started.deck)
    revealed: dict[int, list[str]] = {}
    pile: list[str] = []
    shuffles: list[tuple[str, list[str], str]] = []
    committed: list[str] = []
    for name, e in events:
        if name == "RoundResolved":
            for seat, shown in enumerate(e.cards):
                revealed.setdefault(seat, []).extend(shown)
        elif name == "PlayerEliminated":
            pile += revealed.get(e.seat, []) + list(e.hand)
        elif name == "ShuffleCommitted" and e.purpose != "deal":
            committed.append(e.commitment)
        elif name == "EliminatedPileRestocked":
            label = f"eliminated_pile/{len(shuffles) + 1}"
            order, salt, commitment = doc_later_shuffle(pile, secret, label)
            assert list(e.order) == order
            assert committed[-1] == commitment
            shuffles.append(("eliminated_pile", order, salt))
            pile = []
        elif name == "ShuffleRevealed":
            assert [(p, list(o), s) for p, o, s in e.later] == shuffles
    assert len(shuffles) == 1
