"""How the audit log names the players' side's actions (merged into the log's labels)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

PLAYERS_AUDIT_ACTIONS: dict[str, StrPromise] = {
    "entry_online": gettext_lazy("Entered online"),
    "entry_reserve": gettext_lazy("Entered the reserve list"),
    "reserve_promoted": gettext_lazy("Moved up from the reserve list"),
    "registration_check_in": gettext_lazy("Checked in"),
    "registration_check_in_undo": gettext_lazy("Check-in taken back"),
    "registration_remove_absent": gettext_lazy("Those not checked in removed"),
    "player_request": gettext_lazy("Asked to be added as a player"),
    "player_request_approve": gettext_lazy("Request to be added approved"),
    "player_request_decline": gettext_lazy("Request to be added declined"),
    "player_change_propose": gettext_lazy("Change of the player proposed"),
    "player_change_approve": gettext_lazy("Proposed change approved"),
    "player_change_decline": gettext_lazy("Proposed change declined"),
    "tournament_entry_settings": gettext_lazy("Online entry settings changed"),
    "series_create": gettext_lazy("Club cup created"),
    "series_update": gettext_lazy("Club cup changed"),
}
