"""``python -m bot``: the player on Botzone's stdin/stdout (keep-running, simple or JSON
interaction, detected from the first line); ``--no-keep-running`` answers one turn,
``--work-budget CALLS`` decides on kernel calls instead of the clock.  Kept running, the
player is loaded in the first turn (:mod:`bot.start`)."""

import sys

from bot.start import main

sys.exit(main(sys.argv[1:]))
