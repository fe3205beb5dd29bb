"""Type names shared by every layer (for annotations only: nothing here exists at run time).

`Actor` is whoever makes a request or a change: a signed-in user, or an anonymous visitor (a
system change, such as the match clock's, passes None). `if actor.is_authenticated:` narrows
it to `User`, the project's user model (settings.AUTH_USER_MODEL is Django's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    Actor: TypeAlias = User | AnonymousUser
