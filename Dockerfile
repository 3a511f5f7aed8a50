# mjbot for Botzone-style play: `docker run -i IMAGE` speaks Botzone's protocol on stdin/stdout.
# The steps mirror scripts/setup.sh (install the package, then warm the numba cache), so the
# image starts without compiling anything.
FROM python:3.11-slim
WORKDIR /opt/mjbot
ENV NUMBA_CACHE_DIR=/opt/mjbot/.numba-cache \
    PYTHONDONTWRITEBYTECODE=1
COPY pyproject.toml README.md ./
COPY game game
COPY strategy strategy
COPY protocols protocols
COPY bot bot
RUN python -m pip install --no-cache-dir . \
    && python -m strategy.warmup
ENTRYPOINT ["mjbot", "play", "botzone"]
