package manifests

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// `make image` prints each image as tag@digest ("The same commit builds the same digest"), and a
// platform that pins what it runs deploys by digest, as cert-manager's and Gatekeeper's charts
// allow (image.digest). The chart's schema has repository, tag and pullPolicy only: a digest can
// be given only by smuggling it into the tag.
func TestChartDeploysTheImagesByDigest(t *testing.T) {
	const digest = "sha256:4bf92f3577b34da6a3ce929d0e0e47364bf92f3577b34da6a3ce929d0e0e4736"
	out, err := helmTemplate(t, "toolgate", operatorNamespace, "--set", "manager.image.digest="+digest,
		"--set", "gateway.enabled=true", "--set", "gateway.image.digest="+digest)
	if err != nil {
		t.Fatalf("the chart takes no image digest: %v\n%s", err, out)
	}
	for _, o := range renderChart(t, "--set", "manager.image.digest="+digest, "--set", "gateway.enabled=true",
		"--set", "gateway.image.digest="+digest) {
		if o.GetKind() != "Deployment" {
			continue
		}
		containers, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
		for _, c := range containers {
			image, _ := c.(map[string]any)["image"].(string)
			if !strings.HasSuffix(image, "@"+digest) {
				t.Errorf("%s: image %q does not pin the digest", o.GetName(), image)
			}
		}
	}
}
