"""Every command of docs/tutorial.md is one its program accepts: ``trapoula`` commands parse with
the command's own parser (``serve`` with the server's settings), the examples' with theirs.  (The
tutorial's commands were run as written; this keeps their flags true as the programs change.)"""

from __future__ import annotations

import importlib.util
import shlex
from pathlib import Path
from types import ModuleType

import pytest

from trapoula.clients.cli import build_parser
from trapoula.service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDERS = {
    "<table id>": "3b277eab-75dd-4106-85d1-db1e9007c9e4",
    '<the 64 hex digits after "ed25519">': "ab" * 32,
}


def commands() -> list[str]:
    """The tutorial's command lines (indented four spaces) of ``trapoula`` and of the examples."""
    out = []
    for line in (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8").splitlines():
        if line.startswith(("    trapoula ", "    python examples/")):
            for placeholder, value in PLACEHOLDERS.items():
                line = line.replace(placeholder, value)
            out.append(line.strip())
    return out


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tutorial_shows_the_commands_of_every_step() -> None:
    firsts = {tuple(shlex.split(c)[:2]) for c in commands()}
    for step in ("play", "serve", "games", "tables", "history", "standings", "replay", "verify"):
        assert ("trapoula", step) in firsts, step
    assert {("python", "examples/bot.py"), ("python", "examples/spectator.py")} <= firsts


@pytest.mark.parametrize("command", commands())
def test_a_tutorial_command_is_accepted_as_written(command: str) -> None:
    argv = shlex.split(command)
    if argv[0] == "python":
        parsed = example(Path(argv[1]).stem).parse(argv[2:])
        assert parsed.address == "127.0.0.1:50051"
    elif argv[1] == "serve":
        settings = Settings.from_args(argv[2:], env={})
        assert settings.address == "127.0.0.1:50051"
    else:
        build_parser().parse_args(argv[1:])  # exits (a failure here) on an unknown flag or a bad value
