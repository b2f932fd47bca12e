"""Prometheus metrics over HTTP during a match, and JSON log lines carrying the call's context
(docs/operations.md)."""

from __future__ import annotations

import io
import json
import logging
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from eventsourcing import persistence
from grpc_helpers import SECRET, ServerThread
from prometheus_client.parser import text_string_to_metric_families

from trapoula.clients.errors import CommandRejected, NotFound, Unavailable
from trapoula.clients.table import TableClient
from trapoula.domain.cards import codes, deck_52
from trapoula.service import logs
from trapoula.service.application import Tables
from trapoula.service.metrics import Metrics

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


class MeteredServer(ServerThread):
    """A grpc.aio server on port 0 in its own loop thread, its metrics served on port 0."""

    def __init__(self, tables: Tables) -> None:
        self.metrics = Metrics()
        super().__init__(tables, metrics=self.metrics)
        self.metrics_url = ""

    def start(self) -> MeteredServer:
        super().start()
        self.metrics_url = f"http://{self.metrics.serve_http('127.0.0.1:0')}/metrics"
        return self

    def stop(self) -> None:
        self.metrics.close_http()
        super().stop()

    def scrape(self) -> Samples:
        """Every sample of the endpoint: ``(name, labels) -> value``."""
        with urllib.request.urlopen(self.metrics_url, timeout=10) as reply:
            assert reply.status == 200
            text = reply.read().decode()
        return {
            (s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }


def _metered(tables: Tables) -> Iterator[MeteredServer]:
    try:
        with MeteredServer(tables) as server:
            yield server
    finally:
        tables.close()


@pytest.fixture
def metered(tmp_path: Any) -> Iterator[MeteredServer]:
    """A metered server on SQLite."""
    yield from _metered(Tables(f"sqlite:///{tmp_path / 'metered.sqlite3'}", SECRET))


@pytest.fixture
def metered_on(store: Any) -> Iterator[MeteredServer]:
    """A metered server on each store (SQLite, then PostgreSQL)."""
    yield from _metered(store.open())


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample's value (0 when the series does not exist yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every series of ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= ls)


def command(samples: Samples, command: str, result: str = "ok", reason: str = "", game: str = "agonia") -> float:
    return value(samples, "trapoula_commands_total", game=game, command=command, result=result, reason=reason)


def wait_for_watchers(server: MeteredServer, count: int) -> Samples:
    """Scrape until ``trapoula_watchers`` is ``count`` (a cancelled stream ends on the server a
    moment later), then once more: one scrape reads the metrics one after another while the
    server goes on, so the scrape that saw the last stream gone may have read the calls' counts
    before that stream was counted (a stream is counted before the gauge falls)."""
    deadline = time.monotonic() + 10
    while True:
        samples = server.scrape()
        if value(samples, "trapoula_watchers") == count or time.monotonic() > deadline:
            return server.scrape()
        time.sleep(0.05)


def test_a_scrape_during_and_after_a_match_shows_every_metric(metered_on: MeteredServer) -> None:
    metered = metered_on
    before = metered.scrape()
    assert value(before, "trapoula_open_tables") == 0 and value(before, "trapoula_watchers") == 0
    assert [value(before, "trapoula_store_errors_total", kind=k) for k in ("unreachable", "corrupt_log")] == [0, 0]
    with TableClient(metered.address) as owner, TableClient(metered.address) as ann:
        table_id = owner.create_table("agonia", 2, {"target_points": 0}).table_id
        assert ann.join(table_id, "ann", seat=0).seat == 0
        assert owner.add_bot(table_id, "random") == 1
        with pytest.raises(NotFound):
            ann.join(str(uuid.uuid4()), "bob")
        with ann.watch(table_id) as mine, TableClient(metered.address).watch(table_id) as spectator:
            next(iter(mine))
            next(iter(spectator))
            owner.start_match(table_id)  # only the owner starts the match
            view = ann.view(table_id).view
            assert view["legal"], "the bots moved until seat 0 must act"
            missing = next(c for c in codes(deck_52()) if c not in view["hand"] and c != view["top_card"])
            with pytest.raises(CommandRejected):
                ann.act(table_id, {"kind": "play", "card": missing})
            acts = 0
            for _ in range(2):
                view = ann.act(table_id, view["legal"][0]).view
                acts += 1
            mid = metered.scrape()
            still_playing = view["phase"] != "match_over"
            while view.get("legal") and acts < 500:
                view = ann.act(table_id, view["legal"][0]).view
                acts += 1
            assert view["phase"] == "match_over"
        end = wait_for_watchers(metered, 0)

    # mid-match: one open table, two open watches, every command counted as sent
    assert value(mid, "trapoula_watchers") == 2
    if still_playing:  # the two first moves may (rarely) have ended the single hand
        assert value(mid, "trapoula_open_tables") == 1
    for name, sent in (("CreateTable", 1), ("JoinTable", 1), ("AddBot", 1), ("StartMatch", 1), ("Act", 2)):
        assert command(mid, name) == sent, name
    assert command(mid, "Act", "FAILED_PRECONDITION", "card_not_in_hand") == 1
    assert command(mid, "JoinTable", "NOT_FOUND", "table_not_found", game="unknown") == 1

    # the end: no open table, no watcher, the counts match what was sent, no store error
    assert value(end, "trapoula_open_tables") == 0
    assert value(end, "trapoula_watchers") == 0
    assert command(end, "Act") == acts and acts > 2
    assert total(end, "trapoula_commands_total") == acts + 6
    assert total(end, "trapoula_commands_total", result="ok") == acts + 4
    commands = acts + 6
    assert total(end, "trapoula_command_seconds_count") == commands
    assert value(end, "trapoula_command_seconds_count", game="agonia", command="Act") == acts + 1
    act_seconds = value(end, "trapoula_command_seconds_sum", game="agonia", command="Act")
    assert 0 < act_seconds < 10 * (acts + 1)
    buckets = sorted(
        (float(dict(ls)["le"]), v)
        for (n, ls), v in end.items()
        if n == "trapoula_command_seconds_bucket" and dict(ls)["command"] == "Act" and dict(ls)["game"] == "agonia"
    )
    assert [v for _, v in buckets] == sorted(v for _, v in buckets) and buckets[-1] == (float("inf"), acts + 1)
    assert value(end, "trapoula_rpcs_total", method="Act", result="ok") == acts
    watches = value(end, "trapoula_rpcs_total", method="WatchTable", result="ok")  # ended with the match
    assert watches + value(end, "trapoula_rpcs_total", method="WatchTable", result="CANCELLED") == 2  # or left
    assert total(end, "trapoula_store_errors_total") == 0


def test_a_store_that_cannot_be_reached_is_counted(metered: MeteredServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, and told to the unreachable-store listeners (the health check's), once; a call
    failing otherwise is not."""
    told: list[str] = []
    metered.metrics.add_unreachable_listener(lambda: told.append("unreachable"))
    with TableClient(metered.address, retry_for=0) as owner:
        table_id = owner.create_table("agonia", 2).table_id
        assert value(metered.scrape(), "trapoula_open_tables") == 1
        with pytest.raises(NotFound):
            owner.view("00000000-0000-4000-8000-000000000000")

        def unreachable(*_args: Any) -> Any:
            raise persistence.OperationalError("connection refused")

        monkeypatch.setattr(metered.tables, "view", unreachable)
        with pytest.raises(Unavailable):
            owner.view(table_id)
        monkeypatch.undo()
    deadline = time.monotonic() + 5  # the server counts a call after its answer has gone
    while not told and time.monotonic() < deadline:
        time.sleep(0.01)
    assert told == ["unreachable"]
    samples = metered.scrape()
    assert value(samples, "trapoula_store_errors_total", kind="unreachable") == 1
    assert value(samples, "trapoula_rpcs_total", method="GetView", result="UNAVAILABLE") == 1
    assert value(samples, "trapoula_open_tables") == 1


def test_json_log_lines_carry_the_table_the_seat_and_the_command_id(metered: MeteredServer) -> None:
    out = io.StringIO()
    root, own = logging.getLogger(), logging.getLogger("trapoula")
    levels = (root.level, own.level)
    handler = logs.configure("json", "debug", stream=out)
    try:
        with TableClient(metered.address) as ann:
            created = ann.create_table("agonia", 2, {"target_points": 0})
            joined = ann.join(created.table_id, "ann", seat=0)
            ann.add_bot(created.table_id, "random")
            ann.start_match(created.table_id)  # with the owner token of the table it created
            view = ann.view(created.table_id).view
            ann.act(created.table_id, view["legal"][0], command_id="move-1")
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        own.setLevel(levels[1])
    text = out.getvalue()
    lines = [json.loads(line) for line in text.splitlines()]
    calls = [line for line in lines if line["logger"] == "trapoula.service.calls"]
    [act] = [line for line in calls if line["method"] == "Act"]
    assert act["table_id"] == created.table_id and act["seat"] == 0 and act["command_id"] == "move-1"
    assert (act["level"], act["logger"], act["result"], act["game"]) == (
        "DEBUG",
        "trapoula.service.calls",
        "ok",
        "agonia",
    )
    assert act["ms"] > 0 and act["time"].endswith("+00:00")
    [made] = [line for line in calls if line["method"] == "CreateTable"]
    assert (made["level"], made["table_id"], made["game"]) == ("INFO", created.table_id, "agonia")
    assert made["message"].startswith("CreateTable ok: table created (")
    [join] = [line for line in calls if line["method"] == "JoinTable"]
    assert join["seat"] == 0
    assert created.owner_token not in text and joined.token not in text and SECRET.hex() not in text


def test_a_text_line_shows_the_context_and_quotes_a_crafted_id() -> None:
    record = logging.LogRecord("trapoula.service.calls", logging.INFO, __file__, 1, "Act ok", None, None)
    record.seat = 2
    record.command_id = "x\nINFO forged line"
    line = logs.TextFormatter().format(record)
    assert "\n" not in line
    assert line.endswith(" INFO trapoula.service.calls: Act ok seat=2 command_id='x\\nINFO forged line'")


def test_a_scrape_during_the_demo_match_sees_it_open_and_at_the_end_counts_its_commands(
    metered: MeteredServer, tmp_path: Any
) -> None:
    """`trapoula demo --address`: four client-side bots play agonia; scraped while it runs and
    after (docs/operations.md)."""
    from trapoula.clients.demo import run_demo

    results: list[Any] = []
    errors: list[BaseException] = []

    def play() -> None:
        try:
            results.append(run_demo(metered.address, record_path=tmp_path / "demo.jsonl", seed=3, out=io.StringIO()))
        except BaseException as exc:  # reported below
            errors.append(exc)

    demo = threading.Thread(target=play, name="demo")
    demo.start()
    during: Samples | None = None
    deadline = time.monotonic() + 60
    while demo.is_alive() and time.monotonic() < deadline:
        samples = metered.scrape()
        if value(samples, "trapoula_open_tables") == 1 and command(samples, "Act") > 0:
            during = samples
            break
        time.sleep(0.01)
    demo.join(timeout=120)
    assert not errors, errors
    [result] = results
    assert result.report.ok
    assert during is not None, "the demo ended before a scrape saw it in play"
    assert [command(during, name) for name in ("CreateTable", "JoinTable", "StartMatch")] == [1, 4, 1]
    end = metered.scrape()
    assert value(end, "trapoula_open_tables") == 0
    # every seat command of the stored log was one Act answered OK, none refused, none failed
    entries = metered.tables.stored_events(result.table_id)
    seat_commands = {(e.actor, e.command_id) for e in entries if e.actor.startswith("seat:") and e.command_id}
    assert command(end, "Act") == len(seat_commands) > command(during, "Act")
    assert total(end, "trapoula_commands_total") == 6 + len(seat_commands)
    assert value(end, "trapoula_command_seconds_count", game="agonia", command="Act") == len(seat_commands)
    assert total(end, "trapoula_store_errors_total") == 0


def test_a_json_line_stays_one_line_whatever_the_text() -> None:
    """Line and paragraph separators in a caller's text are escaped: a reader splitting on any
    line break (Python's ``splitlines``) still sees one record a line."""
    out = io.StringIO()
    root, own = logging.getLogger(), logging.getLogger("trapoula")
    levels = (root.level, own.level)
    handler = logs.configure("json", "info", stream=out)
    try:
        logging.getLogger("trapoula.test").info("id %s", "a\u2028b\x85c\nd Ω")
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        own.setLevel(levels[1])
    [line] = out.getvalue().splitlines()
    assert json.loads(line)["message"] == "id a\u2028b\x85c\nd Ω"
