"""The arena's players by name: the registry (:mod:`.lineup`) of every in-process player
(``mjbot``, the frozen ``planner-v1`` and ``baseline-v1``, the simple strategies of
:mod:`.simple`), and agents thinking in separate processes (:mod:`.thinker`)."""
