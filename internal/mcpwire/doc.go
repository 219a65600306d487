// Package mcpwire is what understudy fixes on the MCP wire, below the
// tools and the dispatcher: a call the client cancelled
// (notifications/cancelled) gets no reply, on stdio (SilenceCancelled) and
// on streamable HTTP (HTTP); no JSON-RPC error leaves with go-sdk's code 0
// (RPCCodes); and a request nested deeper than the JSON decoder takes is
// answered as an invalid request with its id when one can be read
// (JSONDepth, DeepValue). ClientLog sends the server's log records to
// its MCP clients as notifications/message; RootsCache keeps each client's
// roots (file:// folders) until it says they changed.
//
// It also holds the shapes every answer takes, knowing no tool: the
// success and failure envelopes with their _meta (Success, Failure,
// Failed, Result, Meta) and the success envelope's schema
// (EnvelopeSchema); the text content of an answer (TextContent); an input
// schema as tools/list carries it (HostSchema, told by the caller what to
// leave out and shorten); what initialize answers (ServerCapabilities);
// registering the tools at the first request that can need them
// (RegisterOnFirstUse); and the bearer token check of streamable HTTP
// (RequireBearer).
package mcpwire
