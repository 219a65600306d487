package tool

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// SilenceCancelled wraps a stdio MCP transport so that a cancelled call
// gets no reply (internal/mcpwire).
func SilenceCancelled(t mcp.Transport) mcp.Transport { return mcpwire.SilenceCancelled(t) }

// RPCCodes wraps an MCP transport so that no JSON-RPC error leaves it with
// code 0 (internal/mcpwire).
func RPCCodes(t mcp.Transport) mcp.Transport { return mcpwire.RPCCodes(t) }

// JSONDepth is how deeply b nests (internal/mcpwire).
func JSONDepth(b []byte) int { return mcpwire.JSONDepth(b) }

// DeepValue reads the top-level id of a message nested too deeply to
// decode (internal/mcpwire).
func DeepValue(line []byte) (json.RawMessage, bool) { return mcpwire.DeepValue(line) }
