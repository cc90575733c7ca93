<?php
/**
 * A host receiver in PHP's standard library: the front controller of `php -S` (serve.php starts it) or
 * of php-fpm behind your web server. Every request is its own PHP run, so what must outlive it (the
 * delivery ids seen, the JWKS document) is kept in files under STATE_DIR.
 *   - the callback hook verifies the raw body (php://input) before any json_decode (5.2);
 *   - a refused signature is answered 401 (section 7), never 400 or 500;
 *   - a redelivery is answered 2xx again and handled once: dedupe on the delivery id and the body,
 *     never on the attempt (section 6 rule 4);
 *   - acknowledge first, work afterwards (4.1): the answer is flushed, then the data API reads of an
 *     onComplete are handed to a process of their own (read-keys.php), off the request;
 *   - the facts GET is verified over "GET " + $_SERVER['REQUEST_URI'], the request target as received
 *     ($_GET is decoded), and answered with a flat JSON object (4.1).
 * Settings: the environment variables of docs/recipes/README.md, and STATE_DIR.
 */
declare(strict_types=1);

require __DIR__ . '/verify.php';

/** Everything the receiver needs, from the environment (the names every recipe shares). */
function ccs_settings(): array
{
    $env = fn (string $name, string $default = '') => (string) (getenv($name) ?: $default);
    $state = $env('STATE_DIR', sys_get_temp_dir() . '/ccs-receiver');
    if (!is_dir($state)) {
        @mkdir($state, 0700, true);
    }
    return [
        'hookPath' => $env('HOOK_PATH', '/hooks/ccs'),
        'factsPath' => $env('FACTS_PATH', '/facts'),
        'secrets' => array_values(array_filter([$env('SERVICE_HMAC_SECRET'), $env('SERVICE_HMAC_PREVIOUS_SECRET')])),
        'jwksUrl' => $env('SERVICE_JWKS_URL'),
        'state' => $state,
        'bare' => $env('RECIPE_BARE') === '1', // what not to do, for the recipe's own test (php.md)
    ];
}

function ccs_verified(array $cfg, ?string $header, string $payload): bool
{
    if ($cfg['jwksUrl'] !== '') {
        return ccs_verify_jws($header, $payload, $cfg['jwksUrl'], $cfg['state'] . '/jwks.json', $cfg['bare']);
    }
    return ccs_verify_hmac($header, $payload, $cfg['secrets']);
}

/** Sends the whole answer now: php -S holds its output in a buffer until the script ends. */
function ccs_answer(int $status, ?array $body = null): void
{
    $text = $body === null ? '' : json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    http_response_code($status);
    header('Content-Type: application/json');
    header('Content-Length: ' . strlen($text));
    while (ob_get_level() > 0) {
        ob_end_flush();
    }
    echo $text;
    flush();
    if (function_exists('fastcgi_finish_request')) {
        fastcgi_finish_request(); // php-fpm: the client has its answer, the worker goes on
    }
}

/** True the first time this (delivery id, body) pair is seen: an exclusive create is atomic across requests. */
function ccs_first_seen(string $state, string $deliveryId, string $raw): bool
{
    $dir = $state . '/seen';
    if (!is_dir($dir)) {
        @mkdir($dir, 0700, true);
    }
    if (random_int(1, 1000) === 1) { // forget pairs older than a day now and then, as session GC does
        foreach (glob($dir . '/*') ?: [] as $old) {
            if (@filemtime($old) < time() - 86400) {
                @unlink($old);
            }
        }
    }
    $marker = @fopen($dir . '/' . hash('sha256', $deliveryId . "\n" . hash('sha256', $raw)), 'x');
    if ($marker === false) {
        return false;
    }
    fclose($marker);
    return true;
}

/** The reads run in a process of their own, started in the background: the request ends at once. */
function ccs_read_in_background(string $state, string $raw): void
{
    $job = tempnam($state, 'complete-');
    file_put_contents($job, $raw);
    $php = PHP_SAPI === 'cli-server' || PHP_SAPI === 'cli' ? PHP_BINARY : 'php';
    $command = escapeshellarg($php) . ' ' . escapeshellarg(__DIR__ . '/read-keys.php') . ' ' . escapeshellarg($job);
    exec($command . ' > /dev/null 2>> ' . escapeshellarg($state . '/read-keys.log') . ' &');
}

/** Your user's facts: a flat object of your FACTS class's fields (2.4), never a secret. */
function ccs_facts_of(string $endUserHandle): array
{
    return ['displayName' => 'Ada Example', 'preferredLanguages' => ['Brazilian Portuguese', 'English']];
}

$cfg = ccs_settings();
$target = $_SERVER['REQUEST_URI']; // the request target as received: path and query, percent-encoded
$path = explode('?', $target, 2)[0];
// Whitespace around a field value is no part of it (RFC 9112 5.1), and PHP's built-in server passes it on.
$field = fn (string $name): ?string => isset($_SERVER[$name]) ? trim((string) $_SERVER[$name], " \t") : null;
$header = $field('HTTP_X_SERVICE_SIGNATURE');

if ($_SERVER['REQUEST_METHOD'] === 'POST' && $path === $cfg['hookPath']) {
    $raw = (string) file_get_contents('php://input'); // the bytes as received, never $_POST
    if (!ccs_verified($cfg, $header, $raw)) {
        ccs_answer(401);
        return;
    }
    $payload = json_decode($raw, true);
    if (!is_array($payload)) {
        ccs_answer(400);
        return;
    }
    $first = ccs_first_seen($cfg['state'], (string) $field('HTTP_X_SERVICE_DELIVERY_ID'), $raw);
    ccs_answer(200, ['received' => true]); // acknowledge first ...
    if ($first && ($payload['event'] ?? null) === 'onComplete') {
        ccs_read_in_background($cfg['state'], $raw); // ... work afterwards (section 6 rule 8)
    }
} elseif ($_SERVER['REQUEST_METHOD'] === 'GET' && $path === $cfg['factsPath']) {
    // "GET " + the target as received: $_GET is decoded, and a query rebuilt from it is not the bytes signed.
    if (!ccs_verified($cfg, $header, 'GET ' . $target)) {
        ccs_answer(401);
        return;
    }
    $handle = is_string($_GET['endUserHandle'] ?? null) ? $_GET['endUserHandle'] : '';
    ccs_answer(200, ccs_facts_of($handle)); // flat: no envelope, no list
} else {
    ccs_answer(404);
}
