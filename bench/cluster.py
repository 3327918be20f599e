"""The site as operators run it across machines, on one machine: two web nodes behind HAProxy, PgBouncer in front
of PostgreSQL, a worker node for bots and pushes, one for analyses, and one beat (``make cluster``).

Every "node" is a process tree of its own (a session, so stopping or killing it ends its children), on its own
loopback port; nothing listens beyond 127.0.0.1. The nodes share only what machines would share: PostgreSQL
(through PgBouncer in transaction mode: each process keeps a few connections to PgBouncer, which lends a server
connection per transaction, and prepares no statement), Redis (the channel layer, the broker, the cache) and the
balancer in front. HAProxy (Debian's package) sends each connection, HTTP or WebSocket, to the node holding fewer
(``leastconn``: round robin sent every socket of the crowd bench to one node, each its person's fourth call),
checks each node's ``/readyz?scope=node`` (the database and Redis, not the workers) every second (three failures
in a row take it out), and sends a request whose node refused the connection to the other (``option redispatch``),
so a node lost mid-match costs its clients one reconnection.

    .venv/bin/python bench/cluster.py            # start it, print the addresses, run until Ctrl-C

Used by ``tests/site/hardening/test_cluster_realstack.py`` and ``bench/load.py --cluster``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.stack import free_port, http_answers, port_listens, stop, tail, wait_until  # noqa: E402

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def haproxy_config(port: int, nodes: dict[str, int], stats_socket: Path | None = None) -> str:
    """The balancer: HTTP and WebSocket on ``port``, to the least busy of ``nodes`` (name -> port), each checked on
    /readyz?scope=node every second; its state readable on ``stats_socket`` (which nodes it finds up)."""
    servers = "\n".join(f"    server {name} 127.0.0.1:{p} check" for name, p in nodes.items())
    stats = f"\n    stats socket {stats_socket} mode 600 level operator" if stats_socket else ""
    return f"""global
    maxconn 8000{stats}

defaults
    mode http
    option http-server-close
    timeout connect 2s
    timeout client 75s
    timeout server 75s
    # a WebSocket, once upgraded, is a tunnel: it may stay quiet (the page pings every 25 s)
    timeout tunnel 1h
    # a node that refused the connection: the request goes to another node
    option redispatch
    retries 2

frontend site
    bind 127.0.0.1:{port}
    default_backend web

backend web
    # WebSockets last: each new connection goes to the node holding fewer (HAProxy's advice for long sessions); round
    # robin put every match socket of a crowd whose people each make the same calls first on one node
    balance leastconn
    # which node answered (a WebSocket's upgrade included): for operators, and for the node-loss test
    http-response set-header X-Served-By %s
    # a node's own readiness (the database, Redis), not the workers': a slow worker ping took every node out at once
    option httpchk GET /readyz?scope=node
    http-check expect status 200
    # a check may wait for a busy node's thread pool: a 1 s timeout took both nodes out together under load
    timeout check 4s
    default-server inter 1s fall 3 rise 2
{servers}
"""


def pgbouncer_config(folder: Path, port: int, database: str, pg_port: int = 5432) -> Path:
    """PgBouncer in transaction mode in front of ``database`` (trust, as the machine's PostgreSQL on loopback)."""
    ini = folder / "pgbouncer.ini"
    users = folder / "userlist.txt"
    users.write_text('"postgres" ""\n')
    ini.write_text(f"""[databases]
{database} = host=127.0.0.1 port={pg_port} dbname={database} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {users}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 40
reserve_pool_size = 10
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
""")
    for path in (folder, ini, users):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return ini


@dataclass
class Cluster:
    """Two web nodes, two worker nodes and a beat behind HAProxy and PgBouncer, started and stopped as a whole."""

    web_processes: int = 1            # gunicorn processes per web node
    bot_workers: int = 4              # processes of the bots' and pushes' worker node
    pg_admin: str = "postgres://postgres@127.0.0.1:5432/postgres"
    redis_base: str = "redis://127.0.0.1:6379"
    redis_db: int = field(default_factory=lambda: int(os.environ.get("CLUSTER_REDIS_DB", "13")))
    db_name: str = field(default_factory=lambda: f"callbreak_cluster_{os.getpid()}")
    logs: Path = field(default_factory=lambda: Path(f"/tmp/callbreak-cluster-{os.getpid()}"))
    extra_env: dict[str, str] = field(default_factory=dict)
    balancer_port: int = field(default_factory=free_port)
    pgbouncer_port: int = field(default_factory=free_port)
    node_ports: dict[str, int] = field(default_factory=lambda: {"web-a": free_port(), "web-b": free_port()})
    worker_metrics_port: int = field(default_factory=free_port)  # the bots' worker node's /metrics
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The site's address: the balancer's."""
        return f"http://127.0.0.1:{self.balancer_port}"

    def node_url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.node_ports[name]}"

    def metrics_urls(self) -> list[str]:
        """Each node's own /metrics (through the balancer, one node's only would answer)."""
        return [f"{self.node_url(n)}/metrics" for n in self.node_ports] + [f"http://127.0.0.1:{self.worker_metrics_port}/"]

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pgbouncer_port}/{self.db_name}",
            # a few connections per process to the pooler, which lends server connections per transaction (a
            # connection opened per request cost a web process 6% of its CPU); no statement prepared on a connection
            # the pooler may lend to another client
            "DATABASE_POOL_MAX": "8",
            "DATABASE_PREPARE": "0",
            "REDIS_URL": f"{self.redis_base}/{self.redis_db}",
            "DEBUG": "0",
            "HTTPS": "0",
            "SECRET_KEY": self._secret,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "BOT_DELAY_SECONDS": "0",
            "LOG_LEVEL": "WARNING",
            "RATE_LIMIT_SIGNUP": "100000/hour",
            "RATE_LIMIT_ACTION": "1000/s",
            "RATE_LIMIT_ACTION_SUSTAINED": "100000/min",
            "RATE_LIMIT_API": "100000/min",
            **self.extra_env,
        }

    def __post_init__(self) -> None:
        self._secret = secrets.token_urlsafe(40)  # one key for every node: a session is good on each

    def commands(self) -> dict[str, list[str]]:
        """Each node's command (its environment adds what differs: the web nodes' ports)."""
        celery = [str(BIN / "celery"), "-A", "callbreak_site"]
        web = [str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py", "callbreak_site.asgi:application"]
        as_postgres = ["-u", "postgres"] if os.geteuid() == 0 else []  # PgBouncer will not run as root
        return {
            "pgbouncer": [PGBOUNCER, *as_postgres, str(self.logs / "pgbouncer" / "pgbouncer.ini")],
            **{name: web for name in self.node_ports},
            "worker-bots": [*celery, "worker", "-l", "warning", "-Q", "celery,push", "-c", str(self.bot_workers),
                            "-n", f"bots-{os.getpid()}@%h", "--without-gossip", "--without-mingle"],
            # the reviews of finished matches yield the CPU to play on a shared machine (operators give them one of
            # their own; on one box they would take half a core from the crowd's moves)
            "worker-analysis": ["nice", "-n", "10", *celery, "worker", "-l", "warning", "-Q", "analysis", "-c", "1",
                                "-n", f"analysis-{os.getpid()}@%h", "--without-gossip", "--without-mingle"],
            "beat": self.beat_command("beat"),
            "haproxy": [HAPROXY, "-db", "-f", str(self.logs / "haproxy.cfg")],
        }

    def beat_command(self, name: str) -> list[str]:
        return [str(BIN / "celery"), "-A", "callbreak_site", "beat", "-l", "warning",
                "--schedule", str(self.logs / f"{name}-schedule")]

    def _psql(self, sql: str) -> None:
        subprocess.run(["psql", self.pg_admin, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True,
                       stdout=subprocess.DEVNULL)

    def launch(self, name: str, cmd: list[str], **env: str) -> subprocess.Popen[bytes]:
        """Start one node (a session of its own), its output in ``logs/name.log``."""
        metrics = self.logs / f"metrics-{name}"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        with open(self.logs / f"{name}.log", "ab") as out:
            proc = subprocess.Popen(cmd, cwd=ROOT, env={**self.env(), "PROMETHEUS_MULTIPROC_DIR": str(metrics), **env},
                                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs[name] = proc
        return proc

    def start_web(self, name: str) -> None:
        port = self.node_ports[name]
        proc = self.launch(name, self.commands()[name], HOST="127.0.0.1", PORT=str(port),
                           WEB_CONCURRENCY=str(self.web_processes))
        wait_until(http_answers(f"http://127.0.0.1:{port}/healthz", (200,)), name, proc=proc,
                   log=self.logs / f"{name}.log", every=0.2, timeout=90)

    def start(self) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        self.logs.chmod(0o755)
        self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        self._psql(f'CREATE DATABASE "{self.db_name}"')
        subprocess.run(["redis-cli", "-u", f"{self.redis_base}/{self.redis_db}", "FLUSHDB"], check=True,
                       stdout=subprocess.DEVNULL)
        direct = {**self.env(), "DATABASE_URL": f"{self.pg_admin.rsplit('/', 1)[0]}/{self.db_name}"}
        subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=direct,
                       check=True)
        subprocess.run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                       env=direct, check=True)
        bouncer = self.logs / "pgbouncer"
        bouncer.mkdir(exist_ok=True)
        pgbouncer_config(bouncer, self.pgbouncer_port, self.db_name)
        (self.logs / "haproxy.cfg").write_text(haproxy_config(self.balancer_port, self.node_ports, self.stats_socket))
        try:
            cmds = self.commands()
            proc = self.launch("pgbouncer", cmds["pgbouncer"])
            wait_until(port_listens(self.pgbouncer_port), "pgbouncer", proc=proc, log=self.logs / "pgbouncer.log")
            for name in self.node_ports:
                self.start_web(name)
            self.launch("worker-bots", cmds["worker-bots"], WORKER_METRICS_PORT=str(self.worker_metrics_port))
            for name in ("worker-analysis", "beat"):
                self.launch(name, cmds[name])
            proc = self.launch("haproxy", cmds["haproxy"])
            # ready once the balancer has a node it finds ready and a worker answers (the whole site's /readyz)
            wait_until(http_answers(f"{self.url}/readyz", (200,)), "the balancer", proc=proc,
                       log=self.logs / "haproxy.log", timeout=90, every=0.3)
            self.wait_up(*self.node_ports)
        except BaseException:
            self.stop()
            raise

    @property
    def stats_socket(self) -> Path:
        return self.logs / "haproxy.sock"

    def node_states(self) -> dict[str, str]:
        """What the balancer thinks of each web node now ("UP", "DOWN", "UP 1/2", ...), from its stats socket."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.stats_socket))
            sock.sendall(b"show stat\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        rows = [line.split(",") for line in data.decode().splitlines() if line and not line.startswith("#")]
        return {row[1]: row[17] for row in rows if row[0] == "web" and row[1] in self.node_ports}

    def wait_up(self, *names: str, timeout: float = 90) -> None:
        """Until the balancer sends traffic to each of ``names``: a node passes its checks twice in a row first,
        and a node whose check failed (three in a row) is out until it does."""
        wait_until(lambda: all(self.node_states().get(n) == "UP" for n in names), f"the balancer's {names} up",
                   log=self.logs / "haproxy.log", timeout=timeout, every=0.3)

    def kill(self, name: str) -> None:
        """A node lost: SIGKILL to its whole process group, as a machine that loses power."""
        proc = self.procs[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def log(self, name: str) -> str:
        return tail(self.logs / f"{name}.log", 4000)

    def stop(self, keep: bool = False) -> None:
        for name in reversed(list(self.procs)):
            proc = self.procs[name]
            if proc.poll() is None:
                stop(proc, group=True, timeout=15)
        self.procs.clear()
        if keep:
            return
        with contextlib.suppress(subprocess.CalledProcessError):
            self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web-processes", type=int, default=1, help="gunicorn processes per web node")
    parser.add_argument("--bot-workers", type=int, default=4, help="processes of the bots' worker node")
    args = parser.parse_args()
    cluster = Cluster(web_processes=args.web_processes, bot_workers=args.bot_workers)
    cluster.start()
    print(f"the site: {cluster.url} (HAProxy)")
    for name in cluster.node_ports:
        print(f"  {name}: {cluster.node_url(name)}")
    print(f"  PgBouncer: 127.0.0.1:{cluster.pgbouncer_port} (transaction mode) -> PostgreSQL {cluster.db_name}")
    print(f"  logs: {cluster.logs}; Ctrl-C stops every node and drops the database")
    try:
        while all(p.poll() is None for p in cluster.procs.values()):
            time.sleep(1)
        down = [n for n, p in cluster.procs.items() if p.poll() is not None]
        print(f"stopped: {down} exited", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
