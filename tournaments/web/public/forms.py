"""Forms of the public pages: sign-up, the rating list's filters, a player's request."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from config.login_names import login_clash, login_create, login_refusal, shape_login
from tournaments.selectors_players import SORTS


class SignupForm(UserCreationForm[User]):
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only to reset a forgotten password, where the club's site sends mail."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = shape_login(self.cleaned_data["username"])
        refusal = login_refusal(username)
        if refusal:
            raise forms.ValidationError(refusal)
        if login_clash(username) is not None:
            raise forms.ValidationError(
                _("The login “%(login)s” is taken: choose another."), params={"login": username}
            )
        return username

    def save(self, commit: bool = True) -> Any:
        """Made under the folding rule's lock (config.login_names): a look-alike created
        meanwhile is LoginTaken, which the view shows on the field."""
        return login_create(
            username=self.cleaned_data["username"],
            password=self.cleaned_data["password1"],
            email=self.cleaned_data.get("email") or "",
        )


class RatingListForm(forms.Form):
    q = forms.CharField(max_length=100, required=False)
    city = forms.CharField(max_length=100, required=False)
    club = forms.CharField(max_length=100, required=False)
    sort = forms.ChoiceField(choices=[(s, s) for s in SORTS], required=False)


class PlayerRequestForm(forms.Form):
    name = forms.CharField(label=_("Surname and name"), max_length=200)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
