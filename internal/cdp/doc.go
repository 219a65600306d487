// Package cdp is one Chrome DevTools Protocol connection over a WebSocket.
//
// [Dial] opens a [*Conn] to a browser or target endpoint. The connection
// matches concurrent calls to their replies by id, gives every call a timeout
// (CDP_TIMEOUT), fails every pending call at once with CDP_DISCONNECTED when
// the socket drops, delivers events to subscribers, and carries flattened
// child sessions ([Conn.Session]) whose frames name a sessionId. Both *Conn
// and *Session implement cdproto's cdp.Session, so generated commands run
// through cdproto's cdp.Call. The CDP relay (internal/relay) does not use
// it: it forwards its clients' frames as bytes on sockets of its own
// (docs/adr/017).
//
// One goroutine reads the socket; it is the only writer of the pending-call
// table's replies and it never blocks on a slow subscriber: each
// subscription has a bounded queue (Options.SubscriptionQueue, bytes too);
// when it is full the incoming event is dropped and counted
// ([Conn.Stats]). Replies are never dropped. A flood of events therefore
// delays a reply only by the time to read the frames before it, so
// Options.OnEvent must stay O(1) (docs/adr/014). Close joins it.
package cdp
