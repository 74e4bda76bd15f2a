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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ToolServerTransport is how the gateway speaks MCP to an upstream server.
// +kubebuilder:validation:Enum=StreamableHTTP
type ToolServerTransport string

// ToolServerTransportStreamableHTTP is MCP's Streamable HTTP transport.
const ToolServerTransportStreamableHTTP ToolServerTransport = "StreamableHTTP"

// ToolServerSessionScope says which calls share an MCP session with an upstream server.
// +kubebuilder:validation:Enum=Call;Shared
type ToolServerSessionScope string

const (
	// ToolServerSessionScopeShared sends the calls of every plan on a small pool of sessions the
	// gateway keeps open.
	ToolServerSessionScopeShared ToolServerSessionScope = "Shared"
	// ToolServerSessionScopeCall opens a session for each call and ends it after the call's answer.
	ToolServerSessionScopeCall ToolServerSessionScope = "Call"
)

// ToolArgumentMap names the keys of an MCP tool's JSON arguments that toolgate's command and path
// rules check, and those it leaves out of the AgentToolCall. Every other key is carried in the
// call's spec.arguments.extra, where a ProjectPolicy's argument rules see it, and is recorded.
// +kubebuilder:validation:XValidation:rule="!has(self.command) || !has(self.treePaths)",message="command and treePaths cannot both be set: a call has one command, and a tool that searches trees gets it from treePaths",fieldPath=".treePaths",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(self.omit) || self.omit.all(k, (!has(self.command) || k != self.command) && (!has(self.cwd) || k != self.cwd) && (!has(self.paths) || !(k in self.paths)) && (!has(self.treePaths) || !(k in self.treePaths)))",message="a key left out of the call (omit) cannot also be its command, cwd, a path or a tree path: the engine would not see it",fieldPath=".omit",reason=FieldValueForbidden
type ToolArgumentMap struct {
	// command is the key of a string argument holding a shell command.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	Command string `json:"command,omitempty"`

	// paths are keys of arguments holding a path (a string) or paths (an array of strings).
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=128
	// +optional
	Paths []string `json:"paths,omitempty"`

	// treePaths are keys of arguments holding a directory (a string) or directories (an array
	// of strings) that the tool searches recursively, reading every file below them (a grep or
	// a find over a tree). The engine judges such a call as the search command
	// `grep -r -e '' -- ROOT...`, the one toolgate-hook gives a coding agent's Grep, so its path
	// and command rules apply to every file of the tree: a search of the project reads its .env,
	// one of /etc reads /etc/shadow. Each root is also checked as a path. An absent or empty
	// root is the call's working directory. A map with treePaths sets no command: the search is
	// the call's command.
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=128
	// +optional
	TreePaths []string `json:"treePaths,omitempty"`

	// cwd is the key of a string argument holding the working directory.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	Cwd string `json:"cwd,omitempty"`

	// workingDirectory is the absolute directory the upstream server resolves a relative path
	// from: its process's working directory, or the root it serves. It is the call's working
	// directory when no cwd argument names one, and what a relative one is resolved from. Without
	// it a relative path is judged from the project's workspace, which the upstream may not share
	// (a relative "etc/shadow" read by a server running in "/"). At most 1024 bytes, as a call's
	// working directory.
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/`
	// +optional
	WorkingDirectory string `json:"workingDirectory,omitempty"`

	// omit are keys of bulk content (a file's new text, a document to index) that the gateway
	// forwards to the upstream server but leaves out of the AgentToolCall, as toolgate-hook does
	// with a coding agent's Write. The call carries each one's digest instead
	// (extra.omitted.<key>, "sha256:" and the hex SHA-256 of its JSON text), so argument rules,
	// the ledger and a ToolApproval see which content it is but not the content; they do not
	// count towards the 16 KiB bound of the call's other arguments, so a large write is decided
	// by its path. Name only keys the upstream treats as data, never one it reads, writes, runs
	// or connects to: what is omitted is not judged.
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=128
	// +optional
	Omit []string `json:"omit,omitempty"`
}

// ServedTool is one registered AgentTool that a ToolServer serves.
type ServedTool struct {
	// agentTool is the name of the AgentTool; the gateway offers the tool to agents under this name.
	// It is an AgentTool's name, lower-case letters, digits, '-' and '.' (the upstream's own
	// spelling, "read_file", goes in upstreamName): a name no AgentTool can have would never be
	// offered.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +required
	AgentTool string `json:"agentTool"`

	// upstreamName is the tool's name on the upstream server. Defaults to agentTool.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	UpstreamName string `json:"upstreamName,omitempty"`

	// arguments names which of the tool's arguments are the command, the paths and the working
	// directory, so the engine's command and path rules apply to it.
	// +optional
	Arguments ToolArgumentMap `json:"arguments,omitzero"`

	// reportsCost says the upstream server states what each call cost in its result's
	// _meta["safety.toolgate.dev/cost"] (US dollars, a decimal string such as "0.25"). When the
	// plan names the gateway as its costReporter, the gateway reports that cost; otherwise, or
	// when the upstream states none, it reports the AgentTool's costPerCall.
	// +optional
	ReportsCost bool `json:"reportsCost,omitempty"`
}

// ToolServerService is an in-cluster Service that serves an upstream MCP server, named as an
// admission webhook's clientConfig.service names one. The gateway speaks plain HTTP to it, at
// http://NAME.NAMESPACE.svc:PORT/PATH; for TLS, give the server's url instead.
type ToolServerService struct {
	// namespace is the Service's namespace.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +required
	Namespace string `json:"namespace"`

	// name is the Service's name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z]([-a-z0-9]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`

	// port is the Service's port the server listens on. Defaults to 80.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +kubebuilder:default=80
	// +optional
	Port int32 `json:"port,omitempty"`

	// path is the server's MCP endpoint on the Service. Defaults to /mcp.
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$`
	// +kubebuilder:default=/mcp
	// +optional
	Path string `json:"path,omitempty"`
}

// ToolServerSpec registers an upstream MCP server behind toolgate-gateway.
// +kubebuilder:validation:XValidation:rule="has(self.url) != has(self.service)",message="exactly one of url and service must be set"
type ToolServerSpec struct {
	// url is the upstream server's MCP endpoint, for example
	// http://filesystem.tools.svc:8080/mcp. Make the gateway the only client that can reach it
	// (docs/gateway.md shows a NetworkPolicy). Exactly one of url and service is set.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.startsWith('http://') || self.startsWith('https://')",message="must be an http or https URL"
	// +optional
	URL string `json:"url,omitempty"`

	// service is the in-cluster Service that serves the upstream server, instead of a url.
	// +optional
	Service *ToolServerService `json:"service,omitempty"`

	// transport is the MCP transport the upstream server speaks. Defaults to StreamableHTTP.
	// +kubebuilder:default=StreamableHTTP
	// +optional
	Transport ToolServerTransport `json:"transport,omitempty"`

	// sessionScope says which calls share an MCP session with the upstream server. Shared, the
	// default (what the gateway did before this field existed, and the cheaper), sends every
	// admitted call, whatever its plan, on a small pool of sessions the gateway keeps open:
	// right for a server that keeps no state per session. Call opens a new session for each
	// call and ends it once the call is answered, so that nothing a server keeps per session (a
	// directory one call changed to, an open transaction, a logged-in browser page, a
	// remembered value) carries from one plan's call into another plan's, nor from one call
	// into the next: set it for any server whose tools keep session state. Each call then also
	// pays the session's handshake (initialize, a tools/list that checks the session's server
	// describes the tool as the call was judged by, and the DELETE that ends it).
	// +kubebuilder:default=Shared
	// +optional
	SessionScope ToolServerSessionScope `json:"sessionScope,omitempty"`

	// tools are the registered AgentTools this server serves. The gateway lists and forwards
	// only these; any other tool the upstream server offers stays hidden.
	// +listType=map
	// +listMapKey=agentTool
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=256
	// +required
	Tools []ServedTool `json:"tools"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=tsrv,categories=toolgate
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.spec.url`
// +kubebuilder:printcolumn:name="Service",type=string,JSONPath=`.spec.service.name`
// +kubebuilder:printcolumn:name="Transport",type=string,JSONPath=`.spec.transport`
// +kubebuilder:printcolumn:name="Sessions",type=string,JSONPath=`.spec.sessionScope`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// ToolServer is an upstream MCP server that toolgate-gateway fronts: every tools/call for one of
// its tools becomes an AgentToolCall, and only admitted calls reach it.
type ToolServer struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec is the registration.
	// +required
	Spec ToolServerSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// ToolServerList contains a list of ToolServer.
type ToolServerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []ToolServer `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &ToolServer{}, &ToolServerList{})
		return nil
	})
}
