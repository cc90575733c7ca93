// A host receiver in Go's standard library (net/http, no framework):
//   - the callback hook verifies the raw body (io.ReadAll of r.Body) before any json decoding (5.2);
//   - a refused signature is answered 401 (section 7), never 400 or 500;
//   - a redelivery is answered 2xx again and handled once: dedupe on the delivery id and the body,
//     never on the attempt (section 6 rule 4);
//   - acknowledge first, work afterwards (4.1): the data API reads of an onComplete run on goroutines
//     after the answer (dataapi.go);
//   - the facts GET is verified over "GET " + r.RequestURI, the request target as received (r.URL.Query()
//     is decoded), and answered with a flat JSON object whose fields carry json tags (4.1).
//
// Settings: the environment variables of docs/recipes/README.md.
package main

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

const maxBodyBytes = 5 << 20

// payload: the fields of a callback this receiver uses.
type payload struct {
	Event         string   `json:"event"`
	ConfigEnd     string   `json:"configEnd"`
	EndUserHandle string   `json:"endUserHandle"`
	ServiceKeys   []string `json:"serviceKeys"`
}

// facts: your FACTS class. encoding/json writes a field under its Go name (DisplayName) unless tagged.
type facts struct {
	DisplayName        string   `json:"displayName"`
	PreferredLanguages []string `json:"preferredLanguages"`
}

// untaggedFacts is what not to do, for the recipe's own test (go.md): no json tags.
type untaggedFacts struct {
	DisplayName        string
	PreferredLanguages []string
}

// factsOf: your user's facts, a flat object of your FACTS class's fields (2.4), never a secret.
func factsOf(endUserHandle string, bare bool) any {
	f := facts{DisplayName: "Ada Example", PreferredLanguages: []string{"Brazilian Portuguese", "English"}}
	if bare {
		return untaggedFacts(f)
	}
	return f
}

// deduper remembers (delivery id, body) pairs: the id alone is shared by every page of a bulk manifest.
type deduper struct {
	mu    sync.Mutex
	seen  map[string]*list.Element
	order *list.List
}

func (d *deduper) firstSeen(deliveryID string, raw []byte) bool {
	sum := sha256.Sum256(raw)
	key := deliveryID + "\n" + hex.EncodeToString(sum[:])
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.seen[key]; ok {
		return false
	}
	d.seen[key] = d.order.PushBack(key)
	if d.order.Len() > 10_000 {
		delete(d.seen, d.order.Remove(d.order.Front()).(string))
	}
	return true
}

type receiver struct {
	hookPath, factsPath string
	secrets             []string
	keys                *jwks // nil in HMAC mode
	api                 dataAPI
	dedupe              *deduper
	bare                bool
}

func (rc *receiver) verified(header string, payload []byte, arrived time.Time) bool {
	if rc.keys != nil {
		return verifyJWS(header, payload, rc.keys, arrived)
	}
	return verifyHMAC(header, payload, rc.secrets)
}

func answer(w http.ResponseWriter, status int, body any) {
	text := []byte{}
	if body != nil {
		text, _ = json.Marshal(body)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(text)))
	w.WriteHeader(status)
	w.Write(text)
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	path := strings.SplitN(r.RequestURI, "?", 2)[0]
	header := r.Header.Get("X-Service-Signature")
	switch {
	case r.Method == http.MethodPost && path == rc.hookPath:
		raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes)) // the bytes as received
		if err != nil {
			answer(w, http.StatusRequestEntityTooLarge, nil)
			return
		}
		if !rc.verified(header, raw, arrived) {
			answer(w, http.StatusUnauthorized, nil)
			return
		}
		var p payload
		if json.Unmarshal(raw, &p) != nil {
			answer(w, http.StatusBadRequest, nil)
			return
		}
		first := rc.dedupe.firstSeen(r.Header.Get("X-Service-Delivery-Id"), raw)
		answer(w, http.StatusOK, map[string]bool{"received": true}) // acknowledge first ...
		if first && p.Event == "onComplete" {
			go rc.api.readEveryKey(p) // ... work afterwards (section 6 rule 8)
		}
	case r.Method == http.MethodGet && path == rc.factsPath:
		// r.RequestURI is the target as received; r.URL.Query() is decoded, r.URL.String() written again.
		if !rc.verified(header, []byte("GET "+r.RequestURI), arrived) {
			answer(w, http.StatusUnauthorized, nil)
			return
		}
		answer(w, http.StatusOK, factsOf(r.URL.Query().Get("endUserHandle"), rc.bare)) // flat: no envelope
	default:
		answer(w, http.StatusNotFound, nil)
	}
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func main() {
	rc := &receiver{
		hookPath:  env("HOOK_PATH", "/hooks/ccs"),
		factsPath: env("FACTS_PATH", "/facts"),
		api: dataAPI{
			baseURL:      os.Getenv("SERVICE_DATA_API_URL"),
			bearerToken:  os.Getenv("SERVICE_DATA_API_TOKEN"),
			workspaceKey: os.Getenv("SERVICE_WORKSPACE_KEY"),
		},
		dedupe: &deduper{seen: map[string]*list.Element{}, order: list.New()},
		bare:   os.Getenv("RECIPE_BARE") == "1",
	}
	for _, s := range []string{os.Getenv("SERVICE_HMAC_SECRET"), os.Getenv("SERVICE_HMAC_PREVIOUS_SECRET")} {
		if s != "" {
			rc.secrets = append(rc.secrets, s)
		}
	}
	if u := os.Getenv("SERVICE_JWKS_URL"); u != "" {
		rc.keys = &jwks{url: u}
	} else if len(rc.secrets) == 0 {
		log.Fatal("set SERVICE_HMAC_SECRET (HMAC mode) or SERVICE_JWKS_URL (JWKS mode)")
	}
	addr := net.JoinHostPort(env("HOST", "127.0.0.1"), env("PORT", "3000"))
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	// MaxHeaderBytes: 1 MB (the default, said here): a full 500-key page in JWKS mode has a ~30 KB header.
	server := &http.Server{Handler: rc, MaxHeaderBytes: 1 << 20, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("receiver listening on http://%s\n", addr)
	log.Fatal(server.Serve(listener))
}
