"""Speed benchmarks: ``mjbot bench NAME`` prints a table of medians and ratios (and
``--json``), each figure beside its target.  Experiments and fits live in :mod:`arena.lab`."""
