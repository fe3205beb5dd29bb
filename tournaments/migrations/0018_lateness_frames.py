# Lateness may cost frames (a frame credited to the opponent) instead of balls.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0017_webhooks'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='lateness_penalty_unit',
            field=models.CharField(choices=[('balls', 'Balls: a head start for the opponent'), ('frames', 'Frames: a frame credited to the opponent')], default='balls', max_length=8, verbose_name='lateness: what a step costs'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='lateness_penalty_balls',
            field=models.PositiveSmallIntegerField(default=1, verbose_name='lateness: balls or frames lost per step'),
        ),
    ]
