package tool

import "testing"

// TestNetworkPopupFirstRequest: a popup opened after capture and a stub
// started is held until both are on it (ADR-033), so its first document
// request is recorded (with the popup's surface) and a stub answers it.
func TestNetworkPopupFirstRequest(t *testing.T) {
	e, s := surfaceEnv(t)
	e.ok("network_capture_start", nil)
	stub := e.ok("network_stub", map[string]any{"urls": []string{"/second.html?stubpop"}, "contentType": "text/html",
		"body": "<!doctype html><title>stubbed popup</title><p>from the stub</p>"})

	popup := e.openPopup(s, "firstreq")
	evs := e.netEvents(map[string]any{"urls": []string{"/second.html?firstreq"}}, "the popup's document request", func(evs []map[string]any) bool {
		return withURL(evs, "?firstreq") != nil
	})
	doc := withURL(evs, "?firstreq")
	if doc["resourceType"] != "Document" || num(doc["status"]) != 200 || doc["surface_id"] != popup["id"] {
		t.Fatalf("the popup's document request: %v (popup %v)", doc, popup["id"])
	}

	stubbed := e.openPopup(s, "stubpop")
	e.use(stubbed)
	if got := e.eval("document.title"); got != "stubbed popup" {
		t.Fatalf("a stub did not answer the popup's first request: title %v", got)
	}
	evs = e.netEvents(map[string]any{"urls": []string{"/second.html?stubpop"}}, "the stubbed popup's document request", func(evs []map[string]any) bool {
		return withURL(evs, "?stubpop") != nil
	})
	if d := withURL(evs, "?stubpop"); d["stubbed"] != stub["id"] || d["resourceType"] != "Document" {
		t.Fatalf("the stubbed popup's document record: %v", d)
	}
	e.ok("network_unstub", nil)
	e.ok("network_capture_stop", nil)
}
