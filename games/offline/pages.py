"""``/play-offline/`` (the card table with the offline engine as its transport, ``js/table/solo.js``) and the
service worker that keeps it, with everything it needs, for when the network is gone.

The table needs no log-in: it is opened with no network; a signed-in person's name goes on the human seat, so
the replay uploads as theirs once they are back online.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static

#: The table's own files (small; fetched from the network first, so a new deploy shows at once) ...
SHELL_GLOBS = ("js/**/*.js", "css/*.css", "img/**/*.*", "fonts/**/*.*")
#: ... and the engine with its interpreter (bin/build-offline; kept as they are until their version changes).
ENGINE_GLOBS = ("vendor/pyodide/*", "vendor/engine.zip")
#: Pages the table needs offline besides the static files.
PAGES = ("/play-offline/", "/offline/", "/jsi18n/")


@lru_cache(maxsize=1)
def offline_files() -> tuple[list[str], list[str], str, int]:
    """(shell URLs, engine URLs, the engine's version, the engine's bytes), read once per process."""
    root = Path(settings.STATICFILES_DIRS[0])

    def found(globs: tuple[str, ...]) -> list[Path]:
        return sorted({p for g in globs for p in root.glob(g) if p.is_file() and not p.name.endswith(".map")})

    shell = [static(p.relative_to(root).as_posix()) for p in found(SHELL_GLOBS) if "vendor" not in p.parts]
    engine = found(ENGINE_GLOBS)
    digest = hashlib.sha256()
    for path in engine:
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    size = sum(p.stat().st_size for p in engine)
    return shell, [static(p.relative_to(root).as_posix()) for p in engine], digest.hexdigest()[:16], size


def play_offline(request: HttpRequest) -> HttpResponse:
    return render(request, "table.html", {"match_id": "offline", "transport": "offline"})


def service_worker(request: HttpRequest) -> HttpResponse:
    shell, engine, version, _size = offline_files()
    response = render(request, "pwa/sw.js", {
        "version": version or "none",
        "shell": json.dumps([*PAGES, *shell]),
        "engine": json.dumps(engine),
    }, content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # a new version is picked up on the next visit
    return response
