package egress

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newRoot returns a self-signed CA certificate and its PEM form.
func newRoot(t *testing.T, name string) (*x509.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func poolOf(certs ...*x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	for _, c := range certs {
		p.AddCert(c)
	}
	return p
}

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

const rootsError = "the HTTP client could not be built"

func TestLoadRootsFromTheVariablesOnly(t *testing.T) {
	dir := t.TempDir()
	a, aPEM := newRoot(t, "root A")
	b, bPEM := newRoot(t, "root B")
	c, cPEM := newRoot(t, "root C")
	fileA := writeFile(t, filepath.Join(dir, "a.pem"), aPEM)
	fileB := writeFile(t, filepath.Join(dir, "sys", "bundle.pem"), bPEM)
	writeFile(t, filepath.Join(dir, "d1", "b.crt"), bPEM)
	writeFile(t, filepath.Join(dir, "d2", "c.pem"), cPEM)
	writeFile(t, filepath.Join(dir, "d2", "readme.txt"), []byte("not a certificate"))
	if err := os.Symlink("c.pem", filepath.Join(dir, "d2", "deadbeef.0")); err != nil {
		t.Fatal(err)
	}
	sysFiles := []string{fileB}
	sysDirs := []string{filepath.Join(dir, "sys")}

	cases := []struct {
		name      string
		file, dir string
		want      *x509.CertPool
	}{
		{"file only", fileA, "", poolOf(a)},
		{"dir only", "", filepath.Join(dir, "d2"), poolOf(c)},
		{"dir list", "", filepath.Join(dir, "d1") + ":" + filepath.Join(dir, "missing") + "::" + filepath.Join(dir, "d2"), poolOf(b, c)},
		{"file and dir", fileA, filepath.Join(dir, "d2"), poolOf(a, c)},
		{"system", "", "", poolOf(b)},
	}
	for _, tc := range cases {
		got, err := loadRoots(tc.file, tc.dir, sysFiles, sysDirs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !got.Equal(tc.want) {
			t.Errorf("%s: the pool holds other roots than expected", tc.name)
		}
	}

	// The exported loader with SSL_CERT_FILE set reads nothing of the
	// machine's own store.
	got, err := LoadRoots(env(map[string]string{"SSL_CERT_FILE": fileA}))
	if err != nil || !got.Equal(poolOf(a)) {
		t.Fatalf("LoadRoots with SSL_CERT_FILE: %v", err)
	}
	got, err = LoadRoots(env(map[string]string{"SSL_CERT_DIR": filepath.Join(dir, "d2")}))
	if err != nil || !got.Equal(poolOf(c)) {
		t.Fatalf("LoadRoots with SSL_CERT_DIR: %v", err)
	}
	t.Setenv("SSL_CERT_FILE", fileA)
	t.Setenv("SSL_CERT_DIR", "")
	got, err = LoadRoots(nil)
	if err != nil || !got.Equal(poolOf(a)) {
		t.Fatalf("LoadRoots(nil) with SSL_CERT_FILE in the environment: %v", err)
	}
}

func TestLoadRootsFailsWithoutARoot(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, filepath.Join(dir, "empty.pem"), []byte("no certificate here\n"))
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	_, bPEM := newRoot(t, "root B")
	good := writeFile(t, filepath.Join(dir, "good.pem"), bPEM)
	cases := []struct {
		name      string
		file, dir string
		sysFiles  []string
		sysDirs   []string
	}{
		{"missing file", filepath.Join(dir, "missing.pem"), "", []string{good}, nil},
		{"missing file beside a good dir", filepath.Join(dir, "missing.pem"), dir, nil, nil},
		{"file without certificate", empty, "", []string{good}, nil},
		{"a directory as the file", dir, "", []string{good}, nil},
		{"a fifo as the file", fifo, "", []string{good}, nil},
		{"missing dirs", "", filepath.Join(dir, "nope") + ":" + filepath.Join(dir, "nope2"), []string{good}, nil},
		{"empty system store", "", "", []string{filepath.Join(dir, "missing.pem"), empty}, []string{filepath.Join(dir, "nope")}},
	}
	for _, c := range cases {
		_, err := loadRoots(c.file, c.dir, c.sysFiles, c.sysDirs)
		if err == nil || !strings.Contains(err.Error(), rootsError) {
			t.Errorf("%s: %v, want %q", c.name, err, rootsError)
			continue
		}
		if strings.Contains(err.Error(), dir) {
			t.Errorf("%s: the error names the path", c.name)
		}
	}
}

// BenchmarkLoadRootsSystem measures the start-up cost of reading the
// machine's own store.
func BenchmarkLoadRootsSystem(b *testing.B) {
	if _, err := LoadRoots(env(nil)); err != nil {
		b.Skip("no system certificate store on this machine")
	}
	for i := 0; i < b.N; i++ {
		LoadRoots(env(nil))
	}
}

func TestCheckRootsAgreesWithLoadRoots(t *testing.T) {
	dir := t.TempDir()
	_, pemBytes := newRoot(t, "check")
	good := writeFile(t, filepath.Join(dir, "good.pem"), pemBytes)
	empty := filepath.Join(dir, "empty.pem")
	os.WriteFile(empty, []byte("no certificate here\n"), 0o600)
	cases := []struct {
		name string
		env  map[string]string
		ok   bool
	}{
		{"a file with a certificate", map[string]string{"SSL_CERT_FILE": good}, true},
		{"a missing file", map[string]string{"SSL_CERT_FILE": filepath.Join(dir, "missing.pem")}, false},
		{"a file without a certificate", map[string]string{"SSL_CERT_FILE": empty}, false},
		{"a directory with a certificate", map[string]string{"SSL_CERT_DIR": dir}, true},
		{"an empty directory", map[string]string{"SSL_CERT_DIR": t.TempDir()}, false},
	}
	for _, c := range cases {
		getenv := func(k string) string { return c.env[k] }
		err := CheckRoots(getenv)
		_, loadErr := LoadRoots(getenv)
		if (err == nil) != c.ok || (loadErr == nil) != c.ok {
			t.Errorf("%s: CheckRoots %v, LoadRoots %v, want ok=%v", c.name, err, loadErr, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "the HTTP client could not be built") {
			t.Errorf("%s: message %q", c.name, err)
		}
	}
}

// TestCheckRootsFindsAMarkerAcrossReads: the marker may straddle the chunks
// CheckRoots reads, or come late in a large file.
func TestCheckRootsFindsAMarkerAcrossReads(t *testing.T) {
	_, pemBytes := newRoot(t, "late")
	for _, pad := range []int{0, 32<<10 - 10, 32<<10 - 27, 32 << 10, 200 << 10} {
		path := writeFile(t, filepath.Join(t.TempDir(), "bundle.pem"), append([]byte(strings.Repeat("#", pad)+"\n"), pemBytes...))
		if ok, err := hasPEMCert(path); !ok || err != nil {
			t.Errorf("pad %d: %v %v", pad, ok, err)
		}
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "none.pem"), []byte(strings.Repeat("-----BEGIN CERT", 5000)))
	if ok, _ := hasPEMCert(path); ok {
		t.Error("no full marker, yet found")
	}
}
