"""Username keys computed anew: a key no longer keeps the ``.``, ``_`` and ``-`` at either end of a name
(games.accounts.usernames.key), so ``alice.`` and ``alice`` are one name.

As in 0007: where two existing accounts' names now look alike, the older account (lower id) keeps the key, the
others keep their names without a key (as ``remember_username_key`` does), and each is named in the log for staff.
"""

import logging

from django.conf import settings
from django.db import migrations

log = logging.getLogger("games.migrations")


def recompute_keys(apps, schema_editor):
    from games.accounts.usernames import key

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    UsernameKey = apps.get_model("games", "UsernameKey")
    UsernameKey.objects.all().delete()  # then made again in id order: the older account keeps a shared key
    owners = {}
    rows = []
    for user_id, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        k = key(username)
        if k in owners:
            log.warning("username %r (user %s) looks like %r (user %s): it keeps its name, without a key",
                        username, user_id, owners[k][1], owners[k][0])
            continue
        owners[k] = (user_id, username)
        rows.append(UsernameKey(user_id=user_id, key=k))
    UsernameKey.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0014_bot_pool"),
    ]

    operations = [
        migrations.RunPython(recompute_keys, migrations.RunPython.noop),
    ]
