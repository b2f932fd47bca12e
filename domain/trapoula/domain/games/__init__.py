"""One package per game; each exposes ``SPEC``, a :class:`trapoula.domain.game.GameSpec`."""
