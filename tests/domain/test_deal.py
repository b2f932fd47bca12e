"""The verifiable shuffle and the deal (S5.1, S5.3, S8.5; the algorithm of ``deal.py``).

The deck order of the all-zero seed is recomputed here from the written algorithm with nothing
but ``hmac`` and ``hashlib``, so an independent program can check every deal.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest

from trapoula.domain.cards import codes, deck_52, parse_cards
from trapoula.domain.deal import (
    Deal,
    commitment,
    deck_hash,
    random_stream,
    reshuffle_label,
    shuffle,
    uniform,
    verify_reveal,
)
from trapoula.domain.errors import InvalidInput

ZERO_SEED = "00" * 32
ONE_SEED = "01" * 32

CANONICAL = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def _independent_shuffle(items: list[str], seed_hex: str, label: str) -> list[str]:
    """The algorithm as written in the ``deal`` docstring, with nothing from trapoula."""
    key = bytes.fromhex(seed_hex)

    def stream() -> Iterator[int]:
        counter = 0
        while True:
            block = hmac.new(key, label.encode() + b"/" + counter.to_bytes(8, "big"), hashlib.sha256).digest()
            for i in range(4):
                yield int.from_bytes(block[8 * i : 8 * i + 8], "big")
            counter += 1

    numbers = stream()

    def uniform_(m: int) -> int:
        limit = 2**64 - (2**64 % m)
        while True:
            x = next(numbers)
            if x < limit:
                return x % m

    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = uniform_(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def test_s5_1_the_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert commitment(ZERO_SEED) == hashlib.sha256(bytes(32)).hexdigest()
    assert commitment(ZERO_SEED) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert commitment(ONE_SEED) == hashlib.sha256(b"\x01" * 32).hexdigest()
    assert commitment("AB" * 32) == commitment("ab" * 32)


def test_s5_1_a_revealed_seed_verifies_only_against_its_own_commitment() -> None:
    assert verify_reveal(ZERO_SEED, commitment(ZERO_SEED))
    assert not verify_reveal(ONE_SEED, commitment(ZERO_SEED))
    assert not verify_reveal("zz", commitment(ZERO_SEED))


@pytest.mark.parametrize("seed", ["00" * 31, "00" * 33, "0" * 63, "g" * 64, "", "00" * 31 + "0x"])
def test_a_seed_must_be_64_hex_digits(seed: str) -> None:
    with pytest.raises(InvalidInput) as info:
        commitment(seed)
    assert info.value.reason == "bad_seed"
    assert repr(seed) in str(info.value)
    with pytest.raises(InvalidInput):
        Deal.from_seed(deck_52(), seed)


def test_the_random_stream_is_hmac_sha256_blocks_cut_into_four_big_endian_integers() -> None:
    numbers = random_stream(ZERO_SEED, "deal")
    block0 = hmac.new(bytes(32), b"deal/" + bytes(8), hashlib.sha256).digest()
    block1 = hmac.new(bytes(32), b"deal/" + (1).to_bytes(8, "big"), hashlib.sha256).digest()
    expected = [int.from_bytes(b[i : i + 8], "big") for b in (block0, block1) for i in (0, 8, 16, 24)]
    assert [next(numbers) for _ in range(8)] == expected


def test_uniform_rejects_the_biased_top_of_the_range() -> None:
    # m = 3: 2**64 mod 3 = 1, so only x = 2**64 - 1 is rejected; 5 mod 3 = 2.
    assert uniform(iter([2**64 - 1, 5]), 3) == 2
    assert uniform(iter([2**64 - 2]), 3) == (2**64 - 2) % 3 == 2
    # m = 1 never rejects and always gives 0.
    assert uniform(iter([2**64 - 1]), 1) == 0


def test_the_deal_order_of_the_all_zero_seed_is_pinned_and_recomputable_independently() -> None:
    deal = Deal.from_seed(deck_52(), ZERO_SEED)
    independent = _independent_shuffle(CANONICAL, ZERO_SEED, "deal")
    assert list(codes(deal.order)) == independent
    assert independent[:10] == ["AD", "QH", "2D", "KH", "QC", "6D", "KD", "2H", "7C", "5D"]
    assert independent[-3:] == ["4C", "5H", "TS"]
    assert deal.seed == ZERO_SEED
    assert not deal.explicit
    assert deal.commitment == commitment(ZERO_SEED)
    assert deal.reshuffle_seed == ZERO_SEED


def test_the_shuffle_is_deterministic_and_depends_on_seed_and_label() -> None:
    a = shuffle(deck_52(), ZERO_SEED, "deal")
    assert shuffle(deck_52(), ZERO_SEED, "deal") == a
    assert shuffle(deck_52(), ONE_SEED, "deal") != a
    assert shuffle(deck_52(), ZERO_SEED, "reshuffle/1") != a
    assert sorted(a) == sorted(deck_52())
    assert shuffle([], ZERO_SEED, "deal") == ()
    assert shuffle(["x"], ZERO_SEED, "deal") == ("x",)


@pytest.mark.parametrize("size", [2, 5, 6, 7, 8, 9, 31, 32, 52, 104])
def test_every_size_of_shuffle_draws_as_the_independent_algorithm(size: int) -> None:
    # the n - 1 draws come from the first ceil((n - 1) / 4) blocks: sizes on both sides of a block
    items = [f"c{i}" for i in range(size)]
    for seed in (ZERO_SEED, ONE_SEED, hashlib.sha256(b"size").hexdigest()):
        assert list(shuffle(items, seed, "deal")) == _independent_shuffle(items, seed, "deal")


def test_the_draw_by_draw_path_taken_after_a_rejection_gives_the_same_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # No real seed is known to reject a draw (the chance is below 52 / 2**64 a draw); with every
    # limit pretended to be 0 the quick path gives up and the draw-by-draw path, with its
    # rejections, must give the independent algorithm's order all the same.
    from trapoula.domain import deal as deal_module

    monkeypatch.setattr(deal_module, "_limits", lambda n: (0,) * (n - 1))
    assert list(codes(shuffle(deck_52(), ZERO_SEED, "deal"))) == _independent_shuffle(CANONICAL, ZERO_SEED, "deal")
    taken = []
    real_uniform = deal_module.uniform

    def spy(stream: Iterator[int], m: int) -> int:
        taken.append(m)
        return real_uniform(stream, m)

    monkeypatch.setattr(deal_module, "uniform", spy)
    shuffle(deck_52(), ZERO_SEED, "deal")
    assert taken == list(range(52, 1, -1))  # the draw-by-draw path ran, one draw for each m


def test_s8_5_the_kth_reshuffle_of_a_seeded_deal_uses_the_label_reshuffle_k() -> None:
    assert reshuffle_label(1) == "reshuffle/1"
    deal = Deal.from_seed(deck_52(), ZERO_SEED)
    pile = parse_cards("2H 3H 4H 5H 6H")
    expected = _independent_shuffle(["2H", "3H", "4H", "5H", "6H"], ZERO_SEED, "reshuffle/2")
    assert list(codes(deal.reshuffle_order(2, pile))) == expected


def test_s5_3_an_explicit_deal_commits_to_the_hash_of_its_deck_order() -> None:
    deal = Deal(order=deck_52())
    text = " ".join(CANONICAL).encode("ascii")
    assert deal.explicit
    assert deal.seed is None
    assert deck_hash(deck_52()) == hashlib.sha256(text).hexdigest()
    assert deal.commitment == deal.reshuffle_seed == hashlib.sha256(text).hexdigest()


def test_s8_5_an_explicit_reshuffle_order_is_used_when_it_is_a_permutation() -> None:
    given = parse_cards("5H 2H 4H 3H")
    deal = Deal(order=deck_52(), reshuffles=(given,))
    assert deal.reshuffle_order(1, parse_cards("2H 3H 4H 5H")) == given


def test_s8_5_an_explicit_reshuffle_that_is_not_a_permutation_is_a_bad_deal() -> None:
    deal = Deal(order=deck_52(), reshuffles=(parse_cards("5H 2H 4H 9S"),))
    with pytest.raises(InvalidInput) as info:
        deal.reshuffle_order(1, parse_cards("2H 3H 4H 5H"))
    assert info.value.reason == "bad_deal"
    assert "'5H 2H 4H 9S'" in str(info.value)
    too_short = Deal(order=deck_52(), reshuffles=(parse_cards("5H 2H 4H"),))
    with pytest.raises(InvalidInput):
        too_short.reshuffle_order(1, parse_cards("2H 3H 4H 5H"))


def test_s8_5_a_reshuffle_not_given_derives_from_the_explicit_deck_hash() -> None:
    deal = Deal(order=deck_52(), reshuffles=(parse_cards("3H 2H"),))
    seed = hashlib.sha256(" ".join(CANONICAL).encode("ascii")).hexdigest()
    expected = _independent_shuffle(["7C", "8C", "9C"], seed, "reshuffle/2")
    assert list(codes(deal.reshuffle_order(2, parse_cards("7C 8C 9C")))) == expected
