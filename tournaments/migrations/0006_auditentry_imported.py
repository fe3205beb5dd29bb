from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_tournament_withdrawn_prize_no_show_rule"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="imported",
            field=models.BooleanField(default=False),
        ),
    ]
