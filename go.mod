module github.com/understudy-dev/understudy

go 1.26

require (
	github.com/chromedp/cdproto v0.160.3 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
)
