#!/bin/sh
# Seeded arena records of the planner (mcr-botzone and taiwan-16) for checking that a
# speed change leaves its decisions unchanged:
#   scripts/planner_records.sh /tmp/ref     # before the change
#   scripts/planner_records.sh /tmp/new     # after it
#   python scripts/compare_records.py /tmp/ref/mcr /tmp/new/mcr
#   python scripts/compare_records.py /tmp/ref/taiwan /tmp/new/taiwan
set -e
OUT=${1:?usage: planner_records.sh DIR [MCR_GAMES] [TAIWAN_GAMES]}
MCR=${2:-40}
TW=${3:-24}
PY=${PYTHON:-.venv/bin/python}
nice "$PY" -m arena arena planner baseline-v1 baseline-v1 baseline-v1 --rules mcr-botzone \
    --games "$MCR" --workers 0 --seed 123 --records "$OUT/mcr" --no-progress > "$OUT.mcr.out" 2>&1
nice "$PY" -m arena arena planner baseline-v1 baseline-v1 baseline-v1 --rules taiwan-16 \
    --games "$TW" --workers 0 --seed 123 --records "$OUT/taiwan" --no-progress > "$OUT.taiwan.out" 2>&1
