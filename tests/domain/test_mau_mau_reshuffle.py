"""Mau Mau: reshuffling an empty stock (R4.6; S8) and passing when nothing can be drawn (R4.4; S7.3)."""

from __future__ import annotations

from mau_mau_helpers import Table, drew, passed, reshuffled, turn

from trapoula.domain.cards import codes, parse_cards
from trapoula.domain.deal import deck_hash, shuffle
from trapoula.domain.games.shedding.events import HandStarted

HANDS = ["5H 2C 3C 4C 5C 6C 8C", "6H 2D 3D 4D 5D 6D 8D"]


def drained(reshuffles: list[str] | None = None) -> Table:
    """Two players: 5H and 6H are played on the up-card 4H, then 89 draws empty the stock; seat 1
    is to act with the discard pile 4H 5H 6H."""
    t = Table(2)
    t.deal(HANDS, "4H", reshuffles=reshuffles)
    t.play(0, "5H")
    t.play(1, "6H")
    for _ in range(89):
        t.draw(t.to_act)  # type: ignore[arg-type]
    assert (t.stock, t.discard, t.to_act) == ([], "4H 5H 6H", 1)
    return t


def test_r4_6_a_draw_from_an_empty_stock_reshuffles_the_discard_pile_but_its_top_card() -> None:
    t = drained(["5H 4H"])
    assert t.draw(1) == (reshuffled(1, "5H 4H"), drew(1, "5H"), turn(0))
    assert (t.stock, t.discard) == (["4H"], "6H")


def test_s8_5_without_an_explicit_order_the_reshuffle_is_drawn_from_the_explicit_deck_s_hash() -> None:
    t = drained()
    started = next(e for e in t.log if isinstance(e, HandStarted))
    order = codes(shuffle(parse_cards("4H 5H"), deck_hash(parse_cards(started.deck)), "reshuffle/1"))
    assert t.draw(1)[0] == reshuffled(1, " ".join(order))


def test_r4_4_when_nothing_can_be_drawn_draw_is_refused_and_pass_is_allowed_s10_4() -> None:
    t = drained(["5H 4H"])
    t.draw(1)
    t.draw(0)  # the last card
    assert (t.stock, t.discard, t.to_act) == ([], "6H", 1)
    t.rejects("stock_empty", "R4.4", t.command("draw", 1))
    assert t.pass_(1) == (passed(1), turn(0))
    assert t.kinds(0)[-3:] == ["pass", "mau", "leave"]
