package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

func main() {
	ctx := context.Background()
	srv, err := fixture.Serve(ctx)
	must(err)
	br, stop, err := chromiumtest.StartForMain()
	must(err)
	defer stop()
	url := srv.URL("a.test", "/large.html")
	fmt.Println("url", url, "port", br.Port)
	port := strconv.Itoa(br.Port)
	_, err = br.NewPage(ctx, url)
	must(err)
	servers := map[string][]string{
		"us":  {"/work/main/bin/understudy"},
		"pw":  {"node", "/work/main/bench/node_modules/@playwright/mcp/cli.js", "--cdp-endpoint", "http://127.0.0.1:" + port},
		"cdm": {"node", "/work/main/bench/node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js", "--browserUrl", "http://127.0.0.1:" + port, "--no-usage-statistics", "--no-performance-crux"},
	}
	which := os.Args[1]
	args := servers[which]
	c := mcp.NewClient(&mcp.Implementation{Name: "x", Version: "0"}, nil)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	cmd.Dir, _ = os.MkdirTemp("", "explore")
	s, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	must(err)
	defer s.Close()
	tl, err := s.ListTools(ctx, nil)
	must(err)
	for _, t := range tl.Tools {
		b, _ := json.Marshal(t.InputSchema)
		if len(os.Args) > 2 && strings.Contains(os.Args[2], t.Name) {
			fmt.Println(t.Name, ":", t.Description, "\n   ", string(b))
		} else {
			fmt.Print(t.Name, " ")
		}
	}
	fmt.Println()
	for _, call := range os.Args[3:] {
		name, a, _ := strings.Cut(call, " ")
		a = strings.ReplaceAll(strings.ReplaceAll(a, "URL", url), "PORT", port)
		m := map[string]any{}
		if a != "" {
			must(json.Unmarshal([]byte(a), &m))
		}
		t0 := time.Now()
		r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: m})
		fmt.Println("TIME", name, time.Since(t0))
		if err != nil {
			fmt.Println("ERR", err)
			continue
		}
		rb, _ := json.Marshal(r)
		if len(rb) < 3000 {
			fmt.Println("RAW", string(rb))
		}
		for _, ct := range r.Content {
			if tc, ok := ct.(*mcp.TextContent); ok {
				t := tc.Text
				_ = os.WriteFile("/tmp/out-"+which+"-"+name+".txt", []byte(t), 0o644)
				fmt.Printf("== %s isError=%v len=%d\n", name, r.IsError, len(t))
				if len(t) > 2500 {
					t = t[:1500] + "\n...\n" + t[len(t)-1000:]
				}
				fmt.Println(t)
			}
		}
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
