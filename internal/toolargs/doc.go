// Package toolargs decodes a tool call's JSON arguments into the tool's
// typed input, once and strictly (issue 26, point 2). It first takes what
// agents commonly send for what a parameter means (a field spelled as
// results spell it, surface_id for surfaceId; a ref given as a string of
// digits) and refuses an overlong selector; then the strict decode refuses
// an unknown field with BAD_ARGUMENT naming it and the tool's closest
// parameter (did_you_mean), and names the field of a wrong type. It knows
// nothing of the tools themselves: the dispatcher (internal/tool) calls
// Decode with a new value of a tool's input type.
package toolargs
