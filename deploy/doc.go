// Package deploy holds the deployment files of rypsok and the tests that
// check them: the container image the release builds (image_test.go), the
// release archives (release_test.go), the systemd unit (systemd_test.go)
// and the Kubernetes manifests (kubernetes_test.go). It has no code of its
// own; the files are under deploy/systemd, deploy/kubernetes and the
// Dockerfile at deploy/Dockerfile.
package deploy
