"""``python -m bot``: the player on Botzone's stdin/stdout (keep-running, simple or JSON
interaction, detected from the first line); ``--no-keep-running`` answers one turn."""

import sys

from bot.botzone import main

sys.exit(main(keep_running="--no-keep-running" not in sys.argv))
