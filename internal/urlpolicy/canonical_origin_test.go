package urlpolicy

import (
	"net/netip"
	"strings"
	"testing"
)

// TestCanonical: the spellings Chromium reads as one origin come out as that
// origin (issue 27, point 12); what Chromium would not parse is an error.
func TestCanonical(t *testing.T) {
	const want = "http://127.0.0.1:8080"
	for _, raw := range []string{
		"http://127.0.0.1:8080/", "http://2130706433:8080/", "http://0x7f000001:8080/", "http://0X7F000001:8080/",
		"http://127.1:8080/", "http://127.0.1:8080/", "http://127.0.0.1.:8080/", "http://127.0.0.1:08080/",
		"http://127.0.0.1:0000000008080/", "http://0177.0.0.1:8080/", "http://0x7f.1:8080/", "http://017700000001:8080/",
		"view-source:http://127.0.0.1:8080/", "VIEW-SOURCE:http://2130706433:8080/", "view-source:view-source:http://127.1:8080/",
		" \x00http://127.0.0.1:8080/\x1f ", "ht\ttp://127.0.\n0.1:8080/", "HTTP://127.0.0.1:8080", "http:127.0.0.1:8080",
		`http:\\127.0.0.1:8080\x`, "http:////127.0.0.1:8080", "http://user:pw@127.0.0.1:8080/", `http://127.0.0.1:8080\@evil.example/`,
		"http://%31%32%37.0.0.1:8080/", "http://127.0.0.1%2e:8080/", "http://[::ffff:127.0.0.1]:8080/", "http://[::ffff:7f00:1]:8080/",
		"blob:http://127.0.0.1:8080/uuid", "filesystem:http://2130706433:8080/temporary/x",
		"http://0x7f.0x0.0x0.0x1:8080/",
	} {
		if got, err := CanonicalOrigin(raw); err != nil || got != want {
			t.Errorf("CanonicalOrigin(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for raw, wantOrigin := range map[string]string{
		"http://0x:8080/":              "http://0.0.0.0:8080",
		"http://0:8080/":               "http://0.0.0.0:8080",
		"https://Example.COM:443/a":    "https://example.com",
		"https://example.com.:443/a":   "https://example.com",
		"http://example.com:80":        "http://example.com",
		"ws://a.test:0080/":            "ws://a.test",
		"http://[0:0::1]:8080/":        "http://[::1]:8080",
		"file:///etc/passwd":           "file://",
		"FILE:///etc/passwd":           "file://",
		"data:text/html,x":             "",
		"about:blank":                  "",
		"app://index.html/x":           "app://index.html",
		"http://1.2.3:80/":             "http://1.2.0.3",
		"http://255.255.255.255/":      "http://255.255.255.255",
		"http://4294967295/":           "http://255.255.255.255",
		"http://example.com/%zz":       "http://example.com",
		"http://a.test:8080?q":         "http://a.test:8080",
		"http://a.test#x":              "http://a.test",
		"http://1.2.3.4.example.com/":  "http://1.2.3.4.example.com",
		"http://example.0x1g/":         "http://example.0x1g",
		"view-source:about:blank":      "",
		"blob:null/uuid":               "",
		"http://foo%2Ebar/":            "http://foo.bar",
		"https://xn--n3h.example/":     "https://xn--n3h.example",
		"http://127.0.0.1:65535/":      "http://127.0.0.1:65535",
		"https://127.0.0.1:00000443/x": "https://127.0.0.1",
	} {
		if got, err := CanonicalOrigin(raw); err != nil || got != wantOrigin {
			t.Errorf("CanonicalOrigin(%q) = %q, %v; want %q", raw, got, err, wantOrigin)
		}
	}
	for _, bad := range []string{
		"http://4294967296/", "http://256.0.0.1/", "http://1.2.3.4.5/", "http://0x100000000/", "http://1.08/",
		"http://0x7g.0.0.1/", "http://127.0.0.1:65536/", "http://127.0.0.1:8o80/", "http://127.0.0.1:-1/",
		"http://", "http:///", "http://a b/", "http://a%20b/", "http://a%zzb/", "http://[::1/", "http://[::1]x/",
		"http://１２７.0.0.1/", "http://𝟏𝟐𝟕.0.0.1/", "http://ex\u00e4mple.com/", "view-source:http://0x100000000/",
		"http://a<b/", "http://[fe80::1%25eth0]/", "file://host:80/x", "not a url", "",
	} {
		if got, err := CanonicalOrigin(bad); err == nil {
			t.Errorf("CanonicalOrigin(%q) = %q, want an error", bad, got)
		}
	}
}

// TestOriginsCanonical: a blocked origin stays blocked in every spelling,
// and a listed one is allowed in every spelling; an unparsable URL is
// refused while a policy is set.
func TestOriginsCanonical(t *testing.T) {
	blocked, err := ParseOrigins("http://127.0.0.1:8080")
	if err != nil {
		t.Fatal(err)
	}
	o := Origins{Blocked: blocked}
	for _, raw := range []string{
		"http://2130706433:8080/", "http://0x7f000001:8080/", "http://127.1:8080/", "http://127.0.0.1.:8080/",
		"http://127.0.0.1:08080/", "view-source:http://127.0.0.1:8080/", `http://127.0.0.1:8080\@evil.example/`,
		"http://[::ffff:127.0.0.1]:8080/", "http://１２７.0.0.1:8080/", "http://0x100000000:8080/",
	} {
		if o.Check(raw) == "" {
			t.Errorf("Check(%q) allowed a blocked origin", raw)
		}
	}
	if why := o.Check("http://127.0.0.1:8081/"); why != "" {
		t.Errorf("another port refused: %s", why)
	}
	// The operator may spell the entry any way too.
	allowed, err := ParseOrigins("http://0x7f000001:08080")
	if err != nil || len(allowed) != 1 || allowed[0] != "http://127.0.0.1:8080" {
		t.Fatalf("ParseOrigins: %v %v", allowed, err)
	}
	if why := (Origins{Allowed: allowed}).Check("http://127.1:8080/x"); why != "" {
		t.Errorf("allowed origin refused: %s", why)
	}
	if (Origins{}).Check("http://0x100000000/") != "" {
		t.Error("no policy, yet a URL was refused")
	}
}

// FuzzCanonical: Canonical never panics; what it returns is canonical
// (parsing it again gives the same URL) and its origin is stable; an IPv4
// host is written dotted-decimal.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		"http://127.0.0.1:8080/", "http://2130706433:8080/", "http://0x7f000001:8080/", "http://127.1:8080/",
		"http://127.0.0.1.:8080/", "http://127.0.0.1:08080/", "view-source:http://127.0.0.1:8080/", "blob:http://a.test/x",
		`http:\\a.test\@b.test`, "http://[::ffff:127.0.0.1]/", "http://%31%32%37.1/", "file:///x", "data:,x", "about:blank",
		"http://0x/", "http://1.2.3.4.5/", "http://a.test:99999/", "chrome://quit", " \t\x00http://a", "http://u@v@w/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Canonical(raw)
		o1, oerr := CanonicalOrigin(raw)
		if err != nil {
			if oerr == nil {
				t.Fatalf("Canonical(%q) failed (%v) but CanonicalOrigin = %q", raw, err, o1)
			}
			return
		}
		switch u.Scheme {
		case "http", "https", "ws", "wss", "ftp", "file", "view-source":
			// The special schemes are canonical: parsing the result again
			// gives it back. (Other schemes are passed as url.Parse reads
			// them; only their scheme and host matter to a policy.)
			again, err := Canonical(u.String())
			if err != nil {
				t.Fatalf("Canonical(%q) = %q, which does not parse again: %v", raw, u, err)
			}
			if again.String() != u.String() {
				t.Fatalf("Canonical(%q) = %q, again %q", raw, u, again)
			}
		}
		if oerr != nil {
			return // the inner URL of a wrapper may fail where the wrapper does not
		}
		o2, err := CanonicalOrigin(o1)
		if o1 != "" && o1 != "file://" && (err != nil || o2 != o1) {
			t.Fatalf("CanonicalOrigin(%q) = %q, and of that %q (%v)", raw, o1, o2, err)
		}
		if a, err := netip.ParseAddr(u.Hostname()); err == nil && a.Is4() && a.String() != u.Hostname() {
			t.Fatalf("Canonical(%q) host %q is not dotted-decimal", raw, u.Hostname())
		}
		if strings.ContainsAny(u.Host, " \t\n\r\x00") {
			t.Fatalf("Canonical(%q) host %q holds a space or control", raw, u.Host)
		}
	})
}

// TestParseOriginsSaysWhy: an entry the canonical parser refuses says why
// (a non-ASCII host must be given in its punycode form).
func TestParseOriginsSaysWhy(t *testing.T) {
	_, err := ParseOrigins("https://bücher.example")
	if err == nil || !strings.Contains(err.Error(), "punycode") {
		t.Fatalf("ParseOrigins of an IDN: %v", err)
	}
	if o, err := ParseOrigins("https://xn--bcher-kva.example"); err != nil || o[0] != "https://xn--bcher-kva.example" {
		t.Fatalf("ParseOrigins of the punycode form: %v %v", o, err)
	}
}
