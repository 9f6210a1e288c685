// The chart version a HelmRelease installs, decided as Flux decides it, over a chart repository (or
// OCI registry) whose versions are given, with the semver code source-controller uses
// (github.com/Masterminds/semver/v3 constraints, versions read by github.com/fluxcd/pkg/version):
//
//   - spec.chart.spec (helm-controller makes a HelmChart of it) and a HelmChart of a HelmRepository:
//     the version written, if the repository holds exactly that string; else the newest version
//     the constraint admits ("*" when none is written);
//   - an OCIRepository: ref.digest first (the artifact the digest names, whose chart version cannot
//     be known without the registry), then ref.semver (the newest tag it admits among the tags
//     ref.semverFilter keeps), then ref.tag, then the tag "latest";
//   - a chart from a GitRepository or a Bucket: the version in its Chart.yaml (spec.version is
//     ignored for those), read under --repo at the chart's path.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/Masterminds/semver/v3"
	helmv2 "github.com/fluxcd/helm-controller/api/v2"
	"github.com/fluxcd/pkg/version"
	sourcev1 "github.com/fluxcd/source-controller/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// sourceObject is an OCIRepository or a HelmChart read from the input.
type sourceObject interface{ client.Object }

func findSource(sources []sourceObject, kind, name, namespace string) sourceObject {
	for _, s := range sources {
		var k string
		switch s.(type) {
		case *sourcev1.OCIRepository:
			k = sourcev1.OCIRepositoryKind
		case *sourcev1.HelmChart:
			k = sourcev1.HelmChartKind
		}
		if k == kind && s.GetName() == name && s.GetNamespace() == namespace {
			return s
		}
	}
	return nil
}

// chartVersion returns the version and a few words on where it came from.
func chartVersion(release *helmv2.HelmRelease, sources []sourceObject, versions []string, repoRoot string) (string, string, error) {
	if ref := release.Spec.ChartRef; ref != nil {
		ns := ref.Namespace
		if ns == "" {
			ns = release.Namespace
		}
		found := findSource(sources, ref.Kind, ref.Name, ns)
		if found == nil {
			return "", "", fmt.Errorf("chartRef: %s %s/%s not found", ref.Kind, ns, ref.Name)
		}
		switch s := found.(type) {
		case *sourcev1.OCIRepository:
			return ociVersion(s, versions)
		case *sourcev1.HelmChart:
			return chartOfSource(s.Spec.SourceRef.Kind, s.Spec.Chart, s.Spec.Version, versions, repoRoot, "HelmChart spec.version")
		}
	}
	if release.Spec.Chart == nil {
		return "", "", errors.New("neither spec.chart nor spec.chartRef")
	}
	t := release.Spec.Chart.Spec
	return chartOfSource(t.SourceRef.Kind, t.Chart, t.Version, versions, repoRoot, "spec.chart.spec.version")
}

func chartOfSource(kind, chart, expr string, versions []string, repoRoot, from string) (string, string, error) {
	switch kind {
	case sourcev1.GitRepositoryKind, sourcev1.BucketKind:
		if repoRoot == "" {
			return "", "", fmt.Errorf("the chart comes from a %s: its version is its Chart.yaml's (no --repo given)", kind)
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, chart, "Chart.yaml"))
		if err != nil {
			return "", "", fmt.Errorf("the chart comes from a %s: %w", kind, err)
		}
		var meta struct {
			Version string `json:"version"`
		}
		if err := yaml.Unmarshal(data, &meta); err != nil || meta.Version == "" {
			return "", "", fmt.Errorf("the chart comes from a %s: its Chart.yaml has no version", kind)
		}
		return meta.Version, kind + " Chart.yaml", nil
	}
	v, err := newestInIndex(expr, versions)
	return v, from, err
}

// newestInIndex: the version of a chart repository's index that an expression picks.
func newestInIndex(expr string, versions []string) (string, error) {
	for _, v := range versions {
		if expr != "" && v == expr {
			return v, nil
		}
	}
	text := expr
	if text == "" {
		text = "*"
	}
	constraint, err := semver.NewConstraint(text)
	if err != nil {
		return "", fmt.Errorf("version %q: %w", expr, err)
	}
	return newest(constraint, versions, fmt.Sprintf("no chart version matching '%s'", expr))
}

func newest(constraint *semver.Constraints, candidates []string, none string) (string, error) {
	var matched semver.Collection
	for _, c := range candidates {
		v, err := version.ParseVersion(c)
		if err != nil || !constraint.Check(v) {
			continue
		}
		matched = append(matched, v)
	}
	if len(matched) == 0 {
		return "", errors.New(none)
	}
	sort.Sort(sort.Reverse(matched))
	return matched[0].Original(), nil
}

func ociVersion(o *sourcev1.OCIRepository, tags []string) (string, string, error) {
	ref := o.Spec.Reference
	if ref == nil {
		ref = &sourcev1.OCIRepositoryRef{}
	}
	switch {
	case ref.Digest != "":
		return "", "", fmt.Errorf("OCIRepository ref.digest %s: the artifact the digest names decides the chart version, which the registry alone knows", ref.Digest)
	case ref.SemVer != "":
		kept := tags
		if ref.SemverFilter != "" {
			re, err := regexp.Compile(ref.SemverFilter)
			if err != nil {
				return "", "", fmt.Errorf("OCIRepository ref.semverFilter: %w", err)
			}
			kept = nil
			for _, t := range tags {
				if re.MatchString(t) {
					kept = append(kept, t)
				}
			}
		}
		constraint, err := semver.NewConstraint(ref.SemVer)
		if err != nil {
			return "", "", fmt.Errorf("semver '%s' parse error: %w", ref.SemVer, err)
		}
		v, err := newest(constraint, kept, "no match found for semver: "+ref.SemVer)
		return v, "OCIRepository ref.semver", err
	}
	tag := ref.Tag
	if tag == "" {
		tag = "latest"
	}
	// A tag is pulled as written: the chart in it is at the version the tag names, when the
	// registry holds it.
	for _, t := range tags {
		if t == tag {
			return t, "OCIRepository ref.tag", nil
		}
	}
	return "", "", fmt.Errorf("OCIRepository tag %q: not found in the registry", tag)
}

// defaultsOfRelease: the defaults file of an index version of the same major and minor release.
func defaultsOfRelease(index map[string]string, v string) string {
	want, err := semver.NewVersion(v)
	if err != nil {
		return ""
	}
	for k, file := range index {
		if got, err := semver.NewVersion(k); err == nil && got.Major() == want.Major() && got.Minor() == want.Minor() {
			return file
		}
	}
	return ""
}
