package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bookUnit is the network-mode unit of the book's deployment chapter, line
// for line (the IPAddressAllow line, a placeholder there, is checked apart).
var bookUnit = []string{
	"ExecStart=/usr/local/bin/rypsok serve --transport http --config /etc/rypsok/rypsok.toml",
	"LoadCredential=rypsok-mimlys:/etc/credentials/rypsok-mimlys",
	"DynamicUser=yes",
	"NoNewPrivileges=yes",
	"ProtectSystem=strict",
	"ProtectHome=yes",
	"PrivateTmp=yes",
	"PrivateDevices=yes",
	"ProtectKernelTunables=yes",
	"ProtectControlGroups=yes",
	"RestrictAddressFamilies=AF_INET AF_INET6",
	"RestrictNamespaces=yes",
	"LockPersonality=yes",
	"MemoryDenyWriteExecute=yes",
	"SystemCallFilter=@system-service",
	"SystemCallArchitectures=native",
	"CapabilityBoundingSet=",
	"AmbientCapabilities=",
	"UMask=077",
	"MemoryMax=256M",
	"MemorySwapMax=0",
	"TasksMax=64",
	"LimitNOFILE=128",
	"IPAddressDeny=any",
}

const unitFile = "systemd/rypsok.service"

// unitLines returns the [Service] lines of the unit, comments dropped.
func unitLines(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	section := ""
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = line
		case section == "[Service]":
			lines = append(lines, line)
		}
	}
	return lines
}

// TestUnitIsTheBooks checks that every line of the book's unit is in the
// [Service] section, in the book's order, that the allow line admits
// loopback and is explained, and that LimitNOFILE is max_connections + 64.
func TestUnitIsTheBooks(t *testing.T) {
	lines := unitLines(t)
	at := 0
	for _, want := range bookUnit {
		found := false
		for at < len(lines) {
			at++
			if lines[at-1] == want {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: %q is missing or out of the book's order", unitFile, want)
			at = 0
		}
	}
	allow := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "IPAddressAllow=") {
			allow = l
		}
	}
	if allow == "" || !strings.Contains(allow, "127.0.0.0/8") || !strings.Contains(allow, "::1") {
		t.Errorf("%s: IPAddressAllow %q must admit loopback", unitFile, allow)
	}
	raw, _ := os.ReadFile(unitFile)
	if !strings.Contains(string(raw), "<the engines' addresses>") {
		t.Errorf("%s: the comment above IPAddressAllow must say to add the engines' addresses", unitFile)
	}
	if !strings.Contains(string(raw), "max_connections (default 64) + 64") {
		t.Errorf("%s: LimitNOFILE must be explained as max_connections + 64", unitFile)
	}
	if !strings.Contains(string(raw), "/run/credentials/rypsok.service/rypsok-mimlys") {
		t.Errorf("%s: the token_file path of the credential must be shown", unitFile)
	}
}

// TestUnitVerifies runs systemd-analyze verify on the unit, with ExecStart
// pointed at a freshly built binary (verify checks that it is executable).
// It skips when systemd-analyze is not installed.
func TestUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed (apt-get install systemd); the unit is checked by TestUnitIsTheBooks alone")
	}
	bin := rypsokBinary(t)
	dir := t.TempDir()
	raw, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	unit := strings.ReplaceAll(string(raw), "ExecStart=/usr/local/bin/rypsok ", "ExecStart="+bin+" ")
	copyFile := filepath.Join(dir, "rypsok.service")
	if err := os.WriteFile(copyFile, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(analyze, "verify", copyFile)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	// verify also reports on units this machine's own configuration lists
	// (not ours); only lines naming rypsok.service count.
	var ours []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "rypsok") {
			ours = append(ours, line)
		}
	}
	if len(ours) > 0 || (err != nil && len(strings.TrimSpace(string(out))) == 0) {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
	t.Logf("systemd-analyze verify: no finding on rypsok.service (%s)", strings.TrimSpace(string(out)))
}
