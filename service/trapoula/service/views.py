"""What a caller sees of a table: redacted events, views, and the results of commands and watches.

Everything here reads a :class:`~trapoula.service.recording.Table` already in memory; nothing
asks the store, except a watch reaching before a snapshot's version (the table's earlier events
are then read once, :class:`~trapoula.service.entries.EntryLog`).  Watchers that see a table
alike (the same principal kind and viewer: the spectators, or the watchers of one seat) share one
rendering of each event (:attr:`Table.renders`), and a woken watcher takes the folded state after
each new event from :attr:`Table.recent` instead of folding again.  A rendering keeps its view and
its events' redacted payloads as the JSON text they are sent as (:mod:`~trapoula.service.jsontext`),
made once: kept for a table's last :attr:`Table.recent_states` versions, the dicts and lists they
were made of would be walked by every young collection of the garbage collector meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trapoula.domain.clock import instant
from trapoula.domain.events import Payload, Viewer, redact, visible
from trapoula.domain.game import acting_seats
from trapoula.service.entries import Entry
from trapoula.service.errors import ErrorContext, VersionAhead
from trapoula.service.jsontext import dumps, loads
from trapoula.service.principals import Principal
from trapoula.service.recording import Table, forget_oldest, state_at
from trapoula.service.tablestate import TableState, apply_entry

SHARED_RUN_EVENTS = 16
"""A batched watch's run of at most this many events is shared by the watchers who see the table
alike (kept in :attr:`Table.renders`, its bytes in the servicer's cache); a longer one is a
watcher's catch-up, made for it alone."""
SEEN_PER_RENDER = 8
"""Events redacted for a viewer that cost about one rendering of its view (what a batched watch's
run counts, :func:`renders_missing`)."""


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """One stored event as one viewer may see it."""

    version: int
    """The event's position for this viewer (``TableState.position``): its version in the log,
    except at a table of a game with withheld events, where another seat's are not counted."""
    name: str
    payload_json: str
    """The payload redacted for the viewer (hidden fields and other seats' cards are None), as its
    compact JSON text (``Event.payload_json``; kept as text, :mod:`~trapoula.service.jsontext`)."""

    @property
    def payload(self) -> Payload:
        """The payload redacted for the viewer (:attr:`payload_json` read back: a new dict at each call)."""
        payload: Payload = loads(self.payload_json)
        return payload


@dataclass(frozen=True, slots=True)
class ActResult:
    """What a command returns to its caller."""

    version: int
    """The caller's position (``TableState.position``) after the command and the automatic play
    saved with it."""
    events: tuple[SeenEvent, ...]
    """The caller's view of the command's events and of the automatic play saved with them (at
    most :data:`CHUNK_EVENTS` events in all; later automatic play is saved in the background)."""
    view_json: str
    """The caller's view after them, as its compact JSON text (``View.view_json``; the rendering
    the caller's own watchers are sent)."""

    @property
    def view(self) -> Payload:
        """The caller's view after them (:attr:`view_json` read back: a new dict at each call)."""
        view: Payload = loads(self.view_json)
        return view


@dataclass(frozen=True, slots=True)
class WatchItem:
    """One event for a watcher, with the watcher's view after it."""

    event: SeenEvent
    view_json: str
    """The watcher's view after the event (:func:`table_view`), as its compact JSON text
    (``View.view_json``): made once per rendering and kept as text while the table keeps the
    rendering (:mod:`~trapoula.service.jsontext`)."""

    @property
    def version(self) -> int:
        """The event's position for the watcher (the stream goes on after it)."""
        return self.event.version

    @property
    def view(self) -> Payload:
        """The watcher's view after the event (:attr:`view_json` read back: a new dict at each call)."""
        view: Payload = loads(self.view_json)
        return view


@dataclass(frozen=True, slots=True)
class WatchRun:
    """Several events for a watcher in one message, with the watcher's view after the last of them
    only (a batched watch, ``WatchTableRequest.batch``)."""

    before: tuple[SeenEvent, ...]
    """The events before the last, in order, without a view."""
    last: WatchItem
    """The last event, with the watcher's view after it."""

    @property
    def version(self) -> int:
        """The last event's position for the watcher (the stream goes on after it)."""
        return self.last.event.version

    @property
    def events(self) -> tuple[SeenEvent, ...]:
        """Every event of the run, in order."""
        return (*self.before, self.last.event)

    @property
    def shareable(self) -> bool:
        """Short enough (at most :data:`SHARED_RUN_EVENTS` events) to be shared by the watchers who
        see the table alike and serialised once for them; a longer run is one watcher's catch-up."""
        return len(self.before) < SHARED_RUN_EVENTS


@dataclass(frozen=True, slots=True)
class WatchBatch:
    """The events after a version, for one viewer."""

    items: tuple[WatchItem, ...] | tuple[WatchRun, ...]
    """One item an event; or, for a batched watch (``every_view`` False), one run of them all."""
    head: int
    """The table's version when read (what the fan-out counts)."""
    position: int
    """The viewer's position at ``head`` (``TableState.position``): the batch reached the head
    when its last item, if any, is at this position."""
    over: bool
    """True when the match is over (no event will follow ``head``)."""


def seen(entry: Entry, viewer: Viewer, position: int) -> SeenEvent:
    """``entry`` as ``viewer`` may see it, at its ``position`` (``TableState.position``)."""
    payload = redact(entry.event, viewer) if entry.event is not None else entry.payload
    return SeenEvent(position, entry.name, dumps(payload))


def _recent(table: Table, seq: int) -> bool:
    """True when event ``seq`` is among the table's last :attr:`Table.recent_states` versions: only
    the renderings of those are kept and shared."""
    return seq > table.state.version - table.recent_states


def _seen_alike(table: Table, entry: Entry, viewer: Viewer, position: int) -> SeenEvent:
    """``seen(entry, viewer, position)``, one for every viewer at ``position`` when the event hides
    nothing from anyone (no ``hidden`` nor ``private`` fields: every viewer gets its payload
    whole) and is recent: kept with the version's renderings, so the watchers of a table's seats
    and its spectators share it (one payload text, one object the collector walks)."""
    event = entry.event
    seq = entry.seq
    if (event is not None and (event.hidden or event.private)) or not _recent(table, seq):
        return seen(entry, viewer, position)
    parts = _shared(table, seq)
    item = parts.get(position)  # an int: the renderings' keys are tuples
    if not isinstance(item, SeenEvent):
        item = parts[position] = seen(entry, viewer, position)
    return item


def shown(entry: Entry, viewer: Viewer) -> bool:
    """True when ``viewer`` receives ``entry`` at all (``events.visible``: ``Event.withheld``)."""
    return entry.event is None or visible(entry.event, viewer)


def table_view(state: TableState, principal: Principal, shared: dict[Any, Any] | None = None) -> Payload:
    """What ``principal`` may see of a table: the game's view for its viewer plus a ``table`` part.

    ``shared``: a dict kept for ``state`` across its viewers, where the parts every viewer sees
    alike (the acting seats, the seats, whether a deal is awaited) are worked out once.

    Before the match starts the game's view is that of its initial state (free seats have empty
    names).  The ``table`` part: ``table_id, version, status, seats ([{seat, name, bot} or
    {seat, free: true}]), manual_deal, viewer ("seat" / "owner" / "spectator"), seat`` (the viewer's seat, or null),
    ``needs_deal``
    (the table waits for ``next_hand``: a manual-deal table between hands).  ``acting`` (top
    level) lists the seats whose move the match waits for (``GameSpec.acting``).
    """
    spec = state.spec
    game_state = state.game_state if state.game_state is not None else spec.initial_state(state.config())
    view = dict(spec.seat_view(game_state, principal.viewer))
    common = shared.get("common") if shared is not None else None
    if common is None:
        common = _common_parts(state, game_state)
        if shared is not None:
            shared["common"] = common
    acting, status, seats, needs_deal = common
    seed = shared.get("seed") if shared is not None else None  # alike for every viewer: worked out once
    if seed is None:
        seed = _seed_part(state)
        if shared is not None:
            shared["seed"] = seed
    view["acting"] = list(acting)
    view["table"] = {
        "table_id": state.table_id,
        "version": state.position(principal.viewer),
        "status": status,
        "seats": [dict(seat) for seat in seats],
        "manual_deal": state.manual_deal,
        "viewer": principal.kind,
        "seat": principal.seat if principal.kind == "seat" else None,
        "needs_deal": needs_deal,
        "seed": seed,
        "clock": clock_part(state),
    }
    return view


def clock_part(state: TableState) -> Payload | None:
    """The table's turn clocks (docs/clock.md), or None at a table without a time control:
    ``{move_seconds, bank_seconds, policy, deadlines: [{seat, deadline}], banks}`` (deadlines
    RFC 3339 in UTC, earliest first; banks in seconds, to the millisecond)."""
    clock = state.clock
    if clock is None:
        return None
    control = clock.control
    return {
        "move_seconds": control.move_seconds,
        "bank_seconds": control.bank_seconds,
        "policy": control.policy,
        "deadlines": [{"seat": seat, "deadline": instant(at)} for seat, at in clock.deadlines()],
        "banks": [round(bank, 3) for bank in clock.banks],
    }


def _seed_part(state: TableState) -> Payload | None:
    """The hand awaiting the players' seeds (:mod:`trapoula.domain.seeding`): ``{hand, commitment,
    given}`` (``given``: the seats that gave theirs, in seat order), or None when none does."""
    seeds = state.seeds
    pending = None if state.manual_deal or state.over else seeds.pending(state.hands_started)
    if pending is None:
        return None
    return {"hand": pending, "commitment": seeds.commitment, "given": sorted(seat for seat, _ in seeds.given)}


def _common_parts(state: TableState, game_state: Any) -> tuple[tuple[int, ...], str, tuple[Payload, ...], bool]:
    """``(acting seats, status, seats, needs_deal)`` of ``state``: alike for every viewer."""
    spec = state.spec
    acting = acting_seats(spec, game_state, range(len(state.seats))) if state.started else ()
    needs_deal = state.started and not state.over and bool(spec.needs_deal(game_state))
    seats = tuple(
        {"seat": i, "name": s.name, "bot": s.bot} if s is not None else {"seat": i, "free": True}
        for i, s in enumerate(state.seats)
    )
    return acting, state.status, seats, needs_deal


def act_result(table: Table, span: tuple[int, int], principal: Principal) -> ActResult:
    """The result of the command whose events are versions ``span`` (first, last) of ``table``:
    ``principal``'s view of them and after them."""
    first, last = span
    state = state_at(table, last)
    viewer = principal.viewer
    position = state.position(viewer, first - 1)
    events: list[SeenEvent] = []
    item: WatchItem | None = None
    for entry in table.entries[first - 1 : last]:
        if shown(entry, viewer):
            position += 1
            events.append(_seen_alike(table, entry, viewer, position))
    last_entry = table.entries[last - 1]
    if events and events[-1].version == position and shown(last_entry, viewer):
        # the caller's view after its command is the rendering its own watchers get for that event
        item = _render(table, last, last_entry, principal, position, state)
    view_json = item.view_json if item is not None else dumps(table_view(state, principal))
    return ActResult(position, tuple(events), view_json)


def watch_batch(
    table: Table, principal: Principal, after: int, limit: int = 1000, *, every_view: bool = True
) -> WatchBatch:
    """The events after position ``after`` of ``table`` as it is in memory that ``principal`` may
    receive (at most ``limit``), each with ``principal``'s view after it (see ``Tables.events_after``);
    with ``every_view`` False, one :class:`WatchRun` of them with the view after the last only.

    Raises:
        VersionAhead: ``after`` is beyond the viewer's position at the head (``version_ahead``).
    """
    head_state = table.state
    head = head_state.version
    viewer = principal.viewer
    top = head_state.position(viewer)
    if after > top:
        raise VersionAhead(
            f"from_version {after} is beyond version {top} of table {head_state.table_id}",
            context=ErrorContext(head_state.table_id, principal.seat, top),
        )
    picked: list[tuple[int, Entry, int]] = []  # (seq, entry, the viewer's position)
    position = after
    entries = table.entries
    for seq in range(head_state.version_at(viewer, after) + 1, head + 1):
        if len(picked) >= limit:
            break
        entry = entries[seq - 1]
        if shown(entry, viewer):
            position += 1
            picked.append((seq, entry, position))
    if not every_view:
        runs = (_run(table, principal, picked),) if picked else ()
        return WatchBatch(runs, head, top, head_state.over)
    items: list[WatchItem] = []
    state: TableState | None = None
    for seq, entry, position in picked:
        item = _shared_item(table, seq, principal, position)
        if item is None:
            state = _state_after(table, seq, state)
            item = _render(table, seq, entry, principal, position, state)
        items.append(item)
    return WatchBatch(tuple(items), head, top, head_state.over)


_KEYS: dict[tuple[str, Viewer], tuple[str, Viewer]] = {}
"""The renderings' keys, one object each: a key kept in a version's renderings is not a new
tuple for the collector to walk at every rendering."""


def _key(principal: Principal) -> tuple[str, Viewer]:
    """``(principal.kind, principal.viewer)``: who sees a table alike (their renderings' key)."""
    key = (principal.kind, principal.viewer)
    return _KEYS.setdefault(key, key)


def _shared_item(table: Table, seq: int, principal: Principal, position: int) -> WatchItem | None:
    """The rendering of event ``seq`` at ``position`` that the watchers who see the table as
    ``principal`` does share, when one was made; else None."""
    shared = table.renders.get(seq)
    item = shared.get(_key(principal)) if shared is not None else None
    return item if isinstance(item, WatchItem) and item.event.version == position else None


def _run(table: Table, principal: Principal, picked: list[tuple[int, Entry, int]]) -> WatchRun:
    """The events ``picked`` (``(seq, entry, position)``, at least one) as one run, rendered after
    the last only; shared, while the last is recent and the run short (:data:`SHARED_RUN_EVENTS`),
    with every watcher who sees the table alike and is sent the same events (their streams
    serialise it once)."""
    viewer = principal.viewer
    seq, entry, position = picked[-1]
    key = (_key(principal), picked[0][2])
    shared = table.renders.get(seq)
    run = shared.get(key) if shared is not None else None
    if isinstance(run, WatchRun) and run.version == position:
        return run
    last = _shared_item(table, seq, principal, position)
    if last is None:
        last = _render(table, seq, entry, principal, position, _state_after(table, seq, None))
    before = []
    for s, e, p in picked[:-1]:
        item = _shared_item(table, s, principal, p)
        before.append(item.event if item is not None else _seen_alike(table, e, viewer, p))
    run = WatchRun(tuple(before), last)
    if run.shareable and _recent(table, seq):  # short, and recent
        _shared(table, seq)[key] = run
    return run


def _render(table: Table, seq: int, entry: Entry, principal: Principal, position: int, state: TableState) -> WatchItem:
    """``principal``'s rendering of event ``seq`` (``entry``, at ``position``) and of ``state`` after
    it, shared with every caller who sees the table alike while ``seq`` is recent."""
    key = _key(principal)
    recent = _recent(table, seq)  # only the recent ones are shared
    parts = _shared(table, seq) if recent else {}
    item = parts.get(key)
    if isinstance(item, WatchItem) and item.event.version == position:
        return item
    item = WatchItem(_seen_alike(table, entry, principal.viewer, position), dumps(table_view(state, principal, parts)))
    if recent:
        parts[key] = item
    return item


def renders_missing(table: Table, principal: Principal, after: int, *, every_view: bool = True) -> int:
    """How many of the events after position ``after`` that ``principal`` receives have no shared
    rendering yet (the work :func:`watch_batch` would do), or -1 when reading them would ask the
    store (events before a snapshot's version not yet loaded).  With ``every_view`` False, the
    renderings are one at most (the last event's) and every :data:`SEEN_PER_RENDER` events count
    as one more (each is redacted for the viewer), unless the run is shared already.
    """
    head_state = table.state
    viewer = principal.viewer
    if after > head_state.position(viewer):
        return 0  # watch_batch raises at once
    begin = head_state.version_at(viewer, after)
    if begin < table.entries.base and not table.entries.prefix_loaded:
        return -1
    key = _key(principal)
    missing = 0
    renders = table.renders
    if not every_view:
        last = head_state.version
        shared = renders.get(last)
        if shared is not None and ((key, after + 1) in shared):
            return 0
        events = last - begin
        return (1 if shared is None or key not in shared else 0) + events // SEEN_PER_RENDER
    for seq in range(begin + 1, head_state.version + 1):
        shared = renders.get(seq)
        if shared is None or key not in shared:
            missing += 1
    return missing


def _state_after(table: Table, seq: int, known: TableState | None) -> TableState:
    """The table's state at version ``seq``: a recent one kept, else folded on from ``known`` (an
    earlier state of this walk), else from the nearest checkpoint."""
    kept = table.recent.get(seq)
    if kept is not None:
        return kept
    if known is not None and known.version < seq:
        for entry in table.entries[known.version : seq]:
            known = apply_entry(known, entry)
        return known
    return state_at(table, seq)


def _shared(table: Table, seq: int) -> dict[Any, Any]:
    """The dict shared by the renderings of version ``seq`` of ``table`` (made when first needed)."""
    renders = table.renders
    shared = renders.get(seq)
    if shared is None:
        shared = renders.setdefault(seq, {})
        if len(renders) > table.recent_states:
            forget_oldest(renders, table.recent_states)
    return shared
