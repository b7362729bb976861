package deploy

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations"`
}

type ociIndex struct {
	SchemaVersion int          `json:"schemaVersion"`
	Manifests     []descriptor `json:"manifests"`
}

type ociManifest struct {
	SchemaVersion int          `json:"schemaVersion"`
	MediaType     string       `json:"mediaType"`
	Config        descriptor   `json:"config"`
	Layers        []descriptor `json:"layers"`
}

type ociConfig struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Created      string `json:"created"`
	Config       struct {
		User         string              `json:"User"`
		Env          []string            `json:"Env"`
		Entrypoint   []string            `json:"Entrypoint"`
		Cmd          []string            `json:"Cmd"`
		WorkingDir   string              `json:"WorkingDir"`
		Labels       map[string]string   `json:"Labels"`
		ExposedPorts map[string]struct{} `json:"ExposedPorts"`
	} `json:"config"`
	RootFS struct {
		Type    string   `json:"type"`
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// image is an unpacked image tarball: its blobs by digest.
type image struct {
	index    ociIndex
	manifest ociManifest
	config   ociConfig
	layers   [][]member
}

// openImage reads an image tarball and checks its structure: every blob's
// digest is its content's, the manifest's config and layer descriptors
// (digest, size) match the blobs, the config's diff_ids are the digests of
// the uncompressed layers, and the archive's own headers are fixed.
func openImage(t *testing.T, file string) image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	for _, m := range readTarGz(t, f) {
		if m.uid != 0 || m.gid != 0 || !m.modTime.Equal(time.Unix(0, 0)) {
			t.Errorf("image archive: %s has owner %d:%d and time %v", m.name, m.uid, m.gid, m.modTime)
		}
		if !m.isDir {
			files[m.name] = m.data
		}
	}
	if got := string(files["oci-layout"]); !strings.Contains(got, `"imageLayoutVersion":"1.0.0"`) &&
		!strings.Contains(got, `"imageLayoutVersion": "1.0.0"`) {
		t.Errorf("oci-layout is %q", got)
	}
	blob := func(d descriptor) []byte {
		t.Helper()
		name := "blobs/" + strings.Replace(d.Digest, ":", "/", 1)
		b, ok := files[name]
		if !ok {
			t.Fatalf("%s is not in the image", name)
		}
		if sha(b) != d.Digest {
			t.Fatalf("%s: content digest %s", name, sha(b))
		}
		if int64(len(b)) != d.Size {
			t.Fatalf("%s: size %d, the descriptor says %d", name, len(b), d.Size)
		}
		return b
	}
	for name, b := range files {
		if strings.HasPrefix(name, "blobs/sha256/") && sha(b) != "sha256:"+path.Base(name) {
			t.Errorf("%s: content digest %s", name, sha(b))
		}
	}
	var img image
	if err := json.Unmarshal(files["index.json"], &img.index); err != nil {
		t.Fatalf("index.json: %v", err)
	}
	if len(img.index.Manifests) != 1 {
		t.Fatalf("index.json lists %d manifests, want 1", len(img.index.Manifests))
	}
	if err := json.Unmarshal(blob(img.index.Manifests[0]), &img.manifest); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	if err := json.Unmarshal(blob(img.manifest.Config), &img.config); err != nil {
		t.Fatalf("config: %v", err)
	}
	if len(img.manifest.Layers) == 0 || len(img.manifest.Layers) != len(img.config.RootFS.DiffIDs) {
		t.Fatalf("%d layers and %d diff_ids", len(img.manifest.Layers), len(img.config.RootFS.DiffIDs))
	}
	for i, l := range img.manifest.Layers {
		if l.MediaType != "application/vnd.oci.image.layer.v1.tar+gzip" {
			t.Errorf("layer %d: media type %s", i, l.MediaType)
		}
		gz, err := gzip.NewReader(bytes.NewReader(blob(l)))
		if err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		if _, err := raw.ReadFrom(gz); err != nil {
			t.Fatalf("layer %d: %v", i, err)
		}
		if got := sha(raw.Bytes()); got != img.config.RootFS.DiffIDs[i] {
			t.Errorf("layer %d: uncompressed digest %s, diff_id %s", i, got, img.config.RootFS.DiffIDs[i])
		}
		img.layers = append(img.layers, readTar(t, bytes.NewReader(raw.Bytes())))
	}
	return img
}

// TestImage checks each container image of the release: the user, the
// entrypoint and configuration path, the labels, the root file system (the
// binary, the CA bundle, 65532 in passwd and group, no shell, no package
// manager, every file owned by root with a fixed time) and the digests.
func TestImage(t *testing.T) {
	rel := releaseFiles(t)
	if !rel.images {
		t.Skip("umoci is not installed (apt-get install umoci), so the release built no image to check")
	}
	matches, _ := filepath.Glob(filepath.Join(rel.dir, "rypsok-"+rel.version+"-image-*.tar.gz"))
	if len(matches) == 0 {
		t.Fatal("no image in the release")
	}
	for _, file := range matches {
		arch := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "rypsok-"+rel.version+"-image-"), ".tar.gz")
		t.Run(arch, func(t *testing.T) {
			img := openImage(t, file)
			c := img.config
			if c.OS != "linux" || c.Architecture != arch {
				t.Errorf("platform %s/%s, want linux/%s", c.OS, c.Architecture, arch)
			}
			if c.Created != "1970-01-01T00:00:00Z" {
				t.Errorf("created %q, want the epoch", c.Created)
			}
			if c.Config.User != "65532:65532" {
				t.Errorf("user %q, want 65532:65532", c.Config.User)
			}
			if got := strings.Join(c.Config.Entrypoint, " "); got != "/usr/local/bin/rypsok" {
				t.Errorf("entrypoint %q", got)
			}
			if got := strings.Join(c.Config.Cmd, " "); got != "serve --transport http --config /etc/rypsok/rypsok.toml" {
				t.Errorf("cmd %q", got)
			}
			env := strings.Join(c.Config.Env, "\n")
			if !strings.Contains(env, "RYPSOK_CONFIG=/etc/rypsok/rypsok.toml") {
				t.Errorf("env %q lacks RYPSOK_CONFIG=/etc/rypsok/rypsok.toml", c.Config.Env)
			}
			if _, ok := c.Config.ExposedPorts["8737/tcp"]; !ok {
				t.Errorf("exposed ports %v lack 8737/tcp", c.Config.ExposedPorts)
			}
			for k, want := range map[string]string{
				"org.opencontainers.image.version":  rel.version,
				"org.opencontainers.image.source":   "https://github.com/nabbisen/rypsok",
				"org.opencontainers.image.licenses": "MIT",
			} {
				if got := c.Config.Labels[k]; got != want {
					t.Errorf("label %s = %q, want %q", k, got, want)
				}
			}
			ref := img.index.Manifests[0].Annotations["org.opencontainers.image.ref.name"]
			if ref != "rypsok:"+rel.version+"-"+arch {
				t.Errorf("image name %q, want rypsok:%s-%s", ref, rel.version, arch)
			}

			fs := map[string]member{}
			for _, layer := range img.layers {
				for _, m := range layer {
					name := strings.TrimSuffix(strings.TrimPrefix(path.Clean("/"+m.name), "/"), "/")
					fs[name] = m
					if m.uid != 0 || m.gid != 0 {
						t.Errorf("%s: owner %d:%d, want root", m.name, m.uid, m.gid)
					}
					if !m.modTime.Equal(time.Unix(0, 0)) {
						t.Errorf("%s: time %v, want the epoch", m.name, m.modTime)
					}
					if m.mode&0o002 != 0 && m.name != "tmp/" {
						t.Errorf("%s: writable by everyone (mode %o)", m.name, m.mode)
					}
					base := path.Base(name)
					switch base {
					case "sh", "bash", "dash", "ash", "busybox", "apt", "apt-get", "dpkg", "apk":
						t.Errorf("%s: the image must have no shell and no package manager", m.name)
					}
				}
			}
			bin, ok := fs["usr/local/bin/rypsok"]
			if !ok || bin.mode&0o111 == 0 {
				t.Fatalf("usr/local/bin/rypsok is missing or not executable")
			}
			if want, err := os.ReadFile(filepath.Join(rel.dir, "linux-"+arch, "rypsok")); err == nil && !bytes.Equal(want, bin.data) {
				t.Errorf("the image's binary differs from dist/linux-%s/rypsok", arch)
			}
			if ca := fs["etc/ssl/certs/ca-certificates.crt"]; !bytes.Contains(ca.data, []byte("-----BEGIN CERTIFICATE-----")) {
				t.Errorf("etc/ssl/certs/ca-certificates.crt holds no certificate")
			}
			if d, ok := fs["etc/rypsok"]; !ok || !d.isDir {
				t.Errorf("etc/rypsok/ (where rypsok.toml is mounted) is missing")
			}
			if !bytes.Contains(fs["etc/passwd"].data, []byte(":x:65532:65532:")) {
				t.Errorf("etc/passwd has no entry for 65532: %q", fs["etc/passwd"].data)
			}
			if bytes.Contains(fs["etc/passwd"].data, []byte("/bin/sh")) || bytes.Contains(fs["etc/passwd"].data, []byte("/bin/bash")) {
				t.Errorf("etc/passwd names a shell: %q", fs["etc/passwd"].data)
			}
			if !bytes.Contains(fs["etc/group"].data, []byte(":x:65532:")) {
				t.Errorf("etc/group has no entry for 65532: %q", fs["etc/group"].data)
			}
			if arch == runtime.GOARCH && runtime.GOOS == "linux" {
				dir := t.TempDir()
				f := filepath.Join(dir, "rypsok")
				if err := os.WriteFile(f, bin.data, 0o755); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(f, "--version").CombinedOutput()
				if err != nil || strings.TrimSpace(string(out)) != "rypsok "+rel.version {
					t.Errorf("the image's binary --version: %q, %v", out, err)
				}
			}
		})
	}
}

// TestDockerfile checks the recipe for an image of one's own: a base pinned
// by digest, and nothing but a copy of the release binary: no RUN, no ADD,
// no build stage.
func TestDockerfile(t *testing.T) {
	raw, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var from, copies []string
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "org.") {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		switch strings.ToUpper(word) {
		case "FROM":
			from = append(from, rest)
		case "COPY":
			copies = append(copies, rest)
		case "ARG", "USER", "ENV", "EXPOSE", "ENTRYPOINT", "CMD", "LABEL":
		default:
			t.Errorf("Dockerfile: %q: only FROM, ARG, COPY, USER, ENV, EXPOSE, ENTRYPOINT, CMD and LABEL belong here", line)
		}
	}
	if len(from) != 1 || !strings.HasPrefix(from[0], "gcr.io/distroless/static") {
		t.Fatalf("FROM %q: want one distroless static base", from)
	}
	_, digest, ok := strings.Cut(from[0], "@sha256:")
	if !ok || len(digest) != 64 || strings.Trim(digest, "0123456789abcdef") != "" {
		t.Errorf("FROM %q is not pinned by a sha256 digest", from[0])
	}
	if len(copies) != 1 || copies[0] != "dist/linux-${ARCH}/rypsok /usr/local/bin/rypsok" {
		t.Errorf("COPY %q: want the one release binary", copies)
	}
	for _, want := range []string{"USER 65532:65532", `ENTRYPOINT ["/usr/local/bin/rypsok"]`, "/etc/rypsok/rypsok.toml"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}
