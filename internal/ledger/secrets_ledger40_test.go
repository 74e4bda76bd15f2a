package ledger

import (
	"strings"
	"testing"
)

// ledger40KeepsCommands are inputs where a redaction hid a command bash 5.2 runs (each checked
// with bash -c, the command a stand-in that prints; /usr/bin/rm spelt rm there). cmd must stay
// in the record. The holes of the brief (A-F and the older ones), the review-ledger36 and
// ledger35 rows, and respellings of each class.
// rl42E and rl42Use: the rows of rl42 H1 enable aliases, and use one after a definition.
const rl42E, rl42Use = "shopt -s expand_aliases\n", "\nq; mysql -p'X;rm -rf /data"

var ledger40KeepsCommands = []struct{ in, cmd string }{
	// A: one rule's marker swallowed an opening quote (-p'a' became -p[REDACTED]'), and the
	// next rule read the rest of the line with its quotes inverted.
	{"mysql -p'a' ; echo 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"mysql -p'a' ; echo '--password \"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"curl -u 'u:p' x; echo '{\"password\": \"x' ; rm -rf /data ; echo '\"}'", "rm -rf /data"},
	{"sshpass -p'a' ssh h; echo 'token: \"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	// B: a quote bash holds open across a newline.
	{"echo 'abc\nsshpass -p 'x; rm -rf /data; echo '\n'", "rm -rf /data"},
	{"echo 'abc\nmysql -p'x; rm -rf /data; echo '\n'", "rm -rf /data"},
	{"echo 'abc\nexport PASSWORD='x; rm -rf /data; echo '\n'", "rm -rf /data"},
	{"echo 'abc\nrun --password 'x; rm -rf /data; echo '\n'", "rm -rf /data"},
	{"echo \"abc\nPASSWORD=\"x; rm -rf /data; echo \"\n\"", "rm -rf /data"},
	// C: another shell reads the text again.
	{"ssh h mysql -p\"X;rm -rf /data\"", "rm -rf /data"},
	{"ssh h sshpass -p \"X;rm -rf /data\" ssh g", "rm -rf /data"},
	{"ssh h mysql -pX\\;rm -rf /data", "rm"},
	{"eval mysql -pX\\;rm\\ -rf\\ /data", "rm"},
	{"ssh h 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"bash -c \"sshpass -p x&&rm -rf /data\"", "rm -rf /data"},
	{"sh -c 'PASSWORD=x;rm -rf /data'", "rm -rf /data"},
	{"su -c 'mysql -pX|rm -rf /data' root", "rm -rf /data"},
	{"watch -n1 \"mysql -pX;rm -rf /data\"", "rm -rf /data"},
	{"docker exec c sh -c \"mysql -pX;rm -rf /data\"", "rm -rf /data"},
	{"ssh h \"password:\nrm -rf /data\"", "rm -rf /data"},
	{"ssh h PASSWORD=\"x;rm -rf /data\"", "rm -rf /data"},
	// D: a command substitution inside a double-quoted value.
	{"mysql -p\"x `rm -rf /data` y\" db", "rm -rf /data"},
	{"export PASSWORD=\"`rm -rf /data`\"", "rm -rf /data"},
	{"app --password \"`rm -rf /data`\"", "rm -rf /data"},
	{"app --password \"$(rm -rf /data)\"", "rm -rf /data"},
	{"PASSWORD=\"a$(rm -rf /data)b\"", "rm -rf /data"},
	// E: a process substitution in the middle of a word.
	{"mysql -px>({rm,-rf,/data}) db", "rm,-rf,/data"},
	{"app --password=x>(rm -rf /data)", "rm -rf /data"},
	// F: an unquoted value runs over a separator or a substitution.
	{"PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"export TOKEN=x;rm${IFS}-rf${IFS}/data", "rm${IFS}-rf${IFS}/data"},
	{"app --password=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"PASSWORD=$(rm${IFS}-rf${IFS}/data)", "rm${IFS}-rf${IFS}/data"},
	{"mysql -p`rm${IFS}-rf${IFS}/data` db", "rm${IFS}-rf${IFS}/data"},
	{"TOKEN=x&&rm -rf /data", "rm -rf /data"},
	{"TOKEN=x|{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"echo client_secret: x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"curl https://u:x;{rm,-rf,data};@h", "{rm,-rf,data}"},
	{"curl https://h/?sig=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"echo Cookie: a=b; rm -rf /data", "rm -rf /data"},
	{"echo -----BEGIN RSA PRIVATE KEY-----; rm -rf /data", "rm -rf /data"},
	{"key:\n-----BEGIN RSA PRIVATE KEY-----\n/tmp/x\n-----END RSA PRIVATE KEY-----", "/tmp/x"},
	{"echo 'Cookie: a=b; rm -rf /data' > x.sh; sh x.sh", "rm -rf /data"},
	{"echo '-----BEGIN RSA PRIVATE KEY-----'\nrm -rf /data\necho '-----END RSA PRIVATE KEY-----'", "rm -rf /data"},
	// A value taken from the next line, or after = and a blank: the command's name.
	{"password:\nrm -rf /data", "rm -rf /data"},
	{"echo password:  \nrm -rf /data", "rm -rf /data"},
	{"echo client_secret:\n  rm -rf /data", "rm -rf /data"},
	{"echo Authorization:\n  /usr/bin/rm -rf /data", "/usr/bin/rm -rf /data"},
	{"echo Bearer\n\t/usr/bin/rm -rf /data", "/usr/bin/rm -rf /data"},
	{"echo machine x login y password\nrm -rf /data", "rm -rf /data"},
	{"aws configure set aws_secret_access_key\nrm -rf /data", "rm -rf /data"},
	{"PASSWORD= rm -rf /data", "rm -rf /data"},
	{"echo x # --token \\\nrm -rf /data", "rm -rf /data"},
	{"echo --token \\\r\nrm -rf /data", "rm -rf /data"},
	// Quotes the scan took for open where bash opens none.
	{"echo \"$(echo \"'\")\"; mysql -pX&&rm -rf /data", "rm -rf /data"},
	{"echo \"`echo \"'\"`\"; mysql -pX&&rm -rf /data", "rm -rf /data"},
	{"echo \"${x:-\"'\"}\"; mysql -pX&&rm -rf /data", "rm -rf /data"},
	{"echo \"$(case x in a) echo \"'\";; esac)\"; mysql -pX&&rm -rf /data", "rm -rf /data"},
	{"echo \"$(echo hi # \"\n)\"; mysql -pX;rm -rf /data", "rm -rf /data"},
	{"mysql -p\\$'a\\';rm -rf /data", "rm -rf /data"},
	{"mysql -p$$'a\\';rm -rf /data", "rm -rf /data"},
	{"echo $'\\''; echo 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"echo \"\\\"'\"; echo 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"cat <(echo \"'\"); PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"shopt -s expand_aliases\nalias q=\"echo '\"\nq; mysql -p'X;rm -rf /data", "rm -rf /data"},
	{"shopt -s expand_aliases\nalias -- 'q'=\"echo '\"\nq; mysql -p'X;rm -rf /data", "rm -rf /data"},
	{"shopt -s expand_aliases\nBASH_ALIASES[q]=\"echo '\"\nq; mysql -p'X;rm -rf /data", "rm -rf /data"},
	{"shopt -u interactive_comments\necho x # '\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	// Here-documents: a quote in a body is data, and bash reads on after the delimiter.
	{"cat <<EOF\ndon't\nEOF\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"cat <<'EOF'\nit's\nEOF\necho 'abc\nPASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"x=$(cat <<EOF\n'\nEOF)\necho 'PASSWORD=\"a' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"cat <<-EOF\n\tdon't\n\tEOF\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"let x=1<<A\n'\nA\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"(( x = 1 << 2 ))\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"echo $((1<<2)); echo 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	{"cat <<< 'x'; PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"cat <<$'E\\x4fF'\n'\nEOF\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	// Quoted text handed to a shell: a pipe, a here-document, a file written and then run.
	{"echo 'mysql -pX;rm -rf /data' | sh", "rm -rf /data"},
	{"echo mysql -p\"X;rm -rf /data\" | bash", "rm -rf /data"},
	{"printf '%s' 'PASSWORD=x;rm -rf /data' |\nsh", "rm -rf /data"},
	{"ssh h <<'EOF'\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'\nEOF", "rm -rf /data"},
	{"cat <<'EOF' | sh\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'\nEOF", "rm -rf /data"},
	{"echo 'PASSWORD=x;rm -rf /data' > x.sh; sh x.sh", "rm -rf /data"},
	{"echo 'sshpass -p x;rm -rf /data' > x.sh\nbash x.sh", "rm -rf /data"},
	{"echo 'PASSWORD=\"$(rm -rf /data)\"' > x.sh; sh x.sh", "rm -rf /data"},
	{"echo 'PASSWORD=\"`rm -rf /data`\"' > x.sh; sh x.sh", "rm -rf /data"},
	{"echo 'PASSWORD=x`rm -rf /data`' > x.sh; sh x.sh", "rm -rf /data"},
	// A program whose quoted arguments are data (rl41 L4) still hands a shell's to it.
	{"docker run img sh -c \"mysql -pX;rm -rf /data\"", "rm -rf /data"},
	{"curl -d 'PASSWORD=x;rm -rf /data' x | sh", "rm -rf /data"},
	{"kubectl exec p -- bash -c 'PASSWORD=x;rm -rf /data'", "rm -rf /data"},
	{"docker run -e \"PASSWORD=x$(rm -rf /data)\" img", "rm -rf /data"},
	{"printf 'PASSWORD=x\\x3brm -rf /data' > x.sh; sh x.sh", "rm -rf /data"},
	{"echo -e 'sshpass -p x\\073rm -rf /data' > x.sh; sh x.sh", "rm -rf /data"},
	{"'e'val mysql -pX\\;rm -rf /data", "rm"},
	{"e\\val mysql -pX\\;rm -rf /data", "rm"},
	{"c=eval; $c mysql -pX\\;rm -rf /data", "rm"},
	{"/bin/sh -c 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	// A shell reads its arguments again only with -c (or --command), or with no script operand
	// (rl41 L2): these must still be read so.
	{"bash -x -o pipefail -lc 'PASSWORD=x;rm -rf /data'", "rm -rf /data"},
	{"bash --rcfile x -c 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"pwsh -NoProfile -Command 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"echo 'mysql -pX;rm -rf /data' | bash -s -- a", "rm -rf /data"},
	{"bash <<'EOF'\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'\nEOF", "rm -rf /data"},
	// rl41 H1: a # that follows a backquoted or process substitution in the same word is no comment
	// for bash; the mask (which begins no word at ` or <( ) skips the rest of the line.
	{"echo `date`#x; PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"a=1 `true`#c; PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"cat <(echo a)#x; PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"cat <(echo a)#x\npassword:\nrm -rf /data", "rm -rf /data"},
	{"echo `date`#x; echo 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	// rl41 H2: $[ ] is arithmetic; the mask reads its << as a here-document and the next lines as data.
	{"echo $[1<<2]\npassword:\nrm -rf /data", "rm -rf /data"},
	// rl41 H3: a command's first word after env, time -p, coproc, function f { (main hid these too).
	{"env PASSWORD= rm -rf /data", "rm -rf /data"},
	{"time -p PASSWORD= rm -rf /data", "rm -rf /data"},
	{"coproc { PASSWORD= rm -rf /data; }", "rm -rf /data"},
	{"function f { PASSWORD= rm -rf /data; }; f", "rm -rf /data"},
	// rl41 H4: a CR before the newline is part of bash's delimiter ('EOF'\r); the mask ends the
	// delimiter at the CR, so the body runs on past the line EOF\r, where bash ends it.
	{"cat <<'EOF'\r\nhi\r\nEOF\r\npassword:\nrm -rf /data\nEOF\n", "rm -rf /data"},
	// rl41 H5: an escaped backquote inside backquotes opens a nested substitution (main hid it too).
	{"echo `echo \\`PASSWORD= rm -rf /data\\``", "rm -rf /data"},
	// rl41 H6: a line continuation before # makes it a comment for bash; the mask reads the comment
	// as code, so its quote or here-document inverts the next lines.
	{"echo a \\\n#<<E\npassword:\nrm -rf /data\nE", "rm -rf /data"},
	{"echo a \\\n#'\necho 'PASSWORD=\"x' ; rm -rf /data ; echo '\"'", "rm -rf /data"},
	// Respellings: >( ), a subscript in $[ ], env's options, a backquote word in a pipeline.
	{"cat >(cat)#x; PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	{"echo $[a[1]<<2]\npassword:\nrm -rf /data", "rm -rf /data"},
	{"env -i A=1 PASSWORD= rm -rf /data", "rm -rf /data"},
	{"true | `true`#x; PASSWORD=x;{rm,-rf,/data}", "{rm,-rf,/data}"},
	// rl42 H3: a "script file" that is the shell's input is its command line.
	{"bash /dev/stdin <<< PASSWORD='x;rm -rf /data'", "rm -rf /data"},
	{"bash /dev/fd/0 <<< TOKEN=\"x;rm -rf /data\"", "rm -rf /data"},
	{"sh -e /proc/self/fd/0 <<< TOKEN=\"x;rm -rf /data\"", "rm -rf /data"},
	// rl42 H1: an alias defined by a spelling of alias or BASH_ALIASES that setting/definesAlias
	// does not read, or used with a line continuation (e87a79de).
	{rl42E + "builtin alias q=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "command alias q=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "\\alias q=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "'alias' q=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "eval 'alias q=\"echo '\\''\"'" + rl42Use, "rm -rf /data"},
	{rl42E + "a=alias; $a q=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "printf -v 'BASH_''ALIASES[q]' %s \"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "read -r 'BASH_''ALIASES[q]' <<< \"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "declare -n a=BASH_\"ALIASES\"; a[q]=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "alias q=\"echo '\"\nq\\\n; mysql -p'X;rm -rf /data", "rm -rf /data"},
	{rl42E + "command -p alias q=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "v=BASH_ALIASES; local -n a=$v; a[q]=\"echo '\"" + rl42Use, "rm -rf /data"},
	{rl42E + "export 'BASH_ALIASES[q]'=\"echo '\"" + rl42Use, "rm -rf /data"},
	// rl42 H2: a data program whose argument is a shell's command line (62c0c826).
	{"docker run --entrypoint sh img -c \"mysql -pX;rm -rf /data\"", "rm -rf /data"},
	{"docker run --entrypoint=/bin/sh img -c 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"podman run --entrypoint bash img -lc 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"aws ssm send-command --document-name AWS-RunShellScript --parameters 'commands=mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"az vm run-command invoke -g g -n vm --command-id RunShellScript --scripts 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"aws ec2 run-instances --image-id i --user-data 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"docker run --entrypoint '/bin/''bash' img -c 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"az vm run-command invoke --'scripts' 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	{"gcloud compute instances create v --metadata=startup-script='mysql -pX;rm -rf /data'", "rm -rf /data"},
	// rl42 L1: $[ ] marks no boundary but a substitution inside it.
	{"password: \"x$[$(rm -rf /data)]z;w\"", "rm -rf /data"},
	{"password: \"x$[`rm -rf /data`]\"", "rm -rf /data"},
}

func TestLedger40KeepsCommands(t *testing.T) { expectKept(t, ledger40KeepsCommands) }

// keptRow is an input whose record must show cmd, a command bash runs.
type keptRow = struct{ in, cmd string }

// expectKept fails t for each row whose redaction hides its command.
func expectKept(t *testing.T, rows []keptRow) {
	t.Helper()
	for _, tc := range rows {
		if out := RedactSecrets(tc.in); !strings.Contains(out, tc.cmd) {
			t.Errorf("%q: got %q, which hides %q", tc.in, out, tc.cmd)
		}
	}
}

// TestLedger40HidesSecrets: a password bash joins over a line continuation, and one after a #
// inside ${…} (no comment there), were recorded in part.
func TestLedger40HidesSecrets(t *testing.T) {
	expectHidden(t, []hiddenRow{
		{"curl --password=hunt\\\ner2secret https://x", "er2secret"},
		{"PASSWORD=hunt\\\ner2secret ./run", "er2secret"},
		{"curl --password hunt\\\ner2secret https://x", "er2secret"},
		{"curl --token=\\\nhunter2secret https://x", "hunter2secret"},
		{"echo ${x:- #} ; mysql -pSECRET1 db", "SECRET1"},
	})
}

// TestLedger40RedactsAsMain: common secret shapes hidden whole before the shell reading, which a
// reverted attempt (d0dadce9) recorded in part by reading a whole text blind for one ${, $( or
// alias anywhere in it (review-ledger36). Each row: the part that must not be recorded.
func TestLedger40RedactsAsMain(t *testing.T) {
	expectHidden(t, []hiddenRow{
		{"{\"alias\": \"db\", \"password\": \"s3cr3t&x\"}", "&x"},
		// rl41 L5: a backquote in single quotes is data, as it is to a shell reading them again.
		{"password: 'a`b`c'", "`b`c"},
		{"mysql -p'a`b`c' db", "`b`c"},
		{"export TOKEN='a`b$(c)'", "`b$(c)"},
		// rl41 L4: a separator in a quoted argument of docker, kubectl, curl … is data.
		{"docker run -e \"POSTGRES_PASSWORD=p@ss;word\" postgres", ";word"},
		{"kubectl create secret generic db --from-literal='password=a;b&c'", ";b&c"},
		{"curl -d \"password=a;b\" https://x", ";b"},
		// rl41 L2: a shell given a script file reads none of its arguments again.
		{"bash ./deploy.sh --password 'a;b'", ";b"},
		// rl42 H2: an --entrypoint naming no shell keeps the arguments data.
		{"docker run --entrypoint /app/server -e \"POSTGRES_PASSWORD=p@ss;word\" img", ";word"},
		// rl42 L2: prose naming BASH_ALIASES changes nothing.
		{"docs: see BASH_ALIASES\npassword: 'a;b'", ";b"},
		{"echo BASH_ALIASES=x is how\npassword: 'a;b'", ";b"},
		// rl42 L1: arithmetic in $[ ] is no command's boundary (main hid these whole).
		{"password: \"x$[y]z;w\"", "z;w"},
		{"{\"password\": \"a$[1]b;c\"}", "b;c"},
		{"PASSWORD=\"p$[;q&r\" app", ";q&r"},
		{"sh -x ./deploy.sh --token \"a|b\" && echo ok", "|b"},
		// rl41 L1: alias, shopt or enable as a line's first word changes nothing after it
		// (before, the rest of the text was read blind, every quoted secret cut at its separator).
		{"## Setup\nenable the cache first\n\n```yaml\npassword: \"Pa;ss|w0rd\"\n```\n", ";ss|w0rd"},
		{"jobs:\n  build:\n    steps:\n      - run: |\n          shopt -s globstar\n    env:\n      password: \"a;b&c\"\n", ";b&c"},
		{"#!/bin/bash\nset -euo pipefail\nshopt -s nullglob\nexport DB_PASSWORD='p;ss&w0rd'\n", ";ss&w0rd"},
		{"alias ll='ls -l'\nexport TOKEN=\"a;b\"", ";b"},
		{"db:\n  alias: main\n  password: \"Pa(ss)w0rd!\"\n", "(ss)w0rd!"},
		{"steps:\n  - run: echo ${{ secrets.X }}\n    env:\n      password: \"ab|cd\"\n", "|cd"},
		{"env:\n  - name: URL\n    value: ${BASE_URL}\n  - name: PASS\n    password: \"Pa;ss\"\n", ";ss"},
		{"# note ((todo))\npassword = \"a&b\"\n", "&b"},
		{"export DB_PASSWORD='p@ss;w0rd'\ncd ${HOME}/app", ";w0rd"},
		{"cat > .env <<'EOF'\nDB_PASSWORD=\"Xy7(q)z!\"\nAPI_TOKEN='t0k&en'\nEOF", "(q)z!"},
		{"cat <<EOF > config.yaml\npassword: \"a;b\"\nEOF", ";b"},
		{"curl -d '{\"password\":\"a&b\"}' -H \"X-Id: $(uuidgen)\" https://x", "&b"},
		{"{\n  \"password\": \"p;w\",\n  \"cmd\": \"echo $(date)\"\n}", ";w"},
		{"docker login -p \"a|b\" r.io\nfor i in $(seq 3); do echo $i; done", "|b"},
		{"mysql -p'pa&ss' db\necho `date`", "&ss"},
		{"export TOKEN=\"a;b\"", ";b"},
		{"export TOKEN='a;b' && make", ";b"},
		{"export TOKEN=a\\;b", ";b"},
		{"sshpass -p 'a|b' ssh h", "|b"},
		{"curl -u 'admin:s3c;r3t' https://api", ";r3t"},
		{"curl -H \"Cookie: session=abc123; csrf=def456\" https://x", "def456"},
		{"docker login -u me -p 'pa;ss' r.io", ";ss"},
		{"PGPASSWORD='a;b' psql -h h", ";b"},
		{"git clone 'https://user:tok;en@github.com/x'", ";en"},
		{"apiVersion: v1\nkind: Secret\nstringData:\n  password: \"Pa$$w0rd;x\"\n", ";x"},
		{"sshpass -p 'a;b' ssh h $(x)", ";b"},
		{"curl --password \"pass\nwxyz\" x", "wxyz"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRS\nTUVWXYZ0123456789abcdefgh==\n-----END RSA PRIVATE KEY-----\n", "TUVWXYZ"},
	})
}

// TestLedger40RecordsByChoice: what the shell reading records where bash would run it, or
// where another shell reads the text again (docs/ledger.md, "What stays recorded, by choice").
// Before, each was hidden whole.
func TestLedger40RecordsByChoice(t *testing.T) {
	const a = "[REDACTED:credential-assignment]"
	for _, tc := range []struct{ in, want string }{
		// An unquoted value ends at a separator bash reads outside quotes.
		{"DB_PASSWORD=p&ss;w0rd\n", "DB_PASSWORD=" + a + "&ss;w0rd\n"},
		{"db:\n  password: a;b&c\n", "db:\n  password: " + a + ";b&c\n"},
		{"psql postgresql://user:pa;ss@host/db", "psql postgresql://user:[REDACTED:basic-auth-url];ss@host/db"},
		{"HTTP/1.1 200 OK\r\nSet-Cookie: sid=abcdef0123; HttpOnly\r\n", "HTTP/1.1 200 OK\r\nSet-Cookie: [REDACTED:cookie-header]; HttpOnly\r\n"},
		// A value on the next line is that line's command (a YAML value, a folded header).
		{"password:\n  hunter2secret", "password:\n  hunter2secret"},
		{"Authorization: Bearer\n abcdefgh1234", "Authorization: Bearer\n abcdefgh1234"},
		// Another shell's command line: its quoted separators are that shell's.
		{"ssh h 'mysql -p\"a;b\" db'", "ssh h 'mysql -p[REDACTED:cli-password];b\" db'"},
		// Quoted data that a shell may read again (a file written, a here-document's body, a
		// prose line's quote): an unquoted value's part after a separator in it.
		{"cat > .env <<'EOF'\nDB_PASSWORD=p&ss;w0rd\nEOF", "cat > .env <<'EOF'\nDB_PASSWORD=" + a + "&ss;w0rd\nEOF"},
		{"Don't forget\nDB_PASSWORD=p;w\n", "Don't forget\nDB_PASSWORD=" + a + ";w\n"},
		{"git commit -m \"$(cat <<'EOF'\nfix: don't log PASSWORD=a;b\nEOF\n)\"", "git commit -m \"$(cat <<'EOF'\nfix: don't log PASSWORD=" + a + ";b\nEOF\n)\""},
		{"[Service]\nEnvironment=\"DB_PASSWORD=a;b\"\n", "[Service]\nEnvironment=\"DB_PASSWORD=" + a + ";b\"\n"},
		{"echo \"token: abc;def\" | kubectl apply -f -", "echo \"token: " + a + ";def\" | kubectl apply -f -"},
		// A substitution is a command, not a password: sshpass runs cat.
		{"sshpass -p \"$(cat pw)\" ssh h", "sshpass -p \"$(cat pw)\" ssh h"},
		// After a defined alias's use the rest is read blind: a quoted value ends at a separator.
		{"alias ll='ls -l'\nll; export TOKEN=\"a;b\"", "alias ll='ls -l'\nll; export TOKEN=" + a + ";b\""},
	} {
		if out := RedactSecrets(tc.in); out != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, out, tc.want)
		}
	}
}

// hiddenRow is a text and a part of it that its redaction must not keep.
type hiddenRow struct{ in, secret string }

// expectHidden fails t for each row whose redaction keeps its secret.
func expectHidden(t *testing.T, rows []hiddenRow) {
	t.Helper()
	for _, tc := range rows {
		if out := RedactSecrets(tc.in); strings.Contains(out, tc.secret) {
			t.Errorf("%q: got %q, which keeps %q", tc.in, out, tc.secret)
		}
	}
}
