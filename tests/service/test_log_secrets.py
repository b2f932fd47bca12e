"""No token and no secret in any log line, gRPC's own included (docs/operations.md, Logs)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from grpc_helpers import SECRET, ServerThread
from processes import ServerProcess
from rawh2 import call, frame

from trapoula.api.v1 import table_pb2 as pb
from trapoula.service import logs, redaction
from trapoula.service.application import Tables

TOKEN = "Ab3dEf6hIj9lMn2pQr5tUv8xYz1_-cD4fG7iJk0mNo3"
assert len(TOKEN) == 43


@pytest.fixture
def redactor() -> Iterator[redaction.RedactingFilter]:
    yield redaction.RedactingFilter(logs.hidden_in_call)


def test_bearer_tokens_seat_tokens_and_authorization_values_are_removed(
    redactor: redaction.RedactingFilter,
) -> None:
    assert (
        redactor.redact(f"Invalid encoding on b'Bearer {TOKEN}\\xff'")
        == "Invalid encoding on b'Bearer <redacted>\\xff'"
    )
    assert redactor.redact("authorization: bearer not-a-token-shape") == "authorization: bearer <redacted>"
    assert redactor.redact("(('authorization', 'Basic dXNlcjpwdw=='),)") == "(('authorization', '<redacted>'),)"
    assert redactor.redact(f"token={TOKEN}.") == "token=<redacted>."
    # what is not a token stays: a table id, a hash, a long snake_case name, a 42- or 44-character word
    kept = [
        "table c5c599f0-7dc6-4d98-b93d-064199206753",
        "hash " + "ab" * 32,
        "grpc_server_max_unrequested_time_in_serverx",  # 43 characters, no capital nor digit
        "x" * 41 + "A",
        TOKEN + "Z",
    ]
    for text in kept:
        assert redactor.redact(text) == text


def test_a_record_is_cleaned_in_its_message_its_arguments_and_its_traceback(
    redactor: redaction.RedactingFilter,
) -> None:
    redactor.hide(SECRET.hex())
    try:
        raise ValueError(f"bad token {TOKEN} with secret {SECRET.hex()}")
    except ValueError as exc:
        record = logging.LogRecord("grpc._server", logging.ERROR, __file__, 1, "failed: %s %r", (TOKEN, exc), None)
        record.exc_info = (type(exc), exc, exc.__traceback__)
    redactor.filter(record)
    assert record.getMessage() == "failed: <redacted> ValueError('bad token <redacted> with secret <redacted>')"
    assert record.exc_info is None and record.exc_text is not None
    assert "ValueError: bad token <redacted> with secret <redacted>" in record.exc_text
    for formatter in (logs.TextFormatter(), logs.json_formatter()):
        shown = formatter.format(record)
        assert TOKEN not in shown and SECRET.hex() not in shown and "Traceback" in shown
    assert json.loads(logs.json_formatter().format(record))["exc_info"] == record.exc_text


def test_a_calls_own_token_and_request_id_are_hidden_from_its_records(redactor: redaction.RedactingFilter) -> None:
    info = logs.CallInfo.of("CreateTable", pb.CreateTableRequest(game="agonia", request_id="my-own-request-id-1"))
    token = logs.enter_call(info)
    try:
        logs.hide_in_call("short-but-secret")
        record = logging.LogRecord(
            "x", logging.INFO, __file__, 1, "%s then %s", ("my-own-request-id-1", "short-but-secret"), None
        )
        redactor.filter(record)
    finally:
        logs.leave_call(token)
    assert record.getMessage() == "<redacted> then <redacted>"
    outside = logging.LogRecord("x", logging.INFO, __file__, 1, "my-own-request-id-1", (), None)
    redactor.filter(outside)
    assert outside.getMessage() == "my-own-request-id-1"  # not a secret outside its call


def test_the_configured_handler_writes_no_token(capsys: pytest.CaptureFixture[str]) -> None:
    stream = io.StringIO()
    handler = logs.configure("json", "debug", stream=stream)
    try:
        logging.getLogger("trapoula.test").warning(
            "seat token %s, header %r", TOKEN, ("authorization", f"Bearer {TOKEN}")
        )
    finally:
        logging.getLogger().removeHandler(handler)
    line = json.loads(stream.getvalue())
    assert line["message"] == "seat token <redacted>, header ('authorization', 'Bearer <redacted>')"


def _seat_token(url: str) -> tuple[str, str]:
    tables = Tables(url, SECRET)
    try:
        table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
        _seat, token = tables.join(table_id, "ann")
    finally:
        tables.close()
    return table_id, token


def _bad_header_call(port: int, table_id: str, token: str) -> int | None:
    request = frame(pb.GetViewRequest(table_id=table_id).SerializeToString())
    outcome = call(
        port,
        "/trapoula.api.v1.TableService/GetView",
        request,
        extra_headers=[(b"authorization", b"Bearer " + token.encode() + b"\xff")],
        end_stream=True,
    )
    return outcome.status


def test_a_token_followed_by_a_non_ascii_byte_is_refused_and_logged_by_nobody(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    """grpcio logs an ``authorization`` value that is not UTF-8 with its bytes, as an ERROR with a
    traceback; the server's filter removes the token from that record as from every other."""
    url = f"sqlite:///{tmp_path / 'leak.sqlite3'}"
    table_id, token = _seat_token(url)
    for client_side in ("hpack", "h2"):  # the test's own HTTP/2 client logs what it sends
        logging.getLogger(client_side).setLevel(logging.WARNING)
    caplog.set_level(logging.DEBUG)
    tables = Tables(url, SECRET)
    try:
        with ServerThread(tables) as server:
            assert _bad_header_call(server.port, table_id, token) == 7  # PERMISSION_DENIED: not that token
    finally:
        tables.close()
    grpc_errors = [r for r in caplog.records if r.name.startswith("grpc") and r.levelno >= logging.ERROR]
    assert any(r.getMessage().startswith("Invalid encoding on b'Bearer <redacted>") for r in grpc_errors)
    assert any(r.exc_text and "UnicodeDecodeError" in r.exc_text for r in grpc_errors)
    everything = caplog.text + "".join(
        f"{r.getMessage()} {r.exc_text or ''} {r.exc_info or ''} {r.args!r}" for r in caplog.records
    )
    captured = capfd.readouterr()
    assert token not in everything and token not in captured.out + captured.err


@pytest.mark.process
def test_a_server_process_logs_neither_the_token_nor_its_secret(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'leak.sqlite3'}"
    table_id, token = _seat_token(url)
    log_path = tmp_path / "server.log"
    server = ServerProcess(
        url, log_path, secret_hex=SECRET.hex(), extra=["--log-level", "debug", "--metrics-address", "off"]
    ).start()
    try:
        assert _bad_header_call(int(server.address.rsplit(":", 1)[1]), table_id, token) == 7
    finally:
        assert server.terminate() == 0
    text = log_path.read_text(encoding="utf-8")
    assert "Invalid encoding on b'Bearer <redacted>" in text and "GetView PERMISSION_DENIED bad_token" in text
    assert token not in text and SECRET.hex() not in text.lower()
