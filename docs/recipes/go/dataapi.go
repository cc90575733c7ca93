// After an onComplete the host reads every key of serviceKeys over the data API (section 6 rule 8) and
// then validates the records itself. Each handle and key is one path segment, url.PathEscape'd
// (url.QueryEscape is a form encoder: a space becomes "+"). Each key is read on its own goroutine, so
// one failed read stops no other. A read answered 409 or 503 is retried with an exponential back-off;
// 400 and 401 are never retried (section 7): the request or the token is wrong, and retrying does
// not fix it.
package main

import (
	"encoding/json"
	"io"
	"log"
	"math/rand"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	maxAttempts  = 5
	firstBackoff = 250 * time.Millisecond
)

type dataAPI struct {
	baseURL, bearerToken, workspaceKey string
}

// A read that never answers is given up after 10 s, and retried like a 503.
var client = &http.Client{Timeout: 10 * time.Second}

func (api dataAPI) recordURL(configEnd, endUserHandle, serviceKey string) string {
	// How configEnd sits in the path is not shown by the contract: without its leading slash, each segment encoded.
	segments := strings.Split(strings.TrimLeft(configEnd, "/"), "/")
	for i, s := range segments {
		segments[i] = url.PathEscape(s)
	}
	return strings.TrimRight(api.baseURL, "/") + "/api/" + url.PathEscape(api.workspaceKey) + "/endpoints/" +
		strings.Join(segments, "/") + "/data/" + url.PathEscape(endUserHandle) + "/" + url.PathEscape(serviceKey)
}

// readRecord returns one record, or nil when it could not be read (logged).
func (api dataAPI) readRecord(u string) map[string]any {
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		status := 503 // a network error or a timeout is as transient as a 503
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			log.Printf("data API read: %v", err)
			return nil
		}
		req.Header.Set("Authorization", "Bearer "+api.bearerToken)
		req.Header.Set("Accept", "application/json")
		// http.Client answers a 4xx or 5xx without an error: the status decides.
		if res, err := client.Do(req); err == nil {
			status = res.StatusCode
			var record map[string]any
			decoded := status == http.StatusOK && json.NewDecoder(res.Body).Decode(&record) == nil
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if decoded {
				return record // validate the envelope of 2.3 here
			}
		}
		if status != http.StatusConflict && status != http.StatusServiceUnavailable {
			log.Printf("data API read answered %d: not retried", status)
			return nil
		}
		// Exponential, with jitter, so many receivers do not retry in step.
		time.Sleep(time.Duration(float64(firstBackoff<<(attempt-1)) * (0.75 + rand.Float64()/2)))
	}
	log.Printf("data API read still unavailable after %d attempts: reconcile later", maxAttempts)
	return nil
}

// readEveryKey reads each key on its own goroutine; your validation of each record goes there.
func (api dataAPI) readEveryKey(p payload) {
	for _, key := range p.ServiceKeys {
		go func(u string) {
			record := api.readRecord(u)
			// Validate it here: data may be null, problems are in errors and warnings; callbackStatus, not
			// completedAt, tells a draft from a finalized record.
			_ = record
		}(api.recordURL(p.ConfigEnd, p.EndUserHandle, key))
	}
}
