// kustomize-postrender: a HelmRelease's spec.postRenderers applied to a rendered stream of objects
// by Kustomize's own code (sigs.k8s.io/kustomize/api), set up as Flux's helm-controller sets it up:
// each post-renderer in order is one Kustomization, built in memory, whose only resource is the
// stream so far and which carries that post-renderer's patches (strategic merge or JSON 6902, each
// with its optional target) and images; loading is unrestricted and plugins are off. The labels
// the controller adds afterwards to name the HelmRelease (helm.toolkit.fluxcd.io/name, /namespace)
// are not applied: they are no part of a post-renderer's patches.
//
//	kustomize-postrender helmrelease.yaml rendered.yaml
//
// Prints one JSON object on stdout and exits 0: {"ok":true,"objects":[...]} (in Kustomize's output
// order) or {"ok":false,"error":"<Kustomize's error text>"}. Exits 2 when the input cannot be read.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	fluxkustomize "github.com/fluxcd/pkg/apis/kustomize"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/kustomize/api/krusty"
	kusttypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "kustomize-postrender: "+format+"\n", args...)
	os.Exit(2)
}

// documents splits a YAML stream into its non-empty documents, each as JSON.
func documents(name string, data []byte) [][]byte {
	var out [][]byte
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
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

func readRelease(name string) *helmv2.HelmRelease {
	data, err := os.ReadFile(name)
	if err != nil {
		fail("%v", err)
	}
	var release *helmv2.HelmRelease
	for _, doc := range documents(name, data) {
		var h struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		_ = json.Unmarshal(doc, &h)
		if h.Kind != "HelmRelease" || (h.APIVersion != "helm.toolkit.fluxcd.io/v2" && h.APIVersion != "helm.toolkit.fluxcd.io/v2beta2") {
			continue
		}
		if release != nil {
			fail("%s: more than one HelmRelease", name)
		}
		// v2beta2 objects reach the controller as v2: both are read into the v2 type.
		release = &helmv2.HelmRelease{}
		if err := json.Unmarshal(doc, release); err != nil {
			fail("%s: HelmRelease: %v", name, err)
		}
	}
	if release == nil {
		fail("%s: no HelmRelease (helm.toolkit.fluxcd.io/v2 or v2beta2)", name)
	}
	return release
}

func target(s *fluxkustomize.Selector) *kusttypes.Selector {
	if s == nil {
		return nil
	}
	t := &kusttypes.Selector{Name: s.Name, Namespace: s.Namespace, LabelSelector: s.LabelSelector, AnnotationSelector: s.AnnotationSelector}
	t.Group, t.Version, t.Kind = s.Group, s.Version, s.Kind
	return t
}

// postRender runs one post-renderer's Kustomization over the stream.
func postRender(k *helmv2.Kustomize, stream []byte) ([]byte, error) {
	fs := filesys.MakeFsInMemory()
	const input = "helm-output.yaml"
	if err := fs.WriteFile(input, stream); err != nil {
		return nil, err
	}
	kust := kusttypes.Kustomization{Resources: []string{input}}
	kust.APIVersion, kust.Kind = kusttypes.KustomizationVersion, kusttypes.KustomizationKind
	for _, p := range k.Patches {
		kust.Patches = append(kust.Patches, kusttypes.Patch{Patch: p.Patch, Target: target(p.Target)})
	}
	for _, i := range k.Images {
		kust.Images = append(kust.Images, kusttypes.Image{Name: i.Name, NewName: i.NewName, NewTag: i.NewTag, Digest: i.Digest})
	}
	text, err := json.Marshal(kust)
	if err != nil {
		return nil, err
	}
	if err := fs.WriteFile("kustomization.yaml", text); err != nil {
		return nil, err
	}
	kustomizer := krusty.MakeKustomizer(&krusty.Options{
		LoadRestrictions: kusttypes.LoadRestrictionsNone,
		PluginConfig:     kusttypes.DisabledPluginConfig(),
	})
	resources, err := kustomizer.Run(fs, ".")
	if err != nil {
		return nil, err
	}
	return resources.AsYaml()
}

func main() {
	if len(os.Args) != 3 {
		fail("usage: kustomize-postrender helmrelease.yaml rendered.yaml")
	}
	release := readRelease(os.Args[1])
	stream, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail("%v", err)
	}
	for _, r := range release.Spec.PostRenderers {
		if r.Kustomize == nil {
			continue
		}
		if stream, err = postRender(r.Kustomize, stream); err != nil {
			emit(map[string]any{"ok": false, "error": err.Error()})
			return
		}
	}
	objects := []json.RawMessage{}
	for _, doc := range documents("output", stream) {
		objects = append(objects, doc)
	}
	emit(map[string]any{"ok": true, "objects": objects})
}

func emit(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fail("%v", err)
	}
}
