"""Experiments: the stable draw wall (:mod:`.sdw`), the sighted ceiling (:mod:`.sighted`),
the SPRT's error rates on real walls (:mod:`.sprt_check`), agreement with real players
(:mod:`.agreement`) and the danger estimate on real games (:mod:`.danger`)."""
