"""Forms of the public pages: sign-up, the rating list's filters, a player's request."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from tournaments.selectors_players import SORTS


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only to reset a forgotten password, where the club's site sends mail."),
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        fields = ("username", "email")

    def clean_username(self) -> str:
        from django.contrib.auth import get_user_model

        username = str(self.cleaned_data["username"]).strip()
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(
                _("The login “%(login)s” is taken: choose another."), params={"login": username}
            )
        return username


class RatingListForm(forms.Form):
    q = forms.CharField(max_length=100, required=False)
    city = forms.CharField(max_length=100, required=False)
    club = forms.CharField(max_length=100, required=False)
    sort = forms.ChoiceField(choices=[(s, s) for s in SORTS], required=False)


class PlayerRequestForm(forms.Form):
    name = forms.CharField(label=_("Surname and name"), max_length=200)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
