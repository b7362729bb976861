// Package deploy holds the deployment files of rypsok and the tests that
// check them: the container image the release builds (image_test.go), the
// release archives (release_test.go), the systemd unit (systemd_test.go),
// the Kubernetes manifests (kubernetes_test.go) and what watches them: the
// metrics port, the ServiceMonitor and the Grafana dashboard
// (metrics_test.go). It has no code of its own; the files are under
// deploy/systemd, deploy/kubernetes, deploy/grafana and the Dockerfile at
// deploy/Dockerfile.
package deploy
