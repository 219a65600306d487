// Package agentjs runs JavaScript that an agent wrote, in a renderer's main
// world or in Electron's main process: [Run] takes an expression, a function
// body (with return) or a function (called with the JSON arg), awaits
// promises, and maps failures to EVAL_SYNTAX_ERROR, EVAL_RUNTIME_ERROR and
// EVAL_TIMEOUT. Callers decide where (a session and a context id); this
// package only evaluates.
package agentjs
