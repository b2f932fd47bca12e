"""Top Card: a small trick game for 2-4 players, plugged into trapoula from outside its package.

It exists to show (and test) that a game needs nothing but its own folder: it registers through
the ``trapoula.games`` entry point (``trapoula_top_card-1.0.dist-info/entry_points.txt``) and the
platform reaches it only through its ``GameSpec`` and the lifecycle roles of its events.

Rules:

* T1 Two to four players; a 52-card deck, aces high.
* T2 The first dealer is seat 0 unless the table says otherwise; the deal passes to the left.
* T3 Each hand the deck is shuffled from the hand's seed (its SHA-256 commitment published when the
  hand starts, the seed revealed when it ends) and three cards are dealt to each seat, one at a
  time, starting with the seat after the dealer.  An explicit deal names each seat's three cards.
* T4 The seat after the dealer leads; in turn each seat plays one card of its hand.
* T5 When every seat has played, the highest rank takes the trick (on equal ranks the card played
  first); the trick's winner leads the next.  Each trick is worth one point.
* T6 After three tricks the hand is over; each seat adds its tricks to its total.
* T7 The match ends after the hand in which a total reaches ``target_points``: the highest total
  wins; on a tie for the highest nobody does.
* T8 Options: ``target_points``, a whole number 1..50, default 3.
"""

from __future__ import annotations

from typing import Any

from top_card import events, rules
from trapoula.domain.game import AuditRules, GameSpec, decider, spec_fields

SPEC: GameSpec[Any, Any] = GameSpec(
    title="Top Card",
    summary="A small trick game: three cards each, the highest takes the trick, first to the target.",
    min_players=2,
    max_players=4,
    bot_levels={"random": rules.random_bot, "heuristic": rules.heuristic_bot},
    higher_totals_win=True,
    target_option="target_points",
    audit_rules=AuditRules(commands="T4", events="T3-T7", seeded="T3", explicit="T3"),
    **decider(rules, rules, rules),
    **spec_fields(rules, events),
)
"""Top Card's game definition."""
