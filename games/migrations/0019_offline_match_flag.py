"""Matches played offline in the installed app and uploaded as their verified replay (games/offline)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0018_guest_accounts"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="offline",
            field=models.BooleanField(
                default=False, help_text="Played with no connection in the installed app and uploaded as its "
                                         "replay (verified by the engine; never rated)."),
        ),
    ]
