"""Fits that produce the strategy's constants from self-play or real logs: the danger
model (:mod:`.danger_fit`), the value of a position (:mod:`.value_fit`), the wall model
(:mod:`.wall_fit`) and the discard ranker (:mod:`.imitation`)."""
