// The etcd server module keeps replace directives in its go.mod, so it cannot be
// installed with `go install module@version`; this program links the same entry point.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
