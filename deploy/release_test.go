package deploy

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// testVersion is the version the tests stamp when they build a release.
const testVersion = "0.0.0-test"

// release is a directory of release files and the version they carry.
type release struct {
	dir, version string
	images       bool // the images were built (umoci was there)
}

var (
	releaseOnce sync.Once
	released    release
	releaseErr  error
	releaseSkip string
)

// releaseFiles returns the release to check: the directory named by
// RYPSOK_RELEASE_DIR (scripts/release.sh sets it to check what it just
// built), else a release of linux/amd64 alone that the test builds into a
// temporary directory with scripts/release.sh, with the image when umoci is
// installed.
func releaseFiles(t *testing.T) release {
	t.Helper()
	releaseOnce.Do(func() {
		if dir := os.Getenv("RYPSOK_RELEASE_DIR"); dir != "" {
			released = release{dir: dir, version: os.Getenv("RYPSOK_RELEASE_VERSION")}
			if released.version == "" {
				releaseErr = fmt.Errorf("RYPSOK_RELEASE_DIR is set but RYPSOK_RELEASE_VERSION is not")
			}
			matches, _ := filepath.Glob(filepath.Join(dir, "rypsok-*-image-*.tar.gz"))
			released.images = len(matches) > 0
			return
		}
		if testing.Short() {
			releaseSkip = "-short: the release build is skipped"
			return
		}
		if runtime.GOOS != "linux" {
			releaseSkip = "scripts/release.sh runs on Linux only"
			return
		}
		if _, err := exec.LookPath("bash"); err != nil {
			releaseSkip = "bash is not installed"
			return
		}
		dir, err := os.MkdirTemp("", "rypsok-release-test-")
		if err != nil {
			releaseErr = err
			return
		}
		images := "1"
		if _, err := exec.LookPath("umoci"); err != nil {
			images = "0" // the image tests skip, saying why
		}
		cmd := exec.Command("bash", "../scripts/release.sh", testVersion)
		cmd.Env = append(os.Environ(),
			"RELEASE_OUT="+filepath.Join(dir, "dist"),
			"RELEASE_PLATFORMS=linux/amd64",
			"RELEASE_IMAGES="+images,
			"RELEASE_SELFCHECK=0",
			"RELEASE_TOOLCHAIN_CHECK=0",
		)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			releaseErr = fmt.Errorf("scripts/release.sh: %v\n%s", err, out.String())
			return
		}
		released = release{dir: filepath.Join(dir, "dist"), version: testVersion, images: images == "1"}
	})
	if releaseSkip != "" {
		t.Skip(releaseSkip)
	}
	if releaseErr != nil {
		t.Fatal(releaseErr)
	}
	return released
}

func TestMain(m *testing.M) {
	code := m.Run()
	if released.dir != "" && os.Getenv("RYPSOK_RELEASE_DIR") == "" {
		os.RemoveAll(filepath.Dir(released.dir))
	}
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// readSums parses SHA256SUMS: "<hex>  <name>" per line.
func readSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 || name == "" || strings.Contains(name, "/") {
			t.Fatalf("SHA256SUMS: malformed line %q", sc.Text())
		}
		if _, dup := sums[name]; dup {
			t.Fatalf("SHA256SUMS names %s twice", name)
		}
		sums[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

func fileSHA256(t *testing.T, file string) string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// member is one entry of an archive.
type member struct {
	name    string
	mode    int64
	uid     int
	gid     int
	modTime time.Time
	data    []byte
	isDir   bool
}

func readTarGz(t *testing.T, r io.Reader) []member {
	t.Helper()
	gz, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	if !gz.ModTime.IsZero() || gz.Name != "" {
		t.Errorf("gzip header carries a name %q or a time %v", gz.Name, gz.ModTime)
	}
	return readTar(t, gz)
}

func readTar(t *testing.T, r io.Reader) []member {
	t.Helper()
	tr := tar.NewReader(r)
	var ms []member
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return ms
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, member{name: h.Name, mode: h.Mode, uid: h.Uid, gid: h.Gid,
			modTime: h.ModTime, data: data, isDir: h.Typeflag == tar.TypeDir})
	}
}

func readZip(t *testing.T, file string) []member {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var ms []member
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, member{name: f.Name, mode: int64(f.Mode().Perm()), modTime: f.Modified,
			data: data, isDir: f.FileInfo().IsDir()})
	}
	return ms
}

// TestReleaseFiles checks every archive SHA256SUMS names: the sum, the
// fixed headers, the layout rypsok-V-OS-ARCH/{rypsok,LICENSE,README.md,
// CHANGELOG.md}, the binary's version (run when it is this machine's
// platform, read with `go version -m` otherwise) and that it is static.
func TestReleaseFiles(t *testing.T) {
	rel := releaseFiles(t)
	sums := readSums(t, rel.dir)
	if len(sums) == 0 {
		t.Fatal("SHA256SUMS names no file")
	}
	entries, err := os.ReadDir(rel.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		if (strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".zip")) && sums[n] == "" {
			t.Errorf("%s is not named in SHA256SUMS", n)
		}
	}
	for name, sum := range sums {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(rel.dir, name)
			if got := fileSHA256(t, file); got != sum {
				t.Fatalf("sha256 %s, SHA256SUMS says %s", got, sum)
			}
			if strings.Contains(name, "-image-") {
				return // TestImage checks the images
			}
			checkArchive(t, rel, name, file)
		})
	}
}

func checkArchive(t *testing.T, rel release, name, file string) {
	base := strings.TrimSuffix(strings.TrimSuffix(name, ".tar.gz"), ".zip")
	platform := strings.TrimPrefix(base, "rypsok-"+rel.version+"-")
	goos, goarch, ok := strings.Cut(platform, "-")
	if !ok || platform == base {
		t.Fatalf("%s: not named rypsok-%s-OS-ARCH", name, rel.version)
	}
	var ms []member
	if strings.HasSuffix(name, ".zip") {
		ms = readZip(t, file)
	} else {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ms = readTarGz(t, f)
	}
	exe := "rypsok"
	if goos == "windows" {
		exe = "rypsok.exe"
	}
	want := []string{base + "/", base + "/CHANGELOG.md", base + "/LICENSE", base + "/README.md", base + "/" + exe}
	var got []string
	var bin []byte
	for i, m := range ms {
		got = append(got, m.name)
		if i > 0 && ms[i-1].name >= m.name {
			t.Errorf("entries out of order: %s before %s", ms[i-1].name, m.name)
		}
		if m.uid != 0 || m.gid != 0 {
			t.Errorf("%s: owner %d:%d, want 0:0", m.name, m.uid, m.gid)
		}
		epoch := time.Unix(0, 0)
		if goos == "windows" {
			epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		if !m.modTime.Equal(epoch) {
			t.Errorf("%s: time %v, want %v", m.name, m.modTime, epoch)
		}
		wantMode := int64(0o644)
		if m.isDir || m.name == base+"/"+exe {
			wantMode = 0o755
		}
		if m.mode&0o7777 != wantMode {
			t.Errorf("%s: mode %o, want %o", m.name, m.mode, wantMode)
		}
		if m.name == base+"/"+exe {
			bin = m.data
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("entries %q, want %q", got, want)
	}
	dir := t.TempDir()
	binFile := filepath.Join(dir, exe)
	if err := os.WriteFile(binFile, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// go version -m reads any platform's binary: the build settings the
	// release promises.
	out, err := exec.Command("go", "version", "-m", binFile).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	info := string(out)
	for _, want := range []string{
		"build\t-trimpath=true",
		"build\tCGO_ENABLED=0",
		"build\tGOOS=" + goos,
		"build\tGOARCH=" + goarch,
	} {
		if !strings.Contains(info, want) {
			t.Errorf("go version -m does not show %q:\n%s", want, info)
		}
	}
	// -trimpath keeps -ldflags out of the build settings, so the version
	// that -X main.version stamped is looked for in the binary itself (and
	// run below where the platform is this machine's).
	if !bytes.Contains(bin, []byte(rel.version)) {
		t.Errorf("the binary does not hold its version %q", rel.version)
	}
	if strings.Contains(info, "vcs.revision") {
		t.Errorf("the binary records the checkout (want -buildvcs=false):\n%s", info)
	}
	if goos == runtime.GOOS && goarch == runtime.GOARCH {
		out, err := exec.Command(binFile, "--version").CombinedOutput()
		if err != nil {
			t.Fatalf("%s --version: %v\n%s", exe, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "rypsok "+rel.version {
			t.Errorf("--version printed %q, want %q", got, "rypsok "+rel.version)
		}
	}
}
