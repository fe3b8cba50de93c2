// Command validate checks the Kubernetes manifests in deploy/ against the official API types
// (k8s.io/api): every document must decode strictly — an unknown or misspelt field, or a value of
// the wrong type, is an error — into the Go type of its apiVersion/kind, and a kind we do not know
// is an error too. KEDA's ScaledObject is checked against the fields of keda.sh/v1alpha1 that KEDA
// documents (a local struct: KEDA's Go module drags in a whole controller), and so are the
// Prometheus operator's ServiceMonitor, PodMonitor and PrometheusRule. See docs/decisions/0153.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

type scaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		ScaleTargetRef struct {
			Name       string `json:"name"`
			Kind       string `json:"kind,omitempty"`
			APIVersion string `json:"apiVersion,omitempty"`
		} `json:"scaleTargetRef"`
		PollingInterval  *int32 `json:"pollingInterval,omitempty"`
		CooldownPeriod   *int32 `json:"cooldownPeriod,omitempty"`
		MinReplicaCount  *int32 `json:"minReplicaCount,omitempty"`
		MaxReplicaCount  *int32 `json:"maxReplicaCount,omitempty"`
		IdleReplicaCount *int32 `json:"idleReplicaCount,omitempty"`
		Triggers         []struct {
			Type              string            `json:"type"`
			Name              string            `json:"name,omitempty"`
			Metadata          map[string]string `json:"metadata"`
			AuthenticationRef *struct {
				Name string `json:"name"`
				Kind string `json:"kind,omitempty"`
			} `json:"authenticationRef,omitempty"`
		} `json:"triggers"`
	} `json:"spec"`
}

// The Prometheus operator's kinds (monitoring.coreos.com/v1), with the fields its API reference
// documents that a manifest here may use; like KEDA, a local struct (the operator's Go module
// brings a whole controller). Expressions are checked by promtool (test/foundation/alerts.test.ts).
type relabelConfig struct {
	SourceLabels []string `json:"sourceLabels,omitempty"`
	Separator    *string  `json:"separator,omitempty"`
	TargetLabel  string   `json:"targetLabel,omitempty"`
	Regex        string   `json:"regex,omitempty"`
	Modulus      uint64   `json:"modulus,omitempty"`
	Replacement  *string  `json:"replacement,omitempty"`
	Action       string   `json:"action,omitempty"`
}

type scrapeEndpoint struct {
	Port              string          `json:"port,omitempty"`
	Path              string          `json:"path,omitempty"`
	Scheme            string          `json:"scheme,omitempty"`
	Interval          string          `json:"interval,omitempty"`
	ScrapeTimeout     string          `json:"scrapeTimeout,omitempty"`
	HonorLabels       bool            `json:"honorLabels,omitempty"`
	Relabelings       []relabelConfig `json:"relabelings,omitempty"`
	MetricRelabelings []relabelConfig `json:"metricRelabelings,omitempty"`
}

type namespaceSelector struct {
	Any        bool     `json:"any,omitempty"`
	MatchNames []string `json:"matchNames,omitempty"`
}

type serviceMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		JobLabel          string               `json:"jobLabel,omitempty"`
		TargetLabels      []string             `json:"targetLabels,omitempty"`
		PodTargetLabels   []string             `json:"podTargetLabels,omitempty"`
		Endpoints         []scrapeEndpoint     `json:"endpoints"`
		Selector          metav1.LabelSelector `json:"selector"`
		NamespaceSelector *namespaceSelector   `json:"namespaceSelector,omitempty"`
	} `json:"spec"`
}

type podMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		JobLabel            string               `json:"jobLabel,omitempty"`
		PodTargetLabels     []string             `json:"podTargetLabels,omitempty"`
		PodMetricsEndpoints []scrapeEndpoint     `json:"podMetricsEndpoints"`
		Selector            metav1.LabelSelector `json:"selector"`
		NamespaceSelector   *namespaceSelector   `json:"namespaceSelector,omitempty"`
	} `json:"spec"`
}

type prometheusRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		Groups []struct {
			Name                    string `json:"name"`
			Interval                string `json:"interval,omitempty"`
			Limit                   *int   `json:"limit,omitempty"`
			PartialResponseStrategy string `json:"partial_response_strategy,omitempty"`
			Rules                   []struct {
				Record        string            `json:"record,omitempty"`
				Alert         string            `json:"alert,omitempty"`
				Expr          string            `json:"expr"`
				For           string            `json:"for,omitempty"`
				KeepFiringFor string            `json:"keep_firing_for,omitempty"`
				Labels        map[string]string `json:"labels,omitempty"`
				Annotations   map[string]string `json:"annotations,omitempty"`
			} `json:"rules"`
		} `json:"groups"`
	} `json:"spec"`
}

func target(apiVersion, kind string) (interface{}, bool) {
	switch apiVersion + "/" + kind {
	case "v1/Namespace":
		return &corev1.Namespace{}, true
	case "v1/ConfigMap":
		return &corev1.ConfigMap{}, true
	case "v1/Secret":
		return &corev1.Secret{}, true
	case "v1/Service":
		return &corev1.Service{}, true
	case "apps/v1/Deployment":
		return &appsv1.Deployment{}, true
	case "apps/v1/DaemonSet":
		return &appsv1.DaemonSet{}, true
	case "batch/v1/Job":
		return &batchv1.Job{}, true
	case "autoscaling/v2/HorizontalPodAutoscaler":
		return &autoscalingv2.HorizontalPodAutoscaler{}, true
	case "policy/v1/PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}, true
	case "keda.sh/v1alpha1/ScaledObject":
		return &scaledObject{}, true
	case "monitoring.coreos.com/v1/ServiceMonitor":
		return &serviceMonitor{}, true
	case "monitoring.coreos.com/v1/PodMonitor":
		return &podMonitor{}, true
	case "monitoring.coreos.com/v1/PrometheusRule":
		return &prometheusRule{}, true
	}
	return nil, false
}

func main() {
	failures, docs := 0, 0
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for i, doc := range bytes.Split(data, []byte("\n---")) {
			if len(strings.TrimSpace(stripComments(string(doc)))) == 0 {
				continue
			}
			docs++
			var meta metav1.TypeMeta
			if err := yaml.Unmarshal(doc, &meta); err != nil || meta.APIVersion == "" || meta.Kind == "" {
				fmt.Printf("%s #%d: no apiVersion/kind (%v)\n", file, i+1, err)
				failures++
				continue
			}
			obj, ok := target(meta.APIVersion, meta.Kind)
			if !ok {
				fmt.Printf("%s #%d: unknown kind %s %s\n", file, i+1, meta.APIVersion, meta.Kind)
				failures++
				continue
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				fmt.Printf("%s #%d %s: %v\n", file, i+1, meta.Kind, err)
				failures++
				continue
			}
			fmt.Printf("%s #%d %s: valid\n", file, i+1, meta.Kind)
		}
	}
	fmt.Printf("%d documents, %d invalid\n", docs, failures)
	if failures > 0 || docs == 0 {
		os.Exit(1)
	}
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
