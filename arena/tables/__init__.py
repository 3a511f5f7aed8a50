"""Where arena games are played: one game as a pure function of its seed and players
(:mod:`.games`), games with programs in them through the platform mocks (:mod:`.external`),
where games run (:mod:`.runner`: this process or Ray), and the two ways to run many:
a duplicate match (:mod:`.match`) and self-play (:mod:`.selfplay`)."""
