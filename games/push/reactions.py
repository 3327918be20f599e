"""What Web Push does once a notice is recorded: a push task per subscription of the person, unless push is off,
they turned this kind off, or they have the match page open (then no email goes either)."""

from __future__ import annotations

from games.notices.events import NoticeRecorded
from games.platform import outbox

from . import reads, tasks


def notice_recorded(event: NoticeRecorded) -> None:
    if not reads.should_push(event.user_id, event.match_id, event.kind):
        return
    for subscription_id in reads.subscription_ids(event.user_id):
        outbox.task_now(tasks.push_notice, event.notice_id, subscription_id, queue=tasks.QUEUE)
