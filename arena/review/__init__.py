"""Looking back at a game: rebuild a seat's view from a record or a Botzone log and ask a
player again (:mod:`.replay`), the whole table of a real match (:mod:`.match_replay`), and the
replay viewer in the browser (:mod:`.viewer`)."""
