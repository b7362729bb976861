package deploy

import (
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// get walks a parsed manifest: get(doc, "spec", "template", 0, ...).
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func getString(v any, path ...any) string { s, _ := get(v, path...).(string); return s }
func getList(v any, path ...any) []any    { s, _ := get(v, path...).([]any); return s }

// manifests reads every file of kubernetes/ and returns its objects by kind.
func manifests(t *testing.T) map[string][]map[string]any {
	t.Helper()
	files, err := filepath.Glob("kubernetes/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests under kubernetes/ (%v)", err)
	}
	byKind := map[string][]map[string]any{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := parseYAMLDocuments(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range docs {
			kind := getString(d, "kind")
			if kind == "" || getString(d, "apiVersion") == "" {
				t.Fatalf("%s: an object without apiVersion and kind", f)
			}
			if kind != "Kustomization" {
				if getString(d, "metadata", "name") == "" {
					t.Errorf("%s: %s without a name", f, kind)
				}
				if ns := getString(d, "metadata", "namespace"); kind != "Namespace" && ns != "rypsok" {
					t.Errorf("%s: %s in namespace %q, want rypsok", f, kind, ns)
				}
			}
			byKind[kind] = append(byKind[kind], d)
		}
	}
	for _, kind := range []string{"Namespace", "Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget", "NetworkPolicy", "Kustomization"} {
		if len(byKind[kind]) != 1 {
			t.Errorf("want one %s, have %d", kind, len(byKind[kind]))
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	// The kustomization lists every file.
	var listed []string
	for _, r := range getList(byKind["Kustomization"][0], "resources") {
		listed = append(listed, "kubernetes/"+r.(string))
	}
	var all []string
	for _, f := range files {
		if filepath.Base(f) != "kustomization.yaml" {
			all = append(all, f)
		}
	}
	sort.Strings(listed)
	if strings.Join(listed, " ") != strings.Join(all, " ") {
		t.Errorf("kustomization.yaml lists %v, the directory holds %v", listed, all)
	}
	return byKind
}

// memBytes reads a Kubernetes quantity in Mi or Gi.
func memBytes(t *testing.T, q string) int64 {
	t.Helper()
	for suffix, mult := range map[string]int64{"Mi": 1 << 20, "Gi": 1 << 30} {
		if n, err := strconv.ParseInt(strings.TrimSuffix(q, suffix), 10, 64); err == nil && strings.HasSuffix(q, suffix) {
			return n * mult
		}
	}
	t.Fatalf("memory quantity %q: want Mi or Gi", q)
	return 0
}

// TestKubernetesSecurity checks the Deployment's security fields and the
// objects that go with it.
func TestKubernetesSecurity(t *testing.T) {
	objs := manifests(t)
	dep := objs["Deployment"][0]
	replicas, _ := get(dep, "spec", "replicas").(int)
	if replicas < 2 {
		t.Errorf("replicas %d, want at least 2", replicas)
	}
	labels, _ := get(dep, "spec", "template", "metadata", "labels").(map[string]any)
	selects := func(sel any) bool {
		m, _ := sel.(map[string]any)
		if len(m) == 0 {
			return false
		}
		for k, v := range m {
			if labels[k] != v {
				return false
			}
		}
		return true
	}
	if !selects(get(dep, "spec", "selector", "matchLabels")) {
		t.Errorf("the Deployment's selector does not select its pods")
	}
	pod := get(dep, "spec", "template", "spec")
	if get(pod, "automountServiceAccountToken") != false {
		t.Errorf("automountServiceAccountToken must be false: rypsok talks to no Kubernetes API")
	}
	psc := get(pod, "securityContext")
	if get(psc, "runAsNonRoot") != true || get(psc, "runAsUser") != 65532 || get(psc, "runAsGroup") != 65532 {
		t.Errorf("pod securityContext: runAsNonRoot true, runAsUser and runAsGroup 65532 wanted, have %v", psc)
	}
	if getString(psc, "seccompProfile", "type") != "RuntimeDefault" {
		t.Errorf("pod seccompProfile: want RuntimeDefault")
	}
	containers := getList(pod, "containers")
	if len(containers) != 1 {
		t.Fatalf("%d containers, want 1", len(containers))
	}
	c := containers[0]
	sc := get(c, "securityContext")
	for field, want := range map[string]any{
		"runAsNonRoot": true, "runAsUser": 65532, "readOnlyRootFilesystem": true,
		"allowPrivilegeEscalation": false, "privileged": false,
	} {
		if get(sc, field) != want {
			t.Errorf("container securityContext.%s = %v, want %v", field, get(sc, field), want)
		}
	}
	if drop := getList(sc, "capabilities", "drop"); len(drop) != 1 || drop[0] != "ALL" {
		t.Errorf("capabilities.drop %v, want [ALL]", drop)
	}
	if add := getList(sc, "capabilities", "add"); len(add) != 0 {
		t.Errorf("capabilities.add %v, want none", add)
	}
	if s := getString(sc, "seccompProfile", "type"); s != "RuntimeDefault" && s != "" {
		t.Errorf("container seccompProfile %q", s)
	}
	// The probes ask the metrics listener: /readyz (bound, plugins
	// handshaken, not draining) and /healthz.
	for probe, path := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/healthz"} {
		if getString(c, probe, "httpGet", "path") != path || getString(c, probe, "httpGet", "port") != "metrics" {
			t.Errorf("%s: want httpGet %s on the port metrics, have %v", probe, path, get(c, probe))
		}
	}
	args := getList(c, "args")
	var argv []string
	for _, a := range args {
		argv = append(argv, a.(string))
	}
	if strings.Join(argv, " ") != "serve --transport http --config /etc/rypsok/rypsok.toml" {
		t.Errorf("args %q", argv)
	}

	// Resources: requests at least check's estimate, limits at most the
	// unit's 256 MiB.
	reqMem := memBytes(t, getString(c, "resources", "requests", "memory"))
	limMem := memBytes(t, getString(c, "resources", "limits", "memory"))
	if getString(c, "resources", "requests", "cpu") == "" || getString(c, "resources", "limits", "cpu") == "" {
		t.Errorf("want cpu requests and limits")
	}
	if reqMem > limMem || limMem > 256<<20 {
		t.Errorf("memory request %d and limit %d: want request <= limit <= 256Mi", reqMem, limMem)
	}
	estimate := checkEstimate(t, objs)
	if estimate > 0 && reqMem < estimate {
		t.Errorf("memory request %d MiB is below check's worst case of %d MiB", reqMem>>20, estimate>>20)
	}

	// The configuration and the tokens are mounted read-only, and every
	// token_file of rypsok.toml is a key of the Secret under its mount.
	mounts := map[string]string{}
	for _, m := range getList(c, "volumeMounts") {
		if get(m, "readOnly") != true {
			t.Errorf("volume mount %s is not read-only", getString(m, "mountPath"))
		}
		mounts[getString(m, "name")] = getString(m, "mountPath")
	}
	var tokenDir string
	for _, v := range getList(pod, "volumes") {
		name := getString(v, "name")
		switch {
		case getString(v, "configMap", "name") == getString(objs["ConfigMap"][0], "metadata", "name"):
			if mounts[name] != "/etc/rypsok" {
				t.Errorf("the ConfigMap is mounted at %q, want /etc/rypsok", mounts[name])
			}
		case getString(v, "secret", "secretName") == getString(objs["Secret"][0], "metadata", "name"):
			tokenDir = mounts[name]
			// Root-owned, readable by the group fsGroup and by no other:
			// what rypsok accepts for a token_file it does not own.
			mode, _ := get(v, "secret", "defaultMode").(int)
			if mode&0o037 != 0 || mode&0o040 == 0 || get(psc, "fsGroup") != 65532 {
				t.Errorf("the tokens' mode %04o with fsGroup %v: want 0440 (or 0400) and fsGroup 65532", mode, get(psc, "fsGroup"))
			}
		}
	}
	toml := getString(objs["ConfigMap"][0], "data", "rypsok.toml")
	secretKeys, _ := get(objs["Secret"][0], "stringData").(map[string]any)
	files := regexp.MustCompile(`token_file = "([^"]+)"`).FindAllStringSubmatch(toml, -1)
	if len(files) == 0 {
		t.Errorf("rypsok.toml names no token_file")
	}
	for _, f := range files {
		dir, key := filepath.Dir(f[1]), filepath.Base(f[1])
		if dir != tokenDir || secretKeys[key] == nil {
			t.Errorf("token_file %s is not a key of the Secret mounted at %s", f[1], tokenDir)
		}
	}
	if !strings.Contains(toml, `bind = "0.0.0.0:8737"`) || strings.Contains(toml, "token =") {
		t.Errorf("rypsok.toml: bind 0.0.0.0:8737 and tokens by reference only")
	}

	// The Service and the PodDisruptionBudget select the pods; the budget
	// leaves one to disrupt.
	svc := objs["Service"][0]
	if !selects(get(svc, "spec", "selector")) {
		t.Errorf("the Service does not select the pods")
	}
	pdb := objs["PodDisruptionBudget"][0]
	if !selects(get(pdb, "spec", "selector", "matchLabels")) {
		t.Errorf("the PodDisruptionBudget does not select the pods")
	}
	if min, _ := get(pdb, "spec", "minAvailable").(int); min < 1 || min >= replicas {
		t.Errorf("minAvailable %v with %d replicas", get(pdb, "spec", "minAvailable"), replicas)
	}
}

// TestKubernetesNetworkPolicy evaluates the egress rules on addresses: the
// DNS rule admits port 53 of the cluster DNS alone, and the address blocks
// admit the public Internet and no private, pod, service, node, loopback
// or metadata address.
func TestKubernetesNetworkPolicy(t *testing.T) {
	np := manifests(t)["NetworkPolicy"][0]
	types := getList(np, "spec", "policyTypes")
	hasEgress := false
	for _, ty := range types {
		hasEgress = hasEgress || ty == "Egress"
	}
	if !hasEgress {
		t.Fatalf("policyTypes %v lacks Egress: egress would be unrestricted", types)
	}
	if sel, _ := get(np, "spec", "podSelector", "matchLabels").(map[string]any); len(sel) == 0 {
		t.Errorf("the policy must select rypsok's pods")
	}
	type block struct {
		cidr   netip.Prefix
		except []netip.Prefix
	}
	var blocks []block
	dns := map[string]bool{}
	for _, rule := range getList(np, "spec", "egress") {
		to := getList(rule, "to")
		if len(to) == 0 {
			t.Fatalf("an egress rule without 'to' admits every destination")
		}
		var ports []string
		for _, p := range getList(rule, "ports") {
			ports = append(ports, strconv.Itoa(get(p, "port").(int))+"/"+getString(p, "protocol"))
		}
		if len(ports) == 0 {
			t.Errorf("an egress rule without ports admits every port")
		}
		for _, peer := range to {
			if get(peer, "ipBlock") == nil {
				// A selector peer: only the cluster DNS, on port 53.
				if getString(peer, "podSelector", "matchLabels", "k8s-app") != "kube-dns" ||
					getString(peer, "namespaceSelector", "matchLabels", "kubernetes.io/metadata.name") != "kube-system" {
					t.Errorf("a selector peer other than the cluster DNS: %v", peer)
				}
				for _, p := range ports {
					if !strings.HasPrefix(p, "53/") {
						t.Errorf("the DNS rule admits %s", p)
					}
					dns[p] = true
				}
				continue
			}
			b := block{cidr: netip.MustParsePrefix(getString(peer, "ipBlock", "cidr"))}
			for _, e := range getList(peer, "ipBlock", "except") {
				b.except = append(b.except, netip.MustParsePrefix(e.(string)))
			}
			blocks = append(blocks, b)
			for _, p := range ports {
				if p != "443/TCP" && p != "80/TCP" {
					t.Errorf("the Internet rule admits %s", p)
				}
			}
		}
	}
	if !dns["53/UDP"] || !dns["53/TCP"] {
		t.Errorf("DNS over UDP and TCP port 53 wanted, have %v", dns)
	}
	admitted := func(addr string) bool {
		a := netip.MustParseAddr(addr)
		for _, b := range blocks {
			if !b.cidr.Contains(a) {
				continue
			}
			excepted := false
			for _, e := range b.except {
				excepted = excepted || e.Contains(a)
			}
			if !excepted {
				return true
			}
		}
		return false
	}
	for _, addr := range []string{
		"169.254.169.254", "fd00:ec2::254", "100.100.100.200", // metadata addresses
		"10.96.0.1", "10.244.1.7", "172.20.0.10", "192.168.49.2", // service, pod and node ranges
		"100.64.0.1", "127.0.0.1", "::1", "fe80::1", "fd12:3456::1", "0.0.0.1", "224.0.0.251",
	} {
		if admitted(addr) {
			t.Errorf("egress admits %s", addr)
		}
	}
	for _, addr := range []string{"1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001::200e"} {
		if !admitted(addr) {
			t.Errorf("egress refuses the public address %s", addr)
		}
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binOut  []byte
)

// rypsokBinary builds the command once for the tests of this package.
func rypsokBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no binary is built")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rypsok-deploy-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "rypsok")
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", binPath, "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		binOut, binErr = cmd.CombinedOutput()
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binOut)
	}
	return binPath
}

// checkEstimate runs `rypsok check` on the ConfigMap's rypsok.toml (its
// token files pointed at a temporary token) and returns the worst-case
// memory it prints, or 0 under -short.
func checkEstimate(t *testing.T, objs map[string][]map[string]any) int64 {
	t.Helper()
	if testing.Short() {
		return 0
	}
	bin := rypsokBinary(t)
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("k8s-test-token-0123456789abcdefghijklmnopqrstuv\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	toml := regexp.MustCompile(`token_file = "[^"]+"`).ReplaceAllString(
		getString(objs["ConfigMap"][0], "data", "rypsok.toml"), `token_file = "`+token+`"`)
	cfg := filepath.Join(dir, "rypsok.toml")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "check", "--config", cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("rypsok check on the ConfigMap's rypsok.toml: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`worst case about (\d+) MiB`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("rypsok check printed no memory estimate:\n%s", out)
	}
	if strings.Contains(string(out), "warning: memory") {
		t.Errorf("check warns about memory for the ConfigMap's settings:\n%s", out)
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	t.Logf("rypsok check: worst case about %d MiB", n)
	return n << 20
}

// TestKustomizeBuilds renders the kustomization with kubectl where it is
// installed: a real YAML reader and Kubernetes' own object decoding. (A
// schema validation, kubectl --dry-run=client or kubeconform, needs an API
// server or downloaded schemas, neither of which a test may reach.)
func TestKustomizeBuilds(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed; the manifests are checked by the tests above alone")
	}
	out, err := exec.Command(kubectl, "kustomize", "kubernetes").CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl kustomize: %v\n%s", err, out)
	}
	docs, err := parseYAMLDocuments(string(out))
	if err != nil {
		t.Fatalf("kubectl kustomize printed what the test's reader cannot read: %v", err)
	}
	if len(docs) != 7 {
		t.Errorf("kubectl kustomize rendered %d objects, want 7", len(docs))
	}
}
