// Signature verification with Go's standard library (crypto/hmac, crypto/ecdsa), both modes of 5.2:
//
//	HMAC  X-Service-Signature: t=<unix seconds>,v1=<64 lowercase hex>; v1 = HMAC-SHA256(secret,
//	      "<t>." + raw bytes), compared with hmac.Equal against each secret of a rotation.
//	JWKS  a compact JWS, ES256 with kid; its payload is "<t>." + raw bytes. The six steps of 5.2:
//	      read kid, pick its key, verify the signature, split at the first dot, check the window,
//	      compare the signed body with the received bytes.
//
// The window has two sides: reject abs(now - t) > 300. The facts GET is signed over
// "GET " + the request target as received (r.RequestURI) instead of a body.
package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

const windowSeconds = 300

// [0-9], not \d; Go's $ without (?m) is the end of the text.
var (
	hmacHeader = regexp.MustCompile(`^t=([0-9]{1,12}),v1=([0-9a-f]{64})$`)
	digits     = regexp.MustCompile(`^[0-9]{1,12}$`)
)

func inWindow(t int64) bool {
	d := time.Now().Unix() - t
	return d <= windowSeconds && d >= -windowSeconds // both sides
}

// verifyHMAC: v1 matches one of the secrets over "<t>." + payload, and t is inside the window.
func verifyHMAC(header string, payload []byte, secrets []string) bool {
	m := hmacHeader.FindStringSubmatch(header)
	if m == nil {
		return false
	}
	match := false
	for _, secret := range secrets { // current and previous (a rotation): every one is tried
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(m[1] + "."))
		mac.Write(payload)
		if hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(m[2])) {
			match = true
		}
	}
	t, err := strconv.ParseInt(m[1], 10, 64)
	return match && err == nil && inWindow(t)
}

// b64url decodes unpadded base64url strictly.
func b64url(s string) ([]byte, error) { return base64.RawURLEncoding.Strict().DecodeString(s) }

// jwks caches the JWKS document and fetches it again when a kid is unknown (a rotation), with no
// cooldown: a document fetched after the request arrived is enough.
type jwks struct {
	url          string
	mu           sync.Mutex
	keys         map[string]*ecdsa.PublicKey
	fetchStarted time.Time
}

func (j *jwks) known(kid string) *ecdsa.PublicKey {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.keys[kid]
}

func (j *jwks) key(kid string, arrived time.Time) *ecdsa.PublicKey {
	if k := j.known(kid); k != nil {
		return k
	}
	j.mu.Lock() // one fetch at a time
	defer j.mu.Unlock()
	if j.keys[kid] == nil && !j.fetchStarted.After(arrived) {
		j.fetchStarted = time.Now()
		if keys, err := fetchKeys(j.url); err == nil {
			j.keys = keys
		}
	}
	return j.keys[kid]
}

func fetchKeys(url string) (map[string]*ecdsa.PublicKey, error) {
	res, err := (&http.Client{Timeout: 5 * time.Second}).Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var doc struct {
		Keys []struct{ Kty, Crv, Kid, X, Y string } `json:"keys"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		return nil, err
	}
	keys := map[string]*ecdsa.PublicKey{}
	for _, k := range doc.Keys {
		x, errX := b64url(k.X)
		y, errY := b64url(k.Y)
		if k.Kty != "EC" || k.Crv != "P-256" || k.Kid == "" || errX != nil || errY != nil {
			continue
		}
		pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
		if pub.Curve.IsOnCurve(pub.X, pub.Y) {
			keys[k.Kid] = pub
		}
	}
	return keys, nil
}

// verifyJWS: the six steps of 5.2, each refusing with false.
func verifyJWS(header string, payload []byte, keys *jwks, arrived time.Time) bool {
	parts := strings.Split(header, ".")
	if len(parts) != 3 {
		return false
	}
	h, p, s := parts[0], parts[1], parts[2]
	raw, err := b64url(h)
	if err != nil {
		return false
	}
	var protected struct {
		Alg *string `json:"alg"`
		Kid *string `json:"kid"`
	}
	// ES256 only (no alg none, no HS256 keyed with the public key); 1) read kid.
	if json.Unmarshal(raw, &protected) != nil || protected.Alg == nil || *protected.Alg != "ES256" ||
		protected.Kid == nil {
		return false
	}
	key := keys.key(*protected.Kid, arrived) // 2) the key of that kid, never another one
	sig, err := b64url(s)
	if key == nil || err != nil || len(sig) != 64 {
		return false
	}
	// 3) JWS carries the raw r||s (64 bytes); ecdsa.VerifyASN1 reads DER: take r and s as numbers.
	digest := sha256.Sum256([]byte(h + "." + p))
	r, sv := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(key, digest[:], r, sv) {
		return false
	}
	signed, err := b64url(p)
	if err != nil {
		return false
	}
	dot := bytes.IndexByte(signed, '.') // 4) the first dot: the body has dots of its own
	if dot < 0 || !digits.Match(signed[:dot]) {
		return false
	}
	t, err := strconv.ParseInt(string(signed[:dot]), 10, 64)
	if err != nil || !inWindow(t) { // 5) both sides of the window
		return false
	}
	return hmac.Equal(signed[dot+1:], payload) // 6) the bytes received
}
