"""What the rest of arena/ stands on: files written safely (no link followed, no partial
file), where the repository's game data lives, and the Botzone upload (the zip and its
interpreter).  Imports nothing else of arena/."""
