"""One folding of login names, for every path that creates or renames a login (sign-up, the
claim sign-up, referee logins, the organiser commands, the admin, the API) and for the login
limit's count (config.login_limit).

A name is stored as typed, NFKC-normalised and trimmed (what Django's forms do); two names
are the same login when their folded forms (NFKC, case-folded, trimmed) are equal: `ＯＲＧＢ`,
` orgb ` and `ORGB` are all `orgb`. The uniqueness check compares in the database with
PostgreSQL's case-insensitive equality, which equals case folding for every letter whose
folding keeps its length; the few that do not (ß → ss, ﬁ-like ligatures left by NFKC) are
refused in a new name, so that the check is exact. Two clients creating look-alike names at
once are serialised by a transaction-scoped advisory lock on the folded name."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User

USERNAME_MAX = 150


class LoginTaken(ValueError):
    """The name is another login's (as folded); the message says so."""

    def __init__(self, name: str) -> None:
        super().__init__(_("The login “%(login)s” is taken: choose another.") % {"login": name})


class LoginRefused(ValueError):
    """The name cannot be a login (a letter whose folding changes its length)."""


def shape_login(raw: Any) -> str:
    """What is stored: NFKC-normalised and trimmed."""
    return unicodedata.normalize("NFKC", str(raw or "")).strip()


def fold_login(raw: Any) -> str:
    """What is compared: NFKC-normalised, case-folded, trimmed."""
    return shape_login(raw).casefold().strip()[:USERNAME_MAX]


def login_refusal(raw: Any) -> str | None:
    """Why a new name cannot be a login, or None."""
    odd = sorted({ch for ch in shape_login(raw) if ch.casefold() != ch.lower()})
    if odd:
        return _("A login cannot contain “%(chars)s”: write it with plain letters.") % {
            "chars": "".join(odd)
        }
    return None


def login_clash(raw: Any, *, exclude_pk: int | None = None) -> User | None:
    """The existing login that `raw` folds to, if any (other than `exclude_pk`)."""
    shaped, folded = shape_login(raw), fold_login(raw)
    if not shaped:
        return None
    rows = get_user_model().objects.filter(Q(username__iexact=shaped) | Q(username__iexact=folded))
    if exclude_pk is not None:
        rows = rows.exclude(pk=exclude_pk)
    return rows.order_by("pk").first()


def lock_login_name(raw: Any) -> None:
    """Within a transaction: nobody else creates or renames to this folded name until it
    ends (PostgreSQL; SQLite writes one at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"login:{fold_login(raw)}"]
            )


def login_find(raw: Any) -> User | None:
    """The login a person means by `raw` when logging in: the one stored exactly as typed
    (NFKC, trimmed), else the only one it folds to. Two older logins that fold alike (made
    before the rule) are told apart only by their exact spelling: never one for the other."""
    shaped = shape_login(raw)
    if not shaped:
        return None
    users = get_user_model().objects
    exact = users.filter(username=shaped).first()
    if exact is not None:
        return exact
    folded = fold_login(raw)
    rows = list(users.filter(Q(username__iexact=shaped) | Q(username__iexact=folded))[:2])
    return rows[0] if len(rows) == 1 else None


@transaction.atomic
def login_create(*, username: str, password: str | None, **fields: Any) -> User:
    """A new login under the folding rule. Raises LoginRefused or LoginTaken (never an
    IntegrityError: a clash that slips past the check is reported the same way)."""
    shaped = shape_login(username)
    refusal = login_refusal(shaped)
    if refusal:
        raise LoginRefused(refusal)
    lock_login_name(shaped)
    if login_clash(shaped) is not None:
        raise LoginTaken(shaped)
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(
                username=shaped, password=password, **fields
            )
    except IntegrityError:
        raise LoginTaken(shaped) from None
