"""Scoring: MCR fan through PyMahjongGB (:mod:`.mcr`) and taiwan-16 tai (:mod:`.tai`)."""
