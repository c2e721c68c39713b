//go:build tools

// Package tools names the commands this module builds, so that `go mod tidy` keeps their
// dependencies (scripts/k8s-api.sh builds them with `go build`).
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
