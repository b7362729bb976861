// Command stdio-floor is the floor against which scripts/bench-stdio's
// numbers are read: a program that answers every input line at once with a
// fixed line the size of rypsok's tools/list answer, doing nothing else. It
// ignores its arguments so that bench-stdio can start it as it starts
// rypsok: go build -o /tmp/floor ./scripts/stdio-floor &&
// go run ./scripts/bench-stdio -bin /tmp/floor
package main

import (
	"bufio"
	"os"
	"strings"
)

func main() {
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	head := `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":[],"tools":[{"name":"web_search"}],"pad":"`
	answer := head + strings.Repeat("x", 8300-len(head)-4) + `"}}` + "\n"
	for {
		if _, err := r.ReadSlice('\n'); err != nil {
			return
		}
		w.WriteString(answer)
		w.Flush()
	}
}
