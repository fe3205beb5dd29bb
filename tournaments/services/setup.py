"""Tournament set-up: create, update (while draft or registration), and the organiser's status
actions. All settings are validated together, because they depend on each other (a handicap
scheme and the race, the discipline and its ruleset, the stage overrides)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import rules
from audit.services import audit_record
from tournaments import presets
from tournaments.algorithms import fees, handicap, pair_race
from tournaments.errors import BAD_REQUEST, CONFLICT, TournamentError
from tournaments.field_names import field_label, values_label
from tournaments.images import ImageRefused, data_uri_reencode
from tournaments.match_setup import frames_credited, stage_keys, stage_ruleset
from tournaments.models import Registration, Tournament
from tournaments.services.common import (
    Status,
    bump_public_version,
    change_status,
    lock_tournament,
    require_status,
    visibility_announce,
)
from tournaments.services.entry_rules import registration_state, reserve_promote

if TYPE_CHECKING:
    from config.types import Actor

STAGE_KEYS = ("upper", "lower", "playoff", "grand_final", "group")
MAX_TIME_LIMIT = 600
MAX_PLAYERS = 1024

# Everything an organiser may set; the rest of the row is owned by the services.
SETTINGS_FIELDS = (
    "name",
    "date",
    "venue",
    "chief_judge",
    "description",
    "regulation_text",
    "discipline",
    "ruleset",
    "stage_rules",
    "time_limit_minutes",
    "format",
    "grand_final",
    "third_place",
    "playoff_size",
    "group_size",
    "group_advance",
    "max_players",
    "entry_fee",
    "fee_bands",
    "pool_percent",
    "place_shares",
    "prize_unit",
    "added_money",
    "withdrawn_prize",
    "withdrawal_fee",
    "table_hour_price",
    "table_time_payer",
    "table_time_discount",
    "table_time_breaks",
    "lateness_step_minutes",
    "lateness_penalty_balls",
    "lateness_penalty_unit",
    "lateness_walkover_minutes",
    "no_show_rule",
    "handicap_scheme",
    "rated",
    "elo_k",
    "self_scoring",
    "break_by_lag",
    "is_public",
    "archived",
    "organiser_name",
    "organiser_logo",
    "diploma_places",
    "diploma_language",
    "diploma_amount",
    "diploma_degree",
)
# What may still change once matches exist: none of it can alter a played match. Races and
# time limits of matches not started yet change through tournament_update_live.
LIVE_FIELDS = (
    "lateness_step_minutes",
    "lateness_penalty_balls",
    "lateness_penalty_unit",
    "lateness_walkover_minutes",
    "table_hour_price",
    "table_time_payer",
    "table_time_discount",
    "table_time_breaks",
    "name",
    "break_by_lag",
    "venue",
    "chief_judge",
    "description",
    "regulation_text",
    "is_public",
    "archived",
    "organiser_name",
    "organiser_logo",
    "diploma_places",
    "diploma_language",
    "diploma_amount",
    "diploma_degree",
)
MAX_REGULATION_TEXT = 10_000
# About 180 KB of image in base64: with the rest of a body, within the API's body limit
# (DATA_UPLOAD_MAX_MEMORY_SIZE, 256 KiB), so the field's limit is the one a client meets.
MAX_LOGO_CHARS = 250_000
MONEY_FIELDS = (
    "entry_fee",
    "prize_unit",
    "added_money",
    "pool_percent",
    "table_hour_price",
    "table_time_discount",
)


def invalid(field: str, message: str, **params: Any) -> TournamentError:
    return TournamentError(
        "invalid_settings", message, status=BAD_REQUEST, params={"field": field, **params}
    )


def ruleset_error_message(err: rules.RuleError) -> str:
    """A refused ruleset (the engine's validate_ruleset speaks English) in the user's language,
    from its code and params. A refused event is matches.errors.rule_error_message's."""
    p = err.params
    key = field_label(p.get("key", ""))
    reason = p.get("reason")
    if reason == "out_of_range":
        return _("“%(key)s” must be between %(min)s and %(max)s.") % {
            "key": key,
            "min": p.get("min"),
            "max": p.get("max"),
        }
    if reason == "bad_value":
        return _("“%(key)s” must be one of: %(allowed)s.") % {
            "key": key,
            "allowed": values_label(p.get("allowed", [])),
        }
    if reason == "unknown_key":
        return _("Unknown rule “%(key)s”.") % {"key": key}
    if reason == "missing":
        return _("“%(key)s” is required.") % {"key": key}
    if reason == "wrong_type":
        return _("“%(key)s” has the wrong type.") % {"key": key}
    return _("Invalid rules: %(detail)s") % {"detail": err.message}


def _ruleset_error(field: str, err: rules.RuleError) -> TournamentError:
    return TournamentError(
        "invalid_ruleset",
        ruleset_error_message(err),
        status=BAD_REQUEST,
        params={"field": field, **err.params},
    )


def _decimal(field: str, value: Any) -> Decimal:
    if isinstance(value, float):
        value = str(value)
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        raise invalid(
            field, _("“%(field)s” must be a number.") % {"field": field_label(field)}
        ) from None
    if not amount.is_finite():
        raise invalid(field, _("“%(field)s” must be a number.") % {"field": field_label(field)})
    return amount


def _int_or_none(field: str, value: Any, lo: int, hi: int, *, allow_none: bool) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise invalid(
            field,
            _("“%(field)s” must be a whole number from %(min)s to %(max)s.")
            % {"field": field_label(field), "min": lo, "max": hi},
        )
    return value


def _clean_ruleset(out: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The discipline and its ruleset, normalised: the rules engine is the judge."""
    disciplines = rules.rulesets()
    discipline = out.get("discipline")
    if discipline not in disciplines:
        raise invalid(
            "discipline",
            _("Unknown discipline “%(value)s”; known: %(known)s.")
            % {"value": discipline, "known": ", ".join(disciplines)},
        )
    ruleset = out.get("ruleset") or {}
    if not isinstance(ruleset, Mapping):
        raise invalid("ruleset", _("The ruleset must be an object."))
    ruleset = dict(ruleset)
    if ruleset.setdefault("discipline", discipline) != discipline:
        raise invalid(
            "ruleset",
            _("The ruleset is for “%(ruleset)s” but the discipline is “%(discipline)s”.")
            % {"ruleset": ruleset["discipline"], "discipline": discipline},
        )
    try:
        normalised = rules.validate_ruleset(ruleset)
    except rules.RuleError as err:
        raise _ruleset_error("ruleset", err) from None
    # Head starts and credited frames are per match (the handicap scheme, the organiser's
    # override, a lateness penalty).
    normalised.pop("head_start", None)
    normalised.pop("frames_credit", None)
    return discipline, normalised


def _check_lateness_unit(out: dict[str, Any], discipline: str) -> None:
    """Lateness in frames needs a race of frames: a discipline that credits frames
    (its ruleset's `frames_credit`) and more than one frame to win, in the tournament's
    race or a stage's."""
    unit = out.get("lateness_penalty_unit", Tournament.LatenessUnit.BALLS)
    if unit not in Tournament.LatenessUnit.values:
        raise invalid(
            "lateness_penalty_unit",
            _("“%(field)s” must be one of: %(allowed)s.")
            % {
                "field": field_label("lateness_penalty_unit"),
                "allowed": values_label(
                    Tournament.LatenessUnit.values, Tournament.LatenessUnit.choices
                ),
            },
        )
    out["lateness_penalty_unit"] = str(unit)
    if unit != Tournament.LatenessUnit.FRAMES:
        return
    if not frames_credited(discipline):
        raise invalid(
            "lateness_penalty_unit",
            _("This discipline plays no race of frames: lateness can cost balls or a walkover."),
        )
    races = [stage_ruleset(out, key).get("frames_to_win", 1) for key in (None, *out["stage_rules"])]
    if max(int(n or 1) for n in races) <= 1:
        raise invalid(
            "lateness_penalty_unit",
            _(
                "Lateness can cost frames only in a race of frames: here a match is one "
                "frame. Choose balls, or set more than one frame to win."
            ),
        )


def _check_handicap_scheme(out: dict[str, Any], discipline: str) -> None:
    """The handicap scheme against every race it will be applied to."""
    slug = out.get("handicap_scheme")
    if slug not in handicap.SCHEMES:
        raise invalid(
            "handicap_scheme",
            _("Unknown handicap scheme “%(value)s”; known: %(known)s.")
            % {"value": slug, "known": ", ".join(handicap.SCHEMES)},
        )
    scheme = handicap.get_scheme(slug)
    if not isinstance(scheme, handicap.NoHandicap):
        if not rules.discipline(discipline).has_head_start:
            raise invalid(
                "handicap_scheme",
                _("This discipline has no head start: choose the handicap scheme “none”."),
            )
        if isinstance(scheme, handicap.PairScheme):
            for stage_key in (None, *out["stage_rules"]):
                target = stage_ruleset(out, stage_key).get("balls_to_win", 30)
                if target != scheme.base:
                    raise invalid(
                        "handicap_scheme",
                        ngettext(
                            "Handicap scheme «%(scheme)s» is for races to %(base)d ball, "
                            "not %(n)d: choose another scheme or race.",
                            "Handicap scheme «%(scheme)s» is for races to %(base)d balls, "
                            "not %(n)d: choose another scheme or race.",
                            scheme.base,
                        )
                        % {
                            "scheme": _(handicap.SCHEMES[slug].title),
                            "base": scheme.base,
                            "n": target,
                        },
                    )


def _clean_regulation_text(out: dict[str, Any]) -> str:
    text = str(out.get("regulation_text") or "").strip()
    if len(text) > MAX_REGULATION_TEXT:
        raise invalid(
            "regulation_text",
            _("The regulation's text is at most %(max)s characters.")
            % {"max": MAX_REGULATION_TEXT},
        )
    return text


def clean_settings(values: dict[str, Any], *, stored_logo: str = "") -> dict[str, Any]:
    """Validate a complete set of settings; returns them normalised (money as Decimal, the
    ruleset completed by the engine, fee bands and shares canonical, a new logo re-encoded;
    `stored_logo`, the one the tournament has, is kept as it is)."""
    out = dict(values)
    if not str(out.get("name") or "").strip():
        raise invalid("name", _("The tournament needs a name."))
    out["name"] = str(out["name"]).strip()
    out["regulation_text"] = _clean_regulation_text(out)
    discipline, out["ruleset"] = _clean_ruleset(out)

    out["time_limit_minutes"] = _int_or_none(
        "time_limit_minutes", out.get("time_limit_minutes"), 1, MAX_TIME_LIMIT, allow_none=True
    )
    out["stage_rules"] = _clean_stage_rules(out)
    for field in ("lateness_step_minutes", "lateness_walkover_minutes"):
        out[field] = _int_or_none(field, out.get(field), 1, 600, allow_none=True)
    out["lateness_penalty_balls"] = _int_or_none(
        "lateness_penalty_balls", out.get("lateness_penalty_balls", 1), 1, 100, allow_none=False
    )

    _check_lateness_unit(out, discipline)
    _check_handicap_scheme(out, discipline)

    for field, kind in (
        ("format", Tournament.Format),
        ("grand_final", Tournament.GrandFinal),
        ("third_place", Tournament.ThirdPlace),
        ("withdrawn_prize", Tournament.WithdrawnPrize),
        ("withdrawal_fee", Tournament.WithdrawalFee),
        ("table_time_payer", Tournament.TableTimePayer),
        ("table_time_breaks", Tournament.TableTimeBreaks),
        ("no_show_rule", Tournament.NoShowRule),
        ("diploma_places", Tournament.DiplomaPlaces),
    ):
        if out.get(field) not in kind.values:
            raise invalid(
                field,
                _("“%(field)s” must be one of: %(allowed)s.")
                % {
                    "field": field_label(field),
                    "allowed": values_label(kind.values, kind.choices),
                },
            )
    languages = [code for code, _name in Tournament.DIPLOMA_LANGUAGES]
    if out.get("diploma_language") not in languages:
        raise invalid(
            "diploma_language",
            _("“%(field)s” must be one of: %(allowed)s.")
            % {
                "field": field_label("diploma_language"),
                "allowed": values_label(languages, Tournament.DIPLOMA_LANGUAGES),
            },
        )
    _clean_format(out)
    logo = str(out.get("organiser_logo") or "")
    if logo and logo != stored_logo:
        # A new image: its pixels, drawn again (tournaments.images); never the sender's file.
        if len(logo) > MAX_LOGO_CHARS:
            raise invalid(
                "organiser_logo", _("The logo must be a PNG or JPEG image of at most 200 KB.")
            )
        try:
            logo = data_uri_reencode(logo)
        except ImageRefused as err:
            raise invalid("organiser_logo", str(err)) from None
    out["organiser_logo"] = logo
    out["max_players"] = _int_or_none(
        "max_players", out.get("max_players"), 2, MAX_PLAYERS, allow_none=False
    )
    out["elo_k"] = _int_or_none("elo_k", out.get("elo_k"), 1, 100, allow_none=False)
    _clean_money(out)
    return out


def _clean_stage_rules(values: dict[str, Any]) -> dict[str, Any]:
    stage_rules = values.get("stage_rules") or {}
    if not isinstance(stage_rules, Mapping):
        raise invalid("stage_rules", _("The rules per stage must be an object."))
    cleaned: dict[str, Any] = {}
    for stage_key, overrides in stage_rules.items():
        if stage_key not in STAGE_KEYS:
            raise invalid(
                "stage_rules",
                _("Unknown stage “%(stage)s”; known: %(known)s.")
                % {"stage": stage_key, "known": ", ".join(STAGE_KEYS)},
            )
        if not isinstance(overrides, Mapping):
            raise invalid("stage_rules", _("The rules of a stage must be an object."))
        known = stage_keys(values["discipline"])
        for key in overrides:
            if key not in known:
                raise invalid(
                    "stage_rules",
                    _("Unknown setting “%(key)s” for stage “%(stage)s”; known: %(known)s.")
                    % {"key": key, "stage": stage_key, "known": ", ".join(known) or "—"},
                )
        entry = dict(overrides)
        if "pair_race" in entry:
            try:
                entry["pair_race"] = pair_race.parse(entry["pair_race"])
            except ValueError as exc:
                raise invalid(
                    f"stage_rules.{stage_key}.pair_race",
                    _("Stage “%(stage)s”, the pair's race: %(detail)s")
                    % {"stage": stage_key, "detail": exc},
                ) from None
            for band in entry["pair_race"]["bands"]:
                race = {k: v for k, v in band.items() if k != "up_to"}
                try:
                    rules.validate_ruleset(
                        {**stage_ruleset({**values, "stage_rules": {}}, None), **race}
                    )
                except rules.RuleError as err:
                    raise TournamentError(
                        "invalid_ruleset",
                        _("Stage “%(stage)s”, the pair's race: %(detail)s")
                        % {"stage": stage_key, "detail": ruleset_error_message(err)},
                        status=BAD_REQUEST,
                        params={"field": f"stage_rules.{stage_key}.pair_race", **err.params},
                    ) from None
        if "time_limit_minutes" in entry:
            entry["time_limit_minutes"] = _int_or_none(
                f"stage_rules.{stage_key}.time_limit_minutes",
                entry["time_limit_minutes"],
                1,
                MAX_TIME_LIMIT,
                allow_none=True,
            )
        cleaned[stage_key] = entry
    for stage_key in cleaned:
        try:
            rules.validate_ruleset(stage_ruleset({**values, "stage_rules": cleaned}, stage_key))
        except rules.RuleError as err:
            raise TournamentError(
                "invalid_ruleset",
                _("Stage “%(stage)s”: %(detail)s")
                % {"stage": stage_key, "detail": ruleset_error_message(err)},
                status=BAD_REQUEST,
                params={"field": f"stage_rules.{stage_key}", **err.params},
            ) from None
    return cleaned


def _clean_format(out: dict[str, Any]) -> None:
    fmt = out["format"]
    if fmt == Tournament.Format.DOUBLE_TO_SINGLE:
        size = out.get("playoff_size")
        if isinstance(size, bool) or not isinstance(size, int) or size < 2 or size & (size - 1):
            raise invalid(
                "playoff_size",
                _("Double to single elimination needs a play-off size of 2, 4, 8, 16…"),
            )
    if fmt == Tournament.Format.GROUPS_PLAYOFF:
        out["group_size"] = _int_or_none(
            "group_size", out.get("group_size"), 2, 64, allow_none=False
        )
        out["group_advance"] = _int_or_none(
            "group_advance", out.get("group_advance"), 1, out["group_size"], allow_none=False
        )


def _clean_money(out: dict[str, Any]) -> None:
    for field in MONEY_FIELDS:
        out[field] = _decimal(field, out.get(field, 0))
    if out["entry_fee"] < 0 or out["added_money"] < 0:
        raise invalid("entry_fee", _("Fees and added money cannot be negative."))
    if out["prize_unit"] <= 0:
        raise invalid("prize_unit", _("The prize rounding unit must be positive."))
    if not 0 <= out["pool_percent"] <= 100:
        raise invalid("pool_percent", _("The prize pool must be between 0 and 100 percent."))
    if out["table_hour_price"] < 0:
        raise invalid("table_hour_price", _("The table-hour price cannot be negative."))
    if not 0 <= out["table_time_discount"] <= 100:
        raise invalid("table_time_discount", _("The discount must be between 0 and 100 percent."))
    try:
        bands = fees.bands_from_json(out.get("fee_bands") or [])
    except (TypeError, ValueError) as exc:
        raise invalid(
            "fee_bands", _("The entry fee bands are invalid: %(detail)s") % {"detail": exc}
        ) from None
    out["fee_bands"] = fees.bands_to_json(bands)

    shares = out.get("place_shares")
    if not isinstance(shares, list | tuple) or not shares:
        raise invalid("place_shares", _("Give the percent of the prize fund for each place."))
    amounts = [_decimal("place_shares", s) for s in shares]
    if any(a < 0 for a in amounts) or sum(amounts, Decimal(0)) != 100:
        raise invalid(
            "place_shares",
            _("The shares of the places must add up to 100%% (now %(total)s%%).")
            % {"total": format(sum(amounts, Decimal(0)).normalize(), "f")},
        )
    out["place_shares"] = [format(a.normalize(), "f") for a in amounts]


def _with_ruleset(current: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with its ruleset merged into the current one (a partial update names only the
    keys it changes); a new discipline without a ruleset starts from that discipline's defaults."""
    out = dict(data)
    discipline = out.get("discipline", current.get("discipline"))
    base = current.get("ruleset") or {}
    if base.get("discipline", current.get("discipline")) != discipline:
        base = {"discipline": discipline}
    if "ruleset" in out and isinstance(out["ruleset"], Mapping):
        given = out["ruleset"]
        if given.get("discipline", discipline) != base.get("discipline", discipline):
            base = {}
        out["ruleset"] = {**base, **given}
    elif "discipline" in out:
        out["ruleset"] = base
    return out


def _current_settings(tournament: Tournament) -> dict[str, Any]:
    return {field: getattr(tournament, field) for field in SETTINGS_FIELDS}


def fee_for(tournament: Tournament, rating: int) -> Decimal:
    """The entry fee for a player of ``rating``: the fee band, else the flat fee."""
    bands = fees.bands_from_json(tournament.fee_bands or [])
    fee = fees.fee_for_rating(rating=rating, flat_fee=tournament.entry_fee, bands=bands)
    # A band stored before the bounds existed can price a fee the column cannot hold:
    # PostgreSQL would refuse it, SQLite would store it and fail on every later read.
    field = Registration._meta.get_field("fee_due")
    if abs(fee) >= Decimal(10) ** (field.max_digits - field.decimal_places):
        raise TournamentError(
            "out_of_range",
            _("The value of “%(field)s” is too large to be stored.") % {"field": "fee_due"},
            status=BAD_REQUEST,
            params={"field": "fee_due"},
        )
    return fee


@transaction.atomic
def tournament_create(
    *, actor: Actor | None, data: Mapping[str, Any], preset: str = ""
) -> Tournament:
    """A new tournament in draft; the preset's settings first, ``data`` over them. The creator
    becomes its organiser."""
    tournament = Tournament()
    values = _current_settings(tournament)
    if preset:
        if preset not in presets.PRESETS:
            raise invalid(
                "preset",
                _("Unknown preset “%(value)s”; known: %(known)s.")
                % {"value": preset, "known": ", ".join(presets.PRESETS)},
            )
        values.update(presets.preset_fields(preset))
    unknown = set(data) - set(SETTINGS_FIELDS)
    if unknown:
        raise invalid(
            sorted(unknown)[0],
            _("Unknown settings: %(keys)s.") % {"keys": ", ".join(sorted(unknown))},
        )
    values.update(_with_ruleset(values, data))
    cleaned = clean_settings(values)
    for field, value in cleaned.items():
        setattr(tournament, field, value)
    tournament.preset = preset
    tournament.status = Status.DRAFT
    tournament.created_by = actor if actor is not None and actor.is_authenticated else None
    tournament.save()
    if tournament.created_by is not None:
        tournament.organisers.add(tournament.created_by)
    audit_record(
        actor=actor,
        action="tournament_create",
        tournament=tournament,
        data={"preset": preset, "name": tournament.name},
    )
    return tournament


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, actor: Actor | None, data: Mapping[str, Any]
) -> Tournament:
    """Change settings while the tournament is a draft or open for registration. A change of
    fees re-prices the active registrations."""
    locked = lock_tournament(tournament)
    require_status(locked, Status.DRAFT, Status.REGISTRATION)
    unknown = set(data) - set(SETTINGS_FIELDS)
    if unknown:
        raise invalid(
            sorted(unknown)[0],
            _("Unknown settings: %(keys)s.") % {"keys": ", ".join(sorted(unknown))},
        )
    before = _current_settings(locked)
    cleaned = clean_settings(
        {**before, **_with_ruleset(before, data)}, stored_logo=locked.organiser_logo
    )
    active = locked.registrations.filter(status=Registration.Status.ACTIVE)
    if cleaned["max_players"] < active.count():
        raise invalid(
            "max_players",
            _("%(count)s players are already registered; the maximum cannot be lower.")
            % {"count": active.count()},
        )
    changed = {f: v for f, v in cleaned.items() if before[f] != v}
    for field, value in changed.items():
        setattr(locked, field, value)
    if changed:
        locked.save(update_fields=[*changed, "updated_at"])
        if {"entry_fee", "fee_bands"} & set(changed):
            _reprice(locked)
        bump_public_version(locked)
        audit_record(
            actor=actor,
            action="tournament_update",
            tournament=locked,
            data={"changed": sorted(changed)},
        )
        if "is_public" in changed:
            visibility_announce(tournament=locked)
        if "max_players" in changed and locked.status == Status.REGISTRATION:
            reserve_promote(locked=locked, actor=actor)  # more places: the reserves move up
    return locked


def _reprice(tournament: Tournament) -> None:
    regs = list(tournament.registrations.filter(status=Registration.Status.ACTIVE))
    for reg in regs:
        reg.fee_due = fee_for(tournament, reg.rating_at_entry)
    Registration.objects.bulk_update(regs, ["fee_due"])


@transaction.atomic
def tournament_open_registration(*, tournament: Tournament, actor: Actor | None) -> Tournament:
    locked = lock_tournament(tournament)
    change_status(locked, Status.REGISTRATION, actor=actor)
    bump_public_version(locked)
    return locked


@transaction.atomic
def tournament_close_registration(*, tournament: Tournament, actor: Actor | None) -> Tournament:
    """The organiser closes registration before the draw: the desk and online entry both
    refuse new players (409 `registration_closed`, state "closed") until he reopens it;
    withdrawals, fees, check-in and the draw go on."""
    locked = lock_tournament(tournament)
    _require_registration_state(locked, "open", "reopened")
    locked.registration_closed_at = timezone.now()
    locked.save(update_fields=["registration_closed_at", "updated_at"])
    audit_record(actor=actor, action="registration_close", tournament=locked, data={})
    bump_public_version(locked)
    return locked


@transaction.atomic
def tournament_reopen_registration(*, tournament: Tournament, actor: Actor | None) -> Tournament:
    """Open a closed registration again (state "reopened")."""
    locked = lock_tournament(tournament)
    _require_registration_state(locked, "closed")
    locked.registration_closed_at = None
    locked.registration_reopened_at = timezone.now()
    locked.save(update_fields=["registration_closed_at", "registration_reopened_at", "updated_at"])
    audit_record(actor=actor, action="registration_reopen", tournament=locked, data={})
    bump_public_version(locked)
    return locked


def _require_registration_state(tournament: Tournament, *allowed: str) -> None:
    state = registration_state(tournament)
    if state in allowed:
        return
    messages = {
        "not_open": _("Registration is not open yet."),
        "open": _("Registration is open already."),
        "reopened": _("Registration is open already."),
        "closed": _("Registration is closed already."),
        "drawn": _("Registration is closed: the draw has been made."),
    }
    raise TournamentError(
        "registration_state",
        messages[state],
        status=CONFLICT,
        params={"state": state, "allowed": list(allowed)},
    )


@transaction.atomic
def tournament_start(*, tournament: Tournament, actor: Actor | None) -> Tournament:
    """The organiser starts the drawn tournament (it also starts with its first match)."""
    locked = lock_tournament(tournament)
    change_status(locked, Status.RUNNING, actor=actor)
    bump_public_version(locked)
    return locked
