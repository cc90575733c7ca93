#!/usr/bin/env python3
"""A complete host receiver in Python: the standard library, and `cryptography` for ES256.

The callback hook verifies the raw body bytes (5.2), answers a refused signature with 401
(section 7), dedupes on the delivery id and the body (section 6 rule 4), acknowledges first and
then reads every key of onComplete over the data API with percent-encoded paths, retrying 409 and
503 with back-off and never 400 or 401 (section 6 rule 8, section 7). The facts GET is verified
over "GET " + the request target as received (5.2 item 6) and answered with a flat JSON object.

Signing: HMAC when SERVICE_HMAC_SECRET is set (SERVICE_HMAC_PREVIOUS_SECRET during a rotation), JWKS when
SERVICE_JWKS_URL is. Other settings: PORT, HOST, HOOK_PATH, FACTS_PATH, SERVICE_DATA_API_URL,
SERVICE_DATA_API_TOKEN, SERVICE_WORKSPACE_KEY.
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

ENV = os.environ
PORT = int(ENV.get("PORT", "3000"))
HOST = ENV.get("HOST", "127.0.0.1")
HOOK_PATH = ENV.get("HOOK_PATH", "/hooks/ccs")
FACTS_PATH = ENV.get("FACTS_PATH", "/facts")
SECRETS = [s for s in (ENV.get("SERVICE_HMAC_SECRET"), ENV.get("SERVICE_HMAC_PREVIOUS_SECRET")) if s]
JWKS_URL = ENV.get("SERVICE_JWKS_URL")
DATA_API = {"base": ENV.get("SERVICE_DATA_API_URL", "").rstrip("/"), "token": ENV.get("SERVICE_DATA_API_TOKEN", ""), "workspace": ENV.get("SERVICE_WORKSPACE_KEY", "")}

WINDOW_SECONDS = 300
# A full 500-key config.bulk_deleted page in JWKS mode carries a header of tens of KB;
# http.client reads header lines of at most 64 KB unless told otherwise.
http.client._MAXLINE = 1024 * 1024

HMAC_HEADER = re.compile(r"t=([0-9]{1,12}),v1=([0-9a-f]{64})")
B64URL = re.compile(r"[A-Za-z0-9_-]*")
DIGITS = re.compile(rb"[0-9]{1,12}")


def in_window(t):
    """Both sides: reject abs(now - t) > 300 (5.2 item 4)."""
    return abs(int(time.time()) - t) <= WINDOW_SECONDS


def verify_hmac(header, payload, secrets):
    """v1 = HMAC-SHA256(secret, "<t>." + raw bytes), lowercase hex, compared in constant time."""
    m = HMAC_HEADER.fullmatch(header or "")
    if m is None:
        return False
    t_text, v1 = m.groups()
    match = False
    for secret in secrets:  # every secret of a rotation is tried: the timing tells nothing
        expected = hmac.new(secret.encode("utf-8"), t_text.encode("ascii") + b"." + payload, hashlib.sha256).hexdigest()
        if hmac.compare_digest(expected, v1):
            match = True
    return match and in_window(int(t_text))


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class JwksKeys:
    """The JWKS document, cached; fetched again when a kid is unknown (a rotation), no cooldown."""

    def __init__(self, url):
        self.url = url
        self.keys = {}
        self.lock = threading.Lock()
        self.last_fetch_started = 0.0

    def _fetch(self):
        self.last_fetch_started = time.monotonic()
        with urllib.request.urlopen(self.url, timeout=5) as res:
            doc = json.load(res)
        keys = {}
        for jwk in doc.get("keys", []):
            if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256" or not isinstance(jwk.get("kid"), str):
                continue
            x, y = (int.from_bytes(b64url(jwk[c]), "big") for c in ("x", "y"))
            keys[jwk["kid"]] = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
        self.keys = keys

    def key(self, kid):
        if kid in self.keys:
            return self.keys[kid]
        arrived = time.monotonic()
        with self.lock:  # one fetch at a time; one that started after this request arrived is enough
            if kid not in self.keys and self.last_fetch_started < arrived:
                try:
                    self._fetch()
                except (OSError, ValueError):
                    return None
        return self.keys.get(kid)


def verify_jws(header, payload, jwks):
    """The six steps of 5.2: kid, its key, the ES256 signature, the first dot, the window, the bytes."""
    parts = (header or "").split(".")
    if len(parts) != 3 or not all(B64URL.fullmatch(p) for p in parts):
        return False
    try:
        protected = json.loads(b64url(parts[0]))
    except ValueError:
        return False
    # ES256 only (no alg none, no HS256 keyed with the public key); 1) read kid.
    if not isinstance(protected, dict) or protected.get("alg") != "ES256" or not isinstance(protected.get("kid"), str):
        return False
    key = jwks.key(protected["kid"])  # 2) the key of that kid, never another one
    if key is None:
        return False
    signature = b64url(parts[2])  # 3) the raw 64-byte r||s of JWS; cryptography wants DER
    if len(signature) != 64:
        return False
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        key.verify(der, (parts[0] + "." + parts[1]).encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False
    signed = b64url(parts[1])
    dot = signed.find(b".")  # 4) the first dot: the body has dots of its own
    if dot <= 0 or not DIGITS.fullmatch(signed[:dot]) or not in_window(int(signed[:dot])):  # 5)
        return False
    return hmac.compare_digest(signed[dot + 1:], payload)  # 6) the bytes received


JWKS = JwksKeys(JWKS_URL) if JWKS_URL else None


def verified(header, payload):
    if JWKS is not None:
        return verify_jws(header, payload, JWKS)
    return verify_hmac(header, payload, SECRETS)


def record_url(config_end, end_user_handle, service_key):
    """Each handle and key one path segment, percent-encoded (quote with safe="")."""
    end = "/".join(urllib.parse.quote(s, safe="") for s in str(config_end).lstrip("/").split("/"))
    q = lambda s: urllib.parse.quote(str(s), safe="")  # noqa: E731
    return f"{DATA_API['base']}/api/{q(DATA_API['workspace'])}/endpoints/{end}/data/{q(end_user_handle)}/{q(service_key)}"


def read_record(url, attempts=5):
    """409 and 503 (and network errors) retried with exponential back-off; 400, 401 never."""
    for attempt in range(attempts):
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {DATA_API['token']}", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as res:
                return json.load(res)  # validate the envelope of 2.3 here
        except urllib.error.HTTPError as e:
            status = e.code
        except (OSError, ValueError):
            status = 503
        if status not in (409, 503):
            return None
        time.sleep(0.25 * 2 ** attempt * random.uniform(0.75, 1.25))
    return None


def read_every_key(payload):
    for key in payload.get("serviceKeys") or []:
        url = record_url(payload.get("configEnd", "/"), payload.get("endUserHandle", ""), key)
        threading.Thread(target=read_record, args=(url,), daemon=True).start()


class Deduper:
    """(delivery id, body) pairs: the id alone is shared by every page of a bulk manifest."""

    def __init__(self, size=10_000):
        self.seen, self.size, self.lock = OrderedDict(), size, threading.Lock()

    def first_seen(self, delivery_id, raw):
        key = (delivery_id, hashlib.sha256(raw).hexdigest())
        with self.lock:
            if key in self.seen:
                return False
            self.seen[key] = True
            if len(self.seen) > self.size:
                self.seen.popitem(last=False)
            return True


DEDUPER = Deduper()


def facts_of(_end_user_handle):
    """Your user's facts: a flat object of your FACTS class, language names in English, no secrets."""
    return {"displayName": "Ada Example", "preferredLanguages": ["Brazilian Portuguese", "English"]}


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def field(self, name):
        """A header's value: http.server keeps the whitespace after it, which is no part of it (RFC 9112 5.1)."""
        value = self.headers.get(name)
        return None if value is None else value.strip(" \t")

    def raw_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                chunk = self.rfile.read(size + 2)[:size]
                if size == 0:
                    return b"".join(chunks)
                chunks.append(chunk)
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_POST(self):
        raw = self.raw_body()
        if self.path.split("?", 1)[0] != HOOK_PATH:
            return self.answer(404)
        # The bytes as received: a parsed and re-serialized body is other bytes.
        if not verified(self.field("X-Service-Signature"), raw):
            return self.answer(401)
        try:
            payload = json.loads(raw)
        except ValueError:
            return self.answer(400)
        first = DEDUPER.first_seen(self.field("X-Service-Delivery-Id") or "", raw)
        self.answer(200, {"received": True})  # acknowledge first, work afterwards
        if first and payload.get("event") == "onComplete":
            read_every_key(payload)

    def do_GET(self):
        if self.path.split("?", 1)[0] != FACTS_PATH:
            return self.answer(404)
        # self.path is the request target as received (latin-1 gives back its bytes): its query stays percent-encoded.
        if not verified(self.field("X-Service-Signature"), ("GET " + self.path).encode("latin-1")):
            return self.answer(401)
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        self.answer(200, facts_of((query.get("endUserHandle") or [""])[0]))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the service may send many callbacks at once


if __name__ == "__main__":
    if not SECRETS and JWKS is None:
        raise SystemExit("set SERVICE_HMAC_SECRET (HMAC mode) or SERVICE_JWKS_URL (JWKS mode)")
    server = Server((HOST, PORT), Receiver)
    print(f"receiver listening on http://{HOST}:{server.server_address[1]}", flush=True)
    server.serve_forever()
