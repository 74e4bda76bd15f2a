package safety

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// credentialCase is one command that prints a credential, or one that must not be taken for one.
type credentialCase struct {
	name, cmd string
	want      outcome // the zero outcome: admitted
}

// testCredentialCases evaluates each case at Yolo autonomy, where only the safety net refuses:
// an attack is held (or denied) by the rule named, an allowed case is admitted outright, so a
// rule that over-reaches fails as surely as one that misses.
func testCredentialCases(t *testing.T, cases []credentialCase) {
	t.Helper()
	p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/workspace", Autonomy: AutonomyYolo})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == (outcome{}) {
				want = outcome{Verdict: VerdictAllow}
			}
			d := Evaluate(p, shCall(c.cmd))
			if diff := cmp.Diff(want, outcomeOf(d)); diff != "" {
				t.Errorf("%q (-want +got):\n%s\nmessage: %s", c.cmd, diff, d.Message)
			}
		})
	}
}

// kubectl and oc print a credential through operands a regular expression misread: the resource
// after every option and its value, objects from files, API paths, output formats computed at
// run time.
func TestKubectlPrintsCredentials(t *testing.T) {
	k := asked(dc + "print-credentials-kubectl")
	r := asked(dc + "print-credentials-rendered")
	testCredentialCases(t, []credentialCase{
		{"describe secret prints a token Secret's token", `kubectl describe secret sa-token`, k},
		{"describe secrets/NAME", `kubectl describe secrets/sa-token`, k},
		{"describe a pod", `kubectl describe pod web`, outcome{}},
		{"get -f may name a Secret", `kubectl get -f x.yaml -o yaml`, k},
		{"get -k may name a Secret", `kubectl get -k overlays/prod -ojson`, k},
		{"get -f without data", `kubectl get -f x.yaml`, outcome{}},
		{"apply -f prints nothing", `kubectl apply -f deploy.yaml`, outcome{}},
		{"--raw to Secrets", `kubectl get --raw /api/v1/namespaces/x/secrets`, k},
		{"--raw percent-encoded", `kubectl get --raw /api/v1/namespaces/x/%73ecrets/db`, k},
		{"--raw doubly percent-encoded", `kubectl get --raw=/api/v1/namespaces/x/%2573ecrets`, k},
		{"--raw delete returns the object", `kubectl delete --raw /api/v1/namespaces/x/secrets/db`, k},
		{"--raw TokenRequest", `kubectl create --raw /api/v1/namespaces/x/serviceaccounts/d/token -f req.json`, k},
		{"a computed word where --raw cannot go", `kubectl logs "$POD"`, asked(RuleDynamicPath)},
		{"a computed word where --raw can go", `kubectl get $ARGS`, k},
		{"--raw to ConfigMaps", `kubectl get --raw /api/v1/namespaces/x/configmaps`, outcome{}},
		{"create token", `kubectl create token builder`, k},
		{"create token after options", `kubectl -n ci create --duration 1h token builder`, k},
		{"create secret from literals", `kubectl create secret generic x --from-literal=a=b --dry-run=client -o yaml`, outcome{}},
		{"oc get secret", `oc get secret db -o yaml`, k},
		{"oc whoami -t", `oc whoami -t`, k},
		{"oc whoami --show-token", `oc whoami --show-token`, k},
		{"oc whoami", `oc whoami`, outcome{}},
		{"oc extract secret", `oc extract secret/db --to=-`, k},
		{"oc sa get-token", `oc sa get-token builder`, k},
		{"a computed output format", `kubectl get secret db -o "$F"`, k},
		{"a computed option", `kubectl get secret db $OPTS`, k},
		{"a computed resource with data", `kubectl get "$R" -o yaml`, k},
		{"set env --resolve", `kubectl set env deploy/web --list --resolve`, k},
		{"set env --list, the plain values only", `kubectl set env deploy/web --list`, asked(dc + "print-environment-service")},
		{"verbose logging of a Secret", `kubectl get secret db -v=9`, k},
		{"verbose logging in two words", `kubectl get -v 8 secrets`, k},
		{"low verbosity", `kubectl get secret db -v=4`, outcome{}},
		{"a namespace named secrets", `kubectl get -n secrets cm -o yaml`, outcome{}},
		{"a namespace named secrets, attached", `kubectl get -nsecrets cm -o yaml`, outcome{}},
		{"a namespace named secrets in a bundle", `kubectl get -An secrets cm -o yaml`, outcome{}},
		{"a namespace named secrets, long", `kubectl --namespace secrets get cm -ojson`, outcome{}},
		{"a ConfigMap named secrets", `kubectl get cm secrets -o yaml`, outcome{}},
		{"TYPE/NAME after a pod", `kubectl get pod/a secret/b -o yaml`, k},
		{"kustomize build", `kustomize build overlays/prod`, r},
		{"kubectl kustomize", `kubectl kustomize overlays/prod`, r},
		{"helm template", `helm template web ./chart`, r},
		{"helm get values", `helm get values web`, r},
		{"helm install --dry-run", `helm install web ./chart --dry-run`, r},
		{"helm install", `helm install web ./chart`, outcome{}},
		{"helm list", `helm list -A`, outcome{}},
		{"kustomize edit", `kustomize edit set image web=web:2`, outcome{}},
	})
}

// aws accepts any unique prefix of a long option and reads options from an input document;
// secret stores print what they hold.
func TestCloudAndStoreCredentials(t *testing.T) {
	a := asked(dc + "print-credentials-aws")
	st := asked(dc + "print-credentials-stores")
	testCredentialCases(t, []credentialCase{
		{"ssm --with-decryption", `aws ssm get-parameter --name db --with-decryption`, a},
		{"ssm --with-d, an abbreviation", `aws ssm get-parameters --names db --with-d`, a},
		{"ssm --w, the shortest abbreviation", `aws ssm get-parameters-by-path --path / --w`, a},
		{"ssm --no-with-decryption", `aws ssm get-parameter --name db --no-with-decryption`, outcome{}},
		{"ssm without decryption", `aws ssm get-parameter --name db`, outcome{}},
		{"--cli-input-json with WithDecryption", `aws ssm get-parameter --cli-input-json '{"Name":"db","WithDecryption":true}'`, a},
		{"--cli-input-json escaped", `aws ssm get-parameter --cli-input-json '{"Name":"db","With\u0044ecryption":true}'`, a},
		{"--cli-input-yaml from a file", `aws ssm get-parameter --cli-input-yaml file://in.yaml`, a},
		{"--cli-input-j=, an abbreviation", `aws ssm get-parameter --cli-input-j='{"WithDecryption":true}'`, a},
		{"--cli-input-json without decryption", `aws ssm get-parameter --cli-input-json '{"Name":"db"}'`, outcome{}},
		{"an abbreviated global option before the service", `aws --reg eu-west-1 secretsmanager get-secret-value --secret-id db`, a},
		{"secretsmanager", `aws secretsmanager get-secret-value --secret-id db`, a},
		{"sts get-session-token", `aws sts get-session-token`, a},
		{"sts assume-role", `aws sts assume-role --role-arn r --role-session-name s`, a},
		{"configure get", `aws configure get aws_secret_access_key`, a},
		{"configure export-credentials", `aws configure export-credentials --format env`, a},
		{"iam create-access-key", `aws iam create-access-key --user-name ci`, a},
		{"rds auth token", `aws rds generate-db-auth-token --hostname h --port 5432 --username u`, a},
		{"a computed service", `aws "$SVC" get-secret-value --secret-id db`, asked(RuleUnresolvedWord)},
		{"a computed operation", `aws secretsmanager "$OP" --secret-id db`, a},
		{"a computed operation after a global option", `aws --region eu-west-1 sts "$OP"`, a},
		{"sts get-caller-identity", `aws sts get-caller-identity`, outcome{}},
		{"s3 ls", `aws --region eu-west-1 s3 ls`, outcome{}},
		{"secretsmanager list-secrets", `aws secretsmanager list-secrets`, outcome{}},
		{"terraform state pull", `terraform state pull`, st},
		{"terraform state show", `terraform -chdir=infra state show aws_db_instance.db`, st},
		{"terraform output -raw", `terraform output -raw db_password`, st},
		{"terraform output -json", `terraform output -json`, st},
		{"terraform show -json", `terraform show -json`, st},
		{"tofu output -json", `tofu output -json`, st},
		{"terraform output", `terraform output`, outcome{}},
		{"terraform plan", `terraform plan`, outcome{}},
		{"terraform state list", `terraform state list`, outcome{}},
		{"vault read", `vault read secret/db`, st},
		{"vault kv get", `vault kv get -field=password secret/db`, st},
		{"vault token lookup", `vault token lookup`, st},
		{"vault kv list", `vault kv list secret/`, outcome{}},
		{"vault status", `vault status`, outcome{}},
		{"op read", `op read op://vault/db/password`, st},
		{"op item get", `op item get db --fields password`, st},
		{"op item list", `op item list`, outcome{}},
		{"docker-credential get", `echo https://index.docker.io/v1/ | docker-credential-desktop get`, st},
		{"docker-credential list", `docker-credential-desktop list`, outcome{}},
		{"keyring get", `keyring get system user`, st},
		{"lpass show", `lpass show --password github`, st},
		{"lpass ls", `lpass ls`, outcome{}},
		{"bw get", `bw get password github`, st},
		{"bw unlock --raw, the session key", `bw unlock --raw`, st},
		{"bw list folders", `bw list folders`, outcome{}},
		{"heroku auth:token", `heroku auth:token`, st},
		{"heroku config", `heroku config -a web`, st},
		{"heroku ps", `heroku ps -a web`, outcome{}},
		{"fly auth token", `fly auth token`, st},
		{"flyctl tokens create", `flyctl tokens create deploy`, st},
		{"fly status", `fly status`, outcome{}},
		{"doppler secrets, the values", `doppler secrets --project web`, st},
		{"doppler setup", `doppler setup`, outcome{}},
		{"infisical export", `infisical export --env=prod`, st},
		{"chamber read", `chamber read web db_password`, st},
		{"chamber list", `chamber list web`, outcome{}},
		{"sops -d", `sops -d secrets.enc.yaml`, st},
		{"sops --decrypt, abbreviated", `sops --decr secrets.enc.yaml`, st},
		{"sops decrypt", `sops decrypt secrets.enc.yaml`, st},
		{"sops exec-env", `sops exec-env secrets.enc.yaml 'env'`, st},
		{"sops -e", `sops -e app.yaml`, outcome{}},
		{"age -d", `age -d -i key.txt db.age`, st},
		{"age encrypting", `age -r age1x -o db.age db.sql`, outcome{}},
		{"gpg --decrypt", `gpg --decrypt backup.gpg`, st},
		{"gpg, a secret key exported", `gpg --armor --export-secret-keys me@example.com`, st},
		{"gpg --verify", `gpg --verify x.sig x`, outcome{}},
		{"ansible-vault view", `ansible-vault view group_vars/all/vault.yml`, st},
		{"ansible-vault encrypt", `ansible-vault encrypt vault.yml`, outcome{}},
		{"kubeseal --recovery-unseal", `kubeseal --recovery-unseal < sealed.yaml`, st},
		{"glab auth status -t", `glab auth status -t`, st},
		{"glab auth status", `glab auth status`, outcome{}},
		{"uv auth token", `uv auth token pypi`, st},
		{"gpg's default action decrypts", `gpg secret.gpg`, st},
		{"gpg's default action, to a file", `gpg -o plain.txt secret.gpg`, st},
		{"gpg --decrypt-files", `gpg --decrypt-files secret.gpg`, st},
		{"gpg --export, public keys", `gpg --armor --export me@example.com`, outcome{}},
		{"gpg --encrypt", `gpg -e -r me@example.com notes.txt`, outcome{}},
		{"gpgtar -d", `gpgtar -d backup.gpg`, st},
		{"sq decrypt", `sq decrypt secret.pgp`, st},
		{"sq key export", `sq key export me`, st},
		{"openssl enc -d", `openssl enc -d -aes256 -in secret.enc`, st},
		{"openssl's cipher command -d", `openssl aes-256-cbc -d -in secret.enc`, st},
		{"openssl pkeyutl -decrypt", `openssl pkeyutl -decrypt -inkey k -in x`, st},
		{"openssl enc encrypting", `openssl enc -aes256 -in x -out x.enc`, outcome{}},
		{"openssl enc -base64 -d, a decoding", `openssl enc -base64 -d -in x.b64`, outcome{}},
		{"openssl enc -d with a password", `openssl enc -d -pass pass:x -in s.enc`, st},
		{"gpg --encrypt-files", `gpg --encrypt-files -r me a.txt`, outcome{}},
		{"gpg --passwd", `gpg --passwd me`, outcome{}},
		{"openssl dgst", `openssl dgst -sha256 x`, outcome{}},
		{"doppler, an option before secrets", `doppler --project web secrets`, st},
		{"ansible-vault, an option before view", `ansible-vault --vault-password-file p view vars.yml`, st},
	})
}

// Credential configuration the agent points at is asked about (a kubeconfig's exec plugin, an AWS
// profile's credential_process run any program); changing the configuration others use is denied.
func TestCredentialConfig(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	w := denied(dc + "credential-config-write")
	testCredentialCases(t, []credentialCase{
		{"KUBECONFIG as a prefix", `KUBECONFIG=./k.yaml kubectl get pods`, opaque},
		{"KUBECONFIG exported", `export KUBECONFIG=./k.yaml; kubectl get pods`, opaque},
		{"--kubeconfig", `kubectl --kubeconfig ./k.yaml get pods`, opaque},
		{"--kubeconfig=", `kubectl get pods --kubeconfig=./k.yaml`, opaque},
		{"helm --kubeconfig", `helm --kubeconfig ./k.yaml list`, opaque},
		{"KUBERC", `KUBERC=./rc kubectl get pods`, opaque},
		{"--kuberc", `kubectl --kuberc ./rc get pods`, opaque},
		{"AWS_CONFIG_FILE", `AWS_CONFIG_FILE=./c aws s3 ls`, opaque},
		{"AWS_SHARED_CREDENTIALS_FILE", `env AWS_SHARED_CREDENTIALS_FILE=./c aws s3 ls`, opaque},
		{"AWS_PROFILE names a profile, not a file", `AWS_PROFILE=dev aws s3 ls`, outcome{}},
		{"kubectl --context", `kubectl --context dev get pods`, outcome{}},
		{"config set-credentials", `kubectl config set-credentials x --exec-command=./p`, w},
		{"config use-context", `kubectl config use-context prod`, w},
		{"config set users.*", `kubectl config set users.x.token abc`, w},
		{"oc config use-context", `oc config use-context prod`, w},
		{"aws configure set", `aws configure set aws_access_key_id AKIA`, w},
		{"aws configure set after an abbreviated option", `aws --prof dev configure set region eu-west-1`, w},
		{"config get-contexts", `kubectl config get-contexts`, outcome{}},
		{"config current-context", `kubectl config current-context`, outcome{}},
		{"aws configure list", `aws configure list`, outcome{}},
	})
}
