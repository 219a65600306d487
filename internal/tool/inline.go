package tool

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	capt "github.com/understudy-dev/understudy/internal/capture"
)

// Screenshots inline: electron_screenshot's answer carries the picture as
// MCP image content beside the file, scaled so a remote model can see it
// within a budget the caller sets (inlineMaxSide).
const (
	defaultInlineSide = 1024
	maxInlineSide     = 8192
)

// inlineImage is the image content of a successful call of a tool whose
// Def says its result's path is an image (Def.Image: electron_screenshot),
// read back from the file it wrote; nil for any other call, when the
// caller asked for none, or when the file cannot be read (the answer then
// stands as it is: the file is what the tool promised).
func (s *Server) inlineImage(name string, raw json.RawMessage, res Result) *mcp.ImageContent {
	if d, ok := s.tools().defs[name]; !ok || !d.Image || res.IsError {
		return nil
	}
	var args struct {
		InlineMaxSide *int `json:"inlineMaxSide"`
	}
	_ = json.Unmarshal(raw, &args)
	side := defaultInlineSide
	if args.InlineMaxSide != nil {
		side = *args.InlineMaxSide
	}
	if side <= 0 {
		return nil
	}
	var out struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(res.JSON, &out) != nil || out.Path == "" {
		return nil
	}
	th, err := capt.ThumbFile(out.Path, side)
	if err != nil {
		s.cfg.Logger.Warn("inline screenshot", "err", err)
		return nil
	}
	return &mcp.ImageContent{Data: th.Data, MIMEType: th.MIMEType}
}
