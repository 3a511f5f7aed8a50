"""Honest statistics for matches: duplicate seatings, intervals clustered by wall, the paired
difference of two players, and the sequential test (SPRT) that stops a match early, with its
bias adjustment; a seat's part of a game, which every per-seat tally counts; and the one
table the commands print players' figures in.  Pure numbers: no games are played here."""
