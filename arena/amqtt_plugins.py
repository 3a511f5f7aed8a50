"""The embedded amqtt broker's guards: who may connect, and which topics each user may use.

amqtt loads these by name from the configuration
:func:`arena.olympiad_access.amqtt_plugins` builds; they apply the same rules as the
mosquitto configuration (:func:`arena.olympiad_access.acl_rules`).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session

from arena.olympiad_access import password_digest, topic_covered


class SeatAuthPlugin(BaseAuthPlugin):
    """amqtt: a client connects only with a known user and its password."""

    @dataclass
    class Config:
        users: dict[str, str] = field(default_factory=dict)
        """user -> SHA-256 of the password (hex)."""

    async def authenticate(self, *, session: Session) -> bool | None:
        known: dict[str, str] = self._get_config_option("users", {})
        digest = known.get(session.username or "")
        if digest is None or session.password is None:
            return False
        return hmac.compare_digest(password_digest(session.password), digest)


class SeatTopicPlugin(BaseTopicPlugin):
    """amqtt: publish, subscribe and receive only on the topics :func:`acl_rules` allows."""

    @dataclass
    class Config:
        read: dict[str, list[str]] = field(default_factory=dict)
        write: dict[str, list[str]] = field(default_factory=dict)

    async def topic_filtering(self, *, session: Session | None = None, topic: str | None = None,
                              action: Action | None = None) -> bool | None:
        if session is None or topic is None or not session.username:
            return False
        key = "write" if action == Action.PUBLISH else "read"
        allowed: list[str] = self._get_config_option(key, {}).get(session.username, [])
        return any(topic_covered(topic, a) for a in allowed)
