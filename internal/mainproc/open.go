package mainproc

import (
	"context"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/svc"
)

// ConnKey names the main-process inspector connection a session holds.
var ConnKey = svc.New[*cdp.Conn]("main-process inspector")

// Opener returns a function that connects to the inspector (on ctx) and
// hands back the connection with its closer, in the shape
// session.Attach takes, so a session can own the connection.
//
// Node keeps a process that is exiting alive while a debugger is attached
// ("Waiting for the debugger to disconnect..."), so a held inspector socket
// would stop the app from quitting or crashing. The connection therefore
// enables Runtime and closes itself when the main context is destroyed
// (Node sends Runtime.executionContextDestroyed as it starts to wait); the
// app then exits and its exit is seen as it is.
func Opener(ctx context.Context, inspector string) func(context.Context) (*cdp.Conn, func() error, error) {
	return func(life context.Context) (*cdp.Conn, func() error, error) {
		conn, err := Connect(ctx, inspector)
		if err != nil {
			return nil, nil, err
		}
		destroyed, unsubscribe := conn.Subscribe("Runtime.executionContextDestroyed")
		if err := conn.Call(ctx, "Runtime.enable", nil, nil); err != nil {
			unsubscribe()
			_ = conn.Close()
			return nil, nil, err
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer unsubscribe()
			select {
			case <-destroyed:
				_ = conn.Close()
			case <-conn.Done():
			case <-life.Done():
			}
		}()
		return conn, func() error {
			err := conn.Close()
			<-done
			return err
		}, nil
	}
}
