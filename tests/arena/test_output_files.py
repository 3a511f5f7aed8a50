"""The files mjbot writes and serves : no planted link is followed,
nothing is overwritten without asking, output paths are checked before the first game,
and ``mjbot view --serve`` serves only the pages it wrote, to 127.0.0.1 only."""

from __future__ import annotations

import http.client
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main as mjbot
from arena.platforms.olympiad.access import SeatSecrets, write_mosquitto_config
from arena.review.viewer.command import make_server
from arena.tools.output_files import OutputError, create_new, output_directory, replace_file


def _victim(tmp: Path) -> Path:
    """A file someone else cares about, and what it held."""
    victim = tmp / "victim.txt"
    victim.write_text("precious\n")
    victim.chmod(0o644)
    return victim


def _unchanged(victim: Path) -> bool:
    return victim.read_text() == "precious\n" and stat.S_IMODE(victim.stat().st_mode) == 0o644


# ---------------------------------------------------------------- the helpers
def test_create_new_refuses_what_exists_and_any_link(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    for path in (victim, link, dangling):
        with pytest.raises(OutputError, match="not overwritten"):
            create_new(path, "x", 0o600)
    assert _unchanged(victim) and not (tmp_path / "nowhere").exists()
    create_new(tmp_path / "new", "fresh", 0o600)
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o600


def test_replace_file_replaces_a_link_instead_of_following_it(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    link = tmp_path / "record.jsonl"
    link.symlink_to(victim)
    replace_file(link, "mine\n")
    assert _unchanged(victim)
    assert not link.is_symlink() and link.read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    (tmp_path / "dir").mkdir()
    with pytest.raises(OutputError, match="is a directory"):
        replace_file(tmp_path / "dir", "x")


def test_an_output_directory_that_is_a_file_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    with pytest.raises(OutputError, match="not a directory"):
        output_directory(victim)
    assert output_directory(tmp_path / "a" / "b").is_dir()


# ---------------------------------------------------------------- the referee's files
def test_write_secrets_follows_no_link_and_replaces_nothing_unasked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = _victim(tmp_path)
    planted = tmp_path / "secrets.json"
    planted.symlink_to(victim)
    args = ["referee", "olympiad", "--write-secrets", str(planted), "--prepare-only"]
    assert mjbot(args) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert _unchanged(victim)
    existing = tmp_path / "existing.json"
    existing.write_text("the organiser's\n")
    args = ["referee", "olympiad", "--write-secrets", str(existing), "--prepare-only"]
    assert mjbot(args) == 2 and existing.read_text() == "the organiser's\n"
    assert mjbot([*args, "--overwrite"]) == 0
    assert stat.S_IMODE(existing.stat().st_mode) == 0o600
    SeatSecrets.read(existing).covers(["t1"])
    # --overwrite through a link replaces the link, never the file it points to
    assert mjbot(["referee", "olympiad", "--write-secrets", str(planted), "--prepare-only",
                  "--overwrite"]) == 0
    assert _unchanged(victim) and not planted.is_symlink()


def test_broker_config_follows_no_link(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    broker = tmp_path / "broker"
    broker.mkdir()
    (broker / "passwords").symlink_to(victim)
    secrets = SeatSecrets.generate(["t1"])
    with pytest.raises(OutputError, match="exists"):
        write_mosquitto_config(broker, secrets, ["t1"])
    assert _unchanged(victim)
    args = ["referee", "olympiad", "--write-secrets", str(tmp_path / "s.json"),
            "--transport", "mqtt", "--broker-config", str(broker), "--prepare-only"]
    assert mjbot(args) == 2 and _unchanged(victim)
    write_mosquitto_config(broker, secrets, ["t1"], overwrite=True)
    assert _unchanged(victim) and not (broker / "passwords").is_symlink()


def test_referee_records_must_be_a_directory_before_any_game(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    """Before: a regular file was accepted, and the referee died at the first game's end
    (FileExistsError), taking every table with it."""
    victim = _victim(tmp_path)
    args = ["referee", "olympiad", "--records", str(victim), "--write-secrets",
            str(tmp_path / "s.json"), "--prepare-only"]
    assert mjbot(args) == 2
    assert "not a directory" in capsys.readouterr().err and _unchanged(victim)
    assert not (tmp_path / "s.json").exists()


# ---------------------------------------------------------------- records and pages
@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One self-play game's record (random players: fast)."""
    out = tmp_path_factory.mktemp("records")
    assert mjbot(["selfplay", "--games", "1", "--agents", "random", "random", "random",
                  "random", "--records", str(out), "--json"]) == 0
    [path] = list(out.glob("*.jsonl"))
    return path


def test_selfplay_records_replace_a_planted_link(tmp_path: Path, record: Path) -> None:
    victim = _victim(tmp_path)
    out = tmp_path / "records"
    out.mkdir()
    (out / record.name).symlink_to(victim)
    assert mjbot(["selfplay", "--games", "1", "--agents", "random", "random", "random",
                  "random", "--records", str(out), "--json"]) == 0
    assert _unchanged(victim)
    assert (out / record.name).read_text() == record.read_text()
    assert mjbot(["selfplay", "--games", "1", "--records", str(victim), "--json"]) == 2


def test_view_never_overwrites_its_input_nor_writes_through_a_link(tmp_path: Path,
                                                                  record: Path) -> None:
    copy = tmp_path / "game.jsonl"
    copy.write_text(record.read_text())
    assert mjbot(["view", str(copy), "--out", str(copy)]) == 2
    assert copy.read_text() == record.read_text()
    victim = _victim(tmp_path)
    planted = tmp_path / "game.html"
    planted.symlink_to(victim)
    assert mjbot(["view", str(copy), "--out", str(planted)]) == 2
    assert _unchanged(victim)


@pytest.fixture
def served(tmp_path: Path, record: Path) -> Iterator[tuple[int, Path]]:
    """``mjbot view`` with the default ``--out`` (the current directory) beside a secrets
    file and a link to a system file, served as ``--serve`` serves it."""
    (tmp_path / "secrets.json").write_text('{"referee": "x"}')
    (tmp_path / "secrets.json").chmod(0o600)
    (tmp_path / "host").symlink_to("/etc/hostname")
    (tmp_path / "linked.html").symlink_to("/etc/hostname")
    page = tmp_path / "game.html"
    assert mjbot(["view", str(record), "--out", str(page)]) == 0
    server = make_server(tmp_path, 0, [page])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], page
    server.shutdown()
    server.server_close()


def _get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": host if host is not None else f"127.0.0.1:{port}"}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def test_serve_serves_only_the_pages_it_wrote(served: tuple[int, Path]) -> None:
    port, page = served
    assert _get(port, f"/{page.name}") == (200, page.read_bytes())
    assert _get(port, "/")[0] == 200
    assert _get(port, f"/{page.name}", host=f"localhost:{port}")[0] == 200
    for path in ("/secrets.json", "/host", "/linked.html", "/../secrets.json",
                 "/%2e%2e/secrets.json", "/etc/hostname", "/.", "/./"):
        status, body = _get(port, path)
        assert status == 404 and b"referee" not in body, path
    status, body = _get(port, "/?")  # no listing of the folder
    assert b"secrets.json" not in body


def test_serve_refuses_another_host_name(served: tuple[int, Path]) -> None:
    """DNS rebinding: a page of evil.example whose name now points to 127.0.0.1."""
    port, page = served
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1"):
        status, body = _get(port, f"/{page.name}", host=host)
        assert status == 421 and body != page.read_bytes(), host


def test_serving_a_directory_serves_its_regular_pages_only(tmp_path: Path,
                                                           served: tuple[int, Path]) -> None:
    server = make_server(tmp_path)  # no pages named: the .html files, links left out
    assert set(server.pages) == {"game.html"}
    server.server_close()
