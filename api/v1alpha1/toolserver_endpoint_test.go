/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1alpha1

import "testing"

func TestAToolServersEndpointIsItsURLOrItsServicesAddress(t *testing.T) {
	for _, c := range []struct {
		spec ToolServerSpec
		want string
	}{
		{ToolServerSpec{URL: "https://tools.example.com/mcp"}, "https://tools.example.com/mcp"},
		{ToolServerSpec{Service: &ToolServerService{Namespace: "mcp-tools", Name: "filesystem"}},
			"http://filesystem.mcp-tools.svc:80/mcp"},
		{ToolServerSpec{Service: &ToolServerService{Namespace: "mcp-tools", Name: "filesystem", Port: 8080, Path: "/v1/mcp"}},
			"http://filesystem.mcp-tools.svc:8080/v1/mcp"},
	} {
		if got := c.spec.Endpoint(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.spec, got, c.want)
		}
	}
}
