"""Game records: the typed lines of a record (:mod:`.lines`) and the JSON Lines files that
hold them (:mod:`.files`).  Every platform, table and review tool writes and reads these."""
