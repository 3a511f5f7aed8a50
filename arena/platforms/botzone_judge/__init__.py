"""The Botzone judge mock, split by concern: :mod:`.sandbox` (a bot program as a
process), :mod:`.turns` (one game's turn loop), :mod:`.match` (walls, matches,
totals, records, the report)."""
