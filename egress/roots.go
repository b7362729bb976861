package egress

import (
	"bytes"
	"crypto/x509"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// systemRootFiles are the CA bundles of the common Linux distributions and
// BSDs; the first one that holds a certificate is read.
var systemRootFiles = []string{
	"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Alpine, Gentoo, Arch, distroless
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // Fedora, RHEL, CentOS
	"/etc/pki/tls/certs/ca-bundle.crt",                  // older Fedora and RHEL
	"/etc/ssl/ca-bundle.pem",                            // openSUSE
	"/etc/pki/tls/cacert.pem",                           // OpenELEC
	"/etc/ssl/cert.pem",                                 // Alpine, OpenBSD, FreeBSD
	"/usr/local/etc/ssl/cert.pem",                       // FreeBSD
	"/usr/local/share/certs/ca-root-nss.crt",            // FreeBSD
	"/etc/openssl/certs/ca-certificates.crt",            // NetBSD
}

// systemRootDirs are the certificate directories read in addition to the
// bundle: every file in them, as a local authority may sit only there.
var systemRootDirs = []string{
	"/etc/ssl/certs",
	"/etc/pki/tls/certs",
	"/etc/openssl/certs",
	"/usr/local/share/certs",
	"/system/etc/security/cacerts", // Android
}

// maxRootFileBytes bounds one file of certificates, so that a variable
// naming a device or a huge file cannot exhaust memory at start.
const maxRootFileBytes = 16 << 20

const errRootsPrefix = "the HTTP client could not be built: "

// LoadRoots reads the trust roots: the operating system's store, or, when
// SSL_CERT_FILE or SSL_CERT_DIR is set, only those. No root at all is an
// error ("the HTTP client could not be built"). SSL_CERT_DIR is a
// colon-separated list of directories. A nil getenv reads the process
// environment. The system store is read by this loader from the usual
// Linux and BSD locations, never through x509.SystemCertPool, which would
// read them even when the variables are set.
func LoadRoots(getenv func(string) string) (*x509.CertPool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	return loadRoots(getenv("SSL_CERT_FILE"), getenv("SSL_CERT_DIR"), systemRootFiles, systemRootDirs)
}

// CheckRoots reports, without parsing a certificate, whether LoadRoots can
// be expected to find a root: the file SSL_CERT_FILE names (or a file of
// SSL_CERT_DIR, or the system store when neither is set) exists and holds a
// PEM certificate block. It costs a few file reads, so that a process can
// refuse to start at once on a broken trust configuration and parse the
// roots in the background; LoadRoots remains the judge.
func CheckRoots(getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	certFile, certDirs := getenv("SSL_CERT_FILE"), getenv("SSL_CERT_DIR")
	if certFile != "" || certDirs != "" {
		if certFile != "" {
			ok, err := hasPEMCert(certFile)
			if err != nil {
				return errors.New(errRootsPrefix + "SSL_CERT_FILE names no readable file")
			}
			if ok {
				return nil
			}
		}
		for _, dir := range strings.Split(certDirs, ":") {
			if dir != "" && dirHasPEMCert(dir) {
				return nil
			}
		}
		return errors.New(errRootsPrefix + "SSL_CERT_FILE and SSL_CERT_DIR hold no certificate")
	}
	for _, f := range systemRootFiles {
		if ok, _ := hasPEMCert(f); ok {
			return nil
		}
	}
	for _, dir := range systemRootDirs {
		if dirHasPEMCert(dir) {
			return nil
		}
	}
	return errors.New(errRootsPrefix + "no trust root was found in the system certificate store")
}

var pemCertMarker = []byte("-----BEGIN CERTIFICATE-----")

// openRegular opens path when it is a regular file (never a device or a
// FIFO that could block or never end).
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("egress: not a regular file")
	}
	return os.Open(path)
}

func hasPEMCert(path string) (bool, error) {
	f, err := openRegular(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	// Read in chunks and stop at the first marker: a bundle starts with a
	// certificate, so this is usually one read, not the whole store.
	buf := make([]byte, 32<<10)
	carry := 0
	for read := 0; read < maxRootFileBytes; {
		n, err := f.Read(buf[carry:])
		read += n
		if bytes.Contains(buf[:carry+n], pemCertMarker) {
			return true, nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, err
		}
		// Keep the tail that could hold the start of a marker.
		keep := min(carry+n, len(pemCertMarker)-1)
		copy(buf, buf[carry+n-keep:carry+n])
		carry = keep
	}
	return false, nil
}

func dirHasPEMCert(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if ok, _ := hasPEMCert(filepath.Join(dir, e.Name())); ok {
			return true
		}
	}
	return false
}

func loadRoots(certFile, certDirs string, sysFiles, sysDirs []string) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	found := false
	if certFile != "" || certDirs != "" {
		if certFile != "" {
			ok, err := appendFile(pool, certFile)
			if err != nil {
				return nil, errors.New(errRootsPrefix + "SSL_CERT_FILE names no readable file")
			}
			found = found || ok
		}
		for _, dir := range strings.Split(certDirs, ":") {
			if dir != "" && appendDir(pool, dir) {
				found = true
			}
		}
		if !found {
			return nil, errors.New(errRootsPrefix + "SSL_CERT_FILE and SSL_CERT_DIR hold no certificate")
		}
		return pool, nil
	}
	for _, f := range sysFiles {
		if ok, _ := appendFile(pool, f); ok {
			found = true
			break
		}
	}
	for _, dir := range sysDirs {
		if appendDir(pool, dir) {
			found = true
		}
	}
	if !found {
		return nil, errors.New(errRootsPrefix + "no trust root was found in the system certificate store")
	}
	return pool, nil
}

// appendFile adds the PEM certificates of a regular file to pool and
// reports whether it held any.
func appendFile(pool *x509.CertPool, path string) (bool, error) {
	f, err := openRegular(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := ReadBody(f, maxRootFileBytes)
	if err != nil {
		return false, err
	}
	return pool.AppendCertsFromPEM(data), nil
}

// appendDir adds the certificates of every regular file in dir (not its
// subdirectories). Links to another entry of the same directory, such as
// OpenSSL's hash links, are skipped: their target is read under its own
// name.
func appendDir(pool *x509.CertPool, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	found := false
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				continue
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			if filepath.Dir(filepath.Clean(target)) == filepath.Clean(dir) {
				continue
			}
		}
		if ok, _ := appendFile(pool, path); ok {
			found = true
		}
	}
	return found
}
