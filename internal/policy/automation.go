package policy

import safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"

// IsDefaultAutomationProfile reports whether ap carries the global-default annotation.
func IsDefaultAutomationProfile(ap *safetyv1alpha1.AutomationProfile) bool {
	return ap.Annotations[safetyv1alpha1.DefaultAutomationProfileAnnotation] == "true"
}
