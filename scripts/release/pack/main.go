// Command pack writes the release archives with fixed headers, so that two
// runs on two clones of one commit give byte-identical files: entries in
// name order, every time the Unix epoch (zip: 1980-01-01, its earliest),
// owner and group 0 with no names, modes 0755 for directories and
// executables and 0644 for everything else, and gzip with no name and no
// time. It uses the standard library only.
//
//	go run ./scripts/release/pack -o OUT.tar.gz|OUT.zip [-prefix DIR/] [-exec NAME] PATH...
//
// A PATH that is a directory is walked; entries are named relative to the
// PATH's parent (PATH=dir gives dir/..., a file gives its base name), under
// -prefix when set. A file is executable in the archive when its base name
// is listed by -exec (repeatable) or when it has any execute bit.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

type entry struct {
	name string // slash-separated name in the archive; directories end in "/"
	src  string // file on disk; "" for a directory
	exec bool
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	out := flag.String("o", "", "output file: .tar.gz or .zip")
	prefix := flag.String("prefix", "", "directory every entry is put under (ends in /)")
	var execs listFlag
	flag.Var(&execs, "exec", "base name of a file to mark executable (repeatable)")
	indexName := flag.String("index-name", "", "with one PATH, an OCI index.json: name its manifests NAME:TAG for docker load and podman load")
	flag.Parse()
	if *indexName != "" && flag.NArg() == 1 {
		if err := nameIndex(flag.Arg(0), *indexName); err != nil {
			fmt.Fprintln(os.Stderr, "pack:", err)
			os.Exit(1)
		}
		return
	}
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: pack -o OUT.tar.gz|OUT.zip [-prefix DIR/] [-exec NAME] PATH...")
		os.Exit(2)
	}
	entries, err := collect(flag.Args(), *prefix, execs)
	if err == nil {
		switch {
		case strings.HasSuffix(*out, ".tar.gz"):
			err = writeTarGz(*out, entries)
		case strings.HasSuffix(*out, ".zip"):
			err = writeZip(*out, entries)
		default:
			err = fmt.Errorf("%s: the name must end in .tar.gz or .zip", *out)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}

func collect(paths []string, prefix string, execs []string) ([]entry, error) {
	isExec := map[string]bool{}
	for _, e := range execs {
		isExec[e] = true
	}
	seen := map[string]bool{}
	var entries []entry
	add := func(e entry) error {
		if seen[e.name] {
			return fmt.Errorf("%s: named twice", e.name)
		}
		seen[e.name] = true
		entries = append(entries, e)
		return nil
	}
	if prefix != "" {
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		if err := add(entry{name: prefix}); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		base := filepath.Dir(filepath.Clean(p))
		err := filepath.WalkDir(p, func(file string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(base, file)
			if err != nil {
				return err
			}
			name := prefix + filepath.ToSlash(rel)
			switch {
			case d.IsDir():
				return add(entry{name: name + "/"})
			case d.Type().IsRegular():
				info, err := d.Info()
				if err != nil {
					return err
				}
				return add(entry{name: name, src: file, exec: isExec[d.Name()] || info.Mode()&0o111 != 0})
			default:
				return fmt.Errorf("%s: only files and directories are packed", file)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	return entries, nil
}

func mode(e entry) int64 {
	if e.src == "" || e.exec {
		return 0o755
	}
	return 0o644
}

func writeTarGz(out string, entries []entry) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	// gzip.Header left zero: no name, no comment, no modification time.
	tw := tar.NewWriter(gz)
	epoch := time.Unix(0, 0).UTC()
	for _, e := range entries {
		h := &tar.Header{
			Name:    e.name,
			Mode:    mode(e),
			ModTime: epoch,
			Format:  tar.FormatPAX,
		}
		if e.src == "" {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag = tar.TypeReg
			info, err := os.Stat(e.src)
			if err != nil {
				return err
			}
			h.Size = info.Size()
		}
		if len(h.Name) < 100 {
			h.Format = tar.FormatUSTAR
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if e.src != "" {
			if err := copyFile(tw, e.src); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

func writeZip(out string, entries []entry) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	dosEpoch := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		// Modified is written as MS-DOS time and, being non-zero, as an
		// extended timestamp too; both are fixed.
		h.Modified = dosEpoch
		h.SetMode(fs.FileMode(mode(e)))
		if e.src == "" {
			h.SetMode(fs.ModeDir | 0o755)
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if e.src != "" {
			if err := copyFile(w, e.src); err != nil {
				return err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func copyFile(w io.Writer, src string) error {
	r, err := os.Open(src)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}

// nameIndex sets the two name annotations on every manifest of an OCI
// index. encoding/json writes map keys sorted, so the file is reproducible.
func nameIndex(file, ref string) error {
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var index map[string]any
	if err := json.Unmarshal(raw, &index); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	manifests, _ := index["manifests"].([]any)
	if len(manifests) == 0 {
		return fmt.Errorf("%s: no manifests", file)
	}
	for _, m := range manifests {
		desc, ok := m.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: a manifest is not an object", file)
		}
		ann, _ := desc["annotations"].(map[string]any)
		if ann == nil {
			ann = map[string]any{}
		}
		ann["io.containerd.image.name"] = "docker.io/library/" + ref
		ann["org.opencontainers.image.ref.name"] = ref
		desc["annotations"] = ann
	}
	out, err := json.Marshal(index)
	if err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}
