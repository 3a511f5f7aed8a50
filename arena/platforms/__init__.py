"""The platforms, played locally: the Botzone judge mock (:mod:`.botzone_judge`, programs on
stdin/stdout) and the Olympiad-style referee and broker (:mod:`.olympiad`, seats over
WebSocket or MQTT).  Each speaks its platform's wire protocol to real programs."""
