"""Shared fixtures. test/platform/python-client.test.ts runs this suite against the real API
(a listening app on real PostgreSQL and Temporal) and passes, in the environment:

JOBFAIR_BASE_URL, JOBFAIR_TOKEN (a seeker, every scope), JOBFAIR_FLOW_TOKEN (queue:read,
queue:write, matches:read), JOBFAIR_RATE_TOKEN (profile:read, profile:write), JOBFAIR_SKILL and
JOBFAIR_EVENT_SLUG (an open event with a job needing that skill), JOBFAIR_SIGNING_VECTOR (a
delivery signed by the service's signing code, JSON).
"""

from __future__ import annotations

import http.server
import json
import os
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "examples")]


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run npm test -- test/platform/python-client.test.ts")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return env("JOBFAIR_BASE_URL")


@pytest.fixture(scope="session")
def signing_vector() -> dict:
    return json.loads(env("JOBFAIR_SIGNING_VECTOR"))


class Receiver:
    """A webhook receiver on 127.0.0.1: keeps each delivery's headers and raw body, answers 204."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[dict[str, str], bytes]] = []
        received = self.deliveries

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    rx = Receiver()
    yield rx
    rx.close()
