<?php
/**
 * Starts receiver.php under PHP's built-in server (`php -S`), as a local receiver or a small one:
 * HOST and PORT from the environment (127.0.0.1, 3000), PHP_CLI_SERVER_WORKERS worker processes (8;
 * one alone answers one request at a time), STATE_DIR a fresh folder unless set. In production put
 * receiver.php behind php-fpm instead (docs/recipes/php.md).
 */
declare(strict_types=1);

$host = getenv('HOST') ?: '127.0.0.1';
$port = (int) (getenv('PORT') ?: '3000');
$env = getenv();
$env['PHP_CLI_SERVER_WORKERS'] = getenv('PHP_CLI_SERVER_WORKERS') ?: '8';
if (!getenv('STATE_DIR')) {
    $env['STATE_DIR'] = sys_get_temp_dir() . '/ccs-receiver-' . $port . '-' . bin2hex(random_bytes(4));
    mkdir($env['STATE_DIR'], 0700, true);
}
if (!getenv('SERVICE_HMAC_SECRET') && !getenv('SERVICE_JWKS_URL')) {
    fwrite(STDERR, "set SERVICE_HMAC_SECRET (HMAC mode) or SERVICE_JWKS_URL (JWKS mode)\n");
    exit(1);
}

// -q: no line per request on the console.
$command = [PHP_BINARY, '-q', '-S', "$host:$port", __DIR__ . '/receiver.php'];
$server = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => STDOUT, 2 => STDERR], $pipes, null, $env);
if ($server === false) {
    exit(1);
}
for ($i = 0; $i < 100; $i++) { // until it accepts a connection
    $probe = @stream_socket_client("tcp://$host:$port", $errno, $error, 1);
    if ($probe !== false) {
        fclose($probe);
        echo "receiver listening on http://$host:$port\n";
        break;
    }
    if (!proc_get_status($server)['running']) {
        break;
    }
    usleep(50_000);
}
exit(proc_close($server));
