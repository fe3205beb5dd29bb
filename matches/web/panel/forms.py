"""Forms of the table board and match control (the referee form talks JSON to the API)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

SLOTS = [("a", "A"), ("b", "B")]


class TableNumberForm(forms.Form):
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=999)


class TablesCountForm(forms.Form):
    count = forms.IntegerField(label=_("Tables in use"), min_value=0, max_value=200)


class HoldForm(forms.Form):
    held = forms.TypedChoiceField(
        label=_("Held back from the queue"),
        choices=[("1", "1"), ("0", "0")],
        coerce=lambda v: v == "1",
    )


class ClockForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Clock"),
        choices=[("start", _("Start")), ("pause", _("Pause")), ("resume", _("Resume"))],
    )


class ClockAdjustForm(forms.Form):
    minutes = forms.IntegerField(
        label=_("Net time left, minutes"),
        min_value=0,
        max_value=600,
        required=False,
        help_text=_("Empty: no time limit."),
    )


class WalkoverForm(forms.Form):
    winner = forms.ChoiceField(label=_("Goes on"), choices=SLOTS, widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class CorrectResultForm(forms.Form):
    winner = forms.ChoiceField(label=_("Winner"), choices=SLOTS, widget=forms.RadioSelect)
    score_a = forms.IntegerField(label=_("Score A"), min_value=0, max_value=999)
    score_b = forms.IntegerField(label=_("Score B"), min_value=0, max_value=999)
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class HandicapForm(forms.Form):
    head_a = forms.IntegerField(label=_("Head start A"), min_value=0, max_value=199)
    head_b = forms.IntegerField(label=_("Head start B"), min_value=0, max_value=199)
    balls_to_win = forms.IntegerField(
        label=_("Race to"),
        min_value=1,
        max_value=200,
        required=False,
        help_text=_("Empty: keep the race."),
    )


class JudgeResolveForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=300, required=False)
