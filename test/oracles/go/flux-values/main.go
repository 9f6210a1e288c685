// flux-values: the values Flux's helm-controller hands to helm for a HelmRelease, composed by
// Flux's own code (github.com/fluxcd/pkg/chartutil.ChartValuesFromReferences, the function the
// controller calls) over a fake Kubernetes client that holds the ConfigMaps and Secrets of the
// input files. With --defaults, also the values helm renders from: the chart's defaults coalesced
// under them by helm's own code, as an install or upgrade does.
//
// With --index, also the chart version the release installs (chart.go): the HelmRelease's
// spec.chart.spec.version, or the OCIRepository or HelmChart its spec.chartRef names (found among
// the input files), resolved over the repository's versions as source-controller resolves it with
// Masterminds semver and fluxcd/pkg/version; the defaults are then those of the chart at that
// version. A chart from a GitRepository or Bucket is at the version its Chart.yaml says, read under
// --repo.
//
//	flux-values [--defaults defaults.json | --index index.json [--repo DIR]] file.yaml...
//
// index.json maps each version the chart repository (or OCI registry) holds to the file of that
// chart's defaults: {"0.11.0": "defaults-B.json", ...}.
//
// Every file may hold several YAML documents; exactly one of them is a HelmRelease
// (helm.toolkit.fluxcd.io/v2 or v2beta2). A ConfigMap or Secret without a namespace is taken to be
// in the HelmRelease's namespace ("default" when it has none), as `kubectl apply -f` of the folder
// would place it. A Secret's stringData is folded into data, as the API server does on write.
//
// Prints one JSON object on stdout and exits 0: {"ok":true,"user":{...},"computed":{...}} (with
// --index also "chart":{"version":...,"from":...}) or {"ok":false,"error":"<the controller's error
// text>"} (with "chartError":true when the chart version is what failed). Exits 2 when the input itself cannot be read.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	"github.com/fluxcd/pkg/chartutil"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	"github.com/go-logr/logr"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	helmutil "helm.sh/helm/v4/pkg/chart/common/util"
	corev1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"
)

type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "flux-values: "+format+"\n", args...)
	os.Exit(2)
}

// documents splits a YAML stream into its non-empty documents, each as JSON.
func documents(name string, data []byte) [][]byte {
	var out [][]byte
	reader := utilyaml.NewYAMLReader(bufioReader(data))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			fail("%s: %v", name, err)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			fail("%s: %v", name, err)
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		out = append(out, j)
	}
}

func main() {
	args := os.Args[1:]
	defaultsFile, indexFile, repoRoot := "", "", ""
	for len(args) >= 2 && strings.HasPrefix(args[0], "--") {
		switch args[0] {
		case "--defaults":
			defaultsFile = args[1]
		case "--index":
			indexFile = args[1]
		case "--repo":
			repoRoot = args[1]
		default:
			fail("no option %s", args[0])
		}
		args = args[2:]
	}
	if len(args) == 0 || (defaultsFile != "" && indexFile != "") {
		fail("usage: flux-values [--defaults defaults.json | --index index.json [--repo DIR]] file.yaml...")
	}

	var release *helmv2.HelmRelease
	var objects []client.Object
	var sources []sourceObject
	for _, name := range args {
		data, err := os.ReadFile(name)
		if err != nil {
			fail("%v", err)
		}
		for _, doc := range documents(name, data) {
			var h header
			if err := json.Unmarshal(doc, &h); err != nil {
				fail("%s: %v", name, err)
			}
			switch {
			case h.Kind == "HelmRelease" && (h.APIVersion == "helm.toolkit.fluxcd.io/v2" || h.APIVersion == "helm.toolkit.fluxcd.io/v2beta2"):
				if release != nil {
					fail("more than one HelmRelease in the input")
				}
				// The API server serves v2beta2 objects to the controller as v2 (the CRD converts
				// by rewriting apiVersion only), so both are read into the v2 type.
				release = &helmv2.HelmRelease{}
				if err := json.Unmarshal(doc, release); err != nil {
					fail("%s: HelmRelease: %v", name, err)
				}
			case h.APIVersion == "v1" && h.Kind == "ConfigMap":
				cm := &corev1.ConfigMap{}
				if err := json.Unmarshal(doc, cm); err != nil {
					fail("%s: ConfigMap: %v", name, err)
				}
				objects = append(objects, cm)
			case h.APIVersion == "v1" && h.Kind == "Secret":
				s := &corev1.Secret{}
				if err := json.Unmarshal(doc, s); err != nil {
					fail("%s: Secret: %v", name, err)
				}
				if s.Data == nil {
					s.Data = map[string][]byte{}
				}
				for k, v := range s.StringData {
					s.Data[k] = []byte(v)
				}
				s.StringData = nil
				objects = append(objects, s)
			case h.APIVersion == sourcev1.GroupVersion.String() && h.Kind == sourcev1.OCIRepositoryKind:
				o := &sourcev1.OCIRepository{}
				if err := json.Unmarshal(doc, o); err != nil {
					fail("%s: OCIRepository: %v", name, err)
				}
				sources = append(sources, o)
			case h.APIVersion == sourcev1.GroupVersion.String() && h.Kind == sourcev1.HelmChartKind:
				o := &sourcev1.HelmChart{}
				if err := json.Unmarshal(doc, o); err != nil {
					fail("%s: HelmChart: %v", name, err)
				}
				sources = append(sources, o)
			}
		}
	}
	if release == nil {
		fail("no HelmRelease (helm.toolkit.fluxcd.io/v2 or v2beta2) in the input")
	}
	namespace := release.Namespace
	if namespace == "" {
		namespace = "default"
	}
	for _, o := range objects {
		if o.GetNamespace() == "" {
			o.SetNamespace(namespace)
		}
	}
	for _, o := range sources {
		if o.GetNamespace() == "" {
			o.SetNamespace(namespace)
		}
	}

	var chartOut map[string]any
	if indexFile != "" {
		index := map[string]string{}
		data, err := os.ReadFile(indexFile)
		if err != nil {
			fail("%v", err)
		}
		if err := json.Unmarshal(data, &index); err != nil {
			fail("%s: %v", indexFile, err)
		}
		versions := make([]string, 0, len(index))
		for v := range index {
			versions = append(versions, v)
		}
		sort.Strings(versions)
		version, from, err := chartVersion(release, sources, versions, repoRoot)
		if err != nil {
			emit(map[string]any{"ok": false, "error": err.Error(), "chartError": true})
			return
		}
		chartOut = map[string]any{"version": version, "from": from}
		if defaultsFile = index[version]; defaultsFile == "" {
			// A chart from Git is at its Chart.yaml's version, which the index need not list: the
			// defaults of the index's version of the same major and minor release stand for it.
			defaultsFile = defaultsOfRelease(index, version)
		}
		if defaultsFile == "" {
			emit(map[string]any{"ok": false, "error": fmt.Sprintf("the index has no chart of the major and minor release of version %s", version), "chartError": true})
			return
		}
	}

	kube := fake.NewClientBuilder().WithObjects(objects...).Build()
	user, err := compose(kube, namespace, release)
	if err != nil {
		emit(map[string]any{"ok": false, "error": err.Error()})
		return
	}
	out := map[string]any{"ok": true, "user": map[string]any(user)}
	if chartOut != nil {
		out["chart"] = chartOut
	}
	if defaultsFile != "" {
		data, err := os.ReadFile(defaultsFile)
		if err != nil {
			fail("%v", err)
		}
		defaults := map[string]any{}
		if err := yaml.Unmarshal(data, &defaults); err != nil {
			fail("%s: %v", defaultsFile, err)
		}
		// Coalescing changes the maps it is given: hand it a copy of the user's values.
		var userCopy map[string]any
		raw, _ := json.Marshal(user)
		_ = json.Unmarshal(raw, &userCopy)
		c := &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "values", Version: "0.1.0"}, Values: defaults}
		computed, err := helmutil.CoalesceValues(c, userCopy)
		if err != nil {
			emit(map[string]any{"ok": false, "error": err.Error()})
			return
		}
		out["computed"] = map[string]any(computed)
	}
	emit(out)
}

func emit(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fail("%v", err)
	}
}

func bufioReader(data []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(data)) }

// compose runs the controller's composition. helm's --set parser panics on some paths (a key
// below a value that is not a map); the controller's reconciler recovers such a panic and fails
// the release, so the oracle reports it as a refusal.
func compose(kube client.Client, namespace string, release *helmv2.HelmRelease) (values map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return chartutil.ChartValuesFromReferences(context.Background(), logr.Discard(), kube, namespace,
		release.GetValues(), release.Spec.ValuesFrom...)
}
