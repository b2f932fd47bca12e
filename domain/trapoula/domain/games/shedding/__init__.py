"""What the three shedding games share (docs/rules/shedding-common.md, S1-S14): events and mechanics."""
