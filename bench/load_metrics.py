"""The crowd benchmark's measures besides the players' own: CPU per component of the stack (from /proc), the
server's own histograms (``/metrics`` of the web processes and the worker, before and after the play) and
percentiles."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
from load_stack import Stack

# --- CPU per component ----------------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _proc_table() -> dict[int, tuple[int, str, float]]:
    """pid -> (parent pid, command name, CPU seconds so far)."""
    table: dict[int, tuple[int, str, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2:].split()
        table[int(entry)] = (int(fields[1]), name, (int(fields[11]) + int(fields[12])) / TICKS)
    return table


def _tree(table: dict[int, tuple[int, str, float]], root: int) -> set[int]:
    members, changed = {root}, True
    while changed:
        changed = False
        for pid, (ppid, _, _) in table.items():
            if ppid in members and pid not in members:
                members.add(pid)
                changed = True
    return members


def cpu_by_component(stack: Stack | None) -> dict[str, float]:
    """CPU seconds used so far by each component (process trees of the stack; the database and Redis
    servers by process name)."""
    table = _proc_table()
    out: dict[str, float] = {}
    if stack is not None:
        for name, proc in stack.procs.items():
            out[name] = sum(table[p][2] for p in _tree(table, proc.pid) if p in table)
    out["postgres"] = sum(t for _, n, t in table.values() if n.startswith("postgres"))
    out["redis"] = sum(t for _, n, t in table.values() if n.startswith("redis-server"))
    me = table.get(os.getpid())
    out["load client"] = me[2] if me else 0.0
    return out


# --- the server's own histograms (games.platform.metrics), read from /metrics before and after the play ------

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _parse(text: str) -> Samples:
    out: Samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        name, _, rest = head.partition("{")
        pairs = sorted(kv.split("=", 1) for kv in rest.rstrip("}").split('",') if kv) if rest else []
        labels = tuple((k, v.strip('"')) for k, v in pairs)
        out[(name, labels)] = out.get((name, labels), 0.0) + float(value)
    return out


async def server_samples(http: httpx.AsyncClient, base: str, stack: Stack | None) -> Samples:
    """The web processes' and (with ``--start``) the worker's metrics now; empty when they do not answer."""
    out: Samples = {}
    if stack is not None and hasattr(stack, "metrics_urls"):  # a cluster: each node's own
        urls = stack.metrics_urls()
    else:
        urls = [f"{base}/metrics"] + ([f"http://127.0.0.1:{stack.worker_metrics_port}/"] if stack else [])
    for url in urls:
        try:
            r = await http.get(url, timeout=10)
        except httpx.HTTPError:
            continue
        if r.status_code == 200:
            for key, value in _parse(r.text).items():
                out[key] = out.get(key, 0.0) + value
    return out


def histogram_pct(before: Samples, after: Samples, name: str, q: float, **labels: str) -> float:
    """The ``q`` quantile of a histogram's observations between two scrapes (the upper bound of its bucket)."""
    buckets: dict[float, float] = {}
    for (metric, labs), value in after.items():
        if metric != f"{name}_bucket":
            continue
        lab = dict(labs)
        if any(lab.get(k) != v for k, v in labels.items()):
            continue
        le = float("inf") if lab["le"] == "+Inf" else float(lab["le"])
        buckets[le] = buckets.get(le, 0.0) + value - before.get((metric, labs), 0.0)
    if not buckets or buckets[max(buckets)] <= 0:
        return float("nan")
    total = buckets[max(buckets)]
    for le in sorted(buckets):
        if buckets[le] >= q * total:
            return le
    return float("inf")


def server_figures(before: Samples, after: Samples, via: str) -> dict[str, Any]:
    """The server's time per action (socket actions, or the REST action route) and the bots' reply, in ms."""
    if via == "socket":
        action = ("callbreak_socket_action_seconds", {"outcome": "accepted"})
    else:
        action = ("callbreak_http_request_seconds", {"route": "api/matches/<int:match_id>/actions/",
                                                      "status": "2xx"})
    out: dict[str, Any] = {}
    for key, (name, labels) in {"action_ms": action, "reply_ms": ("callbreak_bot_reply_seconds", {})}.items():
        out[key] = {f"p{int(q * 100)}": 1000 * histogram_pct(before, after, name, q, **labels)
                    for q in (0.5, 0.95, 0.99)}
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

