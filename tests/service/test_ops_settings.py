"""Every setting is a flag and an environment variable, one table documents them all, and
``trapoula serve --help`` shows each with its variable and default (docs/operations.md)."""

from __future__ import annotations

import logging
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from grpc_helpers import serve_once
from pydantic_settings import SettingsConfigDict

from trapoula.service import settings as settings_module
from trapoula.service.__main__ import main as service_main
from trapoula.service.settings import Settings, is_random_secret
from trapoula.service.settingtable import SETTINGS, settings_table

ROOT = Path(__file__).resolve().parents[2]

# field, flag, variable, default, a good text, its value, a bad text
NEW_SETTINGS = [
    ("metrics_address", "--metrics-address", "TRAPOULA_METRICS_ADDRESS", "127.0.0.1:9464", "0.0.0.0:9100",
     "0.0.0.0:9100", "9100"),
    ("log_format", "--log-format", "TRAPOULA_LOG_FORMAT", "text", "JSON", "json", "xml"),
    ("log_level", "--log-level", "TRAPOULA_LOG_LEVEL", "info", "debug", "debug", "loud"),
    ("projection", "--projection", "TRAPOULA_PROJECTION", True, "off", False, "maybe"),
    ("cache_size", "--cache-size", "TRAPOULA_CACHE_SIZE", 1000, "250", 250, "0"),
    ("auto_workers", "--auto-workers", "TRAPOULA_AUTO_WORKERS", 2, "8", 8, "65"),
]  # fmt: skip


@pytest.mark.parametrize(("field", "flag", "env", "default", "text", "parsed", "bad"), NEW_SETTINGS)
def test_each_new_setting_comes_from_its_flag_over_its_variable_over_the_default(
    field: str, flag: str, env: str, default: Any, text: str, parsed: Any, bad: str
) -> None:
    assert getattr(Settings.from_env({}), field) == default
    assert getattr(Settings(), field) == default
    assert getattr(Settings.from_env({env: text}), field) == parsed
    assert getattr(Settings.from_env({env: "  "}), field) == default  # blank: unset
    assert getattr(Settings.from_args([flag, text], {}), field) == parsed
    assert getattr(Settings.from_args([flag, text], {env: bad}), field) == parsed  # the flag wins, unread
    with pytest.raises(ValueError, match=f"^{env}: .*{re.escape(repr(bad))}"):
        Settings.from_env({env: bad})


@pytest.mark.parametrize(("field", "flag", "env", "default", "text", "parsed", "bad"), NEW_SETTINGS)
def test_a_bad_flag_is_one_line_naming_it_and_exit_2(
    capsys: pytest.CaptureFixture[str], field: str, flag: str, env: str, default: Any, text: str, parsed: Any, bad: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        Settings.from_args([flag, bad], {})
    assert stop.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"trapoula serve: argument {flag}: ") and repr(bad) in line and "--help" in line


def test_metrics_off_and_the_module_exits_2_on_a_bad_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Settings.from_args(["--metrics-address", "off"], {}).metrics_address is None
    assert Settings.from_env({"TRAPOULA_METRICS_ADDRESS": "Off"}).metrics_address is None
    monkeypatch.setenv("TRAPOULA_LOG_LEVEL", "loud")
    assert service_main([]) == 2
    assert capsys.readouterr().err == "trapoula: TRAPOULA_LOG_LEVEL: log level 'loud' is not one of " + (
        "debug, info, warning, error\n"
    )


def test_the_secret_comes_from_a_file_never_from_a_flag_and_is_never_quoted(tmp_path: Path) -> None:
    good = tmp_path / "secret"
    good.write_text("ab" * 32 + "\n", encoding="ascii")
    assert Settings.from_args(["--secret-file", str(good)], {}).secret == b"\xab" * 32
    assert Settings.from_env({"TRAPOULA_SECRET_FILE": str(good)}).secret == b"\xab" * 32
    assert not is_random_secret(Settings.from_env({"TRAPOULA_SECRET_FILE": str(good)}).secret)
    random_one, another = Settings.from_env({}), Settings.from_env({})  # none given: random, and said so
    assert is_random_secret(random_one.secret) and len(random_one.secret) == 32
    assert random_one.secret != another.secret
    both = {"TRAPOULA_SECRET_FILE": str(good), "TRAPOULA_SECRET": "cd" * 16}
    assert Settings.from_args(["--secret-file", str(good)], both).secret == b"\xab" * 32  # the flag wins
    with pytest.raises(ValueError, match="set TRAPOULA_SECRET or TRAPOULA_SECRET_FILE, not both"):
        Settings.from_env(both)
    short = tmp_path / "short"
    short.write_text("ab" * 15, encoding="ascii")
    with pytest.raises(ValueError, match=r"^TRAPOULA_SECRET_FILE: secret file .*short.*16 bytes") as refused:
        Settings.from_env({"TRAPOULA_SECRET_FILE": str(short)})
    assert "ab" * 15 not in str(refused.value)
    with pytest.raises(ValueError, match=r"^TRAPOULA_SECRET: the secret must be hex digits$"):
        Settings.from_env({"TRAPOULA_SECRET": "not hex at all"})
    with pytest.raises(SystemExit):
        Settings.from_args(["--secret-file", str(tmp_path / "missing")], {})
    with pytest.raises(SystemExit):
        Settings.from_args(["--secret", "ab" * 32], {})  # no such flag: it would show in the process list


def test_serve_help_is_complete(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        service_main(["--help"])
    assert stop.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: trapoula serve ")
    flat = " ".join(shown.split())
    for s in SETTINGS:
        assert s.env in flat, s.env
        if s.flag:
            default = s.default.replace("`", "")
            assert f"{s.flag} {s.metavar}" in flat and f"(env {s.env}; default {default})" in flat, s.flag
    epilog = flat[flat.index("Every flag may be set instead by its environment variable") :]
    assert all(s.env in epilog for s in SETTINGS)


def test_one_table_lists_every_setting_in_the_readme_and_the_module_docstring() -> None:
    table = settings_table()
    assert len(table.splitlines()) == len(SETTINGS) + 2
    assert table in (settings_module.__doc__ or "")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert table in readme
    assert readme.count("| flag | environment | default | meaning |") == 1
    every_field = {s.field for s in SETTINGS}
    assert every_field == set(Settings.model_fields)


def test_a_busy_metrics_port_is_a_warning_and_the_server_serves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        busy = f"127.0.0.1:{holder.getsockname()[1]}"
        settings = Settings(
            address="127.0.0.1:0", database_url=f"sqlite:///{tmp_path / 'm.sqlite3'}", metrics_address=busy
        )
        bound: list[str] = []
        with caplog.at_level(logging.INFO, logger="trapoula.service.server"):
            serve_once(settings, bound, metrics_ready=bound.append)
    assert len(bound) == 1 and bound[0].startswith("127.0.0.1:")  # served, without metrics
    [warning] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("metrics not served")]
    assert [r.levelno for r in caplog.records if r.getMessage() == warning] == [logging.WARNING]
    assert f"cannot listen on {busy!r}" in warning and "TRAPOULA_METRICS_ADDRESS" in warning


@pytest.mark.parametrize("address", [" 127.0.0.1:0", "a b:0", "host\t:50051", "127.0.0.1\x00:1"])
def test_a_blank_or_control_character_in_the_host_is_a_bad_address(address: str) -> None:
    with pytest.raises(ValueError, match="is not host:port"):
        Settings.from_env({"TRAPOULA_ADDRESS": address})
    with pytest.raises(SystemExit) as stop:
        Settings.from_args(["--address", address], {})
    assert stop.value.code == 2


def test_an_odd_number_of_hex_digits_says_so() -> None:
    with pytest.raises(ValueError, match="has 33 hex digits: it needs an even number"):
        Settings.from_env({"TRAPOULA_SECRET": "a" * 33})
    with pytest.raises(ValueError, match="must be hex digits"):
        Settings.from_env({"TRAPOULA_SECRET": "g" * 32})


def test_a_server_without_a_given_secret_warns_that_its_signing_key_is_this_processs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/record.md 2.5: without a secret the signing key is generated per process, with a warning."""
    given = Settings(
        address="127.0.0.1:0",
        database_url=f"sqlite:///{tmp_path / 'g.sqlite3'}",
        secret=b"\x01" * 32,
        metrics_address=None,  # the default port may be taken by another process: a warning of its own
    )
    made_up = Settings.from_args(
        [
            "--address",
            "127.0.0.1:0",
            "--database-url",
            f"sqlite:///{tmp_path / 'r.sqlite3'}",
            "--metrics-address",
            "off",
        ],
        {},
    )
    warnings = []
    for settings in (given, made_up):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="trapoula.service.server"):
            serve_once(settings, [])
        warnings.append([r.getMessage() for r in caplog.records if r.levelno == logging.WARNING])
    assert warnings[0] == []
    assert len(warnings[1]) == 1 and warnings[1][0].startswith("no server secret given (TRAPOULA_SECRET_FILE")


def test_text_given_in_code_is_parsed_as_its_flag_would_be_and_the_model_is_frozen() -> None:
    made = Settings(metrics_address="OFF", cache_size=7, cors_origins="http://a.example, https://b.example")
    assert (made.metrics_address, made.cache_size) == (None, 7)
    assert made.cors_origins == ("http://a.example", "https://b.example")
    with pytest.raises(ValueError, match=r"address 'a b:0' is not host:port"):
        Settings(address="a b:0")
    with pytest.raises(ValueError, match="frozen"):
        made.cache_size = 8  # type: ignore[misc]
    moved = made.model_copy(update={"address": "127.0.0.1:0"})
    assert (moved.address, moved.cache_size, moved.secret) == ("127.0.0.1:0", 7, made.secret)


def test_a_setting_is_one_declaration_flag_variable_help_and_table_follow() -> None:
    """What adding a setting takes: one annotated field (docs/operations.md, "Adding a setting")."""
    from typing import Annotated

    from trapoula.service.settingfields import FlagSettings, Option, build_parser, markdown_table, rows
    from trapoula.service.settingvalues import parse_poll_seconds

    class Toy(FlagSettings):
        model_config = SettingsConfigDict(frozen=True, extra="forbid", env_prefix="TOY_")
        grace_seconds: Annotated[
            float, Option("SECONDS", "how long a stop waits; 0.05 to 3600", parse_poll_seconds)
        ] = 2.5

    [row] = rows(Toy)
    assert (row.field, row.flag, row.env, row.default) == (
        "grace_seconds",
        "--grace-seconds",
        "TOY_GRACE_SECONDS",
        "`2.5`",
    )
    assert markdown_table(Toy).splitlines()[2] == (
        "| `--grace-seconds` | `TOY_GRACE_SECONDS` | `2.5` | how long a stop waits; 0.05 to 3600 |"
    )
    parser = build_parser(Toy, "toy", "", "")
    assert Toy.parse_flags(parser, [], {}).grace_seconds == 2.5
    assert Toy.parse_flags(parser, [], {"TOY_GRACE_SECONDS": "9"}).grace_seconds == 9.0
    assert Toy.parse_flags(parser, ["--grace-seconds", "1"], {"TOY_GRACE_SECONDS": "9"}).grace_seconds == 1.0
    with pytest.raises(ValueError, match=r"^TOY_GRACE_SECONDS: watch poll seconds '0' is not a number"):
        Toy.parse_flags(parser, [], {"TOY_GRACE_SECONDS": "0"})
    assert "--grace-seconds SECONDS" in parser.format_help()


def test_a_settings_file_is_under_the_flags_and_variables_and_refused_like_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "trapoula.toml"
    good.write_text(
        'address = "0.0.0.0:6000"\ncache_size = 5000\nwatch_poll_seconds = 2.5\nprojection = false\n'
        'cors_origins = ["https://a.example", "http://b.example:8080"]\nmetrics_address = "off"\n',
        encoding="utf-8",
    )
    from_file = Settings.from_env({"TRAPOULA_SETTINGS_FILE": str(good)})
    assert (from_file.address, from_file.cache_size, from_file.watch_poll_seconds) == ("0.0.0.0:6000", 5000, 2.5)
    assert (from_file.projection, from_file.metrics_address) == (False, None)
    assert from_file.cors_origins == ("https://a.example", "http://b.example:8080")
    assert from_file.settings_file == str(good) and from_file.log_level == "info"  # the rest: defaults
    over = Settings.from_args(["--cache-size", "7", "--settings-file", str(good)], {"TRAPOULA_ADDRESS": "[::1]:1"})
    assert (over.cache_size, over.address, over.watch_poll_seconds) == (7, "[::1]:1", 2.5)  # flag, variable, file
    blank = Settings.from_env({"TRAPOULA_SETTINGS_FILE": str(good), "TRAPOULA_CACHE_SIZE": " "})
    assert blank.cache_size == 5000  # a blank variable is unset: the file's value stands
    cases = {
        "cache_size = 0\n": r"cache_size: cache size '0' is not a whole number from 1 to 1,000,000$",
        "snapshot_every = 1.5\n": r"snapshot_every: snapshot interval '1.5' is not a whole number",
        "cache_sise = 5\n": r"'cache_sise' is not a setting \(the settings: address, ",
        'secret = "' + "ab" * 32 + '"\n': r"secret may not be set in a settings file$",
        "settings_file = 'x.toml'\n": r"settings_file may not be set in a settings file$",
        "address = [1, 2]\n": r"address: a string, a number, true or false, or a list of strings$",
        "address = \n": r"is not TOML: ",
    }
    for text, why in cases.items():
        bad = tmp_path / "bad.toml"
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(
            ValueError, match=rf"^TRAPOULA_SETTINGS_FILE: settings file '.*bad\.toml'(: | ).*{why}"
        ) as refused:
            Settings.from_env({"TRAPOULA_SETTINGS_FILE": str(bad)})
        assert "ab" * 32 not in str(refused.value)  # a refused value is never quoted
    with pytest.raises(ValueError, match=r"^--settings-file: settings file '.*missing\.toml': No such file"):
        Settings.from_args(["--settings-file", str(tmp_path / "missing.toml")], {})
    (tmp_path / "bad.toml").write_text("log_level = 'loud'\n", encoding="utf-8")
    assert service_main(["--settings-file", str(tmp_path / "bad.toml")]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("trapoula: --settings-file: settings file ") and "log_level: log level 'loud'" in line
