"""What the shedding games' test tables share: a match driven through a ``GameSpec`` as the service
drives it, its explicit deals (S5.3), its plays, draws and passes, readers of its public state (S4),
and the builders of the expected events every shedding game emits.  Each game's helper module
subclasses :class:`ShedTable` with its own seats and commands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from match_table import MatchTable
from match_table import names as names
from match_table import of_type as of_type

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.games.shedding.events import CardsDrawn, Passed, StockReshuffled, TurnStarted

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order (S2.3): 2C 3C ... AC 2D ... AS."""


class ShedTable(MatchTable):
    """A shedding match under test: ``state`` is the folded state, ``log`` every event so far.

    A subclass sets ``spec`` and its seats' names (:class:`MatchTable`); ``decks`` is the cards the
    explicit deals fill the stock from.
    """

    decks: ClassVar[Sequence[str]] = ALL_CODES

    def explicit(
        self,
        hands: Sequence[str],
        starter: str,
        stock: str = "",
        reshuffles: Sequence[str] | None = None,
        *,
        fill: bool = True,
    ) -> Any:
        """The explicit deal (S5.3) of the next hand.

        ``hands``: one space-separated string of codes per seat ("" for a vacant seat); ``stock``:
        the top of the stock, top first; with ``fill`` the cards of :attr:`decks` not named anywhere
        follow beneath it in canonical order (S2.3), each code as often as it is still missing.
        ``reshuffles``: the orders of reshuffles 1, 2, ... (S8.5), top first.
        """
        hand_lists = [h.split() for h in hands]
        stock_list = stock.split()
        if fill:
            left = Counter(self.decks) - Counter([*(c for h in hand_lists for c in h), starter, *stock_list])
            stock_list += [c for c in ALL_CODES for _ in range(left[c])]
        raw: dict[str, Any] = {"hands": hand_lists, "starter": starter, "stock": stock_list}
        if reshuffles is not None:
            raw["reshuffles"] = [r.split() for r in reshuffles]
        return self.spec.explicit_deal(self.state, raw)

    def deal(self, *deal: Any, **how: Any) -> tuple[Event, ...]:
        """Deal the next hand explicitly (``next_hand`` with a deal, S5.3); the arguments are those of
        :meth:`explicit`."""
        return self.apply(self.spec.deal_command(self.state, self.explicit(*deal, **how)))

    def play_command(self, seat: int, card: str, suit: str | None = None, **more: Any) -> Any:
        """``play {card, suit?, ...}``, the fields given as None left out."""
        fields = {k: v for k, v in {"suit": suit, **more}.items() if v is not None}
        return self.command("play", seat, card=card, **fields)

    def play(self, seat: int, card: str, suit: str | None = None, **more: Any) -> tuple[Event, ...]:
        """``play {card, suit?, ...}`` (S6)."""
        return self.apply(self.play_command(seat, card, suit, **more))

    def rejects_play(
        self, reason: str, rule: str, seat: int, card: str, suit: str | None = None, **more: Any
    ) -> CommandRejected:
        """:meth:`rejects` for a ``play``."""
        return self.rejects(reason, rule, self.play_command(seat, card, suit, **more))

    def refuses_out_of_turn(self, play_seat: int, draw_seat: int, pass_seat: int) -> CommandRejected:
        """S3.7: a play of 5S by ``play_seat``, a draw by ``draw_seat`` and a pass by ``pass_seat``,
        none of them the seat to act, are each refused ``not_your_turn``; the play's refusal."""
        refused = self.rejects("not_your_turn", "S3.7", self.command("play", play_seat, card="5S"))
        self.rejects("not_your_turn", "S3.7", self.command("draw", draw_seat))
        self.rejects("not_your_turn", "S3.7", self.command("pass", pass_seat))
        return refused

    def refuses_a_card_not_in_hand(self, seat: int, card: str) -> None:
        """S11: ``seat`` playing ``card``, which it does not hold, is refused ``card_not_in_hand``,
        and the message quotes the card."""
        assert f"'{card}'" in self.rejects_play("card_not_in_hand", "S11", seat, card).message

    def draw(self, seat: int) -> tuple[Event, ...]:
        """``draw``."""
        return self.apply(self.command("draw", seat))

    def pass_(self, seat: int) -> tuple[Event, ...]:
        """``pass``."""
        return self.apply(self.command("pass", seat))

    def hand(self, seat: int) -> str:
        """The seat's hand, canonical order (S2.3), space-separated."""
        return " ".join(sorted(codes(self.state.hands[seat]), key=ALL_CODES.index))

    @property
    def to_act(self) -> int | None:
        """The seat to act (S3.7)."""
        return self.state.to_act  # type: ignore[no-any-return]

    @property
    def top(self) -> str:
        """The code of the top card."""
        top = self.state.top_card
        assert top is not None
        return str(top.code)

    @property
    def active_suit(self) -> str | None:
        """The active suit letter (S4.3)."""
        return self.state.active_suit.value if self.state.active_suit else None

    @property
    def pending(self) -> int:
        """The pending draw (S9)."""
        return int(self.state.pending_draw)

    @property
    def discard(self) -> str:
        """The discard pile, bottom first, space-separated."""
        return " ".join(codes(self.state.discard))


# ---------------------------------------------------------------------- expected events


def drew(seat: int, cards: str, reason: str = "draw") -> CardsDrawn:
    """The ``CardsDrawn`` event of ``seat`` drawing ``cards`` (space-separated, in drawing order)."""
    drawn = tuple(cards.split())
    return CardsDrawn(seat=seat, cards=drawn, count=len(drawn), reason=reason)


def turn(seat: int) -> TurnStarted:
    """``TurnStarted``: ``seat`` has a (new) turn (S3.6, S3.7)."""
    return TurnStarted(seat=seat)


def passed(seat: int) -> Passed:
    """``Passed`` (S11)."""
    return Passed(seat=seat)


def reshuffled(k: int, order: str) -> StockReshuffled:
    """``StockReshuffled``: reshuffle ``k`` put ``order`` (top first) beneath the stock (S8)."""
    cards = tuple(order.split())
    return StockReshuffled(k=k, count=len(cards), order=cards)
