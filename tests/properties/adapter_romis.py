"""The property harness's knowledge of Romis su iškritimu (docs/rules/romis.md) beyond its ``GameSpec``.

Besides the zones, the command space and explicit deals, it checks what the card-leak check cannot
see: that a sealed choice leaks to nobody (R5.2, R5.4, section 9).  At each sampled state, every way
a seat may complete its turn without resolving the round -- each legal reveal or ``cannot``, after
the auxiliary cards it must turn up first -- must reach every other viewer as one redacted
``SubmissionSealed`` and change nothing of its view but who has submitted
(:func:`sealed_choices_do_not_leak`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import Any

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.events import Event, Payload, Viewer, redact, visible
from trapoula.domain.game import GameSpec
from trapoula.domain.games.romis import SPEC
from trapoula.domain.games.romis.rules import hand_in_progress, seat_order, upcoming_dealer
from trapoula.domain.games.romis.state import Phase, RomisState
from trapoula.domain.registry import GAMES

from .adapters import Zones, adapter

_CODES = codes(deck_52())
_FIXED: dict[int, tuple[Payload, ...]] = {}


def _zones(state: RomisState) -> Zones:
    """Each seat's hand and companions (his own, R8.3); as the hidden zone the stock, the eliminated
    pile and the auxiliary cards not turned up (R3.4, R7.3); as the public zone the revealed cards."""
    if not state.hands:
        return tuple(() for _ in range(state.n)), _CODES, ()
    hands = tuple((*codes(h), *codes(c)) for h, c in zip(state.hands, state.companions, strict=True))
    unused = [c for aux, used in zip(state.aux, state.aux_used, strict=True) for c in codes(aux[used:])]
    hidden = (*codes(state.stock), *codes(state.pile), *unused)
    public = tuple(c for r in state.revealed for c in codes(r))
    return hands, hidden, public


def _revealed(state: RomisState) -> frozenset[str]:
    """Every card once a hand is over: ``HandEnded`` publishes every hidden card (R10.9)."""
    return frozenset(_CODES) if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER) else frozenset()


def _known(state: RomisState, viewer: Viewer) -> frozenset[str]:
    """Cards revealed earlier in the hand by seats since eliminated: they were public (R4.1) before
    going to the eliminated pile (R7.3), and the last round's record still names them."""
    last = state.last_round
    if last is None or not hand_in_progress(state):
        return frozenset()
    return frozenset(c for cards in last.cards for c in cards)


def _fixed(seat: int) -> tuple[Payload, ...]:
    cached = _FIXED.get(seat)
    if cached is None:
        out: list[Payload] = [{"kind": "use_auxiliary", "seat": seat}, {"kind": "cannot", "seat": seat}]
        out.extend({"kind": "reveal", "seat": seat, "cards": [c]} for c in _CODES)
        cached = _FIXED[seat] = tuple(out)
    return cached


def _universe(state: RomisState, seat: int) -> Sequence[Payload]:
    """``use_auxiliary``, ``cannot``, a reveal of every single card of the deck; every listed command;
    and from the seat's own cards every pair, each card with each other hand card as a companion,
    and each pair with a companion (R4, R8, R13)."""
    out = list(_fixed(seat))
    if state.phase is not Phase.PLAY or not 0 <= seat < state.n:
        return out
    out.extend(SPEC.command_payload(c) for c in SPEC.legal_commands(state, seat))
    hand = list(codes(state.hands[seat]))
    mine = hand + list(codes(state.companions[seat]))
    out.extend({"kind": "reveal", "seat": seat, "cards": [a, b]} for a, b in combinations(mine, 2))
    for card in hand:
        for other in hand:
            if other != card:
                out.append({"kind": "reveal", "seat": seat, "cards": [card], "companions": [other]})
    for a, b in combinations(hand[:6], 2):
        for other in hand[:6]:
            if other not in (a, b):
                out.append({"kind": "reveal", "seat": seat, "cards": [a, b], "companions": [other]})
    return out


def _legality_key(payload: Payload) -> Hashable:
    """A reveal's cards and companions as sets: ``decide`` accepts them in any order (R13.1)."""
    items = []
    for key, value in payload.items():
        if isinstance(value, list):
            value = tuple(sorted(str(c) for c in value))
        items.append((key, value))
    return tuple(sorted(items))


_RANKS = "23456789TJQKA"


def _explicit_deal(state: RomisState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    """A random explicit deal (R3.7): five cards per seat and the stock, auxiliary cards first.

    Three deals in four give each seat a run of eleven cards of its own suit, in the order it receives
    them (hand, auxiliary cards, first and second obligatory deals, R3.4-R4.5), and the rest of the
    deck at random: such hands last, so that the stock runs out (R9.1-R9.4) and all 52 cards may be
    revealed (R10.5), which purely random deals almost never reach."""
    n = state.n
    cards = list(_CODES)
    rng.shuffle(cards)
    if n == 3 and rng.random() < 0.3:
        return _stuck_deal(state, rng)
    if rng.random() < 0.25:
        hands = [cards[5 * i : 5 * i + 5] for i in range(n)]
        return {"hands": hands, "stock": cards[5 * n :]}, hands
    suits = rng.sample("CDHS", n)
    runs = []
    for suit in suits:
        start = rng.randrange(len(_RANKS) - 10)
        runs.append([rank + suit for rank in _RANKS[start : start + 11]])
    order = seat_order(upcoming_dealer(state), n)
    slots = [[runs[s][5 + k] for s in order] for k in range(2)]
    dealt = [[runs[s][7 + k] for s in order] for k in range(4)]
    used = {c for run in runs for c in run}
    rest = [c for c in cards if c not in used]
    stock = [c for row in (*slots, *dealt) for c in row] + rest
    hands = [run[:5] for run in runs]
    return {"hands": hands, "stock": stock}, hands


_STUCK = (
    ("2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S"),
    ("JC QC", "JH QH", "JS QS"),
    ("7C 8C 9C", "7H 8H 9H", "7S 8S 9S"),
    ("TC", "TH", "TS"),
    ("KC 2D 3D 4D 5D 6D AD", "KH AH 7D 8D 9D TD", "KS AS JD QD KD AC"),
)
"""Three players who never drop out: their runs, then extra cards one a round (R7.4) until no card is
left while AD fits nobody: the live hands are redealt (R9.3) and the hand ends in a stalemate (R9.4)."""


def _stuck_deal(state: RomisState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    """The deal of ``_STUCK`` with its suits and seats permuted at random (relatedness, R2.5, does not
    depend on which suit is which)."""
    suits = dict(zip("CDHS", rng.sample("CDHS", 4), strict=True))
    rows = rng.sample(range(3), 3)

    def cards(text: str) -> list[str]:
        return [code[0] + suits[code[1]] for code in text.split()]

    streams = [[cards(stage[rows[s]]) for s in range(3)] for stage in _STUCK]
    order = seat_order(upcoming_dealer(state), 3)
    stock: list[str] = []
    for stage in streams[1:]:
        for k in range(max(len(x) for x in stage)):
            stock.extend(stage[s][k] for s in order if k < len(stage[s]))
    hands = streams[0]
    return {"hands": hands, "stock": stock}, hands


def _spec() -> GameSpec[Any, Any]:
    """The game as registered now (a test may put a broken copy there)."""
    return GAMES["romis"]


_SEALED_FIELDS = frozenset({"seat", "round", "attempt", "commitment", "payload", "nonce", "companions_salt"})
_SUBMISSION_KEYS = frozenset({"submitted", "waiting", "commitments"})
"""The view's keys that say who has submitted (R5.2: the others learn *that* a seat submitted)."""


def _completions(state: RomisState, seat: int, depth: int = 0) -> list[tuple[RomisState, list[Event]]]:
    """Every way ``seat`` may finish its turn: auxiliary cards turned up, then one submission."""
    out: list[tuple[RomisState, list[Event]]] = []
    for command in _spec().legal_commands(state, seat):
        events = list(_spec().decide(state, command))
        after = state
        for event in events:
            after = _spec().evolve(after, event)
        if _spec().command_payload(command)["kind"] == "use_auxiliary":
            assert depth < 2, "a third auxiliary card was turned up (R3.4)"
            out.extend((later, events + more) for later, more in _completions(after, seat, depth + 1))
        else:
            out.append((after, events))
    return out


def _without_submissions(view: Payload) -> Payload:
    return {k: v for k, v in view.items() if k not in _SUBMISSION_KEYS}


def sealed_choices_do_not_leak(state: RomisState) -> None:
    """R5.2, R5.4, R6.4, section 9: while a round is open, a seat's turn -- auxiliary cards turned up,
    then a reveal or ``cannot`` -- reaches every other viewer as one redacted ``SubmissionSealed``
    naming the seat, round and attempt, and changes nothing else of its view but who has submitted:
    not the hand sizes, auxiliary counts or anything that would tell whether the seat could reveal,
    what it chose or which cards it holds.  Checked for every way each waiting seat may complete its
    turn while another seat still waits (the last submission resolves the round)."""
    if state.phase is not Phase.PLAY:
        return
    live = [s for s in range(state.n) if state.live[s]]
    waiting = [s for s in live if state.submissions[s] is None]
    # a turn that cannot resolve the round: a waiting seat's while another waits, and with
    # ``resubmit`` (R12.4) a new submission of a seat that has submitted while one waits
    turns = (waiting if len(waiting) >= 2 else []) + [s for s in live if s not in waiting and waiting]
    viewers: list[Viewer] = [*range(state.n), None]
    before = {v: _without_submissions(_spec().seat_view(state, v)) for v in viewers}
    for seat in turns:
        outcomes = _completions(state, seat)
        assert outcomes or seat not in waiting, f"seat {seat} cannot complete its turn"
        for after, events in outcomes:
            names = [e.event_name() for e in events]
            for viewer in viewers:
                if viewer == seat:
                    continue
                seen = [redact(e, viewer) for e in events if visible(e, viewer)]
                assert len(seen) == 1 and set(seen[0]) == _SEALED_FIELDS, (
                    f"seat {seat}'s turn {names} reaches {viewer} as {seen} (R5.4)"
                )
                sealed = seen[0]
                assert (sealed["seat"], sealed["round"], sealed["attempt"]) == (seat, state.round, state.attempt)
                assert sealed["payload"] is None and sealed["nonce"] is None and sealed["companions_salt"] is None, (
                    f"a sealed payload reaches {viewer}"
                )
                view = _spec().seat_view(after, viewer)
                assert _without_submissions(view) == before[viewer], (
                    f"seat {seat}'s turn {names} changes the view of {viewer} beyond who has submitted (R5.4)"
                )
                assert seat in view["submitted"] and seat not in view["waiting"]


ROMIS = adapter(
    globals(),
    key="romis",
    option_grid={"target_score": (1, 20, 100), "carried_bonus_factor": (1, 2, 3), "resubmit": (False, True)},
    # any hand gives points to its winner (R10.3) or to everyone (R10.5, R10.7): the match ends after
    # it unless two totals tie (R11.2)
    single_hand={"target_score": 1},
    long_match={"target_score": 40},
    initial_totals=lambda totals, options: tuple(min(t // 10, options["target_score"] - 1) for t in totals),
    is_play=lambda payload: payload.get("kind") == "reveal",
    state_check=sealed_choices_do_not_leak,
)
"""Romis su iškritimu (docs/rules/romis.md): its three options, one 52-card deck, 2-4 players."""
