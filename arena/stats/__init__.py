"""Honest statistics for matches: duplicate seatings, intervals clustered by wall, the paired
difference of two players, and the sequential test (SPRT) that stops a match early, with its
bias adjustment.  Pure numbers: no games are played here."""
