"""The web page served at ``/`` of the Connect endpoint (docs/browser.md): its files with headers
that keep it to its own origin, the Connect calls beside it unchanged, a line saying how to build
it when it is not built, ``--web off``, and the address printed at start."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from grpc_helpers import ServerThread, connect_post, serve_once

from trapoula.service import server as server_module
from trapoula.service.application import Tables
from trapoula.service.server import start_connect
from trapoula.service.settings import Settings

pytestmark = pytest.mark.timeout(120)

INDEX = "<!doctype html><title>trapoula</title><script type=module src=./assets/app.js></script>"


@pytest.fixture
def page(tmp_path: Path) -> Path:
    root = tmp_path / "web"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text(INDEX)
    (root / "assets" / "app.js").write_text("console.log('trapoula');\n")
    return root


def endpoint(tables: Tables, root: Path | None) -> Iterator[str]:
    thread = ServerThread(tables).start()
    assert thread.server is not None
    connect = None
    try:
        connect, port = thread._submit(start_connect(thread.server, "127.0.0.1:0", (), 30.0, root))
        yield f"http://127.0.0.1:{port}"
    finally:
        if connect is not None:
            thread._submit(connect.stop())
        thread.stop()


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            return reply.status, {k.lower(): v for k, v in reply.headers.items()}, reply.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def test_the_page_and_the_calls_share_one_origin(sqlite_tables: Tables, page: Path) -> None:
    for base in endpoint(sqlite_tables, page):
        status, headers, body = get(base + "/")
        assert status == 200 and body.decode() == INDEX
        assert headers["content-type"].startswith("text/html")
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        status, headers, body = get(base + "/assets/app.js")
        assert status == 200 and b"trapoula" in body
        assert "javascript" in headers["content-type"]
        assert get(base + "/missing.js")[0] == 404
        assert get(base + "/../../etc/passwd")[0] == 404
        status, created = connect_post(base, "CreateTable", {"game": "agonia", "seats": 2})
        assert status == 200 and created["tableId"]
        # a GET under the service's prefix is the Connect protocol's, never a file of the page
        assert INDEX.encode() not in get(base + "/trapoula.api.v1.TableService/ListGames")[2]


def test_a_page_not_built_says_how_to_build_it(sqlite_tables: Tables, tmp_path: Path) -> None:
    for base in endpoint(sqlite_tables, tmp_path / "nothing"):
        status, _, body = get(base + "/")
        assert status == 404 and b"make web" in body
        assert connect_post(base, "ListGames", {})[0] == 200


def test_web_off_serves_the_calls_only(sqlite_tables: Tables, page: Path) -> None:
    for base in endpoint(sqlite_tables, None):
        status, _, body = get(base + "/")
        assert status != 200 and INDEX.encode() not in body
        assert connect_post(base, "ListGames", {})[0] == 200


def test_the_setting_and_the_address_printed_at_start(
    tmp_path: Path, page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Settings().web is True
    assert Settings.from_args(["--web", "off"], {}).web is False
    assert Settings.from_env({"TRAPOULA_WEB": "off"}).web is False
    with pytest.raises(SystemExit):
        Settings.from_args(["--web", "maybe"], {})
    monkeypatch.setattr(server_module, "WEB_ROOT", page)
    base = Settings(
        address="127.0.0.1:0",
        database_url=f"sqlite:///{tmp_path / 'w.sqlite3'}",
        metrics_address=None,
        connect_address="127.0.0.1:0",
    )
    told: list[str] = []
    connected: list[str] = []
    web: list[str] = []
    serve_once(base, told, connect_ready=connected.append, web_ready=web.append)
    assert len(connected) == 1 and web == connected
    web.clear()
    serve_once(base.model_copy(update={"web": False}), told, web_ready=web.append)
    assert web == []
    monkeypatch.setattr(server_module, "WEB_ROOT", tmp_path / "nothing")
    serve_once(base, told, web_ready=web.append)
    assert web == []
