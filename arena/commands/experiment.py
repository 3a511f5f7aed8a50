"""``mjbot experiment NAME``: reproductions of the papers' experiments.

``sdw``: Tang, Chen & Wu, "An Efficient Method for Assessing the Strength of
Mahjong Programs", Tables 1 and 4-7 (:mod:`arena.lab.experiments.sdw`).
``imitate``: the planner's discard ranker fitted to the real Botzone logs, with its
held-out agreement (:mod:`arena.lab.fits.imitation`).
"""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="experiment", required=True)
    from arena.lab.experiments.sdw import add_arguments as sdw_arguments

    sdw = sub.add_parser("sdw", help="the stable draw wall against the single wall (Tang, Chen "
                         "& Wu)", description="The stable-draw-wall paper's Tables 1, 4-7 with "
                         "mjbot as SIMCAT.")
    sdw_arguments(sdw)
    from arena.lab.fits.imitation import add_arguments as imitate_arguments

    imitate = sub.add_parser(
        "imitate", help="fit the discard ranker to the Botzone logs (held-out agreement)",
        description="The planner's discard ranker fitted to the rank-1 bot's discards.")
    imitate_arguments(imitate)


def run(args: argparse.Namespace) -> int:
    if args.experiment == "imitate":
        from arena.lab.fits.imitation import run as run_imitate

        code: int = run_imitate(args)
        return code
    from arena.lab.experiments.sdw import run as run_sdw

    code = run_sdw(args)
    return code
