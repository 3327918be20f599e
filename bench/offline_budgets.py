"""The offline play's budgets (docs/performance.md, "Offline play"), measured in a real Chromium.

Starts the site (daphne, the embedded settings, a temporary SQLite file) and Debian's Chromium, then:

- the download: the bytes the service worker keeps for offline play (the engine under Pyodide, as it reports
  them, plus the table's own files from disk); budget 15 MB;
- offline start: with the network off, from opening /play-offline/ to a table that asks for a bid or a card,
  after a single visit of the home page (the service worker keeps everything, then the page starts the engine
  once in the background, which keeps its memory snapshot; ``--cold``: the visit ends as soon as the download
  is kept, before that snapshot); budget 3 s;
- a ``normal`` bot's card in the worker (engine.solo times each decision): p95 over whole matches; budget 100 ms.

    .venv/bin/python bench/offline_budgets.py            # 5 offline starts, 3 matches of bot cards
    .venv/bin/python bench/offline_budgets.py --starts 10 --matches 5
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "frontend" / "static"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ASKS = """() => {
  if (document.querySelector('.bid-picker:not([hidden]) .bid-btn:not([disabled])')) return true;
  const app = document.getElementById('table-app');
  return Boolean(app && app.dataset.interactive === '1' && document.querySelector('.hand .card.legal'));
}"""
BOT_CARDS = """async ([matches]) => {
  const { ask } = await import('/static/js/table/solo.js');
  const ms = [];
  for (let m = 0; m < matches; m++) {
    let a = await ask({ op: 'start', seed: `bench-${m}`, level: 'normal', name: 'bench' });
    ms.push(...a.bot_ms);
    while (!a.replay) {
      const v = a.match;
      a = await ask({ op: 'act', seq: v.seq, [v.phase === 'bidding' ? 'bid' : 'card']: v.legal[0] });
      if (a.error) throw new Error(a.error.detail);
      ms.push(...a.bot_ms);
    }
  }
  return ms;
}"""


def shell_bytes() -> int:
    globs = ("js/**/*.js", "css/*.css", "img/**/*.*", "fonts/**/*.*")
    return sum(p.stat().st_size for g in globs for p in STATIC.glob(g) if p.is_file() and "vendor" not in p.parts)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_site(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "callbreak_site.settings", "SQLITE_PATH": str(tmp / "b.sqlite3"),
           "DEBUG": "1", "CELERY_TASK_ALWAYS_EAGER": "1", "BOT_DELAY_SECONDS": "0"}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "callbreak_site.asgi:application"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(150):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the site did not start")


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def measure(base: str, starts: int, matches: int, *, warm: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        ctx = browser.new_context(bypass_csp=True)
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{base}/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.wait_for_selector("#offline-play[data-ready='1']")
        ready = time.monotonic()
        engine_bytes = int(page.get_attribute("#offline-play", "data-bytes") or 0)
        warm_s = None
        if warm:  # the same visit: the home page starts the engine once, which keeps its memory snapshot
            page.wait_for_selector("#offline-play[data-warm]")
            warm_s = time.monotonic() - ready
        else:
            page.goto("about:blank")  # the visit ends with the download: the warm-up never finishes
        ctx.set_offline(True)
        runs = []
        for _ in range(starts):
            t0 = time.monotonic()
            page.goto(f"{base}/play-offline/")
            page.wait_for_function(ASKS)
            runs.append((time.monotonic() - t0, page.evaluate("window.callbreakTable.timings")))
        cards = page.evaluate(BOT_CARDS, [matches])
        browser.close()
    seconds = [r[0] for r in runs]
    return {
        "download_mb": (engine_bytes + shell_bytes()) / 1e6,
        "warm_s": warm_s,
        "engine_mb": engine_bytes / 1e6,
        "start_s": seconds,
        "boot_ms": [round(r[1]["boot"]) for r in runs],
        "pyodide_ms": [round(r[1]["pyodide"]) for r in runs],
        "engine_import_ms": [round(r[1]["engine"]) for r in runs],
        "snapshot": [r[1]["snapshot"] for r in runs],
        "bot_cards": len(cards),
        "bot_p50_ms": statistics.median(cards),
        "bot_p95_ms": p95(cards),
        "bot_max_ms": max(cards),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--starts", type=int, default=5, help="offline starts of the table to time")
    ap.add_argument("--matches", type=int, default=3, help="whole matches of normal bots' cards to time")
    ap.add_argument("--cold", action="store_true", help="one visit only: the first offline start makes the "
                                                        "engine's memory snapshot")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_site(Path(tmp))
        try:
            r = measure(base, args.starts, args.matches, warm=not args.cold)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    start = sorted(r["start_s"])
    print(f"download: {r['download_mb']:.1f} MB (the engine under Pyodide {r['engine_mb']:.1f} MB)  budget 15 MB")
    if r["warm_s"] is not None:
        print(f"the home page's warm-up after the download (in a worker): {r['warm_s']:.2f} s")
    print(f"offline start to a playable table: median {statistics.median(start):.2f} s, worst {start[-1]:.2f} s"
          f"  budget 3 s  (runs: {', '.join(f'{s:.2f}' for s in r['start_s'])})")
    print(f"  of which the worker's start: {r['boot_ms']} ms (Pyodide {r['pyodide_ms']}, "
          f"the engine's import {r['engine_import_ms']}; memory snapshot {r['snapshot']})")
    print(f"normal bot's card in the worker: p50 {r['bot_p50_ms']:.1f} ms, p95 {r['bot_p95_ms']:.1f} ms, "
          f"max {r['bot_max_ms']:.1f} ms over {r['bot_cards']} decisions  budget p95 100 ms")


if __name__ == "__main__":
    main()
