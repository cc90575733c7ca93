import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signature verification with the JDK (javax.crypto, java.security) and Gson, both modes of 5.2:
 * HMAC  X-Service-Signature: t=<unix seconds>,v1=<64 lowercase hex>; v1 = HMAC-SHA256(secret,
 *       "<t>." + raw bytes), compared with MessageDigest.isEqual against each secret of a rotation.
 * JWKS  a compact JWS, ES256 with kid; its payload is "<t>." + raw bytes. The six steps of 5.2: read kid,
 *       pick its key, verify the signature, split at the first dot, check the window, compare the bytes.
 * The window has two sides: reject abs(now - t) > 300. The facts GET is signed over "GET " + the request
 * target as received (getRawPath() and getRawQuery()) instead of a body.
 */
final class Verify {
    static final long WINDOW_SECONDS = 300;
    // [0-9] and \z: \d would let other digits through, $ a trailing newline.
    private static final Pattern HMAC_HEADER = Pattern.compile("t=([0-9]{1,12}),v1=([0-9a-f]{64})\\z");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,12}");
    private static final Pattern B64URL = Pattern.compile("[A-Za-z0-9_-]*");

    static boolean inWindow(long t) {
        return Math.abs(Instant.now().getEpochSecond() - t) <= WINDOW_SECONDS; // both sides
    }

    /** HMAC: v1 matches one of the secrets over "<t>." + payload, and t is inside the window. */
    static boolean hmac(String header, byte[] payload, List<String> secrets) throws Exception {
        Matcher m = HMAC_HEADER.matcher(header == null ? "" : header);
        if (!m.matches()) return false;
        byte[] given = m.group(2).getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String secret : secrets) { // current and previous (a rotation): every one is tried
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((m.group(1) + ".").getBytes(StandardCharsets.US_ASCII));
            byte[] expected = HexFormat.of().formatHex(mac.doFinal(payload)).getBytes(StandardCharsets.US_ASCII);
            if (MessageDigest.isEqual(expected, given)) match = true; // constant time
        }
        return match && inWindow(Long.parseLong(m.group(1)));
    }

    /** base64url without padding, strictly; null when it is not. */
    static byte[] b64url(String text) {
        if (!B64URL.matcher(text).matches()) return null;
        try {
            return Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The JWKS document, cached; fetched again when a kid is unknown (a rotation), with no cooldown: a
     * document fetched after the request arrived is enough.
     */
    static final class Jwks {
        private final String url;
        private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        private volatile Map<String, PublicKey> keys = Map.of();
        private Long fetchStarted; // System.nanoTime() of the last fetch's start; null before the first

        Jwks(String url) {
            this.url = url;
        }

        PublicKey key(String kid, long arrivedNanos) {
            PublicKey known = keys.get(kid);
            if (known != null) return known;
            synchronized (this) { // one fetch at a time
                if (!keys.containsKey(kid) && (fetchStarted == null || fetchStarted - arrivedNanos < 0)) {
                    fetchStarted = System.nanoTime();
                    try {
                        keys = fetch();
                    } catch (Exception e) {
                        System.err.println("JWKS fetch failed: " + e.getMessage());
                    }
                }
                return keys.get(kid);
            }
        }

        private Map<String, PublicKey> fetch() throws Exception {
            HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build();
            JsonObject doc = JsonParser.parseString(http.send(req, HttpResponse.BodyHandlers.ofString()).body())
                .getAsJsonObject();
            AlgorithmParameters ec = AlgorithmParameters.getInstance("EC");
            ec.init(new ECGenParameterSpec("secp256r1"));
            ECParameterSpec p256 = ec.getParameterSpec(ECParameterSpec.class);
            Map<String, PublicKey> next = new HashMap<>();
            for (JsonElement e : doc.getAsJsonArray("keys")) {
                JsonObject jwk = e.getAsJsonObject();
                if (!"EC".equals(text(jwk, "kty")) || !"P-256".equals(text(jwk, "crv")) || text(jwk, "kid") == null)
                    continue;
                byte[] x = b64url(String.valueOf(text(jwk, "x"))), y = b64url(String.valueOf(text(jwk, "y")));
                if (x == null || y == null) continue;
                ECPoint point = new ECPoint(new BigInteger(1, x), new BigInteger(1, y));
                PublicKey key = KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point, p256));
                next.put(text(jwk, "kid"), key);
            }
            return next;
        }
    }

    /** A member that is a JSON string, or null. */
    static String text(JsonObject o, String name) {
        JsonElement e = o.get(name);
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() ? e.getAsString() : null;
    }

    /** JWKS: the six steps of 5.2, each refusing with false. */
    static boolean jws(String header, byte[] payload, Jwks jwks, long arrivedNanos) throws Exception {
        String[] parts = (header == null ? "" : header).split("\\.", -1);
        if (parts.length != 3) return false;
        byte[] h = b64url(parts[0]), s = b64url(parts[2]), p = b64url(parts[1]);
        if (h == null || s == null || p == null) return false;
        JsonObject protectedHeader;
        try {
            protectedHeader = JsonParser.parseString(new String(h, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (RuntimeException e) {
            return false;
        }
        // ES256 only (no alg none, no HS256 keyed with the public key); 1) read kid.
        String kid = text(protectedHeader, "kid");
        if (!"ES256".equals(text(protectedHeader, "alg")) || kid == null) return false;
        PublicKey key = jwks.key(kid, arrivedNanos); // 2) the key of that kid, never another one
        if (key == null || s.length != 64) return false;
        // 3) JWS carries the raw r||s: "SHA256withECDSAinP1363Format" reads it; "SHA256withECDSA" reads DER.
        Signature verifier = Signature.getInstance("SHA256withECDSAinP1363Format");
        verifier.initVerify(key);
        verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        if (!verifier.verify(s)) return false;
        int dot = 0; // 4) the first dot: the body has dots of its own
        while (dot < p.length && p[dot] != '.') dot++;
        if (dot == p.length) return false;
        String t = new String(p, 0, dot, StandardCharsets.ISO_8859_1);
        if (!DIGITS.matcher(t).matches() || !inWindow(Long.parseLong(t))) return false; // 5) both sides
        return MessageDigest.isEqual(Arrays.copyOfRange(p, dot + 1, p.length), payload); // 6) the bytes received
    }
}
