// kubectl built from its published module, for the cluster suite's prune round trip (the suite
// needs no kubectl on PATH, and tests the one of the Kubernetes version it runs against).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
)

func main() {
	os.Exit(cli.Run(cmd.NewDefaultKubectlCommand()))
}
