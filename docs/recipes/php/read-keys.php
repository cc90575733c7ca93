<?php
/**
 * After an onComplete the host reads every key of serviceKeys over the data API (section 6 rule 8) and
 * then validates the records itself. Started in the background by receiver.php with the callback's
 * body in a file (php read-keys.php FILE): the request that acknowledged it has already ended.
 * Each handle and key is one path segment, rawurlencode()d (urlencode() writes a space as +). Each key
 * is read on its own (a child per key when pcntl is there), so one failed read stops no other. A read
 * answered 409 or 503 is retried with an exponential back-off; 400 and 401 are never retried
 * (section 7): the request or the token is wrong, and retrying does not fix it.
 */
declare(strict_types=1);

const MAX_ATTEMPTS = 5;
const FIRST_BACKOFF_SECONDS = 0.25;
const READ_TIMEOUT_SECONDS = 10;

function record_url(string $configEnd, string $endUserHandle, string $serviceKey): string
{
    // How configEnd sits in the path is not shown by the contract: without its leading slash, each segment encoded.
    $end = implode('/', array_map('rawurlencode', explode('/', ltrim($configEnd, '/'))));
    $base = rtrim((string) getenv('SERVICE_DATA_API_URL'), '/');
    $workspace = rawurlencode((string) getenv('SERVICE_WORKSPACE_KEY'));
    return "$base/api/$workspace/endpoints/$end/data/" . rawurlencode($endUserHandle) . '/' . rawurlencode($serviceKey);
}

/** One record, or null when it could not be read (logged to stderr). */
function read_record(string $url): ?array
{
    $context = stream_context_create(['http' => [
        'method' => 'GET',
        'header' => 'Authorization: Bearer ' . getenv('SERVICE_DATA_API_TOKEN') . "\r\nAccept: application/json\r\n",
        'timeout' => READ_TIMEOUT_SECONDS,
        'ignore_errors' => true, // a 4xx or 5xx body is still read, and its status looked at
        'follow_location' => 0,
    ]]);
    for ($attempt = 1; $attempt <= MAX_ATTEMPTS; $attempt++) {
        $http_response_header = [];
        $body = @file_get_contents($url, false, $context);
        // A network error or a timeout is as transient as a 503.
        $status = $body === false ? 503 : (int) (explode(' ', $http_response_header[0] ?? '', 3)[1] ?? 503);
        if ($status === 200) {
            $record = json_decode($body, true);
            return is_array($record) ? $record : null; // validate the envelope of 2.3 here
        }
        if ($status !== 409 && $status !== 503) {
            fwrite(STDERR, "data API read answered $status: not retried\n");
            return null;
        }
        // Exponential, with jitter, so many receivers do not retry in step.
        usleep((int) (FIRST_BACKOFF_SECONDS * 2 ** ($attempt - 1) * (0.75 + mt_rand() / mt_getrandmax() / 2) * 1e6));
    }
    fwrite(STDERR, 'data API read still unavailable after ' . MAX_ATTEMPTS . " attempts: reconcile later\n");
    return null;
}

$job = $argv[1] ?? '';
$payload = json_decode((string) @file_get_contents($job), true);
@unlink($job);
$keys = is_array($payload) && is_array($payload['serviceKeys'] ?? null) ? $payload['serviceKeys'] : [];
$children = [];
foreach ($keys as $key) {
    $handle = (string) ($payload['endUserHandle'] ?? '');
    $url = record_url((string) ($payload['configEnd'] ?? '/'), $handle, (string) $key);
    $pid = function_exists('pcntl_fork') ? pcntl_fork() : -1;
    if ($pid === 0) { // the child reads its key and ends
        $record = read_record($url);
        // Validate it here: data may be null, problems are in errors and warnings; callbackStatus, not
        // completedAt, tells a draft from a finalized record.
        exit(0);
    }
    if ($pid > 0) {
        $children[] = $pid;
    } else {
        $record = read_record($url); // no pcntl: one key after another, each failure caught
    }
}
foreach ($children as $pid) {
    pcntl_waitpid($pid, $status);
}
