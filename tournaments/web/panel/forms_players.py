"""Forms of the panel's online-entry settings and club cups."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from config.moments import WindowDateTimeField
from tournaments.models import Tournament
from tournaments.services.players import MAX_RATING, MIN_RATING


class EntrySettingsForm(forms.Form):
    online_entry = forms.BooleanField(label=_("Players may enter online"), required=False)
    entry_opens_at = WindowDateTimeField(
        label=_("Online entry opens"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    entry_closes_at = WindowDateTimeField(
        label=_("Online entry closes"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    entry_min_rating = forms.IntegerField(
        label=_("Minimum rating"), min_value=MIN_RATING, max_value=MAX_RATING, required=False
    )
    entry_max_rating = forms.IntegerField(
        label=_("Maximum rating"), min_value=MIN_RATING, max_value=MAX_RATING, required=False
    )


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea)
    points_table = forms.CharField(
        label=_("Points per place"),
        help_text=_("For 1st, 2nd, 3rd, … place, separated by commas: 25, 20, 16, 13"),
        max_length=2000,
    )
    participation_points = forms.IntegerField(
        label=_("Points for any other place"), min_value=0, max_value=10000, initial=0
    )
    best_of = forms.IntegerField(
        label=_("Best stages that count"),
        min_value=1,
        max_value=50,
        required=False,
        help_text=_("Empty: every stage counts."),
    )
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)
    tournaments: forms.ModelMultipleChoiceField[Tournament] = forms.ModelMultipleChoiceField(
        label=_("Stages, in order of date"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, tournaments: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = tournaments  # type: ignore[attr-defined]

    def clean_points_table(self) -> list[int]:
        raw = str(self.cleaned_data["points_table"])
        try:
            return [int(part) for part in raw.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("Whole numbers separated by commas.")) from None
