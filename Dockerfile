# syntax=docker/dockerfile:1
# mjbot for Botzone-style play: `docker run -i IMAGE` speaks Botzone's protocol on stdin/stdout.
#
# Two stages.  PyMahjongGB is published as source only, so installing it compiles C++:
# the builder stage has a compiler and turns the package and every dependency into wheels;
# the final stage installs those wheels with no index and no compiler, runs as a non-root
# user, and warms numba's cache (the last step of scripts/setup.sh) so the bot starts
# without compiling anything.  tests/test_dockerfile.py replays these steps in fresh
# virtual environments, since no Docker engine runs on the development machines.

FROM python:3.11-slim AS builder
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY game game
COPY strategy strategy
COPY protocols protocols
COPY bot bot
COPY arena arena
# --use-pep517: PyMahjongGB has only a setup.py; build it in an isolated environment with
# its own setuptools and wheel, whatever the base image's pip has installed
RUN python -m pip wheel --no-cache-dir --use-pep517 --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    NUMBA_CACHE_DIR=/home/mjbot/.numba-cache
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin mjbot
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    python -m pip install --no-index --find-links /wheels mjbot
USER mjbot
WORKDIR /home/mjbot
# the kernels compile once, as the user who runs them, into a cache that user owns;
# run from the home directory so they are keyed to the installed package's files
RUN python -m strategy.warmup
ENTRYPOINT ["mjbot", "play", "botzone"]
