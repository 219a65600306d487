package mainproc

import (
	"context"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// Opener returns a function that connects to the inspector (on ctx) and
// hands back the connection with its closer, in the shape
// session.Attach takes, so a session can own the connection.
func Opener(ctx context.Context, inspector string) func(context.Context) (*cdp.Conn, func() error, error) {
	return func(context.Context) (*cdp.Conn, func() error, error) {
		conn, err := Connect(ctx, inspector)
		if err != nil {
			return nil, nil, err
		}
		return conn, conn.Close, nil
	}
}
