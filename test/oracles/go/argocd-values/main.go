// argocd-values: the values Argo CD renders an Application's helm source with, found by running
// Argo CD's own repo-server code (reposerver/repository.GenerateManifests, v3.6.1): it turns the
// source into a `helm template` command line (value files resolved against the source path,
// values/valuesObject written to a temporary file, parameters as --set or --set-string,
// fileParameters as --set-file, release name, namespace, --kube-version, --api-versions) and runs
// the helm found on PATH. The chart at the source path is expected to print its .Values as JSON
// (data["values.json"] of a ConfigMap named "values", as test/oracles/argocd.ts writes it), so
// what comes back is helm's merge of that command line over the chart's defaults.
//
//	argocd-values --helm /path/to/helm --repo REPO_ROOT [--kube-version 1.37.2] application.yaml
//
// The Application has one source (spec.source, or spec.sources with one element); the chart is
// at REPO_ROOT/<source.path>. Prints one JSON object on stdout and exits 0:
// {"ok":true,"computed":{...},"command":"helm template ..."} or {"ok":false,"error":"..."}.
// Exits 2 when the input cannot be read.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/reposerver/apiclient"
	"github.com/argoproj/argo-cd/v3/reposerver/repository"
	utilio "github.com/argoproj/argo-cd/v3/util/io"
	log "github.com/sirupsen/logrus"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "argocd-values: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	log.SetLevel(log.ErrorLevel)
	helm, repoRoot, kubeVersion, file := "", "", "1.37.2", ""
	args := os.Args[1:]
	for len(args) > 0 {
		switch {
		case args[0] == "--helm" && len(args) > 1:
			helm, args = args[1], args[2:]
		case args[0] == "--repo" && len(args) > 1:
			repoRoot, args = args[1], args[2:]
		case args[0] == "--kube-version" && len(args) > 1:
			kubeVersion, args = args[1], args[2:]
		case file == "" && !strings.HasPrefix(args[0], "--"):
			file, args = args[0], args[1:]
		default:
			fail("usage: argocd-values --helm HELM --repo REPO_ROOT [--kube-version V] application.yaml")
		}
	}
	if helm == "" || repoRoot == "" || file == "" {
		fail("usage: argocd-values --helm HELM --repo REPO_ROOT [--kube-version V] application.yaml")
	}
	// The repo-server runs the `helm` it finds on PATH.
	abs, err := filepath.Abs(helm)
	if err != nil {
		fail("%v", err)
	}
	if err := os.Setenv("PATH", filepath.Dir(abs)+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		fail("%v", err)
	}
	if repoRoot, err = filepath.Abs(repoRoot); err != nil {
		fail("%v", err)
	}

	data, err := os.ReadFile(file)
	if err != nil {
		fail("%v", err)
	}
	var app v1alpha1.Application
	if err := yaml.Unmarshal(data, &app); err != nil {
		fail("%s: %v", file, err)
	}
	if app.APIVersion != "argoproj.io/v1alpha1" || app.Kind != "Application" {
		fail("%s: not an Application of argoproj.io/v1alpha1", file)
	}
	var source v1alpha1.ApplicationSource
	switch {
	case app.Spec.Source != nil:
		source = *app.Spec.Source
	case len(app.Spec.Sources) == 1:
		source = app.Spec.Sources[0]
	default:
		fail("%s: the oracle reads one source (spec.source, or spec.sources with one element)", file)
	}

	request := &apiclient.ManifestRequest{
		Repo:              &v1alpha1.Repository{Repo: source.RepoURL},
		Revision:          source.TargetRevision,
		AppName:           app.Name,
		Namespace:         app.Spec.Destination.Namespace,
		ApplicationSource: &source,
		KubeVersion:       kubeVersion,
		ProjectName:       app.Spec.Project,
	}
	appPath := filepath.Join(repoRoot, source.Path)
	response, err := repository.GenerateManifests(context.Background(), appPath, repoRoot, source.TargetRevision, request,
		false, nil, resource.MustParse("0"), utilio.NewRandomizedTempPaths(os.TempDir()))
	if err != nil {
		emit(map[string]any{"ok": false, "error": err.Error()})
		return
	}
	command := strings.Join(response.Commands, "\n")
	for _, m := range response.Manifests {
		var obj struct {
			Kind     string            `json:"kind"`
			Metadata struct{ Name string } `json:"metadata"`
			Data     map[string]string `json:"data"`
		}
		if err := json.Unmarshal([]byte(m), &obj); err != nil {
			fail("a manifest helm printed: %v", err)
		}
		if obj.Kind != "ConfigMap" || obj.Metadata.Name != "values" {
			continue
		}
		emit(map[string]any{"ok": true, "computed": json.RawMessage(obj.Data["values.json"]), "command": command})
		return
	}
	fail("helm printed no ConfigMap named values: is the chart at %s the one that prints its values? (%s)", appPath, command)
}

func emit(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fail("%v", err)
	}
}
