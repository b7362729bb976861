// Command http-floor is the floor against which scripts/bench-http's
// numbers are read, the HTTP twin of scripts/stdio-floor: a net/http server
// on a loopback port that answers every request at once with a fixed
// answer the size of rypsok's engine_status answer, doing nothing else (no
// token, header or body check). It ignores its arguments so that
// bench-http can start it as it starts rypsok, and says where it listens
// in a listening line as rypsok does: go build -o /tmp/http-floor
// ./scripts/http-floor && go run ./scripts/bench-http -bin /tmp/http-floor
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

const answer = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"engines\":[{\"id\":\"wikipedia\",\"latency_ms\":null,\"state\":\"closed\"}],\"notices\":[],\"outcome\":\"ok\"}"}],"structuredContent":{"engines":[{"id":"wikipedia","latency_ms":null,"state":"closed"}],"notices":[],"outcome":"ok"},"isError":false}}` + "\n"

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, `{"event":"listening","address":%q}`+"\n", ln.Addr().String())
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGTERM, os.Interrupt)
		<-c
		os.Exit(0)
	}()
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
}
