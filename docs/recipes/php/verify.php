<?php
/**
 * Signature verification in PHP's standard library (hash, openssl), both modes of 5.2:
 *   HMAC  X-Service-Signature: t=<unix seconds>,v1=<64 lowercase hex>; v1 = HMAC-SHA256(secret,
 *         "<t>." + raw bytes), compared with hash_equals against each secret of a rotation.
 *   JWKS  a compact JWS, ES256 with kid; its payload is "<t>." + raw bytes. The six steps of 5.2:
 *         read kid, pick its key, verify the signature, split at the first dot, check the window,
 *         compare the signed body with the received bytes.
 * The window has two sides: reject abs(now - t) > 300. The facts GET is signed over
 * "GET " + the request target as received ($_SERVER['REQUEST_URI']) instead of a body.
 */
declare(strict_types=1);

const CCS_WINDOW_SECONDS = 300;

function ccs_in_window(int $t): bool
{
    return abs(time() - $t) <= CCS_WINDOW_SECONDS; // both sides
}

/** HMAC: true when v1 matches one of the secrets over "<t>." . $payload and t is inside the window. */
function ccs_verify_hmac(?string $header, string $payload, array $secrets): bool
{
    // [0-9] and \z: \d and $ would let other digits and a trailing newline through.
    if ($header === null || !preg_match('/^t=([0-9]{1,12}),v1=([0-9a-f]{64})\z/', $header, $m)) {
        return false;
    }
    $match = false;
    foreach ($secrets as $secret) { // current and previous (a rotation): every one is tried
        if (hash_equals(hash_hmac('sha256', $m[1] . '.' . $payload, $secret), $m[2])) {
            $match = true;
        }
    }
    return $match && ccs_in_window((int) $m[1]);
}

/** base64url without padding, strictly; false when it is not. */
function ccs_b64url(string $text): string|false
{
    if (!preg_match('/^[A-Za-z0-9_-]*\z/', $text)) {
        return false;
    }
    return base64_decode(strtr($text, '-_', '+/'), true);
}

/** A P-256 JWK as PEM: the fixed SubjectPublicKeyInfo prefix, then 04 || x || y. */
function ccs_jwk_to_pem(array $jwk): ?string
{
    if (($jwk['kty'] ?? null) !== 'EC' || ($jwk['crv'] ?? null) !== 'P-256') {
        return null;
    }
    $x = ccs_b64url((string) ($jwk['x'] ?? ''));
    $y = ccs_b64url((string) ($jwk['y'] ?? ''));
    if ($x === false || $y === false || strlen($x) !== 32 || strlen($y) !== 32) {
        return null;
    }
    $der = hex2bin('3059301306072a8648ce3d020106082a8648ce3d030107034200') . "\x04" . $x . $y;
    return "-----BEGIN PUBLIC KEY-----\n" . chunk_split(base64_encode($der), 64, "\n") . "-----END PUBLIC KEY-----\n";
}

/** The JWS's raw 64-byte r||s as the DER SEQUENCE of two INTEGERs that openssl_verify reads. */
function ccs_raw_to_der(string $raw): string
{
    $int = function (string $half): string {
        $half = ltrim($half, "\x00");
        if ($half === '' || ord($half[0]) > 0x7f) {
            $half = "\x00" . $half; // an INTEGER is signed: a set high bit needs a zero byte before it
        }
        return "\x02" . chr(strlen($half)) . $half;
    };
    $seq = $int(substr($raw, 0, 32)) . $int(substr($raw, 32, 32));
    return "\x30" . chr(strlen($seq)) . $seq;
}

/**
 * The key of a kid from the JWKS document, cached in a file shared by every request (a PHP request
 * keeps nothing); fetched again when the kid is unknown (a rotation), with no cooldown: a document
 * fetched after this request arrived is enough.
 */
function ccs_jwks_key(string $url, string $kid, string $cacheFile): ?string
{
    $read = fn () => is_file($cacheFile) ? json_decode((string) @file_get_contents($cacheFile), true) : null;
    $cache = $read();
    if (is_string($cache['keys'][$kid] ?? null)) {
        return $cache['keys'][$kid];
    }
    $arrived = (float) ($_SERVER['REQUEST_TIME_FLOAT'] ?? microtime(true));
    $lock = fopen($cacheFile . '.lock', 'c');
    flock($lock, LOCK_EX); // one fetch at a time
    try {
        $cache = $read();
        if (!is_array($cache) || ($cache['fetchedAt'] ?? 0) < $arrived) {
            $started = microtime(true);
            $doc = @file_get_contents($url, false, stream_context_create(['http' => ['timeout' => 5]]));
            $doc = is_string($doc) ? json_decode($doc, true) : null;
            if (!is_array($doc) || !is_array($doc['keys'] ?? null)) {
                return null;
            }
            $cache = ['fetchedAt' => $started, 'keys' => []];
            foreach ($doc['keys'] as $jwk) {
                $pem = is_array($jwk) && is_string($jwk['kid'] ?? null) ? ccs_jwk_to_pem($jwk) : null;
                if ($pem !== null) {
                    $cache['keys'][$jwk['kid']] = $pem;
                }
            }
            file_put_contents($cacheFile . '.tmp', json_encode($cache));
            rename($cacheFile . '.tmp', $cacheFile); // atomic: a reader sees the old document or the new one
        }
    } finally {
        flock($lock, LOCK_UN);
        fclose($lock);
    }
    return is_string($cache['keys'][$kid] ?? null) ? $cache['keys'][$kid] : null;
}

/** JWKS: the six steps of 5.2, each refusing with false. */
function ccs_verify_jws(?string $header, string $payload, string $jwksUrl, string $cacheFile, bool $bare): bool
{
    $parts = explode('.', $header ?? '');
    if (count($parts) !== 3) {
        return false;
    }
    [$h, $p, $s] = $parts;
    $protected = ($json = ccs_b64url($h)) === false ? null : json_decode($json, true);
    // ES256 only (no alg none, no HS256 keyed with the public key); 1) read kid.
    if (!is_array($protected) || ($protected['alg'] ?? null) !== 'ES256' || !is_string($protected['kid'] ?? null)) {
        return false;
    }
    $pem = ccs_jwks_key($jwksUrl, $protected['kid'], $cacheFile); // 2) the key of that kid, never another
    $signature = ccs_b64url($s);
    if ($pem === null || $signature === false || strlen($signature) !== 64) {
        return false;
    }
    if ($bare) {
        // What not to do: the raw r||s handed to openssl_verify, which reads DER, and its answer taken as a
        // boolean: it answers -1 (an error) for every such signature, and -1 is true.
        if (!openssl_verify($h . '.' . $p, $signature, $pem, OPENSSL_ALGO_SHA256)) {
            return false;
        }
    } elseif (openssl_verify($h . '.' . $p, ccs_raw_to_der($signature), $pem, OPENSSL_ALGO_SHA256) !== 1) {
        return false; // 3) 1 is valid; 0 is invalid and -1 an error: both refuse
    }
    $signed = ccs_b64url($p);
    $dot = $signed === false ? false : strpos($signed, '.'); // 4) the first dot: the body has dots of its own
    if ($dot === false || !preg_match('/^[0-9]{1,12}\z/', substr($signed, 0, $dot))) {
        return false;
    }
    if (!ccs_in_window((int) substr($signed, 0, $dot))) { // 5) both sides of the window
        return false;
    }
    return hash_equals(substr($signed, $dot + 1), $payload); // 6) the bytes received
}
