"""Forms of the people pages (panel and claim). They parse; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from config.moments import WindowDateField
from tournaments.services.players import MAX_RATING, MIN_RATING


def error_text_of(form: forms.Form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


class RefereeLoginForm(forms.Form):
    name = forms.CharField(label=_("Referee's name"), max_length=150, required=False)
    username = forms.CharField(
        label=_("Login"),
        max_length=150,
        help_text=_("Latin letters, digits and @ . + - _ (e.g. ivanov)."),
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )


class PlayerEditForm(forms.Form):
    name = forms.CharField(label=_("Surname and name"), max_length=200)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    rating = forms.IntegerField(
        label=_("Rating"),
        min_value=MIN_RATING,
        max_value=MAX_RATING,
        required=False,
        help_text=_("A superuser's adjustment: recorded in the rating history."),
    )

    def __init__(self, *args: Any, with_rating: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_rating:
            del self.fields["rating"]


class PlayerChangeForm(forms.Form):
    """A change proposed by an organiser who may not make it (the player or a superuser
    approves): the fields left as they are stay."""

    name = forms.CharField(label=_("Surname and name"), max_length=200)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    note = forms.CharField(label=_("Why (the player reads it)"), max_length=300, required=False)


class MergeForm(forms.Form):
    drop = forms.IntegerField(
        label=_("Number of the duplicate record"),
        min_value=1,
        help_text=_(
            "Its registrations, results, rating history and changes move here; it is deleted."
        ),
    )


class ClaimForm(forms.Form):
    code = forms.CharField(
        label=_("Code from the slip"),
        max_length=40,
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )
    username = forms.CharField(
        label=_("Choose a login"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "username"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, signup: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not signup:
            for name in ("username", "password1", "password2"):
                del self.fields[name]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "password1" in self.fields and data.get("password1") != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return data


class SlipPdfForm(forms.Form):
    """What a slip page posts back to print itself as a PDF."""

    kind = forms.ChoiceField(choices=[("referee", "referee"), ("player", "player")])
    name = forms.CharField(max_length=200)
    username = forms.CharField(max_length=150, required=False)
    secret = forms.RegexField(regex=r"^[A-Za-z0-9-]{4,40}$", max_length=40)
    expires = WindowDateField(required=False)
