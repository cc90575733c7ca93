import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * After an onComplete the host reads every key of serviceKeys over the data API (section 6 rule 8) and then
 * validates the records itself. Each handle and key is one path segment, percent-encoded: the JDK has no
 * path segment encoder, and URLEncoder is a form encoder (a space becomes "+"). Each key is read on its own
 * thread, so one failed read stops no other. A read answered 409 or 503 is retried with an exponential
 * back-off; 400 and 401 are never retried (section 7): the request or the token is wrong.
 */
final class DataApi {
    private static final int MAX_ATTEMPTS = 5;
    private static final long FIRST_BACKOFF_MS = 250;

    private final String baseUrl, bearerToken, workspaceKey;
    private final HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    // Unbounded: a pool that turns work away when full drops keys that are never read.
    private final ExecutorService readers = Executors.newCachedThreadPool();

    DataApi(String baseUrl, String bearerToken, String workspaceKey) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.bearerToken = bearerToken;
        this.workspaceKey = workspaceKey;
    }

    /** One path segment: URLEncoder's form encoding with its "+" made "%20" (it encodes a real "+" as %2B). */
    static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    String recordUrl(String configEnd, String endUserHandle, String serviceKey) {
        // How configEnd sits in the path is not shown by the contract: without its leading slash, each segment encoded.
        List<String> end = new ArrayList<>();
        for (String s : configEnd.replaceAll("^/+", "").split("/", -1)) end.add(segment(s));
        return baseUrl + "/api/" + segment(workspaceKey) + "/endpoints/" + String.join("/", end) + "/data/"
            + segment(endUserHandle) + "/" + segment(serviceKey);
    }

    /** One record, or null when it could not be read (logged). */
    JsonObject readRecord(String url) throws InterruptedException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            int status = 503; // a network error or a timeout is as transient as a 503
            try {
                HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + bearerToken).header("Accept", "application/json").build();
                HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString());
                status = res.statusCode();
                if (status == 200) return JsonParser.parseString(res.body()).getAsJsonObject(); // validate 2.3 here
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (status == 200) return null; // a 200 that is not a JSON object
            }
            if (status != 409 && status != 503) {
                System.err.println("data API read answered " + status + ": not retried");
                return null;
            }
            // Exponential, with jitter, so many receivers do not retry in step.
            double jitter = ThreadLocalRandom.current().nextDouble(0.75, 1.25);
            Thread.sleep((long) (FIRST_BACKOFF_MS * (1L << (attempt - 1)) * jitter));
        }
        System.err.println("data API read still unavailable after " + MAX_ATTEMPTS + " attempts: reconcile later");
        return null;
    }

    /** Reads each key of an onComplete on its own thread; your validation of each record goes there. */
    void readEveryKey(Receiver.Callback payload) {
        if (payload.serviceKeys() == null) return;
        String configEnd = payload.configEnd() == null ? "/" : payload.configEnd();
        String handle = payload.endUserHandle() == null ? "" : payload.endUserHandle();
        for (String key : payload.serviceKeys()) {
            String url = recordUrl(configEnd, handle, String.valueOf(key));
            readers.execute(() -> {
                try {
                    JsonObject record = readRecord(url);
                    // Validate it here: data may be null, problems are in errors and warnings; callbackStatus,
                    // not completedAt, tells a draft from a finalized record.
                } catch (Exception e) {
                    System.err.println("data API read failed: " + e.getMessage());
                }
            });
        }
    }
}
