from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_lean_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="imported",
            field=models.BooleanField(default=False),
        ),
    ]
