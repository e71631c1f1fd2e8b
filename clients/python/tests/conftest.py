"""Fixtures: the real Gleaner server, started from this checkout as a process (``node
scripts/start.mjs``, as ``npm start`` does) on the sandbox sources and a temporary SQLite ledger,
with the admin API on to create keys."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import pytest

REPO = Path(__file__).resolve().parents[3]
STARTUP_SECONDS = 300  # the first start after a change of the server's sources compiles it

# Settings of the developer's environment that would change what the server does
_SERVER_SETTINGS = (
    "PORT",
    "HOST",
    "DATABASE_URL",
    "REDIS_URL",
    "ADMIN_TOKEN",
    "CLIPNET_SOURCE",
    "PICNET_SOURCE",
    "VIDNET_SOURCE",
    "BLIPNET_SOURCE",
    "LLM_PROVIDERS",
    "RATE_LIMIT_REQUESTS",
    "RATE_LIMIT_CONCURRENCY",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, base_url: str, admin_token: str) -> None:
        self.base_url = base_url
        self.admin_token = admin_token

    def admin(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        request = urllib.request.Request(
            f"{self.base_url}/admin/v1{path}",
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.admin_token}", "Content-Type": "application/json"},
            method=method,
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())

    def new_key(self, credits: float) -> Dict[str, Any]:
        """{"id", "key", ...} of a new key with ``credits``"""
        return self.admin("POST", "/keys", {"name": "pytest", "credits": credits})

    def balance(self, key_id: str) -> float:
        return float(self.admin("GET", f"/keys/{key_id}")["credits"])


def _wait_until_up(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"the server did not answer /healthz within {STARTUP_SECONDS} s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not on PATH: the tests start the Gleaner server from this checkout")
    tmp = Path(tempfile.mkdtemp(prefix="gleaner-pytest-"))
    port = _free_port()
    token = secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if k not in _SERVER_SETTINGS}
    env.update(
        {
            "PORT": str(port),
            "HOST": "127.0.0.1",
            "DATABASE_URL": f"sqlite:{tmp / 'ledger.db'}",
            "ADMIN_TOKEN": token,
            "CLIPNET_SOURCE": "sandbox",
            "PICNET_SOURCE": "sandbox",
            "VIDNET_SOURCE": "sandbox",
            "LOG_LEVEL": "warn",
        }
    )
    log = tmp / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [node, "scripts/start.mjs"], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(proc, url, log)
        yield Server(url, token)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture()
def key(server: Server) -> Dict[str, Any]:
    """a fresh key with 5,000 credits"""
    return server.new_key(5000)


@pytest.fixture()
def env_key(monkeypatch: pytest.MonkeyPatch, server: Server, key: Dict[str, Any]) -> Dict[str, Any]:
    """GLEANER_API_KEY and GLEANER_BASE_URL set to a fresh key and the server, as a user would"""
    monkeypatch.setenv("GLEANER_API_KEY", key["key"])
    monkeypatch.setenv("GLEANER_BASE_URL", server.base_url)
    return key


def pandas_or_skip() -> Any:
    """pandas, required in CI (CI set): there a missing pandas fails instead of skipping"""
    try:
        import pandas
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("pandas is not installed (apt-get install python3-pandas, or pip install pandas)")
    return pandas
