"""The three kinds of "no" (STYLE habit 4).

* :class:`InvalidInput`: malformed input (an unknown card code, option key, seat out of range),
  rejected before the rules run; the service answers ``INVALID_ARGUMENT``.
* :class:`CommandRejected`: a well-formed command that the rules refuse; it names the reason code
  and the rule number; the service answers ``FAILED_PRECONDITION``.
* A play that the rules punish is an event, not an error.

A rules check that finds a command refused may say so with a :class:`Refusal` value, which the
caller raises as :class:`CommandRejected` with its context.
"""

from __future__ import annotations

from dataclasses import dataclass


class TrapoulaDomainError(Exception):
    """Base of every error raised by the domain."""


class InvalidInput(TrapoulaDomainError, ValueError):
    """Malformed input: the message names the offending text; ``reason`` is a stable code."""

    def __init__(self, message: str, reason: str = "invalid_argument") -> None:
        super().__init__(message)
        self.reason = reason
        """Stable lower_snake reason code, e.g. ``bad_card``."""
        self.message = message
        """Human-readable message naming the input."""


class CommandRejected(TrapoulaDomainError):
    """A command the rules refuse.  Nothing is recorded and the state is unchanged.

    Attributes:
        reason: stable lower_snake code from the rules spec (``not_your_turn``, ``ace_on_ace`` ...).
        rule: the rule number enforced, e.g. ``"R5.1.3"``.
        message: a human-readable sentence naming the input, the seat and the rule.
    """

    def __init__(self, reason: str, rule: str, message: str) -> None:
        super().__init__(f"{message} [{reason}, {rule}]")
        self.reason = reason
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse a command, as a value (a check that finds it returns one, its caller raises
    :class:`CommandRejected`): the reason code of the game's section 8, the rule, and a sentence
    naming what is wrong (the card, the count)."""

    reason: str
    rule: str
    message: str
