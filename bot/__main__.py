"""``python -m bot``: the player on Botzone's stdin/stdout (keep-running, simple or JSON
interaction, detected from the first line); ``--no-keep-running`` answers one turn.  The
seat request is answered before the player is loaded (:mod:`bot.start`)."""

import sys

from bot.start import play_botzone

sys.exit(play_botzone(keep_running="--no-keep-running" not in sys.argv))
