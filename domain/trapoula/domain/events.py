"""Domain events: frozen dataclasses with a stable name and a plain-data payload (DESIGN, Layers).

Every event class declares what each viewer may see of it (STYLE habit 6):

* ``hidden``: fields nobody sees while the hand is in progress (the seed, a reshuffle order);
  they stay in the stored event and in the record, and are revealed by later events.
* ``private``: fields only the seat named by the event's ``seat`` field may see (dealt or drawn
  cards); everybody else gets ``None`` in their place.
* ``withheld``: the whole event reaches only that seat; the others never learn it happened
  (:func:`visible`).

:func:`redact` gives the payload one viewer may see; :func:`to_payload`/:func:`from_payload` turn
events into JSON-ready dictionaries and back (tuples become lists and back).

Every event class has a schema version, :attr:`Event.version`, stored with each of its events.  A
class bumps it on purpose when its shape changes; :func:`from_payload` reads a payload stored at an
older version through the upcasters of :mod:`trapoula.domain.upcasting` and gives a field missing
from it its dataclass default (docs/events.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, TypeVar

from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.frozen import construct_quickly
from trapoula.domain.upcasting import upcast

if TYPE_CHECKING:
    from trapoula.domain.lifecycle import Fact, Role

Seat: TypeAlias = int
"""A seat number, 0..n-1 clockwise (S3.1)."""

Viewer: TypeAlias = int | None
"""A seat, or None for a spectator (S13.2)."""

Payload: TypeAlias = dict[str, Any]
"""A JSON-ready mapping of an event's or command's fields."""


class Event:
    """Base of all domain events.  Subclasses are ``@dataclass(frozen=True, slots=True)``."""

    __slots__ = ()
    hidden: ClassVar[frozenset[str]] = frozenset()
    """Fields no viewer sees while the hand is in progress."""
    private: ClassVar[frozenset[str]] = frozenset()
    """Fields only the seats named by ``private_to`` see."""
    private_to: ClassVar[tuple[str, ...]] = ("seat",)
    """The fields naming the seats that see the ``private`` fields: the event's own ``seat`` by
    default; ``vida``'s ``CardGiven`` names both ``from_seat`` and ``to_seat`` (R5.1, D30)."""
    withheld: ClassVar[bool] = False
    """True for an event only the seats named by ``private_to`` may receive at all: every other
    viewer gets no copy of it, not even a redacted one, and the positions it is shown in skip it
    (:func:`visible`).  ``romis``'s ``AuxiliaryUsed`` is one: its mere type would tell the others
    that the seat had no legal reveal (docs/rules/romis.md R5.4, section 9)."""
    version: ClassVar[int] = 1
    """The schema version of the class's payload, stored with each event.  Bumped on purpose when
    the class's shape changes, with an upcaster registered from the old version or a default for
    the new field (:mod:`trapoula.domain.upcasting`, docs/events.md)."""
    role: ClassVar[Role | None] = None
    """The platform role this event plays (:mod:`trapoula.domain.lifecycle`), None for none; an
    event with a role answers :meth:`lifecycle` with its fact."""
    between_hands: ClassVar[bool] = False
    """True for an event that comes outside any hand, after a finished one (a seat change, a game
    of a rubber won, the match's end): a record cut after a hand takes it (docs/record.md)."""

    def lifecycle(self) -> Fact | None:
        """The lifecycle fact this event carries (:mod:`trapoula.domain.lifecycle`), of the shape
        its :attr:`role` names; None for an event without a role."""
        return None

    @classmethod
    def event_name(cls) -> str:
        """The event's stable wire name: its class name (S12)."""
        return cls.__name__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _construct_quickly(cls)


def _construct_quickly(cls: type) -> None:
    """Give the event class ``cls`` the quick construction of
    :func:`~trapoula.domain.games.frozen.construct_quickly` once it is a frozen, slotted dataclass:
    ``dataclass(slots=True)`` makes the class anew once it has written ``__init__``, and that second
    class is the one changed.  Any other class keeps its ``__init__``."""
    own = vars(cls)
    if "__init__" in own and "__slots__" in own and "__dataclass_params__" in own:
        construct_quickly(cls)


E = TypeVar("E", bound=Event)


_SCALARS = frozenset({str, int, bool, float, type(None)})
"""Types whose values :func:`_plain` returns as they are (checked first: most fields and items are)."""


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, tuple | list):
        if _SCALARS.issuperset(map(type, value)):  # the usual case: card codes, seats, points
            return list(value)
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        if _SCALARS.issuperset(map(type, value)):
            return tuple(value)
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""The field names of each event class met so far, in declaration order (a class's fields never change)."""
_REQUIRED: dict[type, frozenset[str]] = {}
"""The fields of each event class met so far that have no default."""


def _field_names(cls: type) -> tuple[str, ...]:
    """The dataclass field names of ``cls``, in declaration order (TypeError if it is no dataclass)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _required(cls: type) -> frozenset[str]:
    """The dataclass fields of ``cls`` without a default or a default factory."""
    required = _REQUIRED.get(cls)
    if required is None:
        required = _REQUIRED[cls] = frozenset(
            f.name
            for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        )
    return required


_Plan = Callable[[Any], Any]
_TO_PAYLOAD: dict[type, _Plan] = {}
"""Per event class, the function :func:`to_payload` runs: written once for the class's fields."""
_FROM_PAYLOAD: dict[type, _Plan] = {}
"""Per event class, the function :func:`from_payload` runs: written once for the class's fields."""


def _plan(cls: type, to_payload: bool) -> _Plan:
    """The conversion of :func:`to_payload` (or :func:`from_payload`) written out for the fields of
    ``cls``: each field read once, a value of a plain type taken as it is, any other converted by
    :func:`_plain` (:func:`_frozen`); no loop over the names, no dictionary comprehension."""
    names = _field_names(cls)
    if any(not n.isidentifier() or n.startswith("_") or n in ("e", "p") for n in names):
        if to_payload:
            return lambda event: {name: _plain(getattr(event, name)) for name in names}
        return lambda payload: cls(**{k: _frozen(v) for k, v in payload.items()})
    env: dict[str, Any] = {"_S": _SCALARS, "_plain": _plain, "_frozen": _frozen, "_cls": cls}
    if to_payload:
        lines = ["def plan(e):"]
        lines.extend(f"    {n} = e.{n}" for n in names)
        items = ", ".join(f"{n!r}: {n} if type({n}) in _S else _plain({n})" for n in names)
        lines.append(f"    return {{{items}}}")
    else:
        lines = ["def plan(p):"]
        lines.extend(f"    {n} = p[{n!r}]" for n in names)
        args = ", ".join(f"{n} if type({n}) in _S else _frozen({n})" for n in names)
        lines.append(f"    return _cls({args})")
    exec("\n".join(lines), env)  # the way dataclasses writes __init__
    plan: _Plan = env["plan"]
    return plan


def to_payload(event: Event) -> Payload:
    """The event's fields as a JSON-ready dict (tuples become lists)."""
    plan = _TO_PAYLOAD.get(type(event))
    if plan is None:
        plan = _TO_PAYLOAD[type(event)] = _plan(type(event), True)
    result: Payload = plan(event)
    return result


def payload_mismatch(cls: type[Event], payload: Mapping[str, Any]) -> str | None:
    """What keeps ``payload`` (at the class's current version) from being an event of ``cls``:
    ``"lacks field(s) [...]"`` (fields with no default), ``"has unknown field(s) [...]"``, both
    joined by ``and``; None when it fits.

    >>> from trapoula.domain.games.shedding.events import Passed
    >>> payload_mismatch(Passed, {"seat": 0, "why": 1})
    "has unknown field(s) ['why']"
    """
    names = _field_names(cls)
    missing = sorted(_required(cls).difference(payload))
    unknown = sorted(str(k) for k in payload if k not in names)
    said = [f"lacks field(s) {missing}"] if missing else []
    said += [f"has unknown field(s) {unknown}"] if unknown else []
    return " and ".join(said) or None


_FIELD_SETS: dict[type, frozenset[str]] = {}
"""The field names of each event class :func:`from_payload` met so far, as a set."""


def from_payload(cls: type[E], payload: Mapping[str, Any], version: int | None = None) -> E:
    """Rebuild an event of class ``cls`` from :func:`to_payload` output written at ``version``.

    ``version`` is the schema version the payload was stored with (None: the class's own
    :attr:`Event.version`, the payload of a current event).  An older payload is upcast first
    (:func:`trapoula.domain.upcasting.upcast`; ``payload`` itself is never changed); then a field
    it lacks takes its dataclass default.  A payload of exactly the class's fields is converted by
    a plan written once per class.

    Raises:
        InvalidInput: ``version`` is not one this class reads, an upcaster fails, a field without a
            default is missing or a field is unknown (``bad_event``; the message names them).
    """
    if version is not None and version != cls.version:
        payload = upcast(cls, payload, version)
    plan = _FROM_PAYLOAD.get(cls)
    if plan is None:
        plan = _FROM_PAYLOAD[cls] = _plan(cls, False)
        _FIELD_SETS[cls] = frozenset(_field_names(cls))
    if payload.keys() != _FIELD_SETS[cls]:
        mismatch = payload_mismatch(cls, payload)
        if mismatch is not None:
            stored = cls.version if version is None else version
            raise InvalidInput(
                f"event {cls.event_name()} (version {cls.version}, stored at {stored}) payload {mismatch}",
                reason="bad_event",
            )
        return cls(**{k: _frozen(v) for k, v in payload.items()})  # defaults fill what it lacks
    event: E = plan(payload)
    return event


def decoder(cls: type[E]) -> Callable[[Any, int | None], E]:
    """:func:`from_payload` for the one class ``cls``, its look-ups done once: ``decoder(cls)(payload,
    version)`` is ``from_payload(cls, payload, version)``, and a payload of exactly the class's
    fields at its current version goes straight to the plan written for the class (a fold of a
    record decodes thousands of events of a dozen classes).

    >>> from trapoula.domain.games.shedding.events import Passed
    >>> decoder(Passed)({"seat": 2}, 1) == from_payload(Passed, {"seat": 2}, 1)
    True
    """
    plan = _FROM_PAYLOAD.get(cls)
    if plan is None:
        plan = _FROM_PAYLOAD[cls] = _plan(cls, False)
        _FIELD_SETS[cls] = frozenset(_field_names(cls))
    fields, current = _FIELD_SETS[cls], cls.version

    def decode(payload: Any, version: int | None = None) -> E:
        if (version is None or version == current) and type(payload) is dict and payload.keys() == fields:
            event: E = plan(payload)
            return event
        return from_payload(cls, payload, version)

    return decode


def visible(event: Event, viewer: Viewer) -> bool:
    """True when ``viewer`` may receive ``event`` at all: always, unless the event is
    ``withheld`` and ``viewer`` is not one of the seats its ``private_to`` fields name (romis R5.4)."""
    if not event.withheld:
        return True
    payload = to_payload(event)
    return viewer is not None and any(payload.get(f) == viewer for f in event.private_to)


def redact(event: Event, viewer: Viewer) -> Payload:
    """The payload of ``event`` that ``viewer`` may see (S12, S13.3).

    Hidden fields, and private fields for a viewer not named by the event's ``private_to`` fields,
    are replaced by ``None``.
    """
    payload = to_payload(event)
    for name in event.hidden:
        payload[name] = None
    if event.private and (viewer is None or all(payload.get(f) != viewer for f in event.private_to)):
        for name in event.private:
            payload[name] = None
    return payload


def listed_events(module: ModuleType) -> dict[str, type[Event]]:
    """Event name -> class of every event a game's events module lists in its ``__all__`` (each game's
    section 9), for ``GameSpec.event_types``; a module re-exporting the platform's ``MatchStarted``
    lists it too.

    Raises:
        AttributeError: a name in ``__all__`` that the module does not define.
    """
    return {cls.event_name(): cls for cls in (getattr(module, name) for name in module.__all__)}
