"""A throw-away RabbitMQ broker for tests: Debian's ``rabbitmq-server``, loopback only, bounded.

`rabbitmq_broker(workdir)` starts ``/usr/lib/rabbitmq/bin/rabbitmq-server`` with everything in
``workdir`` (data, logs, the Erlang cookie), the JMS topic exchange plugin enabled, AMQP and the
Erlang distribution on free ports of 127.0.0.1 and its own ``epmd`` (also on 127.0.0.1, a free
port), so it touches nothing of the machine's and cannot meet another test's broker. Every wait
has a deadline; on the way out the broker is stopped (``rabbitmqctl stop``, then its process
group is killed if it is still there) and its ``epmd`` is killed.

    with rabbitmq_broker(tmp_path) as port:
        pika.BlockingConnection(pika.ConnectionParameters("127.0.0.1", port))
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["SERVER", "CTL", "broker_unavailable_reason", "rabbitmq_broker"]

SERVER = Path("/usr/lib/rabbitmq/bin/rabbitmq-server")
CTL = Path("/usr/lib/rabbitmq/bin/rabbitmqctl")
PLUGIN = "rabbitmq_jms_topic_exchange"


def broker_unavailable_reason() -> "str | None":
    """None when a broker can be started here; otherwise why not (for ``pytest.skip``)."""
    if not SERVER.is_file() or not CTL.is_file():
        return f"{SERVER} not found: apt-get install -y rabbitmq-server"
    if shutil.which("epmd") is None and not list(Path("/usr/lib/erlang").glob("erts-*/bin/epmd")):
        return "epmd (Erlang) not found: apt-get install -y rabbitmq-server"
    if shutil.which("timeout") is None:
        return "coreutils timeout not found"
    try:
        import pika  # noqa: F401
    except ImportError:
        return "pika is not installed (pip install '.[dev]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _epmd() -> str:
    found = shutil.which("epmd") or sorted(Path("/usr/lib/erlang").glob("erts-*/bin/epmd"))[-1]
    return str(found)


@contextlib.contextmanager
def rabbitmq_broker(workdir: Path, *, start_timeout: float = 60.0, stop_timeout: float = 30.0):
    """Run a broker for the ``with`` block; yields its AMQP port on 127.0.0.1 (user guest/guest)."""
    workdir = Path(workdir)
    for sub in ("mnesia", "log", "home"):
        (workdir / sub).mkdir(parents=True, exist_ok=True)
    (workdir / "enabled_plugins").write_text(f"[{PLUGIN}].\n", encoding="ascii")
    port, dist, epmd_port = _free_port(), _free_port(), _free_port()
    env = dict(os.environ, HOME=str(workdir / "home"), RABBITMQ_MNESIA_BASE=str(workdir / "mnesia"),
               RABBITMQ_LOG_BASE=str(workdir / "log"), RABBITMQ_ENABLED_PLUGINS_FILE=str(workdir / "enabled_plugins"),
               RABBITMQ_NODENAME="rabbit@localhost", RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
               RABBITMQ_NODE_PORT=str(port), RABBITMQ_DIST_PORT=str(dist), RABBITMQ_CONFIG_FILE=str(workdir / "none"),
               RABBITMQ_ADVANCED_CONFIG_FILE=str(workdir / "none.config"), RABBITMQ_CONF_ENV_FILE=str(workdir / "none.env"),
               ERL_EPMD_ADDRESS="127.0.0.1", ERL_EPMD_PORT=str(epmd_port),
               RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}")
    log = open(workdir / "server.out", "wb")
    proc = subprocess.Popen(["timeout", "--kill-after=10", "300", str(SERVER)], env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for_amqp(proc, port, start_timeout, workdir)
        yield port
    finally:
        try:
            subprocess.run([str(CTL), "-n", "rabbit@localhost", "stop"], env=env, capture_output=True,
                           timeout=stop_timeout)
        except subprocess.TimeoutExpired:
            pass
        try:
            proc.wait(timeout=stop_timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()
        subprocess.run([_epmd(), "-port", str(epmd_port), "-kill"], env=env, capture_output=True, timeout=10)


def _wait_for_amqp(proc, port: int, timeout: float, workdir: Path) -> None:
    """Until the broker accepts an AMQP connection (the plugins are up by then)."""
    import pika

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = (workdir / "server.out").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"rabbitmq-server exited ({proc.returncode}):\n{tail}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:  # not listening yet
            time.sleep(0.3)
            continue
        try:
            pika.BlockingConnection(pika.ConnectionParameters("127.0.0.1", port, socket_timeout=2,
                                                              connection_attempts=1)).close()
            return
        except pika.exceptions.AMQPError:  # listening, not yet serving
            time.sleep(0.3)
    raise RuntimeError(f"rabbitmq-server did not accept AMQP on 127.0.0.1:{port} within {timeout:.0f} s")
