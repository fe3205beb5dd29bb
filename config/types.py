"""Type names shared by every layer (for annotations only: nothing here exists at run time).

`Actor` is whoever makes a request or a change: a user, or an anonymous visitor (a system
change, such as the match clock's, passes None)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    Actor: TypeAlias = AbstractBaseUser | AnonymousUser
