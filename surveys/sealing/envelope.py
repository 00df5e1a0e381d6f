"""The forms the server checks of what it stores for sealed open answers: the
respondent's envelope, the team's public key and the wrapped private key.

The server can open none of them; it checks only that each is what an honest
browser makes (version, fields, sizes, base64url), so that nothing else is
stored under their names and a refusal says what is wrong. The browser side
is surveys/kinds/sealed/static/ (page.js seals, keys.js makes keys and opens
answers); docs/security.md, "Sealed open answers", states the format.

An envelope is one string, five parts joined by dots::

    v1.<ephemeral public key>.<HKDF salt>.<AES-GCM IV>.<ciphertext>

each part base64url without padding: the ephemeral ECDH P-256 public key raw
(65 bytes, uncompressed), a 16-byte salt, a 12-byte IV and the AES-256-GCM
ciphertext with its 16-byte tag. The plaintext is the answer's UTF-8 bytes
padded with zero bytes to a multiple of PAD bytes (a zero byte is refused in
an answer, so the padding is unambiguous), so a ciphertext tells its answer's
length only to within PAD bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from typing import Any

VERSION = "v1"
PAD = 64
TAG = 16
EPHEMERAL = 65
SALT = 16
IV = 12
# The most bytes a character takes in UTF-8.
UTF8_MOST = 4
# The key file's key derivation: at least OWASP's 2023 figure for
# PBKDF2-HMAC-SHA256, and no more than a slow phone opens in a minute.
MIN_ITERATIONS = 600_000
MAX_ITERATIONS = 10_000_000
# A P-256 private key in PKCS#8 as browsers export it (138 bytes, or 67 to 200
# for encodings without or with optional fields), plus the tag.
WRAPPED_MIN, WRAPPED_MAX = 64 + TAG, 256 + TAG
KEY_FILE_FIELDS = {
    "version",
    "kind",
    "kdf",
    "salt",
    "iv",
    "ciphertext",
    "fingerprint",
    "public_key",
}
KEY_FILE_KIND = "rr-sealed-team-key"

_B64URL = re.compile(r"[A-Za-z0-9_-]*")
_HEX64 = re.compile(r"[0-9a-f]{64}")
# P-256 (FIPS 186-4, D.1.2.3): y^2 = x^3 - 3x + b over GF(p).
_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
# The DER of a P-256 SubjectPublicKeyInfo up to its point: the fingerprint is
# SHA-256 of this followed by 0x04 || x || y, as the browser's SPKI export.
_SPKI_PREFIX = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200")


class FormRefused(ValueError):
    """What a browser sent is not of the form it must have: the message says
    what is wrong, for a 400."""


def b64url(text: Any, what: str, *, size: int | None = None) -> bytes:
    """Canonical base64url without padding, decoded; ``size`` bytes if given."""
    if not isinstance(text, str) or not text or not _B64URL.fullmatch(text):
        raise FormRefused(f"{what} must be base64url text")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise FormRefused(f"{what} is not valid base64url") from None
    if base64.urlsafe_b64encode(data).decode().rstrip("=") != text:
        raise FormRefused(f"{what} is not valid base64url")
    if size is not None and len(data) != size:
        raise FormRefused(f"{what} must be {size} bytes, got {len(data)}")
    return data


def most_ciphertext(max_length: int) -> int:
    """The longest ciphertext an answer of ``max_length`` characters makes."""
    padded = -(-UTF8_MOST * max_length // PAD) * PAD
    return padded + TAG


def b64url_length(size: int) -> int:
    """The characters of ``size`` bytes in base64url without padding."""
    return -(-4 * size // 3)


def most_envelope(max_length: int) -> int:
    """The characters (ASCII, so bytes) of the longest envelope an answer of
    ``max_length`` characters makes: its version, four dots, and the parts
    in base64url."""
    parts = (EPHEMERAL, SALT, IV, most_ciphertext(max_length))
    return len(VERSION) + len(parts) + sum(b64url_length(n) for n in parts)


def check_envelope(value: Any, *, max_length: int) -> str:
    """An envelope of the form above for an answer of at most ``max_length``
    characters, returned as sent; FormRefused says what is wrong."""
    if not isinstance(value, str):
        raise FormRefused("value must be a sealed envelope (text)")
    most = most_envelope(max_length)
    if len(value) > most:
        raise FormRefused(
            f"the sealed envelope is {len(value)} characters; an answer of at "
            f"most {max_length} characters makes at most {most}"
        )
    parts = value.split(".")
    if len(parts) != 5 or parts[0] != VERSION:
        raise FormRefused(
            "value must be a sealed envelope: v1 and four base64url parts "
            "joined by dots"
        )
    point = b64url(parts[1], "the ephemeral public key", size=EPHEMERAL)
    if point[0] != 4 or not on_curve(point[1:33], point[33:]):
        raise FormRefused("the ephemeral public key is not a P-256 point")
    b64url(parts[2], "the salt", size=SALT)
    b64url(parts[3], "the IV", size=IV)
    sealed = b64url(parts[4], "the ciphertext")
    body = len(sealed) - TAG
    if body < PAD or body % PAD:
        raise FormRefused(
            f"the ciphertext must be a multiple of {PAD} bytes plus a "
            f"{TAG}-byte tag, got {len(sealed)} bytes"
        )
    if len(sealed) > most_ciphertext(max_length):
        raise FormRefused(
            f"the ciphertext is {len(sealed)} bytes; an answer of at most "
            f"{max_length} characters makes at most "
            f"{most_ciphertext(max_length)}"
        )
    return value


def on_curve(x: bytes, y: bytes) -> bool:
    """Whether (x, y) is a point of P-256 (not the point at infinity)."""
    a, b = int.from_bytes(x, "big"), int.from_bytes(y, "big")
    if not (0 <= a < _P and 0 <= b < _P):
        return False
    return (b * b - (a * a * a - 3 * a + _B)) % _P == 0


def public_key(jwk: Any) -> tuple[dict[str, str], str]:
    """A P-256 public JWK checked (only its public fields kept) and its
    fingerprint: lowercase hex SHA-256 of its SubjectPublicKeyInfo."""
    if not isinstance(jwk, Mapping):
        raise FormRefused("public_key must be a JWK object")
    if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
        raise FormRefused('public_key must be an EC key on "P-256"')
    if "d" in jwk:
        raise FormRefused(
            "public_key holds a private key (d): send only the public half"
        )
    x = b64url(jwk.get("x"), "public_key.x", size=32)
    y = b64url(jwk.get("y"), "public_key.y", size=32)
    if not on_curve(x, y):
        raise FormRefused("public_key is not a P-256 point")
    spki = _SPKI_PREFIX + b"\x04" + x + y
    kept = {"kty": "EC", "crv": "P-256", "x": jwk["x"], "y": jwk["y"]}
    return kept, hashlib.sha256(spki).hexdigest()


def wrapped_key(blob: Any, *, fingerprint: str) -> dict[str, Any]:
    """A key file as the researcher's browser makes it (the private key
    wrapped under their passphrase), checked field by field, for the key
    whose fingerprint is ``fingerprint``."""
    if not isinstance(blob, Mapping):
        raise FormRefused("wrapped_private must be a key file (a JSON object)")
    if set(blob) != KEY_FILE_FIELDS:
        missing = sorted(KEY_FILE_FIELDS - set(blob))
        extra = sorted(set(blob) - KEY_FILE_FIELDS)
        raise FormRefused(
            f"wrapped_private must have exactly the fields "
            f"{', '.join(sorted(KEY_FILE_FIELDS))} (missing: "
            f"{', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'})"
        )
    if blob["version"] != 1 or blob["kind"] != KEY_FILE_KIND:
        raise FormRefused(f'wrapped_private must be version 1 of "{KEY_FILE_KIND}"')
    kdf = blob["kdf"]
    if not isinstance(kdf, Mapping) or set(kdf) != {"name", "hash", "iterations"}:
        raise FormRefused("wrapped_private.kdf must have name, hash and iterations")
    iterations = kdf["iterations"]
    if (
        kdf["name"] != "PBKDF2"
        or kdf["hash"] != "SHA-256"
        or isinstance(iterations, bool)
        or not isinstance(iterations, int)
        or not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS
    ):
        raise FormRefused(
            f"wrapped_private.kdf must be PBKDF2 with SHA-256 and "
            f"{MIN_ITERATIONS} to {MAX_ITERATIONS} iterations"
        )
    b64url(blob["salt"], "wrapped_private.salt", size=SALT)
    b64url(blob["iv"], "wrapped_private.iv", size=IV)
    wrapped = b64url(blob["ciphertext"], "wrapped_private.ciphertext")
    if not WRAPPED_MIN <= len(wrapped) <= WRAPPED_MAX:
        raise FormRefused(
            f"wrapped_private.ciphertext must be {WRAPPED_MIN} to {WRAPPED_MAX} "
            f"bytes, got {len(wrapped)}"
        )
    if not isinstance(blob["fingerprint"], str) or not _HEX64.fullmatch(
        blob["fingerprint"]
    ):
        raise FormRefused("wrapped_private.fingerprint must be 64 lowercase hex digits")
    _, own = public_key(blob["public_key"])
    if blob["fingerprint"] != fingerprint or own != fingerprint:
        raise FormRefused("wrapped_private is the key file of another key")
    return dict(blob)


def grouped(fingerprint: str) -> str:
    """A fingerprint as people compare it: groups of four hex digits."""
    return " ".join(fingerprint[i : i + 4] for i in range(0, len(fingerprint), 4))
