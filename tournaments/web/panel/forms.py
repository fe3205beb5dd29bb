"""Forms of the organiser panel: they parse input; the services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.moments import WindowDateField
from tournaments import presets
from tournaments.errors import TournamentError
from tournaments.models import Tournament


def add_service_error(form: forms.Form, err: TournamentError) -> None:
    """Show a service's refusal on the field it names, else on top of the form."""
    field = str(err.params.get("field", ""))
    if field.startswith("stage_rules.") and field.endswith(".pair_race"):
        field = f"pair__{field.split('.')[1]}__bands"  # the settings page's field of it
    form.add_error(field if field in form.fields else None, err.message)


class TournamentCreateForm(forms.Form):
    preset = forms.ChoiceField(label=_("Preset"), widget=forms.RadioSelect)
    name = forms.CharField(label=_("Name"), max_length=200)
    date = WindowDateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    chief_judge = forms.CharField(label=_("Chief judge"), max_length=200, required=False)
    format = forms.ChoiceField(
        label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.DOUBLE
    )
    playoff_size = forms.TypedChoiceField(
        label=_("Play-off size"),
        help_text=_("Double elimination until this many players remain (double to single)."),
        choices=[("", "—")] + [(str(n), str(n)) for n in (4, 8, 16, 32, 64)],
        coerce=int,
        empty_value=None,
        required=False,
    )
    max_players = forms.IntegerField(
        label=_("Maximum players"), min_value=2, max_value=1024, initial=64
    )
    entry_fee = forms.DecimalField(
        label=_("Entry fee"), min_value=0, max_digits=10, decimal_places=2, initial=0
    )
    time_limit_minutes = forms.IntegerField(
        label=_("Net time limit, minutes"),
        help_text=_("Leave empty to keep the preset's limit."),
        min_value=1,
        max_value=600,
        required=False,
    )
    # Not required: a form posted without them keeps the defaults.
    no_show_rule = forms.ChoiceField(
        label=_("A player who does not come to his match"),
        choices=Tournament.NoShowRule.choices,
        initial=Tournament.NoShowRule.LOWER_BRACKET,
        required=False,
    )
    withdrawn_prize = forms.ChoiceField(
        label=_("Prize of a withdrawn or disqualified player"),
        help_text=_("Withheld: no prize and no diploma; the share is shown as not paid."),
        choices=Tournament.WithdrawnPrize.choices,
        initial=Tournament.WithdrawnPrize.WITHHOLD,
        required=False,
    )
    is_public = forms.BooleanField(
        label=_("Public: anyone may follow it"), required=False, initial=True
    )
    self_scoring = forms.BooleanField(label=_("Players score their own matches"), required=False)
    open_registration = forms.BooleanField(
        label=_("Open registration at once"), required=False, initial=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)
        preset.choices = [(p.slug, p.title) for p in presets.PRESETS.values()]
        self.fields["preset"].initial = next(iter(presets.PRESETS))
        self.fields["date"].initial = timezone.localdate()
        self.presets = list(presets.PRESETS.values())

    def service_data(self) -> dict[str, Any]:
        """The settings for tournament_create: what the organiser set, over the preset."""
        data = dict(self.cleaned_data)
        data.pop("preset")
        data.pop("open_registration")
        if data["time_limit_minutes"] is None:
            data.pop("time_limit_minutes")
        if data["playoff_size"] is None:
            data.pop("playoff_size")
        for field in ("no_show_rule", "withdrawn_prize"):
            if not data[field]:
                data.pop(field)
        return data


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Find a player"), max_length=100, required=False)


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=_("Surname and name"), max_length=200)
    rating = forms.IntegerField(
        label=_("Rating"),
        min_value=0,
        max_value=3000,
        required=False,
        help_text=_("Empty: the starting rating."),
    )
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    confirm_duplicate = forms.BooleanField(
        label=_("This is a different person with the same name"), required=False
    )


class RegisterExistingForm(forms.Form):
    player = forms.IntegerField(label=_("Player"), widget=forms.HiddenInput)


class PaidForm(forms.Form):
    paid = forms.TypedChoiceField(
        label=_("Entry fee"),
        choices=[("1", _("Paid")), ("0", _("Not paid"))],
        coerce=lambda v: v == "1",
    )


class DrawForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Draw"),
        choices=[
            (Tournament.DrawMethod.SEEDED, _("By rating (seeded)")),
            (Tournament.DrawMethod.RANDOM, _("Random")),
        ],
        widget=forms.RadioSelect,
        initial=Tournament.DrawMethod.SEEDED,
    )
    random_seed = forms.IntegerField(
        label=_("Random seed"),
        min_value=0,
        max_value=2**62,
        required=False,
        help_text=_("The same seed gives the same draw; the preview shows the one you confirm."),
    )
    allow_unpaid = forms.BooleanField(label=_("Draw even with unpaid entry fees"), required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class NoShowForm(forms.Form):
    absent = forms.ChoiceField(
        label=_("Did not come"), choices=[("a", "A"), ("b", "B")], widget=forms.RadioSelect
    )
