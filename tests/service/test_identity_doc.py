"""docs/identity.md's example runs as written: an app issues an identity token, its player creates a
table, takes a seat, adds a bot and plays a one-hand agonia match (R7: target 0) against a server
that trusts the app's shared secret; the standings then count the verified id."""

from __future__ import annotations

import re
import time
from pathlib import Path

import grpc
import pytest
from grpc_helpers import SECRET, projected

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.service.application import Tables
from trapoula.service.identity import load_verifier

DOC = Path(__file__).resolve().parents[2] / "docs" / "identity.md"

pytestmark = pytest.mark.timeout(120)


def blocks(language: str) -> list[str]:
    """The doc's fenced code blocks of ``language``."""
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_docs_example_plays_a_verified_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (example,) = blocks("python")
    secret = "7e" * 32
    key_file = tmp_path / "app-secret.txt"
    key_file.write_text(secret, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'identity.sqlite3'}"
    tables = Tables(url, SECRET, identity=load_verifier(key_file))
    try:
        with projected(tables, url) as (server, _):
            monkeypatch.setenv("APP_SECRET", secret)
            monkeypatch.setenv("TRAPOULA_ADDRESS", server.address)
            exec(compile(example, str(DOC), "exec"), {"__name__": "identity_example"})
            assert re.fullmatch(r"Ann played seat 0 as Ann\n", capsys.readouterr().out)
            with grpc.insecure_channel(server.address) as channel:
                stub = table_pb2_grpc.TableServiceStub(channel)
                deadline = time.monotonic() + 20
                while not (rows := stub.GetStandings(pb.GetStandingsRequest(player="Ann")).standings):
                    assert time.monotonic() < deadline, "the standings never showed the match"
                    time.sleep(0.05)
                assert [(r.player, r.player_id, r.verified, r.played) for r in rows] == [("Ann", "user-4711", True, 1)]
    finally:
        tables.close()


def test_the_docs_shell_lines_name_settings_the_server_has() -> None:
    """The flags the doc's shell block passes to ``trapoula serve`` are settings of the server."""
    from trapoula.service.settingtable import SETTINGS

    (shell,) = blocks("sh")
    flags = {row.flag for row in SETTINGS}
    used = set(re.findall(r"trapoula serve ((?:--[a-z-]+ \S+ ?)+)", shell)[0].split()[::2])
    assert used and used <= flags
