"""A seat's connection as a command line names it: ``--ws URL`` or ``--mqtt URL``."""

from __future__ import annotations

from pathlib import Path

from protocols.olympiad_mqtt import (
    MqttClient,
)
from protocols.olympiad_transport import (
    ClientTransport,
)
from protocols.olympiad_ws import (
    WsClient,
)


def client_transport(ws: str | None, mqtt: str | None, table: str, seat: int,
                     secret: str | None = None, ca: Path | None = None) -> ClientTransport:
    if (ws is None) == (mqtt is None):
        raise ValueError("give exactly one of --ws URL and --mqtt URL")
    if ws is not None:
        return WsClient(ws, ca)
    assert mqtt is not None
    return MqttClient(mqtt, table, seat, secret, ca)
