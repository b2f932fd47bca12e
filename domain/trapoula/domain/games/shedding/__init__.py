"""What the three shedding games share (rules/shedding-common.md, S1-S14): events and mechanics."""
