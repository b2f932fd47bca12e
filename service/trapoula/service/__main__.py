"""``python -m trapoula.service [--address HOST:PORT] [--database-url URL]``: serve over gRPC.

Settings come from flags, then ``TRAPOULA_*`` environment variables, then defaults (see
:mod:`trapoula.service.settings`).  Stops gracefully on SIGINT or SIGTERM.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from trapoula.service.server import run, serve
from trapoula.service.settings import Settings

__all__ = ["main", "run", "serve"]


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags and serve until interrupted; returns the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings.from_args(argv)
    except ValueError as exc:
        print(f"trapoula: {exc}", file=sys.stderr)
        return 2
    try:
        run(settings, ready=lambda address: print(f"trapoula serving on {address}", flush=True))
    except RuntimeError as exc:
        print(f"trapoula: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
