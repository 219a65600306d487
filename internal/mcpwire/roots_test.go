//lint:file-ignore SA1019 the roots the MCP client declares are served through the deprecation window (SEP-2577); this tests them

package mcpwire

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestClientRootsAnswer(t *testing.T) {
	cr := &ClientRoots{supported: true}
	if !cr.Needed() {
		t.Fatal("a client with roots that were never asked for does not need asking")
	}
	cr.Answer(&mcp.ListRootsResult{Roots: []*mcp.Root{{URI: "file:///home/u/proj"}, {URI: "https://x/"}, {URI: "file://elsewhere/p"}, {URI: "file:///a/../b"}}})
	got, _ := cr.Roots(context.Background())
	if cr.Needed() || len(got) != 2 || got[0] != "/home/u/proj" || got[1] != "/b" {
		t.Fatalf("roots %v, needed %v", got, cr.Needed())
	}
	cr.Answer(nil) // no answer: go on without roots, do not ask again
	if got, _ := cr.Roots(context.Background()); cr.Needed() || len(got) != 0 {
		t.Fatalf("after no answer: %v", got)
	}
}
