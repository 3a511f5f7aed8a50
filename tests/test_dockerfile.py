"""The Docker image: a builder stage with a compiler makes wheels, a final stage without one
installs them, runs as a non-root user, warms numba's cache and plays Botzone on stdio.

No Docker engine runs on the development machines (and the base image cannot be pulled
there), so the image itself is not built here.  Instead:

- the fast tests read the Dockerfile and check its structure against the project's own
  files (pyproject's packages and entry point, scripts/setup.sh's steps);
- the slow test replays every step of the Dockerfile in fresh virtual environments, one
  per stage: the builder's ``pip wheel`` (PyMahjongGB compiles from source), the final
  stage's ``pip install`` from those wheels with no index and no compiler on PATH, the
  warm-up, then the ENTRYPOINT plays a whole refereed game, four times over, without
  compiling a kernel.  A step it does not understand fails it, so it follows the file.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILERS = ("build-essential", "gcc", "g++", "clang", "cc")


@dataclass
class DockerStage:
    base: str
    name: str | None
    steps: list[tuple[str, str]] = field(default_factory=list)

    def ops(self, op: str) -> list[str]:
        return [rest for o, rest in self.steps if o == op]


def stages(text: str | None = None) -> list[DockerStage]:
    """The Dockerfile's stages, each with its (INSTRUCTION, arguments) steps."""
    text = (ROOT / "Dockerfile").read_text() if text is None else text
    out: list[DockerStage] = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        op, _, rest = line.partition(" ")
        rest = " ".join(rest.split())
        if op.upper() == "FROM":
            base, _, name = rest.partition(" AS ")
            out.append(DockerStage(base.strip(), name.strip() or None))
        else:
            assert out, f"{op} before any FROM"
            out[-1].steps.append((op.upper(), rest))
    return out


def env_of(stage: DockerStage) -> dict[str, str]:
    env: dict[str, str] = {}
    for rest in stage.ops("ENV"):
        for item in shlex.split(rest):
            key, _, value = item.partition("=")
            env[key] = value
    return env


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


# --------------------------------------------------------------------------- structure
def check_two_stages(parsed: list[DockerStage]) -> None:
    """A builder with a compiler; a final stage without one that installs only its wheels."""
    assert len(parsed) == 2, f"{len(parsed)} stages"
    builder, final = parsed
    assert builder.name == "builder" and final.name is None
    assert "build-essential" in " ".join(builder.ops("RUN"))
    final_runs = " ".join(final.ops("RUN"))
    assert "apt-get install" not in final_runs
    assert not any(re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", final_runs)
                   for c in COMPILERS)
    assert not any("--from=" in rest for rest in final.ops("COPY"))
    install = next(r for r in final.ops("RUN") if "pip install" in r)
    assert "from=builder,source=/wheels" in install
    assert "--no-index --find-links /wheels" in install
    wheel = next(r for r in builder.ops("RUN") if "pip wheel" in r)
    assert "--wheel-dir /wheels" in wheel


def check_python(parsed: list[DockerStage]) -> None:
    """Every stage on one Python the project supports (wheels built for the one that runs)."""
    floor = re.search(r">=\s*3\.(\d+)", pyproject()["project"]["requires-python"])
    assert floor is not None
    for stage in parsed:
        match = re.fullmatch(r"python:3\.(\d+)-slim", stage.base)
        assert match and int(match.group(1)) >= int(floor.group(1)), stage.base
    assert len({s.base for s in parsed}) == 1


def check_packages(parsed: list[DockerStage]) -> None:
    """The build gets every package pyproject lists, the entry point's among them."""
    copied = {rest.split()[0] for rest in parsed[0].ops("COPY")}
    assert "pyproject.toml" in copied
    project = pyproject()
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]
                ["include"]}
    assert packages <= copied, f"not copied into the build: {packages - copied}"
    entry = project["project"]["scripts"]["mjbot"].split(":")[0].split(".")[0]
    assert entry in copied
    # the README is the package's long description: the build needs it
    assert project["project"]["readme"] in " ".join(parsed[0].ops("COPY"))


def check_user_and_cache(parsed: list[DockerStage]) -> None:
    """A non-root user, created in the image, owns the numba cache it warms and runs."""
    final = parsed[-1]
    users = final.ops("USER")
    assert users and users[-1] not in ("root", "0"), "runs as root"
    user = users[-1]
    assert any("useradd" in r and r.split()[-1] == user for r in final.ops("RUN"))
    cache = env_of(final).get("NUMBA_CACHE_DIR", "")
    assert cache.startswith(f"/home/{user}/"), cache
    ops = [op for op, _ in final.steps]
    warm = next(i for i, (op, rest) in enumerate(final.steps)
                if op == "RUN" and "-m strategy.warmup" in rest)
    # the cache is fixed and the user switched before the warm-up, so the cache is theirs
    assert ops.index("ENV") < warm and ops.index("USER") < warm
    # the warm-up runs outside any source tree, on the installed package
    workdir = final.ops("WORKDIR")[-1]
    assert workdir == f"/home/{user}" and ops.index("WORKDIR") < warm
    assert final.steps[-1] == ("ENTRYPOINT", '["mjbot", "play", "botzone"]')


def check_setup_order(parsed: list[DockerStage]) -> None:
    """The same two steps as scripts/setup.sh, in the same order: install, then warm up."""
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    runs = " ".join(rest for s in parsed for op, rest in s.steps if op == "RUN")
    assert "-m strategy.warmup" in setup and "-m strategy.warmup" in runs
    assert setup.index("pip install") < setup.index("-m strategy.warmup")
    assert runs.index("pip install") < runs.index("-m strategy.warmup")


CHECKS = [check_two_stages, check_python, check_packages, check_user_and_cache,
          check_setup_order]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_the_dockerfile_passes(check: Callable[[list[DockerStage]], None]) -> None:
    check(stages())


OLD_DOCKERFILE = """FROM python:3.11-slim
WORKDIR /opt/mjbot
ENV NUMBA_CACHE_DIR=/opt/mjbot/.numba-cache \\
    PYTHONDONTWRITEBYTECODE=1
COPY pyproject.toml README.md ./
COPY game game
COPY strategy strategy
COPY protocols protocols
COPY bot bot
RUN python -m pip install --no-cache-dir . \\
    && python -m strategy.warmup
ENTRYPOINT ["mjbot", "play", "botzone"]
"""


def mutants() -> dict[str, str]:
    """Dockerfiles that each break one promise (the first one is the old, one-stage file)."""
    text = (ROOT / "Dockerfile").read_text()
    final_from = text.index("\nFROM python:3.11-slim\n") + 1

    def swap(a: str, b: str) -> str:
        assert text.count(a) == 1, a
        return text.replace(a, b)

    return {
        "one stage, as root, no arena": OLD_DOCKERFILE,
        "arena not copied": swap("COPY arena arena\n", ""),
        "runs as root": swap("USER mjbot\n", ""),
        "a compiler in the final image": text[:final_from] + text[final_from:].replace(
            "RUN useradd", "RUN apt-get install -y gcc && useradd", 1),
        "installs from the index": swap("--no-index --find-links", "--find-links"),
        "warms the cache as root": swap("USER mjbot\nWORKDIR /home/mjbot\n", "").replace(
            "ENTRYPOINT", "USER mjbot\nWORKDIR /home/mjbot\nENTRYPOINT"),
        "different Pythons": swap("FROM python:3.11-slim AS builder",
                                  "FROM python:3.12-slim AS builder"),
    }


CAUGHT_BY = {
    "one stage, as root, no arena": {"check_two_stages", "check_packages",
                                     "check_user_and_cache"},
    "arena not copied": {"check_packages"},
    "runs as root": {"check_user_and_cache"},
    "a compiler in the final image": {"check_two_stages"},
    "installs from the index": {"check_two_stages"},
    "warms the cache as root": {"check_user_and_cache"},
    "different Pythons": {"check_python"},
}


@pytest.mark.parametrize("name", list(CAUGHT_BY))
def test_the_checks_catch_a_broken_dockerfile(name: str) -> None:
    parsed = stages(mutants()[name])
    caught = set()
    for check in CHECKS:
        try:
            check(parsed)
        except AssertionError:
            caught.add(check.__name__)
    assert caught == CAUGHT_BY[name]


# ------------------------------------------------------------------- the steps, for real
class StepRunner:
    """Runs a stage's steps in ``root`` (standing for the image's /) with a fresh venv as
    its ``python``; absolute paths of the Dockerfile are taken under ``root``.  ``useradd``
    makes the user's home there, owned by its uid, and after ``USER`` the steps run under
    that uid (``setpriv``), as the image would run them."""

    def __init__(self, stage: DockerStage, root: Path, mounts: dict[str, Path],
                 compiler: bool, python: str) -> None:
        self.stage, self.root, self.mounts = stage, root, mounts
        self.venv = root / "venv"
        subprocess.run([python, "-m", "venv", "--clear", str(self.venv)], check=True)
        self.cwd = root
        self.user = "root"
        self.uids = {"root": 0}
        self.env = {k: v for k, v in os.environ.items()
                    if k.startswith(("PIP_", "SSL_", "REQUESTS_CA", "LANG", "LC_"))}
        self.env["HOME"] = str(root / "root")
        # no compiler in the final stage: PATH holds the venv alone, and CC/CXX fail
        self.env["PATH"] = f"{self.venv / 'bin'}" + ("" if not compiler
                                                      else f":{os.environ['PATH']}")
        if not compiler:
            self.env.update(CC="false", CXX="false")
        self.log: list[str] = []

    def path(self, p: str) -> Path:
        for target, source in self.mounts.items():
            if p == target or p.startswith(target + "/"):
                return source / p[len(target):].lstrip("/")
        return self.root / p.lstrip("/")

    def map_word(self, word: str) -> str:
        return str(self.path(word)) if word.startswith("/") else word

    def run_all(self) -> None:
        for op, rest in self.stage.steps:
            getattr(self, f"do_{op.lower()}")(rest)

    def do_env(self, rest: str) -> None:
        for item in shlex.split(rest):
            key, _, value = item.partition("=")
            self.env[key] = self.map_word(value)

    def do_workdir(self, rest: str) -> None:
        self.cwd = self.path(rest)
        self.cwd.mkdir(parents=True, exist_ok=True)

    def do_copy(self, rest: str) -> None:
        *sources, dest = shlex.split(rest)
        assert not any(s.startswith("--") for s in sources), f"COPY {rest}: not replayed"
        target = self.cwd / dest if not dest.startswith("/") else self.path(dest)
        for src in sources:
            origin = ROOT / src
            if origin.is_dir():
                shutil.copytree(origin, target, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__"))
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target / origin.name)

    def do_user(self, rest: str) -> None:
        assert rest in self.uids, f"USER {rest}: no such user was added"
        self.user = rest
        self.env["HOME"] = str(self.path("/root" if rest == "root" else f"/home/{rest}"))

    def as_user(self) -> list[str]:
        """The command prefix that runs as the current user."""
        uid = self.uids[self.user]
        setpriv = shutil.which("setpriv") or "setpriv"  # the host's: PATH here is the venv's
        return [] if uid == 0 else [setpriv, f"--reuid={uid}", f"--regid={uid}",
                                    "--clear-groups"]

    def useradd(self, argv: list[str]) -> None:
        name = argv[-1]
        uid = int(argv[argv.index("--uid") + 1])
        assert uid != 0 and "--create-home" in argv
        home = self.path(f"/home/{name}")
        home.mkdir(parents=True)
        os.chown(home, uid, uid)
        self.uids[name] = uid

    def do_entrypoint(self, rest: str) -> None:
        self.entrypoint = json.loads(rest)

    def do_run(self, rest: str) -> None:
        words = shlex.split(rest)
        mounts = [w for w in words if w.startswith("--mount=")]
        words = [w for w in words if not w.startswith("--mount=")]
        for m in mounts:
            spec = dict(kv.split("=", 1) for kv in m[len("--mount="):].split(","))
            assert spec["target"] in self.mounts, f"RUN {m}: no stage gives {spec}"
        command: list[str] = []
        for word in [*words, "&&"]:
            if word == "&&":
                self.run_command(command)
                command = []
            else:
                command.append(word)

    def run_command(self, argv: list[str]) -> None:
        if argv[0] == "useradd":
            self.useradd(argv)
            return
        if argv[0] in ("apt-get", "rm"):
            # system set-up of the base image: not replayed (the host has a compiler;
            # the final stage is denied one through PATH, CC and CXX)
            self.log.append(" ".join(argv))
            return
        assert argv[0] == "python", f"RUN {' '.join(argv)}: no equivalent in the replay"
        argv = [*self.as_user(), str(self.venv / "bin" / "python"),
                *(self.map_word(w) for w in argv[1:])]
        done = subprocess.run(argv, cwd=self.cwd, env=self.env, capture_output=True,
                              text=True, timeout=1500)
        assert done.returncode == 0, f"{argv}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def cache_files(cache: Path) -> set[str]:
    return {str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file()}


def world_runnable(path: Path) -> bool:
    """Every other user may run ``path``: it and each directory above it are o+x."""
    real = path.resolve()
    return all(p.stat().st_mode & 0o001 for p in (real, *real.parents))


def base_python(minor: int) -> str | None:
    """An interpreter of Python 3.``minor`` that the image's user may run, as the image's
    /usr/local/bin/python is (this one's base may sit in root's private home)."""
    candidates = [Path(getattr(sys, "_base_executable", sys.executable)),
                  Path(f"/usr/bin/python3.{minor}"), Path(f"/usr/local/bin/python3.{minor}")]
    for python in candidates:
        if not python.exists() or not world_runnable(python):
            continue
        done = subprocess.run([str(python), "-c", "import ensurepip, sys; "
                               "print(sys.version_info[1])"], capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() == str(minor):
            return str(python)
    return None


@pytest.fixture
def image_root() -> Iterator[Path]:
    """A directory standing for the images' /, that the image's user may traverse (pytest's
    own temporary directories are private to root)."""
    root = Path(tempfile.mkdtemp(prefix="mjbot-image-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.timeout(3000)
@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="replaying USER needs root and setpriv")
def test_every_step_of_the_dockerfile_in_clean_virtual_environments(image_root: Path) -> None:
    tmp_path = image_root
    builder_stage, final_stage = stages()
    minor = re.fullmatch(r"python:3\.(\d+)-slim", final_stage.base)
    assert minor is not None
    python = base_python(int(minor.group(1)))
    if python is None:
        pytest.skip(f"no Python 3.{minor.group(1)} with venv that a non-root user may run")
    builder = StepRunner(builder_stage, tmp_path / "builder", {}, compiler=True, python=python)
    builder.run_all()
    wheels = builder.path("/wheels")
    names = sorted(p.name.lower() for p in wheels.glob("*.whl"))
    # PyMahjongGB has no wheel on the index: the builder compiled one
    assert any(n.startswith("pymahjonggb-") and "linux_x86_64" in n for n in names), names
    assert any(n.startswith("mjbot-") for n in names), names

    final = StepRunner(final_stage, tmp_path / "final", {"/wheels": wheels}, compiler=False,
                       python=python)
    final.run_all()
    assert final.user == "mjbot" and final.entrypoint == ["mjbot", "play", "botzone"]
    cache = Path(final.env["NUMBA_CACHE_DIR"])
    warmed = cache_files(cache)
    assert any(n.endswith(".nbi") for n in warmed), "the warm-up left no numba cache"
    uid = final.uids["mjbot"]
    assert all(p.stat().st_uid == uid for p in cache.rglob("*")), "the cache is not the user's"
    site = next((final.venv / "lib").glob("python3*/site-packages"))
    assert site.stat().st_uid == 0  # the installed package is root's: the user cannot change it

    # the ENTRYPOINT plays a whole game for all four seats under our referee
    bot = tmp_path / "image-bot"
    image_env = " ".join(shlex.quote(f"{k}={v}") for k, v in final.env.items())
    bot.write_text(f"#!/bin/sh\ncd {shlex.quote(str(final.cwd))} && exec "
                   f"{shlex.join(final.as_user())} env -i {image_env} "
                   f"{shlex.join(final.entrypoint)}\n")
    bot.chmod(0o755)
    done = subprocess.run(
        [sys.executable, "-m", "arena", "referee", "botzone", "--bots", *[str(bot)] * 4,
         "--games", "1", "--time-limit", "30", "--json", "--log-level", "WARNING"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["games"] == 1, report
    assert report["results"][0]["ending"] in ("Won", "WallExhausted"), report
    assert all(seat["penalties"] == {} and seat["max_seconds"] < 30 for seat in report["seats"])
    # the game compiled nothing: every kernel came from the warmed cache
    assert cache_files(cache) == warmed
