package rsp

import (
	"os"
	"path/filepath"
)

// tempRef writes content to a 0600 file in a new 0700 directory and also
// opens it read-only for descriptor 3.
func tempRef(content string) (string, *os.File, func(), error) {
	dir, err := os.MkdirTemp("", "rsp-")
	if err != nil {
		return "", nil, nil, err
	}
	path := filepath.Join(dir, "content")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, nil, err
	}
	return path, f, func() { f.Close(); os.RemoveAll(dir) }, nil
}
