"""Public pages: what a player or a spectator sees without logging in."""

from __future__ import annotations

import pytest

from matches import services as match_services
from matches.models import Match
from tests.web.helpers import first_ready, make_tournament, play_to_win, register, submit

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments_only(client, organiser, referee):
    make_tournament(organiser, name="Открытый кубок")
    make_tournament(organiser, name="Закрытый турнир", is_public=False)
    page = client.get("/").content.decode()
    assert "Открытый кубок" in page
    assert "Закрытый турнир" not in page
    client.force_login(organiser)
    assert "Закрытый турнир" in client.get("/").content.decode()


def test_private_tournament_is_hidden_from_strangers(client, organiser, referee, user):
    tournament = make_tournament(organiser, referee=referee, is_public=False)
    for path in ("", "bracket/", "standings/", "prizes/"):
        assert client.get(f"/t/{tournament.pk}/{path}").status_code == 404
    client.force_login(user)
    assert client.get(f"/t/{tournament.pk}/").status_code == 404
    client.force_login(referee)
    assert client.get(f"/t/{tournament.pk}/").status_code == 200


def test_tournament_page_shows_the_regulation_players_and_pool(client, open_tournament, organiser):
    regs = register(open_tournament, organiser, 4)
    page = client.get(f"/t/{open_tournament.pk}/").content.decode()
    assert "Race to 30 balls" in page
    assert "1 h 20 min of net playing time" in page and "Match time limit" in page
    assert "Race: 2 balls per 50 rating points" in page
    for reg in regs:
        assert reg.player.name in page
        assert str(reg.rating_at_entry) in page
    # 4 paid fees of 1000, 70% to the pool.
    assert "2\u202f800\u00a0₽" in page


def test_bracket_shows_every_stage_and_links_matches(client, drawn, referee):
    match = first_ready(drawn)
    page = client.get(f"/t/{drawn.pk}/bracket/").content.decode()
    assert f'href="/m/{match.pk}/"' in page
    assert match.player_a.name in page
    assert 'class="bracket"' in page and "round-tabs" in page
    submit(match, {"type": "break", "player": "a", "legal": True, "pocketed": 4}, referee)
    page = client.get(f"/t/{drawn.pk}/bracket/").content.decode()
    assert (
        '<span class="live-score" data-live-score="a">4</span>' in page
    )  # a match being played shows its score


def test_live_fragment_is_conditional_and_changes_with_the_match(client, drawn, referee):
    match = first_ready(drawn)
    url = f"/m/{match.pk}/?fragment=1"
    first = client.get(url)
    assert first.status_code == 200
    assert "<html" not in first.content.decode()
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    submit(match, {"type": "break", "player": "a", "legal": True, "pocketed": 3}, referee)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert again["ETag"] != etag
    assert "break, 3 balls" in again.content.decode()


def test_full_page_has_no_etag_so_flash_messages_are_never_swallowed(client, drawn):
    response = client.get(f"/t/{drawn.pk}/bracket/")
    assert "ETag" not in response
    assert 'data-live-url="/t/' in response.content.decode()


def test_scoreboard_shows_players_head_start_score_clock_and_events(client, drawn, referee):
    match = first_ready(drawn)
    match = submit(match, {"type": "break", "player": "a", "legal": True, "pocketed": 2}, referee)
    page = client.get(f"/m/{match.pk}/").content.decode()
    assert match.player_a.name in page and match.player_b.name in page
    assert 'data-score="a">' in page
    assert "data-clock" in page and 'data-running="1"' in page
    assert "break, 2 balls" in page
    assert '<meta http-equiv="refresh"' in page  # inside <noscript>


def test_standings_and_prizes_after_the_final(client, finished):
    standings = client.get(f"/t/{finished.pk}/standings/").content.decode()
    prizes = client.get(f"/t/{finished.pk}/prizes/").content.decode()
    winner = Match.objects.get(tournament=finished, stage="single", key__startswith="S3").winner
    assert winner.name in standings
    assert winner.name in prizes
    # 8 fees of 1000, 70%: 5600; 45% of it to the winner.
    assert "2\u202f520\u00a0₽" in prizes


def test_table_overlay_shows_the_match_on_the_table(client, drawn, organiser, referee):
    match_services.tables_ensure(tournament=drawn, count=2, actor=organiser)
    match_services.table_assign_next(tournament=drawn, actor=organiser)
    on_table = Match.objects.filter(tournament=drawn, table__number=1).first()
    page = client.get(f"/t/{drawn.pk}/tables/1/overlay/").content.decode()
    assert on_table.player_a.name in page
    assert "overlay.css" in page
    match_services.tables_ensure(tournament=drawn, count=3, actor=organiser)
    assert "bug idle" in client.get(f"/t/{drawn.pk}/tables/3/overlay/").content.decode()


def test_a_won_match_reads_as_won_on_the_scoreboard(client, drawn, referee):
    match = play_to_win(first_ready(drawn), "b", referee)
    page = client.get(f"/m/{match.pk}/").content.decode()
    assert "winner-line" in page
    assert match.player_b.name in page
