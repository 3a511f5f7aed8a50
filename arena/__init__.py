"""The platform's side and everything that runs games: the Botzone judge mock, the
Olympiad referee and match, self-play and its named players, records, replay,
benchmarks and the ``mjbot`` command.  It may use every other package; ``bot``
never imports it."""
