"""Domain tests: make the given/when/then helper ``agonia_helpers`` importable.

The suite runs with ``--import-mode=importlib``, which does not put test folders on
``sys.path``; the rule tests import their small helper module from this folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
