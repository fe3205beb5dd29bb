"""The settings page: every setting before the draw, only safe ones after it, archive, delete,
and confirmation before anything destructive."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match
from tests.web.helpers import drawn_tournament, first_ready, make_tournament, play_to_win, register
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services import settings_live
from tournaments.services.setup import SETTINGS_FIELDS

pytestmark = pytest.mark.django_db


def form_data(client, tournament) -> dict[str, str]:
    """What the page's form would send unchanged (its initial values)."""
    form = client.get(f"/panel/t/{tournament.pk}/settings/").context["form"]
    data = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    return data


def test_the_page_has_every_setting_of_the_api(organiser_client, open_tournament):
    form = organiser_client.get(f"/panel/t/{open_tournament.pk}/settings/").context["form"]
    settings = {getattr(f, "setting", None) for f in form.fields.values()}
    assert set(SETTINGS_FIELDS) <= settings
    assert "stage__lower__balls_to_win" in form.fields
    assert "stage__grand_final__frames_to_win" in form.fields
    assert "ruleset__penalty" in form.fields


def test_before_the_draw_everything_changes_and_is_audited(organiser_client, open_tournament):
    data = form_data(organiser_client, open_tournament)
    data.update(
        {
            "name": "Кубок зимы",
            "venue": "Клуб «Пирамида»",
            "max_players": "48",
            "stage__upper__frames_to_win": "3",
            "stage__lower__frames_to_win": "2",
            "handicap_scheme": "none",
            "place_shares": "50, 30, 20",
            "fee_bands": "0-1199: 500\n1200-: 1000",
            "diploma_places": "all",
            "diploma_amount": "on",
        }
    )
    response = organiser_client.post(f"/panel/t/{open_tournament.pk}/settings/", data)
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(pk=open_tournament.pk)
    assert t.name == "Кубок зимы" and t.max_players == 48
    assert t.stage_rules == {"upper": {"frames_to_win": 3}, "lower": {"frames_to_win": 2}}
    assert t.place_shares == ["50", "30", "20"]
    assert t.fee_bands[1]["min_rating"] == 1200
    assert t.diploma_places == "all" and t.diploma_amount
    assert AuditEntry.objects.filter(tournament=t, action="tournament_update").exists()


def test_a_bad_value_is_named_and_nothing_changes(organiser_client, open_tournament):
    data = form_data(organiser_client, open_tournament)
    data["place_shares"] = "50, 30"
    response = organiser_client.post(f"/panel/t/{open_tournament.pk}/settings/", data)
    assert response.status_code == 400
    assert response.context["form"].errors["place_shares"]
    assert Tournament.objects.get(pk=open_tournament.pk).place_shares == ["45", "30", "25"]


def test_after_the_draw_the_race_of_unstarted_matches_changes_with_a_preview(
    organiser, referee, client
):
    t = drawn_tournament(organiser, 8, referee=referee, format="single", handicap_scheme="none")
    played = play_to_win(first_ready(t), "a", referee)
    client.force_login(organiser)
    data = form_data(client, t)
    assert "format" not in data  # locked after the draw
    data["stage__playoff__balls_to_win"] = "40"
    data["stage__playoff__time_limit_minutes"] = "90"
    preview = client.post(f"/panel/t/{t.pk}/settings/", {**data, "preview": "1"})
    changes = preview.context["changes"]
    assert changes and played.key not in {c["match"].key for c in changes}
    assert Match.objects.get(pk=changes[0]["match"].pk).ruleset["balls_to_win"] == 30
    response = client.post(f"/panel/t/{t.pk}/settings/", {**data, "save": "1"})
    assert response.status_code == 302
    changed = Match.objects.get(pk=changes[0]["match"].pk)
    assert changed.ruleset["balls_to_win"] == 40 and changed.clock_limit_seconds == 90 * 60
    assert Match.objects.get(pk=played.pk).score_a == 30  # the played match is as it was
    assert AuditEntry.objects.filter(match=changed, action="match_race_change").exists()


def test_after_the_draw_a_locked_setting_is_refused(organiser, referee, client):
    t = drawn_tournament(organiser, 4, referee=referee, format="single")
    with pytest.raises(TournamentError):
        settings_live.tournament_settings_update(
            tournament=t, actor=organiser, data={"format": "double"}
        )


def test_archive_hides_from_public_lists_after_confirmation(
    organiser_client, open_tournament, client
):
    url = f"/panel/t/{open_tournament.pk}/archive/"
    asked = organiser_client.post(url, {"archived": "1"})
    assert asked.status_code == 200 and asked.context["question"]
    assert not Tournament.objects.get(pk=open_tournament.pk).archived
    organiser_client.post(url, {"archived": "1", "confirmed": "1"})
    assert Tournament.objects.get(pk=open_tournament.pk).archived
    from django.test import Client

    assert open_tournament.name not in Client().get("/").content.decode()
    assert Client().get(f"/t/{open_tournament.pk}/").status_code == 200


def test_delete_only_when_nothing_paid_or_played(organiser_client, organiser):
    empty = make_tournament(organiser)
    asked = organiser_client.post(f"/panel/t/{empty.pk}/delete/")
    assert asked.status_code == 200 and Tournament.objects.filter(pk=empty.pk).exists()
    organiser_client.post(f"/panel/t/{empty.pk}/delete/", {"confirmed": "1"})
    assert not Tournament.objects.filter(pk=empty.pk).exists()
    assert AuditEntry.objects.filter(action="tournament_delete").exists()
    paid = make_tournament(organiser, entry_fee="500")
    register(paid, organiser, 1)
    organiser_client.post(f"/panel/t/{paid.pk}/delete/", {"confirmed": "1"})
    assert Tournament.objects.filter(pk=paid.pk).exists()


def test_walkover_free_table_and_correction_ask_first(organiser_client, drawn, organiser, referee):
    match_services.tables_ensure(tournament=drawn, count=1, actor=organiser)
    on_table = first_ready(drawn)
    match_services.match_assign_table(match=on_table, table=1, actor=organiser)
    ready = first_ready(drawn)
    finished = play_to_win(Match.objects.get(pk=on_table.pk), "a", referee)
    match_services.match_assign_table(match=ready, table=1, actor=organiser)
    before = AuditEntry.objects.count()
    for url, body in (
        (f"/panel/m/{ready.pk}/walkover/", {"winner": "a"}),
        (f"/panel/t/{drawn.pk}/tables/1/free/", {}),
        (f"/panel/m/{finished.pk}/correct/", {"winner": "b", "score_a": "1", "score_b": "30"}),
    ):
        asked = organiser_client.post(url, body)
        page = asked.content.decode()
        assert asked.status_code == 200 and 'name="confirmed" value="1"' in page, url
        assert "<dialog" not in page  # the page itself asks, without JavaScript
    assert AuditEntry.objects.count() == before  # nothing happened before the confirmation
    panel = organiser_client.get(f"/panel/m/{finished.pk}/").content.decode()
    assert "data-confirm=" in panel and "js/confirm.js" in panel


def test_the_club_logo_is_uploaded_and_printed_on_the_diplomas(organiser_client, finished):
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (1200, 600), (20, 71, 46)).save(buffer, format="JPEG")
    data = form_data(organiser_client, finished)
    data["organiser_name"] = "Клуб «Пирамида»"
    data["organiser_logo"] = SimpleUploadedFile("logo.jpg", buffer.getvalue(), "image/jpeg")
    response = organiser_client.post(f"/panel/t/{finished.pk}/settings/", data)
    assert response.status_code == 302, response.context["form"].errors
    finished.refresh_from_db()
    assert finished.organiser_logo.startswith("data:image/png;base64,")
    page = organiser_client.get(f"/panel/t/{finished.pk}/diplomas/").content.decode()
    assert 'class="logo" src="data:image/png;base64,' in page and "Клуб «Пирамида»" in page

    bad = form_data(organiser_client, finished)
    bad["organiser_logo"] = SimpleUploadedFile("logo.png", b"not an image", "image/png")
    refused = organiser_client.post(f"/panel/t/{finished.pk}/settings/", bad)
    assert refused.status_code == 400 and refused.context["form"].errors["organiser_logo"]
