"""Golden playthroughs: a whole match written out step by step (STYLE habit 11d; OpenSpiel's
playthrough files).

A :class:`Scenario` fixes a match and a deterministic player (a ``random.Random`` seeded with the
scenario's name, or a computer player of the game, ``Scenario.level``); :func:`render` plays it
through the generic ``GameSpec`` interface and writes,
for the state before the first command and after every command: the command, its events with
their full payload (and what the other viewers see of them when that differs), every seat's view
and the spectator's view, and every seat's legal commands.  Any change in rules, events, views
or redaction shows up as a diff of these files.

For a game with seat changes (``mau_mau`` R6.9, R6.10) a scenario may list players who join the
table before a given hand (``Scenario.joins``) and seats that leave at a given step
(``Scenario.leaves``); the views then cover every seat number in use.

A scenario may also fix some moves (``Scenario.script``: the command sent at a given step, e.g. a
``vida`` call no computer player would make), and, for a game whose legal lists run to hundreds of
payloads (``vida``: every bid up to ``max_bid`` in four suits, 990 ways to give three cards of 11),
abridge each long run of one command kind (``Scenario.abridge``) to its first payloads, a count and
its last payload, with the SHA-256 of the whole list so that any change still changes the file.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from trapoula.domain.deal import Deal
from trapoula.domain.events import Payload, Viewer, redact, to_payload, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.match import Match
from trapoula.domain.registry import GAMES

NAMES = ("ann", "bob", "cy", "dee", "eve")
"""Seat names of the playthroughs."""
MAX_STEPS = 3000
"""A playthrough longer than this is a bug (every match ends)."""


@dataclass(frozen=True)
class Scenario:
    """One golden match."""

    game: str
    """Game key."""
    name: str
    """File name (without ``.txt``) under ``tests/golden/<game>/``."""
    n: int
    """Number of players."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Options other than the defaults."""
    first_dealer: int | None = None
    initial_totals: tuple[int, ...] | None = None
    first_seed: str = ""
    """The seed of hand 1; hand k + 1 uses SHA-256 of hand k's seed bytes.  Empty: derived from
    the name."""
    p_play: float = 0.8
    """How often the player plays a card when one is legal (else it draws or passes)."""
    p_variant: float = 0.0
    """How often the player sends an accepted variant (agonia: the announcement flipped, R7.5)."""
    level: str | None = None
    """When set, every seat to act plays as the game's computer player of this level (from its own
    view), instead of the random player above."""
    joins: tuple[tuple[int, str, str | None], ...] = ()
    """``(hand, name, computer)``: the table's ``join`` issued just before hand ``hand`` is dealt."""
    leaves: tuple[tuple[int, int], ...] = ()
    """``(step, seat)``: at command number ``step`` the seat issues ``leave`` instead of the usual move."""
    script: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    """``(step, payload)``: at command number ``step`` the seat to act sends ``payload`` instead of the
    player's choice (it must be that seat's command, and the rules must accept it)."""
    abridge: int = 0
    """When positive, a command kind with more than ``abridge + 1`` legal payloads is written abridged
    (:func:`_legal_text`), and a seat's view shows ``"legal"`` as a pointer to its ``legal seat`` line."""

    def seed(self, hand: int) -> str:
        """The 64-hex-digit seed of hand number ``hand`` (1, 2, ...)."""
        seed = self.first_seed or hashlib.sha256(f"golden/{self.game}/{self.name}".encode()).hexdigest()
        for _ in range(hand - 1):
            seed = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
        return seed

    def config(self) -> MatchConfig:
        """The match configuration."""
        return MatchConfig(
            game=self.game,
            seats=tuple(SeatInfo(s, NAMES[s]) for s in range(self.n)),
            options=dict(self.options),
            first_dealer=self.first_dealer,
            initial_totals=self.initial_totals,
        )


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _is_play(payload: Payload) -> bool:
    return payload.get("kind") == "play"


def _variant(payload: Payload) -> Payload:
    """The same play with the announcement flipped (agonia R7.5.3: both are accepted)."""
    flipped = {k: v for k, v in payload.items() if k != "announce"}
    if not payload.get("announce"):
        flipped["announce"] = True
    return flipped


def _choose(rng: random.Random, scenario: Scenario, payloads: list[Payload]) -> Payload:
    plays = [p for p in payloads if _is_play(p)]
    others = [p for p in payloads if not _is_play(p)]
    payload = rng.choice(plays) if plays and (not others or rng.random() < scenario.p_play) else rng.choice(others)
    if _is_play(payload) and rng.random() < scenario.p_variant:
        payload = _variant(payload)
    return payload


def _who(viewer: Viewer) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


def _seat_count(spec: GameSpec[Any, Any], state: Any, n: int) -> int:
    """The seat numbers in use: ``n``, or more when players have joined (the views list them all)."""
    names = spec.seat_view(state, None).get("names")
    return max(n, len(names)) if isinstance(names, list) else n


def _player_line(scenario: Scenario) -> str:
    if scenario.level is not None:
        return (
            f"player: every seat to act plays as the {scenario.level!r} computer player of the game, "
            f"random.Random({f'golden/{scenario.game}/{scenario.name}'!r})"
        )
    return (
        f"player: random.Random({f'golden/{scenario.game}/{scenario.name}'!r}); plays a legal card with "
        f"probability {scenario.p_play} when it can, else draws or passes; sends the other announcement "
        f"with probability {scenario.p_variant}"
    )


def _legal_text(legal: list[Payload], abridge: int) -> str:
    """``legal`` as JSON; with ``abridge`` > 0 and some kind listed more than ``abridge + 1`` times:
    ``"<count> commands, sha256 <16 hex digits of the whole list's JSON>: "`` then, for each kind in
    order of first appearance, ``"<kind> x<count> [...]"`` listing all its payloads, or, when it has
    more than ``abridge + 1``, its first ``abridge``, ``"... <k> more ..."`` and its last."""
    groups: dict[str, list[Payload]] = {}
    for payload in legal:
        groups.setdefault(str(payload.get("kind")), []).append(payload)
    if abridge <= 0 or all(len(group) <= abridge + 1 for group in groups.values()):
        return _json(legal)
    parts = []
    for kind, group in groups.items():
        items = [_json(p) for p in group]
        if len(items) > abridge + 1:
            items = [*items[:abridge], f"... {len(items) - abridge - 1} more ...", items[-1]]
        parts.append(f"{kind} x{len(group)} [{', '.join(items)}]")
    digest = hashlib.sha256(_json(legal).encode()).hexdigest()[:16]
    return f"{len(legal)} commands, sha256 {digest}: " + "; ".join(parts)


def _snapshot(spec: GameSpec[Any, Any], state: Any, n: int, out: list[str], abridge: int = 0) -> None:
    n = _seat_count(spec, state, n)
    viewers: tuple[Viewer, ...] = (*range(n), None)
    legal = {seat: [spec.command_payload(c) for c in spec.legal_commands(state, seat)] for seat in range(n)}
    for viewer in viewers:
        view = spec.seat_view(state, viewer)
        if abridge > 0 and viewer is not None and view.get("legal") and view.get("legal") == legal[viewer]:
            view = {**view, "legal": f"as the line legal seat {viewer}"}
        out.append(f"view {_who(viewer)}: {_json(view)}")
    for seat in range(n):
        out.append(f"legal seat {seat}: {_legal_text(legal[seat], abridge)}")


def render(scenario: Scenario) -> str:
    """Play ``scenario`` to the end and return its playthrough text.

    Raises:
        AssertionError: the match does not end within ``MAX_STEPS`` commands, or a scripted command
            (``Scenario.script``) is not the acting seat's or its step is never reached.
        CommandRejected: the rules refuse a scripted command.
    """
    spec = GAMES[scenario.game]
    config = scenario.config()
    rng = random.Random(f"golden/{scenario.game}/{scenario.name}")
    state = spec.initial_state(config)
    out = [
        f"# Golden playthrough {scenario.game}/{scenario.name}: regenerate with `pytest tests/golden --update-golden`.",
        f"game: {scenario.game}",
        f"seats: {_json(list(NAMES[: scenario.n]))}",
        f"options: {_json(dict(config.options))} (the rest default)",
        f"all options: {_json({**spec.option_defaults(), **config.options})}",
        f"first_dealer: {_json(scenario.first_dealer)}",
        f"initial_totals: {_json(scenario.initial_totals)}",
        _player_line(scenario),
        "seeds: hand 1 as shown at its next_hand; hand k+1 = SHA-256 of the bytes of hand k's seed",
    ]
    if scenario.joins:
        out.append(f"joins (hand, name, computer): {_json([list(j) for j in scenario.joins])}")
    if scenario.leaves:
        out.append(f"leaves (step, seat): {_json([list(j) for j in scenario.leaves])}")
    if scenario.script:
        out.append(f"script (step, command): {_json([[k, dict(p)] for k, p in scenario.script])}")
    if scenario.abridge:
        out.append(
            f"legal lists: a command kind with more than {scenario.abridge + 1} payloads is abridged to its first "
            f"{scenario.abridge}, a count and its last; the sha256 covers the whole list"
        )
    out += ["", "## step 0: the match before any command"]
    _snapshot(spec, state, scenario.n, out, scenario.abridge)
    hands = 0
    step = 0
    joins = list(scenario.joins)
    leaves = dict(scenario.leaves)
    script = dict(scenario.script)
    while not spec.is_terminal(state):
        step += 1
        assert step <= MAX_STEPS, f"{scenario.name}: no end after {MAX_STEPS} commands"
        seats = range(_seat_count(spec, state, scenario.n))
        if step in leaves:
            command = spec.parse_command({"kind": "leave", "seat": leaves[step]})
            label = _json(spec.command_payload(command))
        elif spec.needs_deal(state) and joins and joins[0][0] == hands + 1:
            _, name, computer = joins.pop(0)
            command = spec.parse_command({"kind": "join", "name": name, "computer": computer})
            label = f"table {_json(spec.command_payload(command))}"
        elif spec.needs_deal(state):
            hands += 1
            seed = scenario.seed(hands)
            command = spec.deal_command(state, Deal.from_seed(spec.deck(state), seed))
            label = f"table next_hand, hand {hands}, seed {seed}"
        else:
            seat = acting_seats(spec, state, seats)[0]
            scripted = step in script
            if scripted:
                payload = dict(script.pop(step))
                assert payload.get("seat") == seat, f"{scenario.name}: step {step} is seat {seat}'s, not {payload}"
            elif scenario.level is not None:
                view = spec.seat_view(state, seat)
                payload = dict(spec.bot_levels[scenario.level](view, view["legal"], rng))
            else:
                payloads = [spec.command_payload(c) for c in spec.legal_commands(state, seat)]
                payload = _choose(rng, scenario, payloads)
            command = spec.parse_command(payload)
            label = _json(spec.command_payload(command)) + (" (scripted)" if scripted else "")
        out.append("")
        out.append(f"## step {step}: {label}")
        _, steps = Match(spec, state).steps(command)
        for event, state in steps:
            full = to_payload(event)
            out.append(f"event {event.event_name()}: {_json(full)}")
            seen: dict[str, list[str]] = {}
            for viewer in (*range(_seat_count(spec, state, scenario.n)), None):
                if not visible(event, viewer):  # romis R5.4: not sent at all
                    seen.setdefault("nothing (withheld)", []).append(_who(viewer))
                    continue
                shown = redact(event, viewer)
                if shown != full:
                    seen.setdefault(_json(shown), []).append(_who(viewer))
            for shown_text, who in seen.items():
                out.append(f"  seen by {', '.join(who)}: {shown_text}")
        _snapshot(spec, state, scenario.n, out, scenario.abridge)
    assert not script, f"{scenario.name}: scripted steps never reached: {sorted(script)}"
    out.append("")
    out.append(f"# the match is over after {step} commands and {hands} hand(s)")
    return "\n".join(out) + "\n"
