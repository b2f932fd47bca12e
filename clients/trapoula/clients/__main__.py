"""``python -m trapoula.clients``: the ``trapoula`` command."""

from __future__ import annotations

import sys

from trapoula.clients.cli import main

if __name__ == "__main__":
    sys.exit(main())
