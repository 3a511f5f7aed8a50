"""``mjbot experiment NAME``: reproductions of the papers' experiments.

``sdw``: Tang, Chen & Wu, "An Efficient Method for Assessing the Strength of
Mahjong Programs", Tables 1 and 4-7 (:mod:`arena.experiment_sdw`).
"""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="experiment", required=True)
    from arena.experiment_sdw import add_arguments as sdw_arguments

    sdw = sub.add_parser("sdw", help="paper 002: the stable draw wall against the single wall",
                         description="Paper 002's Tables 1, 4-7 with mjbot as SIMCAT.")
    sdw_arguments(sdw)


def run(args: argparse.Namespace) -> int:
    from arena.experiment_sdw import run as run_sdw

    code: int = run_sdw(args)
    return code
