"""Who may play which Olympiad seat: the seats' secrets and the MQTT broker's access rules.

The referee issues one secret per seat (:class:`SeatSecrets`): generated with
:mod:`secrets`, or read from a file the organiser controls; written where the
organiser asks (mode 0600); never logged (``repr`` hides them).  A ``join`` carries
its seat's secret as ``token``; :meth:`SeatSecrets.check` compares it in constant time.

Over MQTT the secret is also the seat's broker password (user ``TABLE-seatN``,
:func:`protocols.olympiad_transport.seat_user`), and the broker enforces the topics
(:func:`acl_rules`): seat N's user may publish only on its own ``up`` topic and
presence, and read only its own ``down`` topic and the referee's presence; the
referee's user reads and writes everything of its tables.  The same rules go to a
mosquitto (:func:`write_mosquitto_config`: password file in mosquitto's PBKDF2-SHA512
format, ACL file, a configuration that refuses anonymous clients) and to the embedded
amqtt broker (:func:`amqtt_plugins`, naming the plugins of
:mod:`arena.platforms.olympiad.broker_guards`).
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import hmac
import json
import secrets
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.tools.output_files import OutputError, create_new, output_directory, replace_file
from protocols.olympiad import MAX_MESSAGE_BYTES
from protocols.olympiad_transport import (
    REFEREE_USER,
    TOPIC_ROOT,
    presence_topic,
    referee_topic,
    seat_topic,
    seat_user,
)

SECRET_BYTES = 24
"""A generated secret: 24 random bytes, 32 URL-safe characters."""
MIN_SECRET_LENGTH = 16
_SECRET_CHARS = set(string.ascii_letters + string.digits + "-_.~+/=")


class SecretsError(ValueError):
    """A secrets file that cannot be used; the message never contains a secret."""


def _check_secret(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise SecretsError(f"{where}: a secret is a string")
    if len(value) < MIN_SECRET_LENGTH or len(value) > 256:
        raise SecretsError(f"{where}: a secret has {MIN_SECRET_LENGTH}-256 characters")
    if not set(value) <= _SECRET_CHARS:
        raise SecretsError(f"{where}: a secret uses only letters, digits and -_.~+/=")
    return value


@dataclass(frozen=True)
class SeatSecrets:
    """One secret per seat of every table, and the referee's own broker password."""

    referee: str = field(repr=False)
    seats: Mapping[str, tuple[str, str, str, str]] = field(repr=False)

    @classmethod
    def generate(cls, tables: Iterable[str]) -> SeatSecrets:
        def one() -> str:
            return secrets.token_urlsafe(SECRET_BYTES)

        return cls(one(), {t: (one(), one(), one(), one()) for t in tables})

    def secret(self, table: str, seat: int) -> str:
        return self.seats[table][seat]

    def check(self, table: str, seat: int, token: str | None) -> bool:
        """Whether ``token`` is this seat's secret (constant time; False for no token)."""
        seats = self.seats.get(table)
        if seats is None or not 0 <= seat < 4 or token is None:
            return False
        return hmac.compare_digest(token.encode(), seats[seat].encode())

    def covers(self, tables: Iterable[str]) -> None:
        """Raise :class:`SecretsError` unless every one of ``tables`` has its four secrets."""
        missing = [t for t in tables if t not in self.seats]
        if missing:
            raise SecretsError(f"no secrets for table(s) {', '.join(missing)}")

    # ------------------------------------------------------------ the file
    def to_json(self) -> str:
        return json.dumps({"referee": self.referee,
                           "seats": {t: list(s) for t, s in self.seats.items()}}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> SeatSecrets:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SecretsError(f"not JSON (line {exc.lineno})") from None
        if not isinstance(data, dict) or not isinstance(data.get("seats"), dict):
            raise SecretsError('expected {"referee": SECRET, "seats": {TABLE: [4 secrets]}}')
        referee = _check_secret(data.get("referee"), "referee")
        seats: dict[str, tuple[str, str, str, str]] = {}
        for table, values in data["seats"].items():
            if not isinstance(values, list) or len(values) != 4:
                raise SecretsError(f"table {table}: expected a list of 4 secrets")
            a, b, c, d = (_check_secret(v, f"table {table} seat {n}")
                          for n, v in enumerate(values))
            seats[table] = (a, b, c, d)
        everything = [referee, *(s for four in seats.values() for s in four)]
        if len(set(everything)) != len(everything):
            raise SecretsError("two seats (or a seat and the referee) share a secret")
        return cls(referee, seats)

    @classmethod
    def read(cls, path: Path) -> SeatSecrets:
        try:
            return cls.from_json(path.read_text())
        except OSError as exc:
            raise SecretsError(f"cannot read {path}: {exc.strerror}") from None
        except SecretsError as exc:
            raise SecretsError(f"{path}: {exc}") from None

    def write(self, path: Path, *, overwrite: bool = False) -> None:
        """The secrets file (0600): a new file, or with ``overwrite`` a replaced one."""
        write_private(path, self.to_json() + "\n", overwrite=overwrite)


def write_private(path: Path, text: str, *, overwrite: bool = False) -> None:
    """Write ``text`` to ``path`` readable by its owner only (0600), never through a
    symbolic link; a path that exists is refused (:class:`OutputError`) unless
    ``overwrite``, which replaces it (:func:`arena.tools.output_files.replace_file`)."""
    if overwrite:
        replace_file(path, text, 0o600)
    else:
        create_new(path, text, 0o600)


# ---------------------------------------------------------------- access rules
@dataclass(frozen=True)
class Rule:
    """``user`` may ``read`` (subscribe and receive) or ``write`` (publish) ``topic``."""

    user: str
    access: str
    topic: str


def acl_rules(tables: Iterable[str]) -> list[Rule]:
    rules: list[Rule] = []
    for table in tables:
        rules.append(Rule(REFEREE_USER, "read", f"{TOPIC_ROOT}/{table}/#"))
        rules.append(Rule(REFEREE_USER, "write", f"{TOPIC_ROOT}/{table}/#"))
        for seat in range(4):
            user = seat_user(table, seat)
            rules += [Rule(user, "write", seat_topic(table, seat, "up")),
                      Rule(user, "write", presence_topic(table, seat)),
                      Rule(user, "read", seat_topic(table, seat, "down")),
                      Rule(user, "read", presence_topic(table, seat)),
                      Rule(user, "read", referee_topic(table))]
    return rules


def users(seat_secrets: SeatSecrets) -> dict[str, str]:
    """Every broker user and its password."""
    out = {REFEREE_USER: seat_secrets.referee}
    for table, four in seat_secrets.seats.items():
        for seat, secret in enumerate(four):
            out[seat_user(table, seat)] = secret
    return out


# ---------------------------------------------------------------- mosquitto
MOSQUITTO_ITERATIONS = 101
"""mosquitto_passwd's PBKDF2-SHA512 default (mosquitto 2.0)."""


def mosquitto_hash(password: str, salt: bytes | None = None,
                   iterations: int = MOSQUITTO_ITERATIONS) -> str:
    """A mosquitto 2 password-file hash: ``$7$ITERATIONS$SALT$HASH`` (PBKDF2-SHA512,
    a 12-byte salt, base64), as ``mosquitto_passwd`` writes it."""
    salt = secrets.token_bytes(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    b64 = base64.b64encode
    return f"$7${iterations}${b64(salt).decode()}${b64(digest).decode()}"


def mosquitto_password_file(seat_secrets: SeatSecrets) -> str:
    return "".join(f"{user}:{mosquitto_hash(pw)}\n" for user, pw in users(seat_secrets).items())


def mosquitto_acl_file(tables: Iterable[str]) -> str:
    lines: list[str] = ["# written by mjbot referee olympiad: one user per seat, the referee's"
                        " user for everything of its tables"]
    current = None
    for rule in acl_rules(tables):
        if rule.user != current:
            lines += ["", f"user {rule.user}"]
            current = rule.user
        lines.append(f"topic {rule.access} {rule.topic}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class BrokerFiles:
    conf: Path
    passwords: Path
    acl: Path


def write_mosquitto_config(directory: Path, seat_secrets: SeatSecrets, tables: Iterable[str], *,
                           listen: str = "127.0.0.1:1883", tls_cert: Path | None = None,
                           tls_key: Path | None = None, overwrite: bool = False) -> BrokerFiles:
    """``mosquitto.conf``, ``passwords`` and ``acl`` in ``directory`` (all 0600): anonymous
    clients refused, every user's topics as :func:`acl_rules` says, TLS when given.  The
    files belong to whoever writes them, so the configuration names that ``user`` (a
    mosquitto started as root would otherwise switch to user ``mosquitto`` and not read them).
    Files that exist are refused unless ``overwrite``; links are never followed."""
    output_directory(directory, "--broker-config")
    files = BrokerFiles(directory / "mosquitto.conf", directory / "passwords", directory / "acl")
    if not overwrite:
        for path in (files.conf, files.passwords, files.acl):
            if path.exists() or path.is_symlink():
                raise OutputError(f"{path}: exists; not overwritten (give --overwrite to "
                                  "replace the broker configuration)")
    write_private(files.passwords, mosquitto_password_file(seat_secrets), overwrite=overwrite)
    write_private(files.acl, mosquitto_acl_file(list(tables)), overwrite=overwrite)
    host, _, port = listen.rpartition(":")
    conf = [f"listener {port} {host}" if host else f"listener {port}",
            "allow_anonymous false", f"password_file {files.passwords.resolve()}",
            f"acl_file {files.acl.resolve()}", f"user {getpass.getuser()}",
            "set_tcp_nodelay true", "persistence false",
            # a client sending a larger packet is disconnected (the embedded broker's limit)
            f"max_packet_size {MAX_MESSAGE_BYTES + 1024}"]
    if tls_cert is not None and tls_key is not None:
        conf += [f"certfile {tls_cert.resolve()}", f"keyfile {tls_key.resolve()}"]
    write_private(files.conf, "\n".join(conf) + "\n", overwrite=overwrite)
    return files


# ---------------------------------------------------------------- the embedded amqtt broker
def password_digest(password: str) -> str:
    """What the embedded broker keeps of a password: its SHA-256 (hex)."""
    return hashlib.sha256(password.encode()).hexdigest()


def amqtt_plugins(seat_secrets: SeatSecrets, tables: Iterable[str]) -> dict[str, Any]:
    """The ``plugins`` section of an amqtt broker configuration enforcing the same rules."""
    read: dict[str, list[str]] = {}
    write: dict[str, list[str]] = {}
    for rule in acl_rules(tables):
        (read if rule.access == "read" else write).setdefault(rule.user, []).append(rule.topic)
    digests = {user: password_digest(pw) for user, pw in users(seat_secrets).items()}
    return {"arena.platforms.olympiad.broker_guards.SeatAuthPlugin": {"users": digests},
            "arena.platforms.olympiad.broker_guards.SeatTopicPlugin": {"read": read,
                                                                       "write": write}}


def topic_covered(requested: str, allowed: str) -> bool:
    """Whether every topic matching the filter ``requested`` matches the filter ``allowed``
    (a subscription to ``#`` is covered only by ``#``)."""
    req, allow = requested.split("/"), allowed.split("/")
    for i, level in enumerate(allow):
        if level == "#":
            return True
        if i >= len(req):
            return False
        if level == "+":
            if req[i] == "#":
                return False
            continue
        if req[i] != level:
            return False
    return len(req) == len(allow)
