"""A replay viewer in the browser: any game record mjbot reads, as one self-contained HTML page.

- :mod:`arena.review.viewer.model`: the typed steps of a game (hands, discards, melds, flowers,
  walls, winds, scores, decisions) and the table tracker that rebuilds them from events;
- :mod:`arena.review.viewer.sources`: reading records, Botzone match logs and PKU data.txt
  (the one module that imports the replay, the records and the protocol readers);
- :mod:`arena.review.viewer.build`: a game's steps with the recorded and re-asked decisions;
- :mod:`arena.review.viewer.page`: the JSON blob and the HTML pages (one game, a match index).
"""
