"""Vida's computer players (docs/rules/vida.md section 12, C1-C11): they decide from one seat's view only.

A policy is a :data:`~trapoula.domain.game.BotPolicy`: ``(view, legal, rng) -> one of legal``.  It
reads the seat's view (``seat``, ``hand``, ``auction``, ``contract``, ``trump``, ``leader``,
``trick``, ``tricks``, ``widow``, ``dealer``, ``options``; games/vida/views.py) and the legal
payloads, never the state, so it cannot cheat.

* ``random`` (:func:`random_policy`): a command kind chosen uniformly among the kinds in ``legal``,
  then a payload of that kind uniformly, so the many ``bid`` payloads do not swamp ``pass``.
* ``heuristic`` (:func:`heuristic`): the bidding convention of section 12 and a sensible play:

  - auction: open per C3 (Table 1) with its bot tie-break; respond to a single opening per C4
    (Table 2), with C5 extra values, C6 length without J/9, C7 a new suit and C8 the response to an
    even opening; C9 raise by at least 40 with 50 or more in declarations.  The opener rests after
    opening.  Bot decisions beyond the seed: it never bids above 160 plus its own declaration
    points (C1, C10: a higher contract needs a capot); in open vida the opener counts the widow he
    would take.  Vida (C10): a defender holding the jack and the nine of the bid suit and two
    outside aces calls the first vida before any other call; the bot never calls contra vida or a
    later level.
  - open vida ``give`` (R5.1): keeps trumps, aces, guarded tens and declarations; gives the three
    cards of least value to it, the one worth most card points to its partner (holder+2).
  - ``declare`` (R5.8): always, when legal.
  - play: the bidding team draws trumps with the master trump while it holds another trump; a
    leader leads the suit in which partner signalled the ten (C11 a), else a master ace or ten,
    else a low card away from the suits partner discarded (C11 b).  A follower signals the ten
    under partner's ace (C11 a); loads points on a trick partner is sure to win; wins cheaply when
    the win is safe (last to play, a master card, or a ruff); otherwise plays its lowest card,
    discarding from a suit without its ace (C11 b).  It announces belote whenever offered (R5.9).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trapoula.domain.bots import by_kind, hand_codes
from trapoula.domain.cards import Card, Suit, deck_32, parse_card
from trapoula.domain.game import BotPolicy
from trapoula.domain.games.vida.cards import card_points, plain_strength, trick_winner, trump_strength
from trapoula.domain.games.vida.declarations import combinations

__all__ = ["bot_levels", "choose_give", "heuristic", "opening_bid", "opening_row", "random_policy"]

Cmd = Mapping[str, Any]
"""A command payload as ``legal`` lists it."""

_SUIT_PREFERENCE = "SHDC"
"""C3 bot tie-break, last step: spades, hearts, diamonds, clubs."""

_ALL_CODES: tuple[str, ...] = tuple(c.code for c in deck_32())
"""The 32 card codes of the deck (R2.1)."""


# --------------------------------------------------------------------------- small helpers


def _suit(code: str) -> str:
    return code[1]


def _rank(code: str) -> str:
    return code[0]


def _card(code: str) -> Card:
    return parse_card(code)


def _points(code: str, trump: str) -> int:
    """Card points of ``code`` with ``trump`` as trumps (R2.5, R2.6)."""
    return card_points(_card(code), Suit(trump))


def _strength(code: str, trump: str) -> int:
    """Rank strength in the card's own order: trump order for a trump (R2.5), else plain (R2.6)."""
    card = _card(code)
    return trump_strength(card) if _suit(code) == trump else plain_strength(card)


def _winner(cards: Sequence[str], trump: str) -> int:
    """Index of the card winning the (possibly incomplete) trick ``cards`` (R4.14)."""
    return trick_winner([_card(c) for c in cards], Suit(trump))


def _beats(card: str, other: str, led: str, trump: str) -> bool:
    """Whether ``card``, played after ``other`` (now winning a trick led in ``led``), beats it (R4.14)."""
    if _suit(card) == trump:
        return _suit(other) != trump or _strength(card, trump) > _strength(other, trump)
    if _suit(other) == trump or _suit(card) != led:
        return False
    return _suit(other) != led or _strength(card, trump) > _strength(other, trump)


def _declaration_points(cards: Iterable[str]) -> int:
    """Points of every combination the cards hold (R5.2, R5.3)."""
    return sum(c.points for c in combinations([_card(code) for code in cards]))


def _trump_of(view: Mapping[str, Any]) -> str | None:
    trump = view.get("trump")
    if trump is None:
        contract = view.get("contract") or {}
        trump = contract.get("suit") if isinstance(contract, Mapping) else None
    return str(trump) if trump is not None else None


# --------------------------------------------------------------------------- the random level


def random_policy(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``random`` level: a kind uniformly among the kinds in ``legal``, then one of its payloads.

    Args:
        view: the seat's view (unused).
        legal: the seat's legal payloads, non-empty.
        rng: the source of both choices.

    Returns:
        An element of ``legal``.

    Raises:
        IndexError: ``legal`` is empty.
    """
    kinds = by_kind(legal)
    if not kinds:
        raise IndexError("no legal command to choose from")
    kind = rng.choice(sorted(kinds))
    return rng.choice(kinds[kind])


# --------------------------------------------------------------------------- the heuristic level


def heuristic(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``heuristic`` level (module docstring; docs/rules/vida.md section 12); returns an element of ``legal``.

    ``view`` is the seat's view: ``seat``, ``hand`` (card codes), ``auction`` (calls
    ``{seat, call, points?, suit?, level?}``), ``contract`` (``{holder, team, points, suit, level,
    multiplier}`` or None), ``trump``, ``leader``, ``trick`` (``[{seat, card}]``), ``tricks`` (finished
    tricks ``{trick_no, leader, winner, cards, points}``, cards in play order), ``widow``, ``dealer``.
    Order of choice: ``declare`` (R5.8), ``give`` (R5.1), ``play`` (R4.9-R4.14), auction calls (R4.2-R4.7).

    Raises:
        IndexError: ``legal`` is empty.
        InvalidInput: the view holds a card code that is not a card (``bad_card``).
    """
    if not legal:
        raise IndexError("no legal command to choose from")
    kinds = by_kind(legal)
    if "declare" in kinds:  # R5.8: declaring can only add points
        return kinds["declare"][0]
    if "give" in kinds:
        return _give(view, kinds["give"])
    if "play" in kinds:
        return _play(view, kinds["play"])
    if kinds.keys() & {"bid", "pass", "vida"}:
        return _auction(view, kinds, rng)
    return rng.choice(legal)


# --------------------------------------------------------------------------- auction (C1-C10)


@dataclass(frozen=True, slots=True)
class _Call:
    """One auction call as the view lists it (R4.2-R4.5)."""

    seat: int
    call: str
    points: int = 0
    suit: str = ""


def _calls(view: Mapping[str, Any]) -> list[_Call]:
    out: list[_Call] = []
    for raw in view.get("auction") or ():
        call = str(raw.get("call") or raw.get("kind") or "")
        points = raw.get("points")
        suit = raw.get("suit")
        out.append(_Call(int(raw["seat"]), call, int(points) if points is not None else 0, str(suit or "")))
    return out


def _outside_aces(cards: Sequence[str], suit: str) -> int:
    """C2: aces of the suits other than ``suit``."""
    return sum(1 for c in cards if _rank(c) == "A" and _suit(c) != suit)


def _trumps(cards: Sequence[str], suit: str) -> list[str]:
    return [c for c in cards if _suit(c) == suit]


def opening_row(cards: Sequence[str], suit: str) -> int:
    """C3 (Table 1): the row a hand reaches in ``suit``: 0 none, 1 J or 9, 2 J and 9, 3 J, 9 and A.

    Every row needs at least three cards of ``suit`` and at least one outside ace (C2).  ``cards``
    are card codes; nothing is raised.
    """
    held = {_rank(c) for c in _trumps(cards, suit)}
    if len(_trumps(cards, suit)) < 3 or _outside_aces(cards, suit) < 1:
        return 0
    if {"J", "9", "A"} <= held:
        return 3
    if {"J", "9"} <= held:
        return 2
    return 1 if held & {"J", "9"} else 0


def opening_bid(cards: Sequence[str], current: int | None) -> tuple[int, str] | None:
    """C3: the opening ``(points, suit)`` of a hand over the current bid (``None``: no bid yet), or None to pass.

    Row 1 opens 80 or current + 10, row 2 90 or current + 20, row 3 100 or current + 30.  Tie-break
    when several suits qualify (a bot's, not the seed's): the highest row; then more cards in the
    suit; then more trump card points (R2.5) held in it; then S, H, D, C.

    Raises:
        InvalidInput: a code is not a card (``bad_card``).
    """
    best: tuple[int, int, int, int, str] | None = None
    for suit in _SUIT_PREFERENCE:
        row = opening_row(cards, suit)
        if row == 0:
            continue
        held = _trumps(cards, suit)
        key = (row, len(held), sum(_points(c, suit) for c in held), -_SUIT_PREFERENCE.index(suit), suit)
        if best is None or key > best:
            best = key
    if best is None:
        return None
    row, suit = best[0], best[4]
    return (70 + 10 * row if current is None else current + 10 * row), suit


def _auction(view: Mapping[str, Any], kinds: Mapping[str, list[Cmd]], rng: random.Random) -> Cmd:
    """One auction call (R4.2-R4.7) per the convention C1-C10; pass whenever the wanted call is not legal."""
    seat = int(view["seat"])
    hand = hand_codes(view)
    calls = _calls(view)
    fallback = kinds["pass"][0] if "pass" in kinds else rng.choice([c for cs in kinds.values() for c in cs])
    if "vida" in kinds and _wants_vida(hand, seat, calls):
        return kinds["vida"][0]
    bids = {(int(c["points"]), str(c["suit"])): c for c in kinds.get("bid", ())}
    if not bids:
        return fallback
    wanted = _bid_choice(view, hand, seat, calls)
    if wanted is None:
        return fallback
    ceiling = 160 + _declaration_points(hand)  # C1, C10: never more than play and own declarations
    if wanted[0] > ceiling:
        return fallback
    return bids.get(wanted, fallback)


def _wants_vida(hand: Sequence[str], seat: int, calls: Sequence[_Call]) -> bool:
    """C10: the first vida only, by a defender holding the jack and nine of the bid suit and two outside aces."""
    bids = [c for c in calls if c.call == "bid"]
    if not bids or any(c.call == "vida" for c in calls):
        return False
    current = bids[-1]
    if current.seat % 2 == seat % 2:
        return False
    held = {_rank(c) for c in _trumps(hand, current.suit)}
    return {"J", "9"} <= held and _outside_aces(hand, current.suit) >= 2


def _bid_choice(view: Mapping[str, Any], hand: list[str], seat: int, calls: list[_Call]) -> tuple[int, str] | None:
    """The bid the convention asks for, as ``(points, suit)``, or None to pass."""
    partner = (seat + 2) % 4
    bids = [c for c in calls if c.call == "bid"]
    current = bids[-1].points if bids else None
    ours = [i for i, c in enumerate(calls) if c.call == "bid" and c.seat in (seat, partner)]
    if not ours:  # C3: this partnership's first bid; in open vida the opener counts the widow
        widow = [str(c) for c in view.get("widow") or ()]
        return opening_bid(hand + widow, current)
    if calls[ours[0]].seat == seat:
        return None  # the opener has shown his hand; partner speaks next
    return _response(hand, seat, calls, ours[0])


def _response(hand: list[str], seat: int, calls: list[_Call], opened: int) -> tuple[int, str] | None:
    """C4-C9: the responder's call after partner's opening ``calls[opened]``."""
    partner = (seat + 2) % 4
    opening = calls[opened]
    before = [c for c in calls[:opened] if c.call == "bid"]
    even = opening.points - (before[-1].points if before else 70) >= 20  # C8: a "+20" or higher opening
    later = calls[opened + 1 :]
    mine = [c for c in later if c.seat == seat]
    partner_bids = [c for c in later if c.seat == partner and c.call == "bid"]
    suit = partner_bids[-1].suit if partner_bids else opening.suit
    if any(c.call == "bid" and c.suit != suit for c in mine):
        return None  # he bid his own suit (C7): no more raises of partner's
    current = [c for c in calls if c.call == "bid"][-1]
    trumps = _trumps(hand, suit)
    jack_or_nine = any(_rank(c) in "J9" for c in trumps)
    aces = _outside_aces(hand, suit)
    if not mine:  # first response
        raise_by = 0
        if even:
            raise_by = 10 * aces if len(trumps) >= 2 else 0  # C8
        elif len(trumps) >= 2 and jack_or_nine:
            raise_by = 10 + 10 * aces  # C4, Table 2 first response
        elif len(trumps) >= 4 and aces >= 2 and current.seat % 2 != seat % 2:
            raise_by = 10  # C6: keep the contract without misleading partner
        if _declaration_points(hand) >= 50:
            raise_by = max(raise_by, 40)  # C9
        if raise_by:
            return current.points + raise_by, suit
        return _new_suit(hand, suit, current.points)  # C7
    if len(mine) == 1 and not even:  # second response
        first = mine[0]
        if first.call == "pass" and len(trumps) >= 2 and not jack_or_nine and aces >= 1:
            return current.points + 10 * aces, suit  # C4, Table 2 second response
        if first.call == "bid" and jack_or_nine:
            after = calls[calls.index(first, opened + 1) + 1 :]
            contested = any(c.call == "bid" and c.seat % 2 != seat % 2 for c in later)
            pushed = any(c.call == "bid" and c.seat == partner for c in after)
            tens = sum(
                1 for c in hand if _rank(c) == "T" and _suit(c) != suit and "A" + _suit(c) in hand
            )  # C5: tens in the suits of outside aces
            if (contested or pushed) and tens and current.seat != seat:
                return current.points + 10 * tens, suit
    return None


def _new_suit(hand: list[str], partner_suit: str, current: int) -> tuple[int, str] | None:
    """C7: with at most one card of partner's suit, bid a suit of row 2 or 3 (C3) at its C3 raise."""
    if len(_trumps(hand, partner_suit)) > 1:
        return None
    rows = [(opening_row(hand, s), s) for s in _SUIT_PREFERENCE if s != partner_suit]
    row, suit = max(rows, key=lambda rs: rs[0])
    if row < 2:
        return None
    return current + 10 * row, suit


# --------------------------------------------------------------------------- open vida give (R5.1)


def _keep_value(code: str, cards: Sequence[str], trump: str) -> float:
    """How much the holder wants to keep a card: trumps, aces and guarded tens first."""
    if _suit(code) == trump:
        return 100.0 + _strength(code, trump)
    rank = _rank(code)
    if rank == "A":
        return 60.0
    if rank == "T":
        return 25.0 if "A" + _suit(code) in cards else 12.0
    return _points(code, trump) + _strength(code, trump) / 10


def choose_give(hand: Sequence[str], trump: str) -> tuple[str, str, str]:
    """R5.1: the three cards the contract holder gives, in payload order (to holder+1, +2, +3).

    It keeps the eight cards worth most to it (trumps -- so the K and Q of trumps --, aces, guarded
    tens, then card points), plus half the points of the combinations they hold (R5.2) and 8 for each
    plain suit it is void in while it keeps a trump.  Of the three given, the one worth most card
    points goes to its partner (holder+2).  ``hand`` holds card codes (11 in open vida), ``trump``
    a suit letter.

    Raises:
        ValueError: ``hand`` holds fewer than three cards.
        InvalidInput: a code is not a card (``bad_card``).
    """
    cards = list(hand)
    best: tuple[float, tuple[str, ...]] | None = None
    for given in itertools.combinations(sorted(cards), 3):
        kept = [c for c in cards if c not in given]
        value = sum(_keep_value(c, cards, trump) for c in kept) + _declaration_points(kept) / 2
        if any(_suit(c) == trump for c in kept):
            value += 8 * sum(1 for s in "CDHS" if s != trump and not any(_suit(c) == s for c in kept))
        if best is None or value > best[0]:
            best = (value, given)
    if best is None:
        raise ValueError(f"cannot give three cards from {cards!r} (R5.1)")
    ordered = sorted(best[1], key=lambda c: (_points(c, trump), c))
    return ordered[0], ordered[2], ordered[1]


def _give(view: Mapping[str, Any], gives: Sequence[Cmd]) -> Cmd:
    """The ``give`` payload for :func:`choose_give`'s cards, matched against the listed payloads."""
    hand = hand_codes(view)
    trump = _trump_of(view)
    if trump is None or len(hand) < 3:
        return gives[0]
    wanted = list(choose_give(hand, trump))
    for cmd in gives:
        if list(cmd.get("cards") or ()) == wanted:
            return cmd
    for cmd in gives:
        if sorted(cmd.get("cards") or ()) == sorted(wanted):
            return cmd
    return gives[0]


# --------------------------------------------------------------------------- play (R4.9-R4.14, C11)


@dataclass(frozen=True, slots=True)
class _Knowledge:
    """What a seat knows of the hand so far from its view."""

    seat: int
    trump: str
    hand: tuple[str, ...]
    unseen: frozenset[str]
    """Cards neither in this hand nor played (R2.1)."""
    voids: Mapping[int, frozenset[str]]
    """Seat -> suits it showed it lacks (R4.10, R4.11)."""
    tens_signalled: frozenset[str]
    """Suits in which partner signalled the ten under this seat's ace (C11 a)."""
    partner_discards: frozenset[str]
    """Plain suits partner discarded: no ace there, do not lead them (C11 b)."""
    bidding: bool
    """This seat's team holds the contract."""

    @property
    def partner(self) -> int:
        """Partner's seat (R2.3)."""
        return (self.seat + 2) % 4

    def master(self, code: str) -> bool:
        """Whether no unseen card of ``code``'s suit ranks above it (R2.5, R2.6)."""
        return not any(_suit(u) == _suit(code) and _beats(u, code, _suit(code), self.trump) for u in self.unseen)


def _entries(raw: Any, leader: int) -> list[tuple[int, str]]:
    """A trick as ``(seat, card)`` pairs: entries ``{seat, card}`` (the view's ``trick``) or bare codes
    played from ``leader`` (the view's ``tricks[i].cards``)."""
    out: list[tuple[int, str]] = []
    for i, entry in enumerate(raw or ()):
        if isinstance(entry, Mapping):
            out.append((int(entry["seat"]), str(entry["card"])))
        else:
            out.append(((leader + i) % 4, str(entry)))
    return out


def _first_leader(view: Mapping[str, Any]) -> int:
    """R4.9: dealer+1, or dealer+3 with option ``first_leader`` = ``before_dealer``."""
    if isinstance(view.get("first_leader"), int):
        return int(view["first_leader"])
    options = view.get("options") or {}
    dealer = int(view.get("dealer") or 0)
    return (dealer + (3 if options.get("first_leader") == "before_dealer" else 1)) % 4


def _knowledge(view: Mapping[str, Any], trump: str) -> tuple[_Knowledge, list[tuple[int, str]]]:
    """What the seat knows (:class:`_Knowledge`) and the current trick as ``(seat, card)`` pairs."""
    seat = int(view["seat"])
    partner = (seat + 2) % 4
    hand = tuple(hand_codes(view))
    tricks: list[list[tuple[int, str]]] = []
    leader = _first_leader(view)
    for trick in view.get("tricks") or ():
        if isinstance(trick.get("leader"), int):
            leader = int(trick["leader"])
        tricks.append(_entries(trick.get("cards"), leader))
        if trick.get("winner") is not None:
            leader = int(trick["winner"])
    current = _entries(view.get("trick"), int(view["leader"]) if isinstance(view.get("leader"), int) else leader)
    played = {code for t in (*tricks, current) for _, code in t}
    unseen = frozenset(_ALL_CODES) - set(hand) - played
    voids: dict[int, set[str]] = {s: set() for s in range(4)}
    tens: set[str] = set()
    discards: set[str] = set()
    for trick in (*tricks, current):
        if not trick:
            continue
        lead_seat, lead = trick[0]
        led = _suit(lead)
        for who, code in trick[1:]:
            if _suit(code) != led:  # R4.10: no card of the suit led
                voids[who].add(led)
                if _suit(code) != trump:  # R4.11: no trump either -- a free discard (R4.13)
                    voids[who].add(trump)
                    if who == partner:
                        discards.add(_suit(code))
            ace_led = lead_seat == seat and _rank(lead) == "A" and led != trump
            if ace_led and who == partner and _suit(code) == led and _points(code, trump) == 0:
                tens.add(led)
    contract = view.get("contract")
    team: Any = None
    if isinstance(contract, Mapping):
        team = contract.get("team")
        if team is None and contract.get("holder") is not None:
            team = int(contract["holder"]) % 2
    known = _Knowledge(
        seat=seat,
        trump=trump,
        hand=hand,
        unseen=unseen,
        voids={s: frozenset(v) for s, v in voids.items()},
        tens_signalled=frozenset(s for s in tens if "T" + s in unseen),
        partner_discards=frozenset(discards - {trump}),
        bidding=team is not None and int(team) == seat % 2,
    )
    return known, current


def _play(view: Mapping[str, Any], plays: Sequence[Cmd]) -> Cmd:
    """One card (R4.10-R4.14) per the play heuristics; the payload announcing belote when offered (R5.9)."""
    trump = _trump_of(view)
    options: dict[str, list[Cmd]] = {}
    for cmd in plays:
        options.setdefault(str(cmd["card"]), []).append(cmd)
    if trump is None:
        card = min(options)
    else:
        known, trick = _knowledge(view, trump)
        card = _lead(known, sorted(options)) if not trick else _follow(known, trick, sorted(options))
    return next((c for c in options[card] if c.get("belote")), options[card][0])


def _lowest(cards: Iterable[str], trump: str) -> str:
    """The card worth least: fewest card points, a plain card before a trump, then the lowest rank (R2.5, R2.6)."""
    return min(cards, key=lambda c: (_points(c, trump), _suit(c) == trump, _strength(c, trump), c))


def _cheapest(cards: Iterable[str], trump: str) -> str:
    """The lowest-ranked card (R2.5, R2.6 orders), plain before trump."""
    return min(cards, key=lambda c: (_suit(c) == trump, _strength(c, trump), c))


def _holds(k: _Knowledge, card: str, led: str, after: Iterable[int]) -> bool:
    """Whether ``card``, winning a trick led in ``led``, stays winning as far as the seat can tell.

    Always when nobody is left to play (``after`` empty).  Otherwise, for each opponent in
    ``after`` that has not shown he holds no trump: a trump ruffing a plain lead holds if it is the
    master trump or the opponent has not shown a void in ``led`` (he must follow, R4.10); any other
    card must be the master of its suit (R2.5, R2.6) and, when plain, survive a ruff (R4.11): the
    opponent has shown no void in ``led`` and at least two cards of ``led`` are unseen, or no trump
    is unseen.
    """
    after = list(after)
    if not after:
        return True
    trump = k.trump
    trumps_unseen = any(_suit(u) == trump for u in k.unseen)
    led_unseen = sum(1 for u in k.unseen if _suit(u) == led)
    if _suit(card) == trump and led != trump:
        return k.master(card) or not any(led in k.voids[o] and trump not in k.voids[o] for o in after)
    if not k.master(card):
        return False
    if _suit(card) == trump:
        return True
    for opponent in after:
        if trump in k.voids[opponent] or not trumps_unseen:
            continue
        if led in k.voids[opponent] or led_unseen < 2:
            return False
    return True


def _lead(k: _Knowledge, cards: list[str]) -> str:
    """The card to lead (R4.9, R4.14; C11)."""
    trump = k.trump
    trumps = sorted((c for c in cards if _suit(c) == trump), key=lambda c: -_strength(c, trump))
    plain = [c for c in cards if _suit(c) != trump]
    opponents = ((k.seat + 1) % 4, (k.seat + 3) % 4)
    trumps_out = any(_suit(u) == trump for u in k.unseen) and not all(trump in k.voids[o] for o in opponents)
    if k.bidding and len(trumps) >= 2 and trumps_out and k.master(trumps[0]):
        return trumps[0]  # draw trumps with the master trump (the jack first) while holding another
    for suit in sorted(k.tens_signalled):  # C11 a: partner holds the ten, now the master card
        mine = [c for c in plain if _suit(c) == suit]
        if mine:
            return _lowest(mine, trump)
    masters = [c for c in plain if _points(c, trump) >= 10 and _holds(k, c, _suit(c), opponents)]
    if masters:
        return max(masters, key=lambda c: (_points(c, trump), c))
    if plain:

        def cost(c: str) -> tuple[int, int, int, str]:
            s = _suit(c)
            bare_ten = "T" + s in plain and "A" + s in k.unseen  # a ten the ace may still catch
            return int(s in k.partner_discards), _points(c, trump) + (10 if bare_ten else 0), _strength(c, trump), c

        return min(plain, key=cost)
    return trumps[0] if k.master(trumps[0]) else trumps[-1]


def _follow(k: _Knowledge, trick: list[tuple[int, str]], cards: list[str]) -> str:
    """The card to play into a started trick (R4.10-R4.14; C11)."""
    trump = k.trump
    played = [code for _, code in trick]
    lead_seat, lead = trick[0]
    led = _suit(lead)
    winner_seat, winning = trick[_winner(played, trump)]
    seated = {s for s, _ in trick} | {k.seat}
    after = [s for s in range(4) if s not in seated and s % 2 != k.seat % 2]  # opponents still to play
    if not any(_suit(c) in (led, trump) for c in cards):  # C11 b: a free discard, from a suit without the ace
        cards = [c for c in cards if "A" + _suit(c) not in k.hand] or cards
    if winner_seat == k.partner:
        if lead_seat == k.partner and _rank(lead) == "A" and led != trump and "T" + led in cards:
            return _lowest([c for c in cards if c != "T" + led] or cards, trump)  # C11 a: low shows the ten
        if _holds(k, winning, led, after):
            return _load(cards, trump)  # partner is sure to win: give him points
        return _lowest(cards, trump)  # do not overtake partner unless forced
    winners = [c for c in cards if _winner([*played, c], trump) == len(played)]
    safe = [c for c in winners if _holds(k, c, led, after)]
    if safe:
        return _cheapest(safe, trump)  # win cheaply
    ruffs = [c for c in winners if _suit(c) == trump and led != trump]
    if ruffs:
        return _cheapest(ruffs, trump)
    return _lowest(cards, trump)


def _load(cards: list[str], trump: str) -> str:
    """Points for partner's trick: the plain card worth most, aces kept; else the lowest trump (R2.5, R2.6)."""
    plain = [c for c in cards if _suit(c) != trump]
    if not plain:
        return _lowest(cards, trump)
    return max(plain, key=lambda c: (-1 if _rank(c) == "A" else _points(c, trump), -_strength(c, trump), c))


bot_levels: Mapping[str, BotPolicy] = {"random": random_policy, "heuristic": heuristic}
"""Vida's computer-player levels (DESIGN, Visibility): level name -> policy."""
