"""The Olympiad-style platform: the taiwan-16 referee (:mod:`.referee`), who may play which
seat (:mod:`.access`), the embedded broker's guards (:mod:`.broker_guards`), committed walls
(:mod:`.walls`), any program on a seat (:mod:`.program`), and a whole local match in one
process (:mod:`.match`)."""
