"""The settings page's form, built from the list of settings (services.setup.SETTINGS_FIELDS)
and the model's fields, so a setting added to the API appears here too. The ruleset and the
per-stage races are built from the rules engine's own description of its keys."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise
from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _

import rules
from config.moments import WindowDateField
from matches.wording import discipline_label
from rules.registry import find
from tournaments.algorithms import handicap, pair_race
from tournaments.images import LOGO_SIDE, MAX_IMAGE_BYTES, ImageRefused, image_reencode
from tournaments.match_setup import stage_keys
from tournaments.models import Tournament
from tournaments.regulation import HANDICAP_TITLES
from tournaments.services.setup import MAX_TIME_LIMIT, SETTINGS_FIELDS, STAGE_KEYS

STAGE_LABELS = {
    "upper": _("Upper bracket"),
    "lower": _("Lower bracket"),
    "playoff": _("Play-off"),
    "grand_final": _("Final"),
    "group": _("Groups"),
}
TIME_LIMIT_LABEL = _("time limit, minutes")
# Settings with their own widgets (lists and objects); the rest follow the model field.
SPECIAL = {
    "ruleset",
    "stage_rules",
    "fee_bands",
    "place_shares",
    "discipline",
    "handicap_scheme",
    "organiser_logo",
}
LOGO_SIZE = LOGO_SIDE


def _model_field(name: str) -> forms.Field:
    field = Tournament._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the tournament, not a relation's end
    label = str(field.verbose_name)
    label = label[:1].upper() + label[1:]
    if field.choices:
        return forms.ChoiceField(label=label, choices=field.choices)
    if isinstance(field, models.BooleanField):
        return forms.BooleanField(label=label, required=False)
    if isinstance(field, models.DateField):
        return WindowDateField(
            label=label, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        )
    if isinstance(field, models.DecimalField):
        return forms.DecimalField(
            label=label, max_digits=field.max_digits, decimal_places=field.decimal_places
        )
    if isinstance(field, models.IntegerField):
        return forms.IntegerField(label=label, required=not field.null)
    if isinstance(field, models.TextField):
        return forms.CharField(
            label=label, required=False, widget=forms.Textarea(attrs={"rows": 3})
        )
    if isinstance(field, models.CharField):
        return forms.CharField(label=label, max_length=field.max_length, required=not field.blank)
    return forms.JSONField(label=label, required=False)


def _rule_field(spec: dict[str, Any]) -> forms.Field:
    """A ruleset key's field, in the words the key declares (its label, its choices')."""
    label = _(spec["label"])
    if spec["type"] == "int":
        return forms.IntegerField(label=label, min_value=spec.get("min"), max_value=spec.get("max"))
    if spec["type"] == "bool":
        return forms.BooleanField(label=label, required=False)
    if spec["type"] == "choice":
        labels = spec["choice_labels"]
        return forms.ChoiceField(label=label, choices=[(c, _(labels[c])) for c in spec["choices"]])
    return forms.JSONField(label=label)


def _stage_field(stage: str, spec: dict[str, Any] | None) -> forms.Field:
    """One stage's own value of a ruleset key (``spec``), or its time limit (None)."""
    high: int | None
    if spec is None:
        label, low, high = str(TIME_LIMIT_LABEL), 1, MAX_TIME_LIMIT
    else:
        label, low, high = str(_(spec["label"])), spec.get("min", 1), spec.get("max")
    return forms.IntegerField(
        label=f"{STAGE_LABELS[stage]}: {label[:1].lower()}{label[1:]}",
        required=False,
        min_value=low,
        max_value=high,
    )


def fee_bands_text(bands: list[dict[str, Any]]) -> str:
    lines = []
    for band in bands or []:
        lo = "" if band.get("min_rating") is None else band["min_rating"]
        hi = "" if band.get("max_rating") is None else band["max_rating"]
        lines.append(f"{lo}-{hi}: {band['fee']}")
    return "\n".join(lines)


def parse_fee_bands(text: str) -> list[dict[str, Any]]:
    """Lines "1000-1399: 500" (an empty bound is open) into the API's fee bands."""
    bands = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        try:
            bounds, fee = line.split(":")
            lo, hi = bounds.split("-")
            bands.append(
                {
                    "min_rating": int(lo) if lo.strip() else None,
                    "max_rating": int(hi) if hi.strip() else None,
                    "fee": str(Decimal(fee.strip())),
                }
            )
        except (ValueError, ArithmeticError):
            raise forms.ValidationError(
                _("Line %(n)s: write a band as “1000-1399: 500”."), params={"n": number}
            ) from None
    return bands


class SettingsForm(forms.Form):
    """Every setting of a tournament; those that may not change now are shown disabled."""

    def __init__(self, *args: Any, tournament: Tournament, editable: tuple[str, ...], **kw: Any):
        super().__init__(*args, **kw)
        self.tournament = tournament
        self.editable = set(editable)
        self.groups: dict[str, list[str]] = {"general": [], "rules": [], "stages": [], "money": []}
        for name in SETTINGS_FIELDS:
            if name in SPECIAL:
                continue
            self._add(name, _model_field(name), getattr(tournament, name), name, self._group(name))
        self._add_special()

    @staticmethod
    def _group(name: str) -> str:
        if name in {
            "entry_fee",
            "pool_percent",
            "prize_unit",
            "added_money",
            "withdrawal_fee",
            "table_hour_price",
            "table_time_payer",
            "table_time_discount",
            "table_time_breaks",
            "max_players",
            "rated",
            "elo_k",
        }:
            return "money"
        if name in {
            "format",
            "grand_final",
            "third_place",
            "playoff_size",
            "group_size",
            "group_advance",
            "time_limit_minutes",
            "self_scoring",
            "lateness_step_minutes",
            "lateness_penalty_balls",
            "lateness_penalty_unit",
            "lateness_walkover_minutes",
            "break_by_lag",
        }:
            return "rules"
        return "general"

    def _add(self, key: str, field: forms.Field, initial: Any, setting: str, group: str) -> None:
        field.initial = initial
        field.setting = setting  # type: ignore[attr-defined]
        if setting not in self.editable:
            field.disabled = True
        self.fields[key] = field
        self.groups[group].append(key)

    def _add_special(self) -> None:
        t = self.tournament
        self._add(
            "discipline",
            forms.ChoiceField(
                label=_("Discipline"),
                choices=[(d, str(_rule_discipline(d))) for d in rules.rulesets()],
            ),
            t.discipline,
            "discipline",
            "rules",
        )
        schemes = [(s, str(_handicap_title(s))) for s in handicap.SCHEMES]
        self._add(
            "handicap_scheme",
            forms.ChoiceField(label=_("Handicap scheme"), choices=schemes),
            t.handicap_scheme,
            "handicap_scheme",
            "rules",
        )
        discipline = find(t.discipline)
        keys = discipline.ruleset_keys if discipline is not None else ()
        for key_spec in keys:
            if key_spec["type"] == "per_player_int":
                continue  # per match: the head start comes from the handicap
            initial = (t.ruleset or {}).get(key_spec["key"], key_spec.get("default"))
            self._add(
                f"ruleset__{key_spec['key']}", _rule_field(key_spec), initial, "ruleset", "rules"
            )
        # Per stage: the discipline's own stage keys, and the time limit where it has one.
        specs = {spec["key"]: spec for spec in keys}
        offered = [key for key in stage_keys(t.discipline) if key in specs]
        if discipline is not None and discipline.has_time_limit:
            offered.append("time_limit_minutes")
        for stage in STAGE_KEYS:
            own = (t.stage_rules or {}).get(stage) or {}
            for rule in offered:
                self._add(
                    f"stage__{stage}__{rule}",
                    _stage_field(stage, specs.get(rule)),
                    own.get(rule),
                    "stage_rules",
                    "stages",
                )
        self._add_pair_races(discipline.stage_keys if discipline is not None else ())
        self._add(
            "organiser_logo",
            forms.FileField(
                label=_("Club logo"),
                required=False,
                help_text=_("PNG or JPEG; printed on the diplomas and the protocol."),
                widget=forms.FileInput(attrs={"accept": "image/png,image/jpeg"}),
            ),
            None,
            "organiser_logo",
            "general",
        )
        self._add(
            "place_shares",
            forms.CharField(
                label=_("Shares of the prize places, percent"),
                help_text=_("Comma-separated, from first place: 45, 30, 25."),
            ),
            ", ".join(str(s) for s in t.place_shares or []),
            "place_shares",
            "money",
        )
        self._add(
            "fee_bands",
            forms.CharField(
                label=_("Entry fee by rating"),
                required=False,
                widget=forms.Textarea(attrs={"rows": 3}),
                help_text=_("One band a line: “0-1199: 500”, “1200-: 1000”. Empty: the flat fee."),
            ),
            fee_bands_text(t.fee_bands),
            "fee_bands",
            "money",
        )

    def _add_pair_races(self, race_keys: tuple[str, ...]) -> None:
        """Per stage: the pair's race — how the pair's figure is taken and in what the race is
        counted (one choice), and its bands (one a line)."""
        keys = [k for k in pair_race.RACE_KEYS if k in race_keys]
        if not keys:
            return
        choices: list[tuple[str, str]] = [("", "—")]
        for by in ("sum", "difference"):
            for key in keys:
                choices.append((f"{by}:{key}", str(PAIR_RACE_TITLES[by, key])))
        for stage in STAGE_KEYS:
            own = ((self.tournament.stage_rules or {}).get(stage) or {}).get("pair_race")
            mode, text = pair_race_text(own)
            self._add(
                f"pair__{stage}__mode",
                forms.ChoiceField(
                    label=f"{STAGE_LABELS[stage]}: {_('the pair’s race')}",
                    choices=choices,
                    required=False,
                ),
                mode,
                "stage_rules",
                "stages",
            )
            self._add(
                f"pair__{stage}__bands",
                forms.CharField(
                    label=f"{STAGE_LABELS[stage]}: {_('bands of the pair’s race')}",
                    required=False,
                    widget=forms.Textarea(attrs={"rows": 2}),
                    help_text=_(
                        "One band a line: “1700: 2” (up to 1700 plays to 2), the last “*: 3”."
                    ),
                ),
                text,
                "stage_rules",
                "stages",
            )

    def _pair_races(self) -> dict[str, dict[str, Any]]:
        """The stages' pair's races from the form; a mistake is added to its field."""
        out: dict[str, dict[str, Any]] = {}
        for stage in STAGE_KEYS:
            mode_key, bands_key = f"pair__{stage}__mode", f"pair__{stage}__bands"
            if mode_key not in self.cleaned_data:
                continue
            mode = self.cleaned_data.get(mode_key) or ""
            text = self.cleaned_data.get(bands_key) or ""
            if not mode:
                if text.strip():
                    self.add_error(
                        mode_key, _("Choose how the pair’s race is set, or clear its bands.")
                    )
                continue
            by, key = mode.split(":")
            try:
                out[stage] = parse_pair_race(by, key, text)
            except forms.ValidationError as err:
                self.add_error(bands_key, err)
        return out

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self.pair_races = self._pair_races()
        return cleaned

    def clean_organiser_logo(self) -> Any:
        """An uploaded image as a PNG data URI (at most LOGO_SIZE pixels); the current logo if
        nothing was uploaded; none if "remove" is ticked."""
        field = self.fields["organiser_logo"]
        if field.disabled:
            return self.tournament.organiser_logo
        if self.data.get("organiser_logo_clear"):
            return ""
        upload = self.cleaned_data.get("organiser_logo")
        if not upload:
            return self.tournament.organiser_logo
        return logo_data_uri(upload)

    def clean_fee_bands(self) -> Any:
        if self.fields["fee_bands"].disabled:
            return self.tournament.fee_bands
        return parse_fee_bands(self.cleaned_data.get("fee_bands") or "")

    def clean_place_shares(self) -> Any:
        if self.fields["place_shares"].disabled:
            return self.tournament.place_shares
        parts = [p.strip() for p in (self.cleaned_data.get("place_shares") or "").split(",")]
        return [p for p in parts if p]

    def service_data(self) -> dict[str, Any]:
        """The editable settings as the services take them, only those that changed."""
        data: dict[str, Any] = {}
        ruleset: dict[str, Any] = {}
        stage_rules: dict[str, dict[str, Any]] = {}
        for key, value in self.cleaned_data.items():
            if key.startswith("ruleset__"):
                ruleset[key.removeprefix("ruleset__")] = value
            elif key.startswith("stage__"):
                _prefix, stage, rule = key.split("__")
                if value is not None:
                    stage_rules.setdefault(stage, {})[rule] = value
            else:
                data[key] = value
        t = self.tournament
        discipline = data.get("discipline", t.discipline)
        if discipline == t.discipline:
            data["ruleset"] = {**(t.ruleset or {}), **ruleset}
        else:
            # The stage fields were the old discipline's: the new one keeps what it has too.
            known = stage_keys(discipline)
            stage_rules = {
                stage: {k: v for k, v in own.items() if k in known}
                for stage, own in stage_rules.items()
            }
        # The pair's race: as the form sets it (a race key the new discipline lacks is dropped
        # with the discipline's other stage keys).
        known = stage_keys(discipline)
        for stage, pair in getattr(self, "pair_races", {}).items():
            if all(k in known for band in pair["bands"] for k in band if k != "up_to"):
                stage_rules.setdefault(stage, {})["pair_race"] = pair
        data["stage_rules"] = {stage: own for stage, own in stage_rules.items() if own}
        return {k: v for k, v in data.items() if k in self.editable and _differs(getattr(t, k), v)}


PAIR_RACE_TITLES = {
    ("sum", "frames_to_win"): _("by the rating sum, frames to win"),
    ("sum", "balls_to_win"): _("by the rating sum, balls to win"),
    ("difference", "frames_to_win"): _("by the rating difference, frames to win"),
    ("difference", "balls_to_win"): _("by the rating difference, balls to win"),
}
OPEN_BAND = {"*", "-", "", "иначе", "else"}


def pair_race_text(pair: dict[str, Any] | None) -> tuple[str, str]:
    """A stage's pair's race as the form shows it: (mode, bands one a line)."""
    if not pair or not pair.get("bands"):
        return "", ""
    first = pair["bands"][0]
    key = next((k for k in pair_race.RACE_KEYS if k in first), "frames_to_win")
    lines = [
        f"{'*' if band['up_to'] is None else band['up_to']}: {band.get(key, '')}"
        for band in pair["bands"]
    ]
    return f"{pair['by']}:{key}", "\n".join(lines)


def parse_pair_race(by: str, key: str, text: str) -> dict[str, Any]:
    """“1700: 2 / *: 3” as the pair's race; ``ValidationError`` names the line."""
    bands: list[dict[str, Any]] = []
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise forms.ValidationError(_("Write the bands: “1700: 2”, the last “*: 3”."))
    if len(lines) > 10:
        raise forms.ValidationError(_("At most 10 bands."))
    for number, line in enumerate(lines, start=1):
        left, sep, right = line.partition(":")
        try:
            if not sep:
                raise ValueError
            up_to = None if left.strip().lower() in OPEN_BAND else int(left.strip())
            race = int(right.strip())
        except ValueError:
            raise forms.ValidationError(
                _("Line %(n)s: write a band as “1700: 2” (the last “*: 3”)."),
                params={"n": number},
            ) from None
        bands.append({"up_to": up_to, key: race})
    try:
        return pair_race.parse({"by": by, "bands": bands})
    except ValueError:
        pass
    # The algorithm's reason is in English: say the usual mistakes in the page's words.
    ups = [b["up_to"] for b in bands]
    if ups[-1] is not None:
        raise forms.ValidationError(_("The last band must be “*: N”: every pair needs a race."))
    if None in ups[:-1]:
        raise forms.ValidationError(_("Only the last band is “*”."))
    if any(a >= b for a, b in pairwise(ups[:-1])):
        raise forms.ValidationError(_("The bands must go up: each limit above the one before."))
    raise forms.ValidationError(_("Each limit is from 0 to 10000 and each race from 1 to 200."))


def _differs(current: Any, new: Any) -> bool:
    if isinstance(current, Decimal) or isinstance(new, Decimal):
        try:
            return Decimal(str(current)) != Decimal(str(new))
        except ArithmeticError:
            return True
    if isinstance(current, list) and isinstance(new, list):
        return [str(x) for x in current] != [str(x) for x in new]
    return bool(current != new)


def _rule_discipline(slug: str) -> Any:
    return discipline_label(slug)


def _handicap_title(slug: str) -> Any:
    return HANDICAP_TITLES.get(slug, slug)


def logo_data_uri(upload: Any) -> str:
    """The uploaded image, through the one gate of every image (tournaments.images)."""
    if upload.size > MAX_IMAGE_BYTES:
        raise forms.ValidationError(
            _("The image file is too big (at most %(mb)s MB).")
            % {"mb": MAX_IMAGE_BYTES // (1024 * 1024)}
        )
    try:
        return image_reencode(upload.read(), side=LOGO_SIZE)
    except ImageRefused as err:
        raise forms.ValidationError(str(err)) from None
