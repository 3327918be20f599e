"""Guest accounts (*Play now, name later*): the marker of an account made by one tap, until *Keep my games*."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0017_one_tap_rematch"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Guest",
            fields=[
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                              related_name="guest", serialize=False, to=settings.AUTH_USER_MODEL)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("removed_at", models.DateTimeField(blank=True, db_index=True, null=True,
                                                    help_text="Removed for idleness: the account is deactivated "
                                                              "and anonymised.")),
            ],
        ),
    ]
