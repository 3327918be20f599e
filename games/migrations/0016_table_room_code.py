"""A private table's room code: six characters to read out (``games.tables.models.new_room_code``), unique among
open tables. Open private tables made before get theirs here; started, closed and expired ones need none."""

import secrets

from django.conf import settings
from django.db import migrations, models

# as in games.tables.models at the time of this migration
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6


def backfill_room_codes(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    taken = set(Table.objects.filter(status="open", room_code__isnull=False).values_list("room_code", flat=True))
    for table in Table.objects.filter(status="open", visibility="private", room_code__isnull=True).only("pk"):
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        while code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        taken.add(code)
        Table.objects.filter(pk=table.pk).update(room_code=code)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0015_username_keys_trim_punctuation'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='room_code',
            field=models.CharField(blank=True, editable=False, help_text="A private table's short code to read out (unique among open tables; kept after, for the record).", max_length=6, null=True),
        ),
        migrations.RunPython(backfill_room_codes, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.UniqueConstraint(condition=models.Q(('room_code__isnull', False), ('status', 'open')), fields=('room_code',), name='unique_open_room_code'),
        ),
    ]
