"""Writes of the tournaments app. Import from here: ``tournaments.services.<name>``."""

from tournaments.draw_plan import generate_bracket
from tournaments.services.accounts import referee_login_create, referee_password_reset
from tournaments.services.claims import (
    player_claim_issue,
    player_claim_redeem,
    player_claim_signup,
)
from tournaments.services.draw import tournament_draw, tournament_draw_preview
from tournaments.services.entries import (
    account_signup_audit,
    entry_submit,
    entry_withdraw,
    player_request_create,
    player_request_decide,
    registration_check_in,
    registration_remove_absent,
)
from tournaments.services.merge import player_merge
from tournaments.services.no_show import match_lateness, match_no_show
from tournaments.services.player_changes import player_change_decide, player_change_propose
from tournaments.services.players import player_create, player_update
from tournaments.services.progression import (
    match_correct_result,
    match_set_handicap,
    tournament_on_match_finished,
    tournament_on_match_started,
)
from tournaments.services.registrations import (
    registration_add,
    registration_add_new_player,
    registration_disqualify,
    registration_refund,
    registration_set_paid,
    registration_withdraw,
    table_time_set_paid,
)
from tournaments.services.setup import (
    tournament_close_registration,
    tournament_create,
    tournament_open_registration,
    tournament_reopen_registration,
    tournament_start,
    tournament_update,
)
from tournaments.services.staff import tournament_referee_add, tournament_referee_remove

__all__ = [
    "account_signup_audit",
    "entry_submit",
    "entry_withdraw",
    "generate_bracket",
    "match_correct_result",
    "match_lateness",
    "match_no_show",
    "match_set_handicap",
    "player_change_decide",
    "player_change_propose",
    "player_claim_issue",
    "player_claim_redeem",
    "player_claim_signup",
    "player_create",
    "player_merge",
    "player_request_create",
    "player_request_decide",
    "player_update",
    "referee_login_create",
    "referee_password_reset",
    "registration_add",
    "registration_add_new_player",
    "registration_check_in",
    "registration_disqualify",
    "registration_refund",
    "registration_remove_absent",
    "registration_set_paid",
    "registration_withdraw",
    "table_time_set_paid",
    "tournament_close_registration",
    "tournament_create",
    "tournament_draw",
    "tournament_draw_preview",
    "tournament_on_match_finished",
    "tournament_on_match_started",
    "tournament_open_registration",
    "tournament_referee_add",
    "tournament_referee_remove",
    "tournament_reopen_registration",
    "tournament_start",
    "tournament_update",
]
