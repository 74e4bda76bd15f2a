package ledger

import (
	"encoding/json"
	"strings"
	"testing"
)

// Second review of ledger29: a program field the agent adds beside the command it runs decides
// how that command's arguments are read. Each row's want is what main records.
func TestReview2DecoyProgramFieldsHideNoEvidence(t *testing.T) {
	r := newRedactor(nil, 1<<20)
	for _, tt := range []struct{ name, in, want string }{
		// More than maxProgramReadings decoy programs: the arguments field is hidden whole.
		{"nine decoy programs hide a list of arguments whole",
			`{"command":"rm","args":["-rf","/data"],"cmd":"mysql","Cmd":"zip","CMD":"sshpass","cmD":"docker","CMd":"htpasswd","cMD":"vault","cMd":"sqlplus","Command":"gh","COMMAND":"curl"}`,
			`{"CMD":"sshpass","CMd":"htpasswd","COMMAND":"curl","Cmd":"zip","Command":"gh","args":["-rf","/data"],"cMD":"vault","cMd":"sqlplus","cmD":"docker","cmd":"mysql","command":"rm"}`},
		{"nine decoy programs hide a string of arguments whole",
			`{"command":"rm","args":"-rf /data","cmd":"mysql","Cmd":"zip","CMD":"sshpass","cmD":"docker","CMd":"htpasswd","cMD":"vault","cMd":"sqlplus","Command":"gh","COMMAND":"curl"}`,
			`{"CMD":"sshpass","CMd":"htpasswd","COMMAND":"curl","Cmd":"zip","Command":"gh","args":"-rf /data","cMD":"vault","cMd":"sqlplus","cmD":"docker","cmd":"mysql","command":"rm"}`},
		{"nine decoy programs hide the gateway's extra.args whole",
			`{"command":"bash","extra":{"args":["-c","rm -rf /data"]},"cmd":"mysql","Cmd":"zip","CMD":"sshpass","cmD":"docker","CMd":"htpasswd","cMD":"vault","cMd":"sqlplus","Command":"gh","COMMAND":"curl"}`,
			`{"CMD":"sshpass","CMd":"htpasswd","COMMAND":"curl","Cmd":"zip","Command":"gh","cMD":"vault","cMd":"sqlplus","cmD":"docker","cmd":"mysql","command":"bash","extra":{"args":["-c","rm -rf /data"]}}`},
		{"nine decoys, one per program key",
			`{"command":"bash","args":["-c","curl -X DELETE https://api/prod"],"file":"mysql","exe":"zip","bin":"sshpass","binary":"docker","cmd":"htpasswd","program":"vault","executable":"sqlplus","Cmd":"gh","CMD":"curl"}`,
			`{"CMD":"curl","Cmd":"gh","args":["-c","curl -X DELETE https://api/prod"],"bin":"sshpass","binary":"docker","cmd":"htpasswd","command":"bash","exe":"zip","executable":"sqlplus","file":"mysql","program":"vault"}`},
		// One decoy program ending in a pending password option takes the first argument.
		{"sshpass -p decoy hides kubectl's verb",
			`{"command":"kubectl","args":["delete","ns","prod"],"cmd":"sshpass -p"}`,
			`{"args":["delete","ns","prod"],"cmd":"sshpass -p","command":"kubectl"}`},
		{"docker login -p decoy hides kubectl's verb",
			`{"command":"kubectl","args":["delete","ns","prod"],"cmd":"docker login -p"}`,
			`{"args":["delete","ns","prod"],"cmd":"docker login -p","command":"kubectl"}`},
		{"vault login decoy hides kubectl's verb",
			`{"command":"kubectl","args":["delete","ns","prod"],"cmd":"vault login"}`,
			`{"args":["delete","ns","prod"],"cmd":"vault login","command":"kubectl"}`},
		{"sshpass -p decoy hides sh -c's whole command",
			`{"command":"sh -c","args":["rm -rf /data"],"cmd":"sshpass -p"}`,
			`{"args":["rm -rf /data"],"cmd":"sshpass -p","command":"sh -c"}`},
		{"sshpass -p decoy hides sh's -c",
			`{"command":"sh","args":"-c 'rm -rf /data'","cmd":"sshpass -p"}`,
			`{"args":"-c 'rm -rf /data'","cmd":"sshpass -p","command":"sh"}`},
		{"sshpass -p decoy hides git push",
			`{"command":"git","args":["push","--force","origin","main"],"Cmd":"sshpass -p"}`,
			`{"Cmd":"sshpass -p","args":["push","--force","origin","main"],"command":"git"}`},
		{"openssl decoy hides kubectl apply -k's directory",
			`{"command":"kubectl","args":["apply","-k","overlays/prod"],"cmd":"openssl"}`,
			`{"args":["apply","-k","overlays/prod"],"cmd":"openssl","command":"kubectl"}`},
		{"mysql decoy hides find's -print",
			`{"command":"find","args":[".","-print","-delete"],"cmd":"mysql"}`,
			`{"args":[".","-print","-delete"],"cmd":"mysql","command":"find"}`},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
			t.Fatal(err)
		}
		got, err := r.encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s:\n in   %s\n got  %s\n want %s", tt.name, tt.in, got, tt.want)
		}
	}
}

// "auth: X" in YAML is read as Docker's auth when X is base64 of printable text with a colon:
// a few English words are (One -> ":w", Only -> ":yr", Old -> ":W"). Low severity.
func TestReview2AuthWordsAreNoDockerAuth(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "auth: Only", in: `auth: Only`, want: `auth: Only`},
		{name: "auth: One", in: `auth: One`, want: `auth: One`},
		{name: "auth: Old", in: `auth: Old`, want: `auth: Old`},
	})
}

// A third read: a program field inside the arguments (extra's, or an args map's own) decided how
// they were read, past the map's own program: {"command":"kubectl","extra":{"cmd":"sshpass -p",
// "args":["delete",...]}} hid delete. Only the outermost program field reads its arguments. And
// program fields that agree but for case, a path or an empty default read them as one program.
func TestReview3ProgramFields(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"a decoy in extra", `{"command":"kubectl","extra":{"cmd":"sshpass -p","args":["delete","ns","prod"]}}`,
			`{"command":"kubectl","extra":{"args":["delete","ns","prod"],"cmd":"sshpass -p"}}`},
		{"a decoy in extra, a string", `{"command":"kubectl","extra":{"cmd":"vault login","args":"delete ns prod"}}`,
			`{"command":"kubectl","extra":{"args":"delete ns prod","cmd":"vault login"}}`},
		{"a decoy in an args map", `{"command":"kubectl","args":{"cmd":"sshpass -p","args":["delete","ns","prod"]}}`,
			`{"args":{"args":["delete","ns","prod"],"cmd":"sshpass -p"},"command":"kubectl"}`},
		{"an empty default beside the program", `{"command":"mysql","cmd":"","args":["-phunter22"]}`,
			`{"args":["-p[REDACTED]"],"cmd":"","command":"mysql"}`},
		{"a null beside the program", `{"command":"mysql","cmd":null,"args":["-phunter22"]}`,
			`{"args":["-p[REDACTED]"],"cmd":null,"command":"mysql"}`},
		{"the program in another case and by its path", `{"command":"mysql","Command":"MYSQL","cmd":"/usr/bin/mysql","args":["-phunter22"]}`,
			`{"Command":"MYSQL","args":["-p[REDACTED]"],"cmd":"/usr/bin/mysql","command":"mysql"}`},
		// Near miss: a map of its own, no program above it, is read after its program.
		{"a program and its arguments alone", `{"cmd":"mysql","args":["-phunter22"]}`, `{"args":["-p[REDACTED]"],"cmd":"mysql"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var fields map[string]any
			if err := json.Unmarshal([]byte(tt.in), &fields); err != nil {
				t.Fatal(err)
			}
			out, err := EncodeFields(Config{}, Record{Fields: fields})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("got %s, want it to hold %s", out, tt.want)
			}
		})
	}
}
