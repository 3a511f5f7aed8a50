"""The Dockerfile mirrors the setup script: install the package, warm numba's cache, then play.

No Docker engine runs on the development machines, so the image itself is not built here;
these checks keep its steps in line with scripts/setup.sh, which CI runs for real."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            op, _, rest = line.partition(" ")
            out.append((op.upper(), " ".join(rest.split())))
    return out


def test_dockerfile_installs_every_package_and_warms_the_cache() -> None:
    steps = instructions()
    copied = {rest.split()[0] for op, rest in steps if op == "COPY"}
    for package in ("game", "strategy", "protocols", "bot", "pyproject.toml"):
        assert package in copied
    runs = " ".join(rest for op, rest in steps if op == "RUN")
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    # the same two steps as the setup script, in the same order
    assert "-m strategy.warmup" in setup and "-m strategy.warmup" in runs
    assert runs.index("pip install") < runs.index("-m strategy.warmup")
    # the cache directory is fixed before the warm-up so the runtime finds it
    env = " ".join(rest for op, rest in steps if op == "ENV")
    assert "NUMBA_CACHE_DIR" in env
    first_env = next(i for i, (op, _) in enumerate(steps) if op == "ENV")
    first_run = next(i for i, (op, _) in enumerate(steps) if op == "RUN")
    assert first_env < first_run
    assert steps[-1] == ("ENTRYPOINT", '["mjbot", "play", "botzone"]')
