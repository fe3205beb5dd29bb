"""Images are pixels, not documents (tournaments.images), and a printout fetches nothing but our
own static files (tournaments.diplomas.url_fetcher): the probe's SVG logo under a PNG data URI
made the protocol PDF fetch a URL and embed a local file, and a 20000 × 20000 PNG of 48 KB was
a 500."""

from __future__ import annotations

import base64
import io
import socket
import struct
import threading
import zlib
from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from tournaments.diplomas import fetch_allowed, html_to_pdf
from tournaments.images import ImageRefused, data_uri_reencode, image_reencode
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims `width` × `height` in a few dozen bytes (a decompression bomb's
    header: the decoder would allocate the whole canvas)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def png(width: int = 40, height: int = 20, *, text: str = "") -> bytes:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    if text:
        info.add_text("Comment", text)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="PNG", pnginfo=info)
    return out.getvalue()


def uri(raw: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64," + base64.b64encode(raw).decode()


class Listener:
    """A local TCP listener that counts the connections it is offered."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


def svg_fetching(port: int) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="100">'
        f'<image href="http://127.0.0.1:{port}/svg.png" width="50" height="50"/>'
        '<image xlink:href="file:///etc/hostname" width="50" height="50"/></svg>'
    ).encode()


# --- one gate for every image -------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        png_header_only(20000, 20000),  # the probe's bomb
        png_header_only(12000, 12000),  # the probe's slow one
        b"<svg xmlns='http://www.w3.org/2000/svg'/>",
        b"%PDF-1.4 not an image",
        png()[:40],  # truncated
        b"",
    ],
    ids=["bomb", "huge", "svg", "pdf", "truncated", "empty"],
)
def test_the_gate_refuses_what_is_not_small_pixels(raw):
    with pytest.raises(ImageRefused):
        image_reencode(raw)


def test_the_gate_redraws_the_pixels_and_drops_the_rest():
    sent = png(1600, 800, text="<script>alert(1)</script>")
    kept = data_uri_reencode(uri(sent))
    raw = base64.b64decode(kept.split(",", 1)[1])
    assert raw != sent and b"script" not in raw
    image = Image.open(io.BytesIO(raw))
    assert image.format == "PNG" and image.size == (400, 200)


@pytest.fixture
def organiser_world(desk):
    return desk.tournament, desk.api, desk.page


@pytest.mark.parametrize(
    "logo",
    [
        uri(b"<svg xmlns='http://www.w3.org/2000/svg'><image href='file:///etc/passwd'/></svg>"),
        uri(png_header_only(20000, 20000)),
        uri(png_header_only(12000, 12000)),
        "data:image/png;base64,!!!!",
        uri(png(), "svg+xml"),
    ],
    ids=["svg-as-png", "bomb", "huge", "not-base64", "svg-type"],
)
def test_the_api_refuses_a_hostile_logo_with_400(organiser_world, logo):
    tournament, api, _ = organiser_world
    response = api.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"organiser_logo": logo}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["params"]["field"] == "organiser_logo"
    assert Tournament.objects.get(pk=tournament.pk).organiser_logo == ""


def test_the_api_stores_a_logo_redrawn(organiser_world):
    tournament, api, _ = organiser_world
    sent = uri(png(text="metadata"))
    response = api.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"organiser_logo": sent}, format="json"
    )
    assert response.status_code == 200, response.content
    stored = Tournament.objects.get(pk=tournament.pk).organiser_logo
    assert stored.startswith("data:image/png;base64,") and stored != sent


def test_the_panel_refuses_a_bomb_with_a_form_error(organiser_world):
    tournament, _, page = organiser_world
    url = f"/panel/t/{tournament.pk}/settings/"
    form = page.get(url).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and not isinstance(value, list | dict)
    }
    data["organiser_logo"] = SimpleUploadedFile(
        "logo.png", png_header_only(20000, 20000), content_type="image/png"
    )
    response = page.post(url, data)
    assert response.status_code < 500
    assert Tournament.objects.get(pk=tournament.pk).organiser_logo == ""


# --- the renderer fetches nothing --------------------------------------------------------------


def test_the_fetcher_allows_data_and_our_static_files_only(settings):
    static = settings.STATICFILES_DIRS[0]
    assert fetch_allowed("data:image/png;base64,AAAA")
    assert fetch_allowed(f"file://{static}/css/diploma.css")
    for url in (
        "http://127.0.0.1:9/x.png",
        "https://example.org/x.png",
        "ftp://127.0.0.1/x",
        "file:///etc/passwd",
        f"file://{static}/../config/settings.py",
        f"file://evil.example{static}/css/diploma.css",
    ):
        assert not fetch_allowed(url), url


def test_printed_text_and_images_fetch_nothing(listener, organiser_world):
    tournament, _, page = organiser_world
    port = listener.port
    hostile = f'<img src="http://127.0.0.1:{port}/text.png"><img src="file:///etc/hostname">'
    # Straight into the renderer, as markup (what escaping would otherwise stop) ...
    html_to_pdf(
        f"<html><body>{hostile}"
        f'<img src="{uri(svg_fetching(port), "svg+xml")}">'
        f'<div style="background: url(http://127.0.0.1:{port}/css.png)">x</div></body></html>'
    )
    # ... and through the pages that print: a logo stored before the gate existed (an SVG
    # under a PNG type) and hostile text in the names.
    Tournament.objects.filter(pk=tournament.pk).update(
        name=hostile,
        organiser_name=hostile,
        organiser_logo=uri(svg_fetching(port)),
    )
    for url in (
        f"/panel/t/{tournament.pk}/print/protocol.pdf",
        f"/panel/t/{tournament.pk}/print/bracket.pdf",
        f"/panel/t/{tournament.pk}/diplomas.pdf",
    ):
        response = page.get(url)
        assert response.status_code < 500, url
    assert listener.hits == 0
