"""Images are pixels, not documents: every image that enters (the API's `organiser_logo`, the
panel's upload, an import) goes through `image_reencode`, which decodes it with Pillow (PNG or
JPEG only: an SVG, a PDF or anything else is refused), bounded in bytes and in pixels before
anything is decoded (a decompression bomb is a refusal, never a worker's memory), and stores
the pixels it drew again as a small PNG data URI. Nothing of the sender's file survives: no
metadata, no second document hidden behind the first."""

from __future__ import annotations

import base64
import binascii
import io
import re
import warnings

from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

MAX_IMAGE_BYTES = 5 * 1024 * 1024  # a phone's photo of a club's sign
MAX_IMAGE_PIXELS = 16_000_000  # about 4000 × 4000: decoded RGBA, 64 MB at most
LOGO_SIDE = 400  # pixels, the longer side: sharp on a diploma, small in the row
ACCEPTED_FORMATS = ("PNG", "JPEG")
DATA_URI = re.compile(r"data:image/(?:png|jpeg|jpg);base64,(?P<data>[A-Za-z0-9+/=\s]*)", re.I)

# Pillow's own guard (a DecompressionBombError past twice this) is set to ours, for every
# decoder in the process, WeasyPrint's included; image_reencode refuses before it is reached.
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS


class ImageRefused(ValueError):
    """The image is not taken; the message says why, in the user's language."""


def _not_an_image() -> ImageRefused:
    return ImageRefused(_("The logo must be a PNG or JPEG image."))


def data_uri_bytes(value: str) -> bytes:
    """The bytes of a data:image/png|jpeg;base64 URI (the API's and the import's form)."""
    found = DATA_URI.fullmatch(value.strip())
    if found is None:
        raise _not_an_image()
    try:
        return base64.b64decode("".join(found["data"].split()), validate=True)
    except (binascii.Error, ValueError):
        raise _not_an_image() from None


def image_reencode(raw: bytes, *, side: int = LOGO_SIDE) -> str:
    """The image in `raw`, decoded and drawn again at most `side` pixels on its longer side,
    as a PNG data URI. Raises ImageRefused."""
    if len(raw) > MAX_IMAGE_BYTES:
        raise ImageRefused(
            _("The image file is too big (at most %(mb)s MB).")
            % {"mb": MAX_IMAGE_BYTES // (1024 * 1024)}
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS)
            width, height = image.size  # from the header: nothing is decoded yet
            if width * height > MAX_IMAGE_PIXELS:
                raise ImageRefused(
                    _("The image is too large: at most %(pixels)s million pixels.")
                    % {"pixels": MAX_IMAGE_PIXELS // 1_000_000}
                )
            # Decode only what the thumbnail needs (JPEG scales while it decodes).
            image.draft("RGB", (side, side))
            image.load()
    except ImageRefused:
        raise
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
        OSError,
        ValueError,
        SyntaxError,  # Pillow's word for a broken file in some decoders
        EOFError,
    ):
        raise _not_an_image() from None
    if image.format not in ACCEPTED_FORMATS:
        raise _not_an_image()
    image.thumbnail((side, side))
    out = io.BytesIO()
    image.convert("RGBA").save(out, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def data_uri_reencode(value: str, *, side: int = LOGO_SIDE) -> str:
    """A data URI as a client sends it, through image_reencode."""
    return image_reencode(data_uri_bytes(value), side=side)
