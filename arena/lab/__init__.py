"""Research, apart from the tools that ship: experiments that answer a question about the
bot or the papers (:mod:`.experiments`), and fits that produce constants the strategy uses
(:mod:`.fits`).  Nothing here is imported by the player."""
