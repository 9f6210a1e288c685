// argocd-values: the values Argo CD renders an Application's helm source with, found by running
// Argo CD's own repo-server code (reposerver/repository.GenerateManifests, v3.6.1): it turns the
// source into a `helm template` command line (value files resolved against the source path,
// values/valuesObject written to a temporary file, parameters as --set or --set-string,
// fileParameters as --set-file, release name, namespace, --kube-version, --api-versions) and runs
// the helm found on PATH. The chart at the source path is expected to print its .Values as JSON
// (data["values.json"] of a ConfigMap named "values", as writeValuesChart of test/oracles/oracles.ts writes it), so
// what comes back is helm's merge of that command line over the chart's defaults.
//
//	argocd-values --helm /path/to/helm --repo REPO_ROOT [--kube-version 1.37.2] application.yaml
//
// The Application has one source (spec.source), or several (spec.sources): one that renders (the
// chart at REPO_ROOT/<source.path>) and any number that only carry a `ref`, whose files the chart
// source reads as `$ref/path` in helm.valueFiles. Their references are made by Argo CD's own
// util/argo.GetRefSources, as the application controller makes them; every referenced repository is
// checked out at REPO_ROOT (the harness has one repository), registered where the repo-server keeps
// its checkouts. A `$name/...` that no source's ref names is refused as the repo-server refuses it
// before it renders (that check sits in its service, which the oracle does not run). Prints one JSON object on stdout and exits 0:
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
	"github.com/argoproj/argo-cd/v3/util/argo"
	"github.com/argoproj/argo-cd/v3/util/git"
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
	paths := utilio.NewRandomizedTempPaths(os.TempDir())
	var refSources v1alpha1.RefTargetRevisionMapping
	switch {
	case app.Spec.Source != nil && len(app.Spec.Sources) == 0:
		source = *app.Spec.Source
	case len(app.Spec.Sources) > 0:
		rendering := 0
		for _, s := range app.Spec.Sources {
			if s.Ref != "" && s.Path == "" && s.Chart == "" {
				continue
			}
			source = s
			rendering++
		}
		if rendering != 1 {
			fail("%s: the oracle reads one source that renders, beside sources that only carry a ref", file)
		}
		anyRepo := func(_ context.Context, url string, _ string) (*v1alpha1.Repository, error) {
			return &v1alpha1.Repository{Repo: url}, nil
		}
		refSources, err = argo.GetRefSources(context.Background(), app.Spec.Sources, app.Spec.Project, anyRepo, nil)
		if err != nil {
			emit(map[string]any{"ok": false, "error": err.Error()})
			return
		}
		for _, target := range refSources {
			paths.Add(git.NormalizeGitURL(target.Repo.Repo), repoRoot)
		}
		if source.Helm != nil {
			for _, f := range source.Helm.ValueFiles {
				if !strings.HasPrefix(f, "$") {
					continue
				}
				name, _, _ := strings.Cut(f, "/")
				if refSources[name] == nil {
					emit(map[string]any{"ok": false, "error": fmt.Sprintf("source referenced %q, which no source names as its ref", name)})
					return
				}
			}
		}
	default:
		fail("%s: no spec.source or spec.sources", file)
	}

	request := &apiclient.ManifestRequest{
		HasMultipleSources: app.Spec.HasMultipleSources(),
		RefSources:         refSources,
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
		false, nil, resource.MustParse("0"), paths)
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
