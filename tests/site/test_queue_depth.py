"""/metrics reports the depth of every queue the workers take tasks from, the push queue's too (issue 40)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from callbreak_site import ops
from games.analysis.reactions import QUEUE as ANALYSIS_QUEUE
from games.push.tasks import QUEUE as PUSH_QUEUE


class _Broker:
    """The broker's Redis as ``_queue_depths`` reads it: one list length per queue."""

    def __init__(self, depths: dict[str, int]) -> None:
        self.depths = depths

    @contextmanager
    def connection_for_read(self) -> Iterator[Any]:
        yield SimpleNamespace(default_channel=SimpleNamespace(client=SimpleNamespace(llen=self.depths.get)))


def test_metrics_give_each_queues_depth(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker: its queues have depths
    depths = {"celery": 2, ANALYSIS_QUEUE: 3, PUSH_QUEUE: 5}
    monkeypatch.setattr(ops, "current_app", _Broker(depths))
    text = Client(REMOTE_ADDR="127.0.0.1").get("/metrics").content.decode()
    for queue, depth in depths.items():
        assert f'callbreak_queue_depth{{queue="{queue}"}} {float(depth)}' in text
