import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * A host receiver on the JDK's com.sun.net.httpserver.HttpServer, with Gson for JSON:
 * - the callback hook verifies the raw body (getRequestBody().readAllBytes()) before any JSON parse (5.2);
 * - a refused signature is answered 401 (section 7), never 400 or 500;
 * - a redelivery is answered 2xx again and handled once: dedupe on the delivery id and the body, never on
 *   the attempt (section 6 rule 4);
 * - acknowledge first, work afterwards (4.1): the exchange is answered and closed, then the data API reads
 *   of an onComplete run on threads of their own (DataApi.java); the server has an executor of its own, as
 *   the default one handles every exchange on one thread;
 * - the facts GET is verified over "GET " + getRawPath() and getRawQuery(), the request target as received
 *   (getQuery() is decoded), and answered with a flat JSON object (4.1).
 * Settings: the environment variables of docs/recipes/README.md.
 */
public final class Receiver {
    private static final Gson GSON = new Gson();

    /**
     * The fields of a callback this receiver uses (Gson binds records). conversationId is an integer the
     * contract does not bound: a long, never an int (Gson refuses 2^31 for an int).
     */
    record Callback(
        String event, String configEnd, String endUserHandle, long conversationId, List<String> serviceKeys) {}

    /** What not to do, for the recipe's own test (java.md): conversationId bound to an int. */
    record IntCallback(
        String event, String configEnd, String endUserHandle, int conversationId, List<String> serviceKeys) {}
    private static final int DEDUPE_ENTRIES = 10_000;

    private final String hookPath = env("HOOK_PATH", "/hooks/ccs"), factsPath = env("FACTS_PATH", "/facts");
    private final List<String> secrets = new ArrayList<>();
    private final Verify.Jwks jwks; // null in HMAC mode
    private final DataApi api;
    private final boolean bare = "1".equals(System.getenv("RECIPE_BARE"));
    // (delivery id, body) pairs, oldest first: the id alone is shared by every page of a bulk manifest.
    private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > DEDUPE_ENTRIES;
        }
    };

    Receiver() {
        for (String name : new String[] {"SERVICE_HMAC_SECRET", "SERVICE_HMAC_PREVIOUS_SECRET"})
            if (!env(name, "").isEmpty()) secrets.add(env(name, ""));
        String jwksUrl = env("SERVICE_JWKS_URL", "");
        jwks = jwksUrl.isEmpty() ? null : new Verify.Jwks(jwksUrl);
        api = new DataApi(
            env("SERVICE_DATA_API_URL", ""), env("SERVICE_DATA_API_TOKEN", ""), env("SERVICE_WORKSPACE_KEY", ""));
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    boolean verified(String header, byte[] payload, long arrivedNanos) throws Exception {
        return jwks != null ? Verify.jws(header, payload, jwks, arrivedNanos) : Verify.hmac(header, payload, secrets);
    }

    synchronized boolean firstSeen(String deliveryId, byte[] raw) throws Exception {
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw));
        return seen.put(deliveryId + "\n" + hash, Boolean.TRUE) == null;
    }

    /** Your user's facts: a flat object of your FACTS class's fields (2.4), never a secret. */
    static Map<String, Object> factsOf(String endUserHandle) {
        return Map.of("displayName", "Ada Example", "preferredLanguages", List.of("Brazilian Portuguese", "English"));
    }

    static void answer(HttpExchange ex, int status, Object body) throws IOException {
        byte[] text = body == null ? new byte[0] : GSON.toJson(body).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, text.length == 0 ? -1 : text.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(text);
        }
    }

    void handle(HttpExchange ex) throws Exception {
        long arrived = System.nanoTime();
        String path = ex.getRequestURI().getRawPath(), header = ex.getRequestHeaders().getFirst("X-Service-Signature");
        if ("POST".equals(ex.getRequestMethod()) && hookPath.equals(path)) {
            byte[] raw = ex.getRequestBody().readAllBytes(); // the bytes as received
            if (!verified(header, raw, arrived)) {
                answer(ex, 401, null);
                return;
            }
            Callback payload;
            try {
                String json = new String(raw, StandardCharsets.UTF_8);
                if (bare) GSON.fromJson(json, IntCallback.class); // throws on a conversationId past 2^31 - 1
                payload = GSON.fromJson(json, Callback.class);
            } catch (JsonParseException e) {
                answer(ex, 400, null);
                return;
            }
            String deliveryId = ex.getRequestHeaders().getFirst("X-Service-Delivery-Id");
            boolean first = firstSeen(deliveryId == null ? "" : deliveryId, raw);
            answer(ex, 200, Map.of("received", true)); // acknowledge first ...
            if (first && payload != null && "onComplete".equals(payload.event())) {
                api.readEveryKey(payload); // ... work afterwards, on the readers' threads (section 6 rule 8)
            }
        } else if ("GET".equals(ex.getRequestMethod()) && factsPath.equals(path)) {
            // The target as received: getRawPath() and getRawQuery(); getPath() and getQuery() are decoded.
            String query = ex.getRequestURI().getRawQuery();
            byte[] line = ("GET " + path + (query == null ? "" : "?" + query)).getBytes(StandardCharsets.UTF_8);
            if (!verified(header, line, arrived)) {
                answer(ex, 401, null);
                return;
            }
            String handle = ""; // for your lookup: decoded once the line is verified
            for (String pair : query == null ? new String[0] : query.split("&"))
                if (pair.startsWith("endUserHandle="))
                    handle = URLDecoder.decode(pair.substring("endUserHandle=".length()), StandardCharsets.UTF_8);
            answer(ex, 200, factsOf(handle)); // flat: no envelope, no list
        } else {
            answer(ex, 404, null);
        }
    }

    public static void main(String[] args) throws IOException {
        Receiver receiver = new Receiver();
        if (receiver.jwks == null && receiver.secrets.isEmpty()) {
            System.err.println("set SERVICE_HMAC_SECRET (HMAC mode) or SERVICE_JWKS_URL (JWKS mode)");
            System.exit(1);
        }
        String host = env("HOST", "127.0.0.1");
        int port = Integer.parseInt(env("PORT", "3000"));
        // A backlog of 128: the service may send many callbacks at once.
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 128);
        server.createContext("/", ex -> {
            try {
                receiver.handle(ex);
            } catch (Exception e) {
                System.err.println(ex.getRequestMethod() + " " + ex.getRequestURI().getRawPath() + ": " + e);
                answer(ex, 500, null);
            } finally {
                ex.close();
            }
        });
        // Without an executor of its own the server handles every exchange on its one dispatcher thread.
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        System.out.println("receiver listening on http://" + host + ":" + port);
    }
}
