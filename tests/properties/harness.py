"""Seeded random legal playouts through the generic ``GameSpec`` interface, with invariants
checked after every event (STYLE habit 11c, DESIGN "Visibility" and "Fairness and audit").

A :class:`Case` fixes one match: the game, the number of players, the options, the first dealer,
the initial totals and the seed of the random player.  :func:`play_and_check` plays it to the
end with random legal commands and checks:

* after every event: the event survives its JSON payload (``to_payload`` -> JSON ->
  ``from_payload``); the cards are conserved (hands + stock + discard pile = the deck as a
  multiset, S4.1); no view of any seat or of the spectator shows a card outside that viewer's
  own hand and the discard pile while a hand is in progress (after it: also the revealed hands,
  S10.5, S13.3), nor the seed of any hand; the redaction of the event for every viewer hides its
  hidden fields and other seats' private fields, shows no other card and not the seed (S12);
* after every command: ``command_for`` rebuilds a command that ``decide`` turns into exactly the
  same events (what an audit does);
* at sampled states (the first and the last state of the match, a random share of the first
  states of hands and of the states between hands, and a random share of the others): every
  command of ``legal_commands`` for every seat is accepted by ``decide``, and every other
  command of the adapter's command universe (every card code in and out of the hand, with and
  without a suit, draw, pass, choose_suit, for every seat and for seats out of range) is refused
  with ``CommandRejected`` and changes nothing;
* the view's ``legal`` list is the payload list of ``legal_commands``;
* at the end and at random points, the fold of the decoded events from ``initial_state`` equals
  the live state; the match ends within a bounded number of commands.

For a game with seat changes (``GameSpec.seat_changes``, ``mau_mau`` R6.9-R6.10) the seat count
follows the state (``Adapter.seats``), the random player issues the table's ``join`` between hands
(``Adapter.table_commands``; the universe check also tries each join where it must be refused) and
now and then a ``leave`` by any seated player, inside a hand and between hands
(``Adapter.rare``), and the seats the match waits for are ``GameSpec.acting``'s.  Every invariant
above holds throughout: the cards a leaver puts beneath the stock are conserved and their order
is never shown before the hand ends.

Failures name the case (``Case.describe``) so ``play_and_check(random_case(key, index))``
reproduces them.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event, Payload, Viewer, from_payload, redact, to_payload, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.match import Match
from trapoula.domain.registry import GAMES

from .adapters import ADAPTERS, Adapter

MAX_COMMANDS_PER_HAND = 20_000
"""A hand that needs more commands than this is taken not to end."""
MAX_HANDS = 200
"""A match that needs more hands than this is taken not to end."""
SAMPLE_RATE = 0.01
"""Share of the states inside a hand where the whole command universe is tried (besides the
first state of the match and its last, always tried)."""
SAMPLE_RATE_HAND_EDGE = 0.4
"""Share of the first states of hands (after the deal) and of the states between two hands where
the whole command universe is tried."""
OUT_OF_RANGE_SAMPLE = 40
"""About this many commands of the universe are tried for each seat out of range."""
REPLAY_POINTS = 3
"""Random event counts at which the fold of the events is compared with the live state."""

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
"""Display names that cannot be mistaken for card codes."""

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][CDHS](?![0-9A-Za-z])")
"""A card code (S2.1) standing alone in a JSON text."""
_CARD_LOOSE = re.compile(r"[2-9TJQKA][CDHS](?![0-9A-Za-z])")
"""A cheaper superset of ``_CARD_TOKEN``'s matches."""

_ENCODER = json.JSONEncoder(check_circular=False, separators=(",", ":"))
_C_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE = (
    None
    if _C_MAKE_ENCODER is None
    else _C_MAKE_ENCODER(
        None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True
    )
)


def _to_json(value: Any) -> str:
    """The JSON text of a view, a part of one or a payload, as scanned for card codes and seeds:
    ``json.dumps`` compact (the separators hold no letter or digit, so they change no match of
    ``_CARD_TOKEN``) and without the cycle check (a cycle still fails, as a RecursionError), by one
    C encoder built once (``JSONEncoder.encode`` builds one at every call)."""
    if _C_ENCODE is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def card_tokens(text: str) -> set[str]:
    """Every card code that stands alone in ``text`` (a JSON dump of a view or an event).

    >>> sorted(card_tokens('{"hand": ["7H", "TS"], "name": "XTS", "s": "AC 2D"}'))
    ['2D', '7H', 'AC', 'TS']
    """
    return set(_CARD_TOKEN.findall(text))


def shown_cards(text: str, allowed: set[str]) -> set[str]:
    """The card codes in ``text`` outside ``allowed`` (empty when nothing leaks)."""
    if set(_CARD_LOOSE.findall(text)) <= allowed:
        return set()
    return card_tokens(text) - allowed


_NO_CODES: frozenset[str] = frozenset()

_Parsed = tuple[Payload, Any, Hashable]
"""A command payload of an adapter's universe, its parsed command and its legality key."""


@dataclass(frozen=True)
class Case:
    """One random match: everything that fixes it before its first command."""

    key: str
    """Game key."""
    label: str
    """Where the case comes from, e.g. ``agonia#417`` (``random_case``) or ``hypothesis``."""
    n: int
    """Number of players."""
    options: Mapping[str, Any]
    """The game's options (plain data)."""
    first_dealer: int | None
    """``MatchConfig.first_dealer``."""
    initial_totals: tuple[int, ...] | None
    """``MatchConfig.initial_totals``."""
    policy_seed: int
    """Seed of the random player (and of the deal seeds)."""
    p_play: float
    """Probability that the random player plays a card when one is legal (else it draws or passes)."""
    p_variant: float = 0.15
    """Probability of sending an accepted variant of the chosen command (agonia: announce flipped)."""
    p_explicit: float = 0.1
    """Probability that a hand is dealt from a random explicit deal (S5.3) instead of a seed."""
    sample_rate: float = SAMPLE_RATE
    """Share of the states inside a hand where the whole command universe is tried."""

    def config(self) -> MatchConfig:
        """The match configuration."""
        seats = tuple(SeatInfo(s, NAMES[s], "random" if s % 2 else None) for s in range(self.n))
        totals = self.initial_totals
        adapter = ADAPTERS.get(self.key)
        if totals is not None and adapter is not None and adapter.initial_totals is not None:
            totals = adapter.initial_totals(totals, self.options)
        return MatchConfig(
            game=self.key,
            seats=seats,
            options=dict(self.options),
            first_dealer=self.first_dealer,
            initial_totals=totals,
        )

    def describe(self) -> str:
        """Everything needed to rebuild the case by hand."""
        return (
            f"case {self.label}: Case(key={self.key!r}, label={self.label!r}, n={self.n}, "
            f"options={dict(self.options)!r}, first_dealer={self.first_dealer!r}, "
            f"initial_totals={self.initial_totals!r}, policy_seed={self.policy_seed}, p_play={self.p_play}, "
            f"p_variant={self.p_variant}, p_explicit={self.p_explicit}, sample_rate={self.sample_rate})"
        )


def random_case(key: str, index: int) -> Case:
    """Case number ``index`` of game ``key``, derived deterministically from ``(key, index)``.

    Most matches are a single hand; one in ten is a longer match (with random initial totals
    half of the time).  Most random players prefer plays (90% when one is legal); some draw and
    pass a lot, which makes long hands with reshuffles, and some hoard cards (3%), which blocks
    hands (S10.4).
    """
    spec = GAMES[key]
    adapter = ADAPTERS[key]
    rng = random.Random(f"trapoula-properties/{key}/{index}")
    n = rng.randint(spec.min_players, spec.max_players)
    options = {k: rng.choice(values) for k, values in adapter.option_grid.items()}
    long_match = rng.random() < 0.1
    if not long_match:
        options.update(adapter.single_hand)
    elif all(options.get(k) == v for k, v in adapter.single_hand.items()):
        # a "long match" drawn with single-hand options: take the longest value of the grid
        if adapter.long_match is not None:
            options.update(adapter.long_match)
        else:
            for k in adapter.single_hand:
                options[k] = max(adapter.option_grid[k])
    first_dealer = rng.randrange(n) if rng.random() < 0.75 else None
    totals = tuple(rng.randint(0, 90) for _ in range(n)) if rng.random() < 0.5 else None
    p_play = rng.choices(adapter.p_plays, weights=(85, 12, 3))[0]
    if long_match:
        p_play = 0.9  # a long match of long hands costs too much time for what it adds
    return Case(
        key=key,
        label=f"{key}#{index}",
        n=n,
        options=options,
        first_dealer=first_dealer,
        initial_totals=totals,
        policy_seed=rng.getrandbits(64),
        p_play=p_play,
    )


@dataclass
class Stats:
    """What the playouts did, to check that they reach the rules they should exercise."""

    games: int = 0
    hands: int = 0
    explicit_hands: int = 0
    """Hands dealt from an explicit deal (S5.3)."""
    commands: int = 0
    events: int = 0
    universe_checks: int = 0
    """States at which the whole command universe was tried."""
    refusals: int = 0
    """Commands refused at those states."""
    silent: int = 0
    """Commands played that the rules accepted with no event (``Adapter.silent``)."""
    audit_gaps: list[str] = field(default_factory=list)
    """Commands whose events ``command_for`` cannot map back to a command (an audit would stop)."""
    event_names: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    """``Event.reason`` values seen, as ``"EventName/reason"``."""

    def add(self, other: Stats) -> None:
        """Add another run's counts to these."""
        self.games += other.games
        self.hands += other.hands
        self.explicit_hands += other.explicit_hands
        self.commands += other.commands
        self.events += other.events
        self.universe_checks += other.universe_checks
        self.refusals += other.refusals
        self.silent += other.silent
        self.audit_gaps.extend(other.audit_gaps)
        self.event_names.update(other.event_names)
        self.reasons.update(other.reasons)


def deal_seed(case: Case, hand: int) -> str:
    """The 64-hex-digit seed of hand number ``hand`` (1, 2, ...) of ``case``."""
    return hashlib.sha256(f"trapoula-properties/{case.key}/{case.policy_seed}/{hand}".encode()).hexdigest()


class _Check:
    """The invariants of one match (see the module docstring)."""

    def __init__(self, spec: GameSpec[Any, Any], adapter: Adapter, case: Case) -> None:
        self.spec = spec
        self.adapter = adapter
        self.case = case
        self.viewers: tuple[Viewer, ...] = (*range(case.n), None)
        """Every seat number in use, and the spectator (updated as the table grows)."""
        self.seeds: set[str] = set()
        """Seeds of the hands dealt so far: no view may ever contain one."""
        self.current_seed: str | None = None
        """The seed of the hand in progress: no redacted event may contain it while it lasts."""
        self.deck: list[str] = []
        """The deck of the hand in progress: its card codes, sorted."""
        self.views: dict[Viewer, Payload] = {}
        """The views after the last event."""
        self.scanned: dict[Viewer, dict[str, tuple[Any, frozenset[str]]]] = {}
        """For each viewer, each entry of its last checked view -> (its value, the matches of
        ``_CARD_LOOSE`` in its JSON text); an entry checked against every seed of ``seeds``."""
        self.scanned_any: dict[str, tuple[Any, frozenset[str]]] = {}
        """The same for the entry last encoded under each key, whichever viewer's view held it (the
        views of one state share most entries)."""
        self.stats = Stats()

    def add_seed(self, seed: str) -> None:
        """A hand is dealt from ``seed``: no view may ever show it."""
        self.seeds.add(seed)
        self.scanned.clear()  # every entry must be checked for the new seed
        self.scanned_any.clear()

    def view_codes(self, viewer: Viewer, view: Payload, after: str) -> frozenset[str] | set[str]:
        """The matches of ``_CARD_LOOSE`` in the JSON text of ``view``; fails if it shows a seed.

        The text of a dict is its entries' texts joined by separators that hold no letter, digit or
        hex digit, so no card code and no seed spans two entries: the view's matches are its entries'
        matches, and an entry equal to the one the viewer's previous view held, or to the last one
        encoded under its key (JSON-equal: equal numbers and booleans differ only in digits and
        letters that make no card code), is not encoded and scanned again."""
        scanned = self.scanned.setdefault(viewer, {})
        now = self.scanned_any
        found: frozenset[str] | set[str] = _NO_CODES
        for key, value in view.items():
            known = scanned.get(key)
            if known is None or known[0] != value:
                known = now.get(key)
                if known is None or known[0] != value:
                    text = _to_json({key: value})
                    for seed in self.seeds:
                        assert seed not in text, f"after {after}: the view of {_who(viewer)} shows a seed (S13.3)"
                    matches = _CARD_LOOSE.findall(text)
                    known = now[key] = (value, frozenset(matches) if matches else _NO_CODES)
                scanned[key] = known
            if known[1]:
                found = found | known[1]
        return found

    # ----------------------------------------------------------------------------- per event

    def event(self, event: Event, state: Any) -> Event:
        """Check ``event`` and the state it led to; return the event decoded from its JSON payload."""
        spec, adapter = self.spec, self.adapter
        name = event.event_name()
        self.stats.events += 1
        self.stats.event_names[name] += 1
        reason = getattr(event, "reason", None)
        if isinstance(reason, str):
            self.stats.reasons[f"{name}/{reason}"] += 1

        payload = to_payload(event)
        assert spec.event_types.get(name) is type(event), f"{name} is not in spec.event_types"
        decoded = from_payload(spec.event_types[name], json.loads(_to_json(payload)))
        assert decoded == event, f"{name} does not survive its JSON payload: {payload}"

        seat_count = self.seat_count(state)
        if seat_count != len(self.viewers) - 1:
            self.viewers = (*range(seat_count), None)
        hands, stock, discard = adapter.zones(state)
        held = [c for hand in hands for c in hand]
        held.extend(stock)
        held.extend(discard)
        held.sort()
        if held != self.deck and held:
            held_count = Counter(held)
            extra = held_count - Counter(self.deck)
            missing = Counter(self.deck) - held_count
            raise AssertionError(
                f"after {name}: cards not conserved (S4.1): missing {sorted(missing.elements())}, "
                f"extra {sorted(extra.elements())}"
            )

        if adapter.invariants is not None:
            adapter.invariants(event, state)
        in_progress = spec.hand_in_progress(state)
        public = set(discard) | (set() if in_progress else set(adapter.revealed(state)))
        shown: tuple[Payload, str, set[str]] | None = None
        named = {payload.get(f) for f in event.private_to}  # the seats that may see its private fields
        for viewer in self.viewers:
            own = set(hands[viewer]) if viewer is not None and viewer < len(hands) else set()
            allowed = own | public
            if adapter.known is not None:
                allowed |= adapter.known(state, viewer)
            view = spec.seat_view(state, viewer)
            if not self.view_codes(viewer, view, name) <= allowed:
                text = _to_json(view)
                leaked = shown_cards(text, allowed)
                assert not leaked, f"after {name}: the view of {_who(viewer)} shows {sorted(leaked)} (S13.3): {text}"
            self.views[viewer] = view
            if event.withheld and viewer is not None and viewer in named:
                assert visible(event, viewer), f"{name} withheld from its own seat {viewer}"
            elif event.withheld:
                assert not visible(event, viewer), f"{name} of seat {payload.get('seat')} reaches {_who(viewer)} (R5.4)"
            seen = redact(event, viewer)
            for hidden in event.hidden:
                assert seen[hidden] is None, f"{name}.{hidden} shown to {_who(viewer)} (S12)"
            if viewer is None or viewer not in named:
                for private in event.private:
                    assert seen[private] is None, (
                        f"{name}.{private} of seat {payload.get('seat')} shown to {_who(viewer)}"
                    )
            if in_progress:
                if shown is None or seen != shown[0]:
                    text = _to_json(seen)
                    assert self.current_seed is None or self.current_seed not in text, (
                        f"{name} redacted for {_who(viewer)} shows the seed of the hand in progress"
                    )
                    shown = (seen, text, set(_CARD_LOOSE.findall(text)))
                if not shown[2] <= allowed:
                    leaked = shown_cards(shown[1], allowed)
                    assert not leaked, f"{name} redacted for {_who(viewer)} shows {sorted(leaked)} (S12): {shown[1]}"
        return decoded

    def seat_count(self, state: Any) -> int:
        """How many seat numbers ``state`` uses (the case's players unless the table grows)."""
        seats = self.adapter.seats
        return self.case.n if seats is None else seats(state)

    # ----------------------------------------------------------------------------- per state

    def view_legal_agrees(self, state: Any, legal: Mapping[int, Sequence[Any]]) -> dict[int, list[Payload]]:
        """The ``legal`` list of each seat's view is the payload list of ``legal_commands``; return
        those payload lists, by seat (for the seats whose view has a ``legal`` list)."""
        payloads: dict[int, list[Payload]] = {}
        for seat, commands in legal.items():
            view = self.views.get(seat)
            if view is not None and "legal" in view:
                expected = payloads[seat] = [self.spec.command_payload(c) for c in commands]
                assert view["legal"] == expected, (
                    f"the view of seat {seat} shows the legal commands {view['legal']}, "
                    f"but legal_commands gives {expected}"
                )
        return payloads

    def _silent(self, state: Any, payload: Payload) -> bool:
        """Whether the adapter says the rules accept ``payload`` with no event (``Adapter.silent``)."""
        return self.adapter.silent is not None and self.adapter.silent(state, payload)

    def universe(self, state: Any) -> None:
        """Every legal command is accepted; every other command is refused and changes nothing."""
        spec, adapter = self.spec, self.adapter
        self.stats.universe_checks += 1
        snapshot = pickle.dumps(state)
        n = self.seat_count(state)
        for seat in (-1, *range(n), n):
            legal = spec.legal_commands(state, seat)
            in_range = 0 <= seat < n
            assert in_range or not legal, f"seat {seat} out of range has legal commands {legal}"
            keys = set()
            for command in legal:
                payload = spec.command_payload(command)
                keys.add(adapter.legality_key(payload))
                assert spec.command_seat(command) == seat, f"{payload} listed for seat {seat}"
                assert spec.parse_command(payload) == command, f"{payload} does not parse back to {command!r}"
                try:
                    events = spec.decide(state, command)
                except CommandRejected as refusal:
                    raise AssertionError(f"legal command {payload} refused: {refusal}") from None
                if self._silent(state, payload):
                    assert events == (), f"legal command {payload} should store nothing, caused {events}"
                else:
                    assert events, f"legal command {payload} caused no event"
            universe, universe_keys = self._parsed(adapter.command_universe(state, seat))
            missing = keys - universe_keys
            assert not missing, f"legal commands {sorted(missing, key=repr)} are outside the adapter's command universe"
            refused: tuple[type[Exception], ...] = (CommandRejected,)
            if not in_range:
                # a seat out of range may also be refused as malformed input (STYLE habit 4a);
                # a sample of the universe is enough there
                refused = (CommandRejected, InvalidInput)
                universe = universe[:: max(1, len(universe) // OUT_OF_RANGE_SAMPLE)]
            decide = spec.decide
            refusals = 0
            for payload, command, key in universe:
                try:
                    events = decide(state, command)
                except refused as refusal:
                    assert key not in keys, f"legal {payload} refused: {refusal}"
                    refusals += 1
                    continue
                assert key in keys, f"{payload} accepted but not in legal_commands"
                assert events or self._silent(state, payload), f"{payload} accepted with no event"
            self.stats.refusals += refusals
        if adapter.table_commands is not None:
            accepted, refused_now = adapter.table_commands(state)
            for payload in accepted:
                try:
                    events = spec.decide(state, spec.parse_command(payload))
                except CommandRejected as refusal:
                    raise AssertionError(f"table command {payload} refused: {refusal}") from None
                assert events, f"table command {payload} caused no event"
            for payload in refused_now:
                try:
                    spec.decide(state, spec.parse_command(payload))
                except CommandRejected:
                    self.stats.refusals += 1
                    continue
                raise AssertionError(f"table command {payload} accepted where the rules refuse it")
        assert pickle.dumps(state) == snapshot, "deciding commands changed the state"

    def _parsed(self, universe: Sequence[Payload]) -> tuple[Sequence[_Parsed], frozenset[Hashable]]:
        """The universe's payloads with their parsed commands and legality keys, and the set of those
        keys; remembered for an adapter's (immutable, cached) tuple, and for each payload while it
        lives in the cache."""
        cached = _PARSED.get(id(universe))
        if cached is not None and cached[0] is universe:
            return cached[1], cached[2]
        parsed = [self._parse(p) for p in universe]
        keys = frozenset(key for _, _, key in parsed)
        if isinstance(universe, tuple):
            if len(_PARSED) >= _CACHE_LIMIT:
                _PARSED.clear()
            _PARSED[id(universe)] = (universe, parsed, keys)
        return parsed, keys

    def _parse(self, payload: Payload) -> _Parsed:
        """``payload``, its parsed command and its legality key (remembered by identity: an adapter's
        universe reuses the payloads of its fixed part)."""
        known = _PARSED_PAYLOADS.get(id(payload))
        if known is not None and known[0] is payload:
            return known
        entry = (payload, self.spec.parse_command(payload), self.adapter.legality_key(payload))
        if len(_PARSED_PAYLOADS) >= _CACHE_LIMIT:
            _PARSED_PAYLOADS.clear()
        _PARSED_PAYLOADS[id(payload)] = entry
        return entry


_CACHE_LIMIT = 50_000
"""Entries each parse cache holds at most before it starts afresh."""
_PARSED: dict[int, tuple[Sequence[Payload], list[_Parsed], frozenset[Hashable]]] = {}
"""Parsed command universes and their legality keys by the identity of the adapter's (immutable,
cached) tuple."""
_PARSED_PAYLOADS: dict[int, _Parsed] = {}
"""Parsed payloads by their identity (each entry keeps its payload alive, so the identity holds)."""


def _who(viewer: Viewer) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


def _choose(rng: random.Random, adapter: Adapter, case: Case, payloads: Sequence[Payload]) -> Payload:
    if adapter.rare:
        payloads = [p for p in payloads if p.get("kind") not in adapter.rare] or payloads
    plays = [p for p in payloads if adapter.is_play(p)]
    others = [p for p in payloads if not adapter.is_play(p)]
    payload = rng.choice(plays) if plays and (not others or rng.random() < case.p_play) else rng.choice(others)
    variants = adapter.variants(payload)
    if variants and rng.random() < case.p_variant:
        payload = rng.choice(variants)
    return payload


def play_and_check(case: Case) -> Stats:
    """Play ``case`` to the end with random legal commands, checking every invariant.

    Raises:
        AssertionError: an invariant failed; the message starts with ``case.describe()``.
    """
    try:
        return _play(case)
    except AssertionError as failure:
        raise AssertionError(f"{case.describe()}\n{failure}") from failure


def _play(case: Case) -> Stats:
    spec = GAMES[case.key]
    adapter = ADAPTERS[case.key]
    rng = random.Random(case.policy_seed)
    sampler = random.Random(case.policy_seed ^ 0x5EED)
    config = case.config()
    check = _Check(spec, adapter, case)
    stats = check.stats
    stats.games = 1

    state = spec.initial_state(config)
    initial = state
    for viewer in check.viewers:
        check.views[viewer] = spec.seat_view(state, viewer)
    decoded: list[Event] = []
    states: list[Any] = []
    commands_in_hand = 0
    first_of_hand = False
    step = 0
    while not spec.is_terminal(state):
        step += 1
        where = f"step {step} (hand {stats.hands}, command {commands_in_hand} of the hand)"
        try:
            chance = case.sample_rate
            if step == 1:
                chance = 1.0
            elif first_of_hand or spec.needs_deal(state):
                chance = max(SAMPLE_RATE_HAND_EDGE, case.sample_rate)
            if sampler.random() < chance:
                check.universe(state)
                if adapter.state_check is not None:
                    adapter.state_check(state)
            first_of_hand = False
            seats = range(check.seat_count(state))
            legal = {seat: spec.legal_commands(state, seat) for seat in seats}
            payloads_of = check.view_legal_agrees(state, legal)
            expected_hands: list[list[str]] | None = None
            if spec.acting is not None:
                acting = acting_seats(spec, state, seats)
            else:  # what acting_seats gives then: the seats with legal commands
                acting = tuple(s for s in seats if legal[s])
            special = _special_command(rng, spec, adapter, state, legal) if adapter.rare or adapter.p_table else None
            if special is not None:
                command = special
                commands_in_hand += 0 if spec.needs_deal(state) else 1
            elif spec.needs_deal(state):
                assert not acting, f"a deal is due but seats {acting} must act (legal: {legal})"
                stats.hands += 1
                assert stats.hands <= MAX_HANDS, f"the match did not end within {MAX_HANDS} hands"
                if rng.random() < case.p_explicit:
                    raw, expected_hands = adapter.explicit_deal(state, rng)
                    stats.explicit_hands += 1
                    deal = spec.explicit_deal(state, raw)
                    check.current_seed = None
                else:
                    seed = deal_seed(case, stats.hands)
                    check.add_seed(seed)
                    check.current_seed = seed
                    deal = Deal.from_seed(spec.deck(state), seed)
                command = spec.deal_command(state, deal)
                check.deck = sorted(str(c) for c in spec.deck(state))
                commands_in_hand = 0
                first_of_hand = True
            else:
                actors = list(acting)
                assert actors, "nobody can act and no deal is due: the match is stuck"
                commands_in_hand += 1
                assert commands_in_hand <= MAX_COMMANDS_PER_HAND, (
                    f"the hand did not end within {MAX_COMMANDS_PER_HAND} commands"
                )
                seat = rng.choice(actors)
                payloads = payloads_of.get(seat) or [spec.command_payload(c) for c in legal[seat]]
                nudged = adapter.nudge(state, seat, payloads, rng) if adapter.nudge is not None else None
                payload = nudged if nudged is not None else _choose(rng, adapter, case, payloads)
                command = spec.parse_command(payload)
                assert spec.command_seat(command) == seat
            stats.commands += 1

            _, steps = Match(spec, state).steps(command)
            events = tuple(event for event, _ in steps)
            if not events:  # accepted, and nothing to store (mau_mau R5.6.3-R5.6.4)
                assert adapter.silent is not None and adapter.silent(state, spec.command_payload(command)), (
                    f"{spec.command_payload(command)} caused no event"
                )
                stats.silent += 1
                continue
            rebuilt = spec.command_for(state, events, 0)
            if rebuilt is None:
                stats.audit_gaps.append(
                    f"{case.label} {where}: command_for finds no command at {events[0].event_name()} "
                    f"(events of {spec.command_payload(command)}: {[e.event_name() for e in events]})"
                )
            else:
                assert spec.decide(state, rebuilt) == events, (
                    f"command_for rebuilt {spec.command_payload(rebuilt)} which decides other events"
                )
            for event, state in steps:
                decoded.append(check.event(event, state))
                states.append(state)
            if expected_hands is not None:
                hands, _, _ = adapter.zones(state)
                for s, hand in enumerate(expected_hands):
                    assert sorted(hands[s]) == sorted(hand), f"explicit deal: seat {s} holds {hands[s]}, not {hand}"
        except AssertionError as failure:
            raise AssertionError(f"{where}: {failure}") from failure

    check.universe(state)
    legal = {seat: spec.legal_commands(state, seat) for seat in range(check.seat_count(state))}
    assert not any(legal.values()), f"the match is over but seats have legal commands {legal}"
    assert not spec.needs_deal(state), "the match is over but a deal is due"
    _check_replay(spec, config, initial, decoded, states, sampler)
    return stats


def _special_command(
    rng: random.Random, spec: GameSpec[Any, Any], adapter: Adapter, state: Any, legal: Mapping[int, Sequence[Any]]
) -> Any | None:
    """A seat change or other rare command instead of the usual move, or None (see ``Adapter.rare``
    and ``Adapter.table_commands``): a table command between hands with chance ``p_table``, else
    each rare kind with its chance, issued by a random seat to which it is open."""
    between = spec.needs_deal(state)
    if between and adapter.table_commands is not None and rng.random() < adapter.p_table:
        accepted, _ = adapter.table_commands(state)
        if accepted:
            return spec.parse_command(rng.choice(list(accepted)))
    for kind, (in_hand, between_hands) in adapter.rare.items():
        if rng.random() < (between_hands if between else in_hand):
            open_to = [
                c for commands in legal.values() for c in commands if spec.command_payload(c).get("kind") == kind
            ]
            if open_to:
                return rng.choice(open_to)
    return None


def _check_replay(
    spec: GameSpec[Any, Any],
    config: MatchConfig,
    initial: Any,
    events: Sequence[Event],
    states: Sequence[Any],
    sampler: random.Random,
) -> None:
    """The fold of the (decoded) events from ``initial_state`` equals the live state at the end
    and at a few random points (DESIGN: "replaying a hand is reduce(evolve, events, initial_state)")."""
    folded = spec.initial_state(config)
    assert folded == initial, "initial_state is not a function of the configuration"
    points = set(sampler.sample(range(1, len(events) + 1), min(REPLAY_POINTS, len(events))))
    points.add(len(events))
    for count, event in enumerate(events, start=1):
        folded = spec.evolve(folded, event)
        if count in points:
            assert folded == states[count - 1], f"the fold of the first {count} events differs from the live state"


def run_cases(cases: Iterable[Case]) -> Stats:
    """Play and check several cases; return the summed statistics."""
    total = Stats()
    for case in cases:
        total.add(play_and_check(case))
    return total
