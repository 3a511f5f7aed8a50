"""``mjbot bench soak``: Olympiad tables under trouble must play exactly the undisturbed games
(:mod:`.run`), from its inputs (:mod:`.corpus`) and troubles (:mod:`.attacks`), through
watched tables (:mod:`.tables`), to one scenario per weakness (:mod:`.scenarios`)."""
