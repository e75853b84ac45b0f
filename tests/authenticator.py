"""A software WebAuthn authenticator for tests: a P-256 key made with ``cryptography``, answering
registration and sign-in options exactly as a browser hands the answer to a page (WebAuthn's
JSON form), signed for real.

``origin`` is the page the ceremony claims to come from; ``counter_step`` how much the
signature counter moves at each signature (0: an authenticator that keeps no counter).
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40
ES256 = -7


class SoftAuthenticator:
    """One passkey held in memory."""

    def __init__(self, rp_id: str, origin: str, counter_step: int = 1) -> None:
        self.rp_id = rp_id
        self.origin = origin
        self.counter_step = counter_step
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.sign_count = 0
        self.user_id = b""

    @property
    def id(self) -> str:
        """The credential id as the server names it (base64url)."""
        return bytes_to_base64url(self.credential_id)

    def _client_data(self, kind: str, options: dict[str, Any]) -> bytes:
        data = {"type": kind, "challenge": options["challenge"], "origin": self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def _authenticator_data(self, flags: int, attested: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256(self.rp_id.encode()).digest()
        return rp_hash + bytes([flags]) + self.sign_count.to_bytes(4, "big") + attested

    def _public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: ES256, -1: 1, -2: numbers.x.to_bytes(32, "big")}
        return encode_cbor({**cose, -3: numbers.y.to_bytes(32, "big")})

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)`` (attestation "none")."""
        self.user_id = base64url_to_bytes(options["user"]["id"])
        credential = len(self.credential_id).to_bytes(2, "big") + self.credential_id
        attested = bytes(16) + credential + self._public_key()
        flags = USER_PRESENT | USER_VERIFIED | ATTESTED
        data = self._authenticator_data(flags, attested)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": data})
        response = {
            "clientDataJSON": bytes_to_base64url(self._client_data("webauthn.create", options)),
            "attestationObject": bytes_to_base64url(attestation),
            "transports": ["internal"],
        }
        return self._credential(response)

    def get(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)``: the counter moves on, then
        the authenticator data and the client data's hash are signed."""
        self.sign_count += self.counter_step
        data = self._authenticator_data(USER_PRESENT | USER_VERIFIED)
        client_data = self._client_data("webauthn.get", options)
        signed = data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        response = {
            "clientDataJSON": bytes_to_base64url(client_data),
            "authenticatorData": bytes_to_base64url(data),
            "signature": bytes_to_base64url(signature),
            "userHandle": bytes_to_base64url(self.user_id),
        }
        return self._credential(response)

    def _credential(self, response: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": response,
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
