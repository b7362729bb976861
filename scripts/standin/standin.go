// Package standin serves, on loopback and over HTTPS with a certificate it
// makes itself, what the demo and the measurements need from the web: a
// MediaWiki search API answering from fixtures, article pages, a robots.txt,
// and large pages. It is tooling for `make demo` and `make measure-memory`,
// never part of the rypsok binary.
package standin

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Server is a running stand-in.
type Server struct {
	URL      string // https://127.0.0.1:PORT
	CertFile string // the PEM of its certificate, for SSL_CERT_FILE
	srv      *http.Server
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Start listens on addr (e.g. "127.0.0.1:0") with a fresh certificate for
// the given loopback addresses, writes the certificate into dir and serves
// h.
func Start(addr, dir string, ips []net.IP, h http.Handler) (*Server, error) {
	cert, pemBytes, err := selfSigned(ips)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "standin-*.pem")
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(pemBytes); err != nil {
		return nil, err
	}
	f.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ReadHeaderTimeout: 5 * time.Second}
	go srv.ServeTLS(ln, "", "")
	return &Server{URL: "https://" + ln.Addr().String(), CertFile: f.Name(), srv: srv}, nil
}

func selfSigned(ips []net.IP) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := validFrom()
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(now.UnixNano()),
		Subject:               pkix.Name{CommonName: "rypsok stand-in"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           ips,
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pemBytes, nil
}

// Article is one page of the stand-in wiki.
type Article struct {
	Title     string
	Snippet   string // MediaWiki's snippet: HTML with searchmatch spans
	Timestamp string
	HTML      string // the page as the site serves it
}

// Wiki serves a MediaWiki search API over articles, the article pages under
// /wiki/, a robots.txt that disallows /private/, and a private page.
func Wiki(articles []Article) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/w/api.php", func(w http.ResponseWriter, r *http.Request) {
		q := strings.ToLower(r.URL.Query().Get("srsearch"))
		type hit struct {
			NS        int    `json:"ns"`
			Title     string `json:"title"`
			Snippet   string `json:"snippet"`
			Timestamp string `json:"timestamp"`
		}
		hits := []hit{}
		for _, a := range articles {
			for _, word := range strings.Fields(q) {
				if strings.Contains(strings.ToLower(a.Title+" "+a.Snippet), word) {
					hits = append(hits, hit{Title: a.Title, Snippet: a.Snippet, Timestamp: a.Timestamp})
					break
				}
			}
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(map[string]any{
			"batchcomplete": "",
			"query":         map[string]any{"searchinfo": map[string]int{"totalhits": len(hits)}, "search": hits},
		})
	})
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/private/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html><body><p>This page is not for crawlers.</p></body></html>")
	})
	mux.HandleFunc("/wiki/", func(w http.ResponseWriter, r *http.Request) {
		title, _ := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/wiki/"))
		title = strings.ReplaceAll(title, "_", " ")
		for _, a := range articles {
			if a.Title == title {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, a.HTML)
				return
			}
		}
		http.NotFound(w, r)
	})
	return mux
}

// LargePage serves one HTML page of about size bytes: paragraphs of text in
// an article with navigation around it, and a robots.txt allowing it.
func LargePage(size int) http.Handler {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>A large page</title></head><body><nav><a href=\"/\">Home</a></nav><article><h1>A large page</h1>")
	para := "<p>This paragraph is one of many that make the page large enough to measure what parsing it costs, with words of ordinary length and punctuation.</p>\n"
	for b.Len() < size-len("</article></body></html>")-len(para) {
		b.WriteString(para)
	}
	b.WriteString("</article></body></html>")
	page := b.String()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nAllow: /\n") })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	return mux
}
