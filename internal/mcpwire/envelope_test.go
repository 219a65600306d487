package mcpwire

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestSuccess(t *testing.T) {
	cases := []struct {
		payload string
		also    []Field
		want    string // the envelope up to _meta
		bad     bool
	}{
		{payload: `{}`, want: `{"ok":true,"_meta"`},
		{payload: ` {"a":1} `, want: `{"ok":true,"a":1,"_meta"`},
		{payload: `{"a":1}`, also: []Field{{"then", map[string]bool{"met": true}}}, want: `{"ok":true,"a":1,"then":{"met":true},"_meta"`},
		{payload: `[1]`, bad: true},
		{payload: ``, bad: true},
	}
	for _, c := range cases {
		r, err := Success([]byte(c.payload), time.Now(), "s1", c.also...)
		if c.bad {
			if errs.As(err) == nil || errs.As(err).Code != errs.Internal {
				t.Errorf("Success(%q) = %v, want INTERNAL", c.payload, err)
			}
			continue
		}
		if err != nil || !strings.HasPrefix(string(r.JSON), c.want) || !strings.HasSuffix(string(r.JSON), `"session_id":"s1"}}`) {
			t.Errorf("Success(%q) = %s, %v; want %s…", c.payload, r.JSON, err, c.want)
		}
		if !json.Valid(r.JSON) || r.IsError || r.SessionID != "s1" {
			t.Errorf("Success(%q) = %+v", c.payload, r)
		}
	}
}

func TestFailed(t *testing.T) {
	b, _ := json.Marshal(Failure{Error: "no", Code: errs.NotRunning, Hint: "wait"})
	r := Failed(b, errs.NotRunning, time.Now(), "")
	var env struct {
		OK   bool      `json:"ok"`
		Code errs.Code `json:"code"`
		Meta *Meta     `json:"_meta"`
	}
	if err := json.Unmarshal(r.JSON, &env); err != nil || env.OK || env.Code != errs.NotRunning || env.Meta == nil || env.Meta.SessionID != "" {
		t.Errorf("Failed = %s (%v)", r.JSON, err)
	}
	if !r.IsError || r.Code != errs.NotRunning || r.Tokens != len(b)/4 {
		t.Errorf("Failed = %+v", r)
	}
}

func TestHostSchema(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
		`"sessionId":{"type":"string"},"timeoutMs":{"type":"integer","description":"wait"},` +
		`"n":{"type":["null","integer"],"description":"long words"},"q":{"type":"string","description":"gone"}}}`)
	got := string(HostSchema(raw, HostSchemaOptions{
		Drop:          []string{"sessionId"},
		DropDescribed: map[string]string{"timeoutMs": "wait"},
		Short:         map[string]string{"long words": "short", "gone": ""},
	}))
	want := `{"properties":{"n":{"description":"short","type":"integer"},"q":{"type":"string"}},"type":"object"}`
	if got != want {
		t.Errorf("HostSchema = %s\nwant %s", got, want)
	}
	if got := string(HostSchema(json.RawMessage(`[1]`), HostSchemaOptions{})); got != `[1]` {
		t.Errorf("HostSchema of a non-object = %s", got)
	}
}

func TestTextContent(t *testing.T) {
	texts := func(cs []mcp.Content) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.(*mcp.TextContent).Text)
		}
		return out
	}
	cases := []struct {
		env, body string
		isError   bool
		want      []string
	}{
		{env: `{"ok":true,"text":"- a\n- b"}`, body: "text", want: []string{"- a\n- b", `{"ok":true}`}},
		{env: `{"ok":true,"then":{"met":true,"diff":"+ x"}}`, want: []string{"+ x", `{"ok":true,"then":{"met":true}}`}},
		{env: `{"ok":true,"text":""}`, body: "text", want: []string{`{"ok":true,"text":""}`}},
		{env: `{"ok":false,"text":"x"}`, body: "text", isError: true, want: []string{`{"ok":false,"text":"x"}`}},
	}
	for _, c := range cases {
		got := texts(TextContent(json.RawMessage(c.env), c.isError, c.body))
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("TextContent(%s) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestRequireBearer(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	cases := []struct {
		token, auth string
		want        int
		challenge   string
	}{
		{token: "", auth: "", want: http.StatusNoContent},
		{token: "t0k", auth: "Bearer t0k", want: http.StatusNoContent},
		{token: "t0k", auth: "bearer  t0k ", want: http.StatusNoContent},
		{token: "t0k", auth: "", want: http.StatusUnauthorized, challenge: `Bearer realm="understudy"`},
		{token: "t0k", auth: "Bearer other", want: http.StatusUnauthorized, challenge: `Bearer realm="understudy", error="invalid_token"`},
		{token: "t0k", auth: "Basic t0k", want: http.StatusUnauthorized, challenge: `Bearer realm="understudy", error="invalid_token"`},
	}
	for _, c := range cases {
		req := httptest.NewRequest("POST", "/mcp", nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		rec := httptest.NewRecorder()
		RequireBearer(c.token, ok).ServeHTTP(rec, req)
		if rec.Code != c.want || rec.Header().Get("WWW-Authenticate") != c.challenge {
			t.Errorf("token %q, Authorization %q: %d %q, want %d %q", c.token, c.auth, rec.Code, rec.Header().Get("WWW-Authenticate"), c.want, c.challenge)
		}
	}
}
