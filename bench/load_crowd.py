"""The crowd run (``bench/load.py`` without ``--quick``): N people play at once, a few at a time or all in a
burst at the start; its figures and the table printed of them."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import time
from typing import Any

import httpx
from load_metrics import cpu_by_component, pct, server_figures, server_samples
from load_players import Figures, Player
from load_stack import Stack


async def run(args: argparse.Namespace, base: str, stack: Stack | None) -> dict[str, Any]:
    lo, hi = (float(x) for x in (args.think.split("-") + [args.think])[:2])
    figures = Figures()
    load_before = os.getloadavg()[0]
    run_id = secrets.token_hex(3)
    limits = httpx.Limits(max_connections=args.matches + 20, max_keepalive_connections=args.matches + 20)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(30.0)) as http:
        players = [Player(i, run_id, base, http, (lo, hi), figures, random.Random(f"{args.seed}-{i}"),
                          args.bot, args.via)
                   for i in range(args.matches)]
        # sign up and start: a few at a time, or (--burst) everyone at the same moment
        sem = asyncio.Semaphore(len(players) if args.burst else 8)
        go = asyncio.Event()

        async def setup(p: Player) -> bool:
            await go.wait()
            async with sem:
                return await p.sign_up() and await p.start()

        tasks = [asyncio.create_task(setup(p)) for p in players]
        await asyncio.sleep(0.1)  # every task waits at the line
        burst_t0 = time.monotonic()
        go.set()
        ok = await asyncio.gather(*tasks)
        burst_s = time.monotonic() - burst_t0
        burst_errors = dict(figures.errors)
        ready = [p for p, good in zip(players, ok, strict=True) if good]
        server0 = await server_samples(http, base, stack)
        cpu0, t0 = cpu_by_component(stack), time.monotonic()
        deadline = t0 + args.timeout
        await asyncio.gather(*(p.play(deadline, args.rounds) for p in ready))
        wall = time.monotonic() - t0
        cpu1 = cpu_by_component(stack)
        server1 = await server_samples(http, base, stack)
    drain_s, cpu2 = await _drain_reviews(stack)
    cpu = {name: round(100 * (cpu1[name] - cpu0.get(name, 0.0)) / wall) for name in cpu1}
    server_cpu_s = sum(cpu1[name] - cpu0.get(name, 0.0) for name in cpu1 if name not in ("load client",))
    return {
        "via": args.via, "server": server_figures(server0, server1, args.via),
        "matches": args.matches, "bot": args.bot, "started": len(ready), "finished": figures.finished,
        "think": args.think, "rounds": args.rounds, "web": args.web, "workers": args.workers, "seconds": round(wall, 1),
        "action_ms": {"p50": pct(figures.action_ms, 0.5), "p95": pct(figures.action_ms, 0.95),
                      "p99": pct(figures.action_ms, 0.99), "n": len(figures.action_ms)},
        "reply_ms": {"p50": pct(figures.reply_ms, 0.5), "p95": pct(figures.reply_ms, 0.95),
                     "p99": pct(figures.reply_ms, 0.99), "n": len(figures.reply_ms)},
        "human_actions_per_s": round(figures.human_actions / wall, 1),
        # every process of the site (web, worker, beat, PostgreSQL, Redis) per person's action, bots' answers included
        "cpu_ms_per_human_action": round(1000 * server_cpu_s / figures.human_actions, 1) if figures.human_actions
        else None,
        # the same with the reviews of the matches played run to their end (the analyses' node idle again)
        "cpu_ms_per_human_action_reviews_done": round(
            1000 * sum(cpu2[n] - cpu0.get(n, 0.0) for n in cpu2 if n != "load client") / figures.human_actions, 1)
        if cpu2 and figures.human_actions else None,
        "reviews_drained_s": drain_s,
        "all_actions_per_s": round(figures.all_actions / wall, 1),
        "errors": dict(figures.errors), "closed_by_server": dict(figures.closed_by_server),
        "reconnects": figures.reconnects, "cpu_pct_of_a_core": cpu,
        "mean_action_ms": round(statistics.fmean(figures.action_ms), 1) if figures.action_ms else None,
        "load_average": os.getloadavg()[0], "load_average_before": load_before,
        "burst": args.burst, "all_in_s": round(burst_s, 1), "setup_errors": burst_errors,
        "signup_ms": {"p50": pct(figures.signup_ms, 0.5), "p95": pct(figures.signup_ms, 0.95),
                      "max": max(figures.signup_ms, default=float("nan")), "n": len(figures.signup_ms)},
        "start_ms": {"p50": pct(figures.start_ms, 0.5), "p95": pct(figures.start_ms, 0.95),
                     "max": max(figures.start_ms, default=float("nan")), "n": len(figures.start_ms)},
    }


async def _drain_reviews(stack: Stack | None, cap_s: float = 300.0) -> tuple[float | None, dict[str, float]]:
    """Wait for the analyses' node (the cluster's ``worker-analysis``) to finish the reviews the play queued:
    idle once it used under 2% of a core for three seconds running.  The seconds waited after the play and
    every component's CPU then; (None, {}) without such a node."""
    if stack is None or "worker-analysis" not in stack.procs:
        return None, {}
    t0 = time.monotonic()
    last, quiet = cpu_by_component(stack)["worker-analysis"], 0
    while quiet < 3 and time.monotonic() - t0 < cap_s:
        await asyncio.sleep(1.0)
        now = cpu_by_component(stack)["worker-analysis"]
        quiet = quiet + 1 if now - last < 0.02 else 0
        last = now
    return round(time.monotonic() - t0 - quiet, 1), cpu_by_component(stack)


def _ms(value: float) -> str:
    return "?" if value != value else f"{value:.0f}"  # NaN: nothing observed


def table(result: dict[str, Any]) -> str:
    a, r = result["action_ms"], result["reply_ms"]
    sa, sr = result["server"]["action_ms"], result["server"]["reply_ms"]
    lines = [
        "| concurrent matches | think time | web × worker processes | action p50 / p95 / p99 "
        "| bots' reply p50 / p95 / p99 | human actions/s | all actions/s | finished | errors | closed by server |",
        "|---|---|---|---|---|---|---|---|---|---|",
        f"| {result['matches']} | {result['think']} s | {result['web']} × {result['workers']} "
        f"| {a['p50']:.0f} / {a['p95']:.0f} / {a['p99']:.0f} ms "
        f"| {r['p50'] / 1000:.2f} / {r['p95'] / 1000:.2f} / {r['p99'] / 1000:.2f} s "
        f"| {result['human_actions_per_s']} | {result['all_actions_per_s']} "
        f"| {result['finished']}/{result['matches'] * result['rounds']} | {sum(result['errors'].values())} "
        f"| {sum(result['closed_by_server'].values())} |",
        "",
        f"actions sent by {result['via']}; the server's own histograms (upper bounds of their buckets): action "
        f"p50 / p95 / p99 <= {_ms(sa['p50'])} / {_ms(sa['p95'])} / {_ms(sa['p99'])} ms, bots' reply <= "
        f"{_ms(sr['p50'])} / {_ms(sr['p95'])} / {_ms(sr['p99'])} ms",
        "",
        "CPU, % of one core: " + ", ".join(f"{k} {v}" for k, v in result["cpu_pct_of_a_core"].items())
        + f"; machine load average before / at the end: {result['load_average_before']:.1f} / "
        f"{result['load_average']:.1f} on {os.cpu_count()} CPUs",
        f"CPU of the whole site (web, worker, beat, PostgreSQL, Redis) per person's action, its bots' answers "
        f"included: {result['cpu_ms_per_human_action']} ms",
    ]
    if result.get("cpu_ms_per_human_action_reviews_done") is not None:
        full = result["cpu_ms_per_human_action_reviews_done"]
        lines.append(f"the same with the reviews of the matches played run to their end (the analyses' node busy "
                     f"{result['reviews_drained_s']} s after the play): {full} ms")
    su, st = result["signup_ms"], result["start_ms"]
    lines += [
        "",
        f"{'burst (all at once)' if result['burst'] else 'eight at a time'}: {result['started']}/{result['matches']}"
        f" signed up and started, the last {result['all_in_s']} s after the first began; sign-up p50 / p95 / "
        f"slowest {su['p50']:.0f} / {su['p95']:.0f} / {su['max']:.0f} ms; start {st['p50']:.0f} / {st['p95']:.0f} / "
        f"{st['max']:.0f} ms; errors then: {sum(result['setup_errors'].values())} {result['setup_errors'] or ''}",
    ]
    if result["errors"] or result["closed_by_server"]:
        lines.append(f"errors: {result['errors']}; closed by server: {result['closed_by_server']}; "
                     f"reconnects: {result['reconnects']}")
    return "\n".join(lines)
