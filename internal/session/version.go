package session

import "context"

// BrowserVersion is what the browser says it is (Browser.getVersion).
type BrowserVersion struct {
	Protocol  string // DevTools protocol version
	Product   string // Chrome/<version> or HeadlessChrome/<version>
	Revision  string
	UserAgent string // Electron's names Electron/<version> too
	V8        string
}

// BrowserVersion asks the session's browser for its versions.
func (s *Session) BrowserVersion(ctx context.Context) (BrowserVersion, error) {
	var v struct {
		ProtocolVersion string `json:"protocolVersion"`
		Product         string `json:"product"`
		Revision        string `json:"revision"`
		UserAgent       string `json:"userAgent"`
		JsVersion       string `json:"jsVersion"`
	}
	if err := s.Pool.Browser().Call(ctx, "Browser.getVersion", nil, &v); err != nil {
		return BrowserVersion{}, err
	}
	return BrowserVersion{Protocol: v.ProtocolVersion, Product: v.Product, Revision: v.Revision, UserAgent: v.UserAgent, V8: v.JsVersion}, nil
}
