"""Given / when / then for Romis su iškritimu rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the game's :class:`~trapoula.domain.game.GameSpec`
(``SPEC``, built directly: the game is not in the registry yet): *given* an explicit deal (card codes
written in the test, R3.7), *when* a seat issues a command (parsed from plain data, as the service
does), *then* the test compares the returned events with the expected ones, or checks that a refusal
names its reason code and rule, changes nothing and is not offered by ``legal_commands`` (section 8).

Unless a test names it, the dealer of the first hand is seat n-1, so that the seat order after the
dealer is 0, 1, ..., n-1 (R3.1, R2.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from match_table import MatchTable

from trapoula.domain.cards import codes, deck_52, parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec
from trapoula.domain.games.romis import SPEC, RomisState
from trapoula.domain.games.romis.commands import Command, Reveal, canonical
from trapoula.domain.games.romis.rules import seat_order, upcoming_dealer

NAMES = ("ann", "bob", "cy", "dee")
"""Display names of seats 0-3."""

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order: 2C 3C ... AC 2D ... AS."""

E = TypeVar("E", bound=Event)


def split(text: str | None) -> list[str]:
    """Card codes from a space-separated string (None: none)."""
    return text.split() if text else []


class Table(MatchTable):
    """One Romis match of ``n`` players, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec: ClassVar[GameSpec[Any, Any]] = SPEC
    seat_names = NAMES
    players = 2

    # ------------------------------------------------------------------ given

    def explicit(self, hands: Sequence[str | None], aux: Sequence[str | None] = (), stock_top: str = "") -> Deal:
        """The explicit deal (R3.7) of the next hand: each seat's 5 cards (space-separated codes, by
        seat; None: the next 5 unused cards in canonical order), each seat's auxiliary cards (slot 1,
        slot 2; None or missing: the next 2 unused cards), then the top of the rest of the stock (top
        first); the rest follows in canonical order.  The stock starts with the auxiliary cards in the
        order of R3.7: slot 1 of each seat in the seat order after the dealer, then slot 2."""
        named = [c for h in hands for c in split(h)] + [c for a in aux for c in split(a)] + split(stock_top)
        assert len(named) == len(set(named)), f"a card is given twice in {named}"
        spare = [c for c in ALL_CODES if c not in set(named)]

        def take(k: int) -> list[str]:
            nonlocal spare
            got, spare = spare[:k], spare[k:]
            return got

        filled = [split(h) if h is not None else take(5) for h in hands]
        aux_cards = [split(aux[s]) if s < len(aux) and aux[s] is not None else take(2) for s in range(self.n)]
        dealer = upcoming_dealer(self.state)
        seq = seat_order(dealer, self.n)
        stock = [aux_cards[s][0] for s in seq] + [aux_cards[s][1] for s in seq] + split(stock_top) + spare
        return SPEC.explicit_deal(self.state, {"hands": filled, "stock": stock})

    def deal(
        self, hands: Sequence[str | None], aux: Sequence[str | None] = (), stock_top: str = ""
    ) -> tuple[Event, ...]:
        """Deal the next hand explicitly (``next_hand``); see :meth:`explicit`."""
        return self.apply(SPEC.deal_command(self.state, self.explicit(hands, aux, stock_top)))

    def deal_streams(self, hands: Sequence[str], aux: Sequence[str], *streams: Sequence[str]) -> tuple[Event, ...]:
        """Deal the next hand with every later card named per seat: ``streams[k][s]`` is what seat s
        receives in the k-th deal after the hands (first deal of 3, second deal of 1, then extra cards
        one at a time), dealt in the seat order after the dealer, a seat whose stream is empty skipped
        (R4.3, R4.5, R7.4)."""
        dealer = upcoming_dealer(self.state)
        seq = seat_order(dealer, self.n)
        top: list[str] = []
        for stage in streams:
            per_seat = [split(stage[s]) for s in range(self.n)]
            for p in range(max(len(x) for x in per_seat)):
                top += [per_seat[s][p] for s in seq if p < len(per_seat[s])]
        return self.deal(hands, aux, " ".join(top))

    # ------------------------------------------------------------------ when

    def reveal_command(self, seat: int, cards: str, companions: str | None = None) -> Command:
        """The ``reveal {cards, companions?}`` command (R13.1)."""
        fields: dict[str, Any] = {"cards": split(cards)}
        if companions is not None:
            fields["companions"] = split(companions)
        return self.command("reveal", seat, **fields)

    def reveal(self, seat: int, cards: str, companions: str | None = None) -> tuple[Event, ...]:
        """``reveal`` (R13.1)."""
        return self.apply(self.reveal_command(seat, cards, companions))

    def aux(self, seat: int) -> tuple[Event, ...]:
        """``use_auxiliary`` (R13.2)."""
        return self.apply(self.command("use_auxiliary", seat))

    def cannot(self, seat: int) -> tuple[Event, ...]:
        """``cannot`` (R13.3)."""
        return self.apply(self.command("cannot", seat))

    def give_up(self, seat: int) -> tuple[Event, ...]:
        """Turn up every auxiliary card left, then ``cannot`` (R6.3)."""
        out: list[Event] = []
        while self.state.aux_used[seat] < 2:
            out += self.aux(seat)
        return tuple(out) + self.cannot(seat)

    def auto(self, until: Callable[[Table], bool] | None = None, limit: int = 2000) -> list[Event]:
        """Play on with every acting seat issuing its first legal command (the first reveal in
        canonical form, else ``use_auxiliary``, else ``cannot``), in seat order, until the hand is
        over or ``until(self)`` holds; return the events."""
        out: list[Event] = []
        for _ in range(limit):
            if not SPEC.hand_in_progress(self.state) or (until is not None and until(self)):
                return out
            seat = SPEC.acting(self.state)[0]
            out += self.apply(SPEC.legal_commands(self.state, seat)[0])
        raise AssertionError("the hand did not end")

    # ------------------------------------------------------------------ then

    def offered(self, command: Command, legal: Sequence[Command]) -> bool:
        """A reveal is offered in any order of its cards (R5.6): its canonical form is listed."""
        return command in legal or (isinstance(command, Reveal) and canonical(command) in legal)

    def hand(self, seat: int) -> str:
        """The seat's hand, canonical order, space-separated."""
        return " ".join(codes(sorted(self.state.hands[seat], key=lambda c: c.sort_key)))

    def revealed(self, seat: int) -> str:
        """The seat's revealed cards in the order revealed, space-separated."""
        return " ".join(codes(self.state.revealed[seat]))


def of(events: Sequence[Event], cls: type[E]) -> list[E]:
    """The events of class ``cls``, in order."""
    return [e for e in events if isinstance(e, cls)]


def cards(text: str) -> tuple[str, ...]:
    """Card codes from a space-separated string, checked to parse."""
    return codes(parse_cards(text))


def conserved(state: RomisState) -> bool:
    """Card conservation during a hand: every one of the 52 cards is in exactly one place -- a hand,
    revealed, a companion, an auxiliary card not yet turned up, the stock or the eliminated pile."""
    places = [*state.stock, *state.pile]
    for s in range(state.n):
        places += [*state.hands[s], *state.revealed[s], *state.companions[s], *state.aux[s][state.aux_used[s] :]]
    return len(places) == 52 and len(set(places)) == 52


def clubs_and_hearts(seat_2: Sequence[str], extras: Sequence[str]) -> Table:
    """3 players: seats 0 and 1 reveal clubs and hearts (2-6 in hand, J Q auxiliary, 7 8 9 and T
    dealt); ``seat_2`` is seat 2's hand, auxiliary cards, first and second deal (``""``: none);
    ``extras`` each seat's extra cards, one a round when all are stuck (R7.4)."""
    hand, aux, first, second = seat_2
    t = Table(3)
    t.deal_streams(
        ["2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H", hand],
        ["JC QC", "JH QH", aux],
        ["7C 8C 9C", "7H 8H 9H", first],
        ["TC", "TH", second],
        extras,
    )
    return t


def restocked() -> Table:
    """3 players, a hand whose eliminated pile becomes the stock (R9.1): seat 2 cannot reveal in round 1
    and drops out with 2S 4D 6S 8D TS QD AS; seats 0 and 1 reveal clubs and hearts
    (:func:`clubs_and_hearts`), then receive the rest of the stock one card a round (R7.4) until it
    runs out."""
    return clubs_and_hearts(
        ("2S 4D 6S 8D TS", "QD AS", "", ""),
        ("KC AC 2D 3D 5D 6D 7D 9D TD JD KD AD", "KH AH 3S 4S 5S 7S 8S 9S JS QS KS", ""),
    )
