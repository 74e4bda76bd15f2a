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

import (
	"net"
	"strconv"
)

// Endpoint is the upstream server's MCP endpoint: its url, or its service's in-cluster address
// (the defaults of port and path applied, as the API server applies them on create).
func (s *ToolServerSpec) Endpoint() string {
	if s.Service == nil {
		return s.URL
	}
	port, path := s.Service.Port, s.Service.Path
	if port == 0 {
		port = 80
	}
	if path == "" {
		path = "/mcp"
	}
	return "http://" + net.JoinHostPort(s.Service.Name+"."+s.Service.Namespace+".svc", strconv.Itoa(int(port))) + path
}
