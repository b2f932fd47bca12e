"""``python -m bench.instructions [--tables N] [--window S] [--warmup S]``: the instructions the
server executes per ``Act``, beside a bare unary call and bare stream messages, counted by
valgrind's callgrind (``make bench-instructions``).

CPU time on a shared machine drifts with its neighbours: the same ``Act`` run cost its server
2.3 ms and 5.9 ms a call within one hour here, while a bare call moved by a tenth (a large heap
suffers more from other tenants' use of the caches).  An instruction count does not drift: the
same code, inputs and timing give the same count within a few per cent, whatever else the
machine does.  So this is the figure to compare two commits by, on a noisy machine; ``make
bench`` stays the figure of record (time is what a player waits for), and its bounds are on time.

Each process runs under ``valgrind --tool=callgrind --instr-atstart=no``, about fifty times
slower, so the runs are short in calls: instrumentation is switched on (``callgrind_control -i
on``) when the measured window opens and off when it closes, and the count is what the process
executed in between (all its threads; user space only, not the kernel's work for it).

* ``Act``: ``python -m trapoula.service`` on PostgreSQL (a fresh schema), ``N`` tables of agonia
  played by client bots that follow batched watches (:func:`bench.calls.act_run`, as ``make
  bench``): instructions per ``Act``, and the stream messages it caused.
* The bare unary call and the bare stream message (:mod:`bench.bare`) at ``Act``'s sizes: per call
  and per message.
* ``Act`` over the bare ones: instructions of one ``Act`` over those of one bare call plus its
  messages.  The bare append of the events is left out (its recorder runs in another process).

Exit status 0 when every figure was measured, 1 when a step failed, 2 for bad usage (no
valgrind, no PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

from . import bare, calls
from .servers import ServerProcess, postgres_schema, postgres_url

T = TypeVar("T")

VALGRIND = ("valgrind", "--tool=callgrind", "--instr-atstart=no")
"""The command line prefix of a counted process (its output file is added)."""


class Counted:
    """A :class:`ServerProcess` run under callgrind, its instrumentation switched by :meth:`toggle`."""

    def __init__(self, process: ServerProcess, out: Path) -> None:
        self.out = out
        self.process = ServerProcess(
            [*VALGRIND, f"--callgrind-out-file={out}", *process.argv], process.ready, process.log_path, process.env
        )
        self._switched = 0

    def toggle(self) -> float:
        """Switch the instrumentation on (first call: the window opens) or off (second call); the
        CPU-time hook of the runs (:func:`bench.figures.cpu_over_window`), hence the 0.0."""
        self._switched += 1
        pid = self.process.process.pid if self.process.process is not None else 0
        state = "on" if self._switched == 1 else "off"
        subprocess.run(["callgrind_control", "-i", state, str(pid)], capture_output=True, check=False, timeout=60)
        return 0.0

    def instructions(self) -> int:
        """Stop the process and read the instructions it executed with instrumentation on.

        Raises:
            RuntimeError: callgrind wrote no count (the process did not stop cleanly).
        """
        self.process.stop(timeout=120)
        try:
            lines = self.out.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as exc:
            raise RuntimeError(
                f"callgrind wrote nothing ({exc}); the server's log ends:\n{self.process.log_tail()}"
            ) from exc
        counts = [int(line.split()[1]) for line in lines if line.startswith(("totals:", "summary:"))]
        if not counts or not max(counts):
            raise RuntimeError(f"callgrind counted nothing; the server's log ends:\n{self.process.log_tail()}")
        return max(counts)


def _run(counted: Counted, run: Callable[[Callable[[], float]], Coroutine[Any, Any, T]]) -> tuple[T, int]:
    counted.process.start()
    try:
        result = asyncio.run(run(counted.toggle))
    except BaseException:
        counted.process.stop()
        raise
    return result, counted.instructions()


def measure(tables: int, warmup: float, window: float, scratch: Path) -> dict[str, float]:
    """The figures (see the module docstring): instructions per ``Act``, per bare call, per bare
    message, the messages per ``Act`` and the ratio.

    Raises:
        RuntimeError: a server did not start, or counted nothing; no PostgreSQL.
    """
    url = postgres_url()
    with postgres_schema(url) as (schema, detail):  # detail: the server's version, or why there is no schema
        if schema is None:
            raise RuntimeError(detail)
        server = Counted(ServerProcess.trapoula(url, scratch / "trapoula.log", schema), scratch / "act.out")
        act, act_count = _run(server, lambda cpu: calls.act_run(server.process.address, tables, warmup, window, cpu))
    if act.window.calls == 0:
        raise RuntimeError(f"no Act completed ({act.window.first_error or 'no error'})")
    per_act = act_count / act.window.calls
    unary = Counted(ServerProcess.bare(scratch / "bare-unary.log"), scratch / "unary.out")
    sizes = (round(act.request_bytes), round(act.reply_bytes), act.token_chars)
    call, call_count = _run(
        unary, lambda cpu: bare.unary_run(unary.process.address, tables, warmup, window, *sizes, cpu)
    )
    stream = Counted(ServerProcess.bare(scratch / "bare-stream.log"), scratch / "stream.out")
    burst = max(1, round(act.stream_messages / calls.SEATS))
    message_bytes = round(act.stream_message_bytes)
    messages, message_count = _run(
        stream,
        lambda cpu: bare.stream_run(
            stream.process.address, tables, calls.SEATS, message_bytes, burst, warmup, window, cpu
        ),
    )
    per_call = call_count / max(1, call.window.calls)
    per_message = message_count / max(1, messages.window.calls)
    baseline = per_call + act.stream_messages * per_message
    return {
        "acts": act.window.calls,
        "act": per_act,
        "messages_per_act": act.stream_messages,
        "call": per_call,
        "message": per_message,
        "ratio": per_act / baseline,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags, measure, print the figures; the exit status (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1, help="tables played at once, 1 to 20 (default 1)")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before each window (default 15)")
    parser.add_argument("--window", type=float, default=30.0, help="seconds counted (default 30)")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 20 or args.warmup < 0 or args.window <= 0:
        parser.error(
            "--tables must be 1 to 20 (each process runs fifty times slower), --warmup at least 0, --window positive"
        )
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("bench.instructions: valgrind (with callgrind_control) is not installed", file=sys.stderr)
        return 2
    print(f"counting with callgrind: {args.tables} table(s), {args.warmup:g} s unmeasured, then {args.window:g} s")
    with tempfile.TemporaryDirectory(prefix="trapoula-instructions-") as scratch:
        try:
            f = measure(args.tables, args.warmup, args.window, Path(scratch))
        except RuntimeError as exc:
            print(f"bench.instructions: {exc}", file=sys.stderr)
            return 1
    print(f"Act (postgresql, {args.tables} table(s)): {f['act']:,.0f} instructions a call ({f['acts']:.0f} counted)")
    print(f"  stream messages it caused: {f['messages_per_act']:.2f}")
    print(f"bare unary call at Act's sizes: {f['call']:,.0f} instructions")
    print(f"bare stream message at Act's sizes: {f['message']:,.0f} instructions")
    print(f"Act / (bare call + its messages): {f['ratio']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
