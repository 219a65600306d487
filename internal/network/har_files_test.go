package network

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

const sideHAR = `{"log":{"version":"1.2","entries":[
 {"request":{"method":"POST","url":"http://a.test/api","postData":{"mimeType":"application/json","_file":"res/req.json"}},
  "response":{"status":200,"headers":[],"content":{"size":7,"mimeType":"application/json","_file":"res/resp.json"}}}]}}`

// TestParseHARSideFiles: Playwright's attached content (_file, for the
// response and the request body) is read through open; a name leaving
// the HAR's folder, or no way to read side files, is HAR_INVALID with the
// JSON path; a missing file keeps its code and says where it was named.
func TestParseHARSideFiles(t *testing.T) {
	files := map[string]string{"res/resp.json": `{"a":1}`, "res/req.json": `{"q":2}`}
	var asked []string
	open := func(name string) ([]byte, error) {
		asked = append(asked, name)
		if b, ok := files[name]; ok {
			return []byte(b), nil
		}
		return nil, errs.New(errs.FileNotFound, "no %s", name)
	}
	a, err := ParseHARFiles([]byte(sideHAR), open)
	if err != nil {
		t.Fatal(err)
	}
	e := a.Lookup("POST", "http://a.test/api", `{"q":2}`)
	if e == nil || string(e.Body) != `{"a":1}` || e.postData != `{"q":2}` || e.Headers["Content-Type"] != "application/json" {
		t.Fatalf("entry: %+v (asked %v)", e, asked)
	}
	_, err = ParseHAR([]byte(sideHAR))
	if e := errs.As(err); e == nil || e.Code != errs.HARInvalid || e.Details["path"] != "$.log.entries[0].response.content._file" {
		t.Fatalf("no side files: %v", err)
	}
	for _, bad := range []string{"../etc/passwd", "/etc/passwd", `res\\x`, ""} {
		doc := `{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"http://a.test/"},"response":{"status":200,"headers":[],"content":{"_file":"` + bad + `"}}}]}}`
		_, err := ParseHARFiles([]byte(doc), open)
		if e := errs.As(err); e == nil || e.Code != errs.HARInvalid || e.Details["path"] != "$.log.entries[0].response.content._file" {
			t.Fatalf("_file %q: %v", bad, err)
		}
	}
	delete(files, "res/resp.json")
	_, err = ParseHARFiles([]byte(sideHAR), open)
	if e := errs.As(err); e == nil || e.Code != errs.FileNotFound || e.Details["har_path"] != "$.log.entries[0].response.content._file" {
		t.Fatalf("missing side file: %v", err)
	}
}
