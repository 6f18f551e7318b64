// Command embedserver serves store/embedding/embedtest's deterministic
// vectors on a local port for make conformance: OpenClaw indexes and
// searches against it, and so do the Go tests (through httptest), so both
// see the same vectors. Not part of the clawvault-tui binary.
//
// Usage: embedserver [-addr 127.0.0.1:0] [-dims 64] [-raw] [-port-file F]
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"clawvault-tui/store/embedding/embedtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	dims := flag.Int("dims", 64, "vector length")
	raw := flag.Bool("raw", false, "leave vectors unnormalised")
	portFile := flag.String("port-file", "", "write the chosen address here once listening")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	if *portFile != "" {
		if err := os.WriteFile(*portFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Fprintln(os.Stderr, "embedserver on", ln.Addr())
	srv := &embedtest.Server{Embedder: embedtest.Embedder{Dims: *dims, Raw: *raw}}
	log.Fatal(http.Serve(ln, srv))
}
