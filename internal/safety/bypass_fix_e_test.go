package safety

// Fix E's rows: adding a package to the project, wrappers that load secrets into a command's
// environment (or print them), and installers of code that runs later. Each attack asks at
// every autonomy level; each near miss is an ordinary command of the same program, admitted at
// Default.
func fixECatalogue() []classCase {
	sh := shCall
	dcAsk := func(id string) outcome { return asked(dc + id) }
	const (
		later = "code that runs later"
		adds  = "package added to the project"
	)
	addJS, add := dcAsk("package-add-js"), dcAsk("package-add")
	plugin := dcAsk("plugin-install")
	return []classCase{
		// A package added to the project, however the program's subcommand is spelt or reached:
		// its aliases and prefixes, a scope before it, global options (and their values) before it.
		{adds, "npm it is install-test", sh(`npm it lodash`), addJS, sh(`npm ci`), false},
		{adds, "npm install-test", sh(`npm install-test lodash`), addJS, sh(`npm ci`), false},
		{adds, "npm's option value before the package", sh(`npm install --omit dev lodash`), addJS, sh(`npm ci --omit dev`), false},
		{adds, "yarn up names a package", sh(`yarn up lodash`), addJS, sh(`npm ci`), false},
		{adds, "cargo's toolchain before add", sh(`cargo +nightly add serde`), add, sh(`cargo build`), false},
		{adds, "a cargo global option before add", sh(`cargo --locked add serde`), add, sh(`cargo build --locked`), false},
		{adds, "composer takes a prefix of require", sh(`composer req x/y`), add, sh(`go mod tidy`), false},
		{adds, "composer requ", sh(`composer requ x/y`), add, sh(`go mod tidy`), false},
		{adds, "composer global require", sh(`composer global require x/y`), add, sh(`go mod tidy`), false},
		{adds, "composer -d DIR require", sh(`composer -d sub require x/y`), add, sh(`go mod tidy`), false},
		{adds, "a conda option before install", sh(`conda -v install numpy`), add, sh(`go mod tidy`), false},
		{adds, "pipenv install names a package", sh(`pipenv install requests`), add, sh(`go mod tidy`), false},
		{adds, "rye add", sh(`rye add requests`), add, sh(`go mod tidy`), false},
		{adds, "pixi add", sh(`pixi add numpy`), add, sh(`go mod tidy`), false},
		{adds, "poetry self add adds to poetry itself", sh(`poetry self add x`), add, sh(`go mod tidy`), false},
		{adds, "bundle inject", sh(`bundle inject rails 7`), add, sh(`go mod tidy`), false},
		{adds, "dotnet package add", sh(`dotnet package add X`), add, sh(`go mod tidy`), false},
		{adds, "swift package add-dependency", sh(`swift package add-dependency https://x.example/y`), add, sh(`go mod tidy`), false},
		{adds, "go mod edit -require is go get", sh(`go mod edit -require=x.org/y@v1`), add, sh(`go mod edit -fmt`), false},
		{adds, "go mod edit -require, value next", sh(`go mod edit -require x.org/y@v1`), add, sh(`go mod edit -droprequire=x.org/y`), false},

		// Installers of code a tool runs later (or, pre-commit try-repo, at once) with the user's
		// rights, fetched from where the command says.
		{later, "gcloud components install", sh(`gcloud components install kubectl`), plugin, sh(`gcloud components list`), false},
		{later, "pulumi plugin install", sh(`pulumi plugin install resource aws`), plugin, sh(`pulumi plugin ls`), false},
		{later, "code-server --install-extension", sh(`code-server --install-extension pub.x`), plugin, sh(`gcloud components list`), false},
		{later, "jupyter labextension install", sh(`jupyter labextension install x`), plugin, sh(`pulumi plugin ls`), false},
		{later, "az extension add", sh(`az extension add --name x`), plugin, sh(`gcloud components list`), false},
		{later, "ansible-galaxy install", sh(`ansible-galaxy install x.y`), plugin, sh(`pulumi plugin ls`), false},
		{later, "ansible-galaxy collection install", sh(`ansible-galaxy collection install x.y`), plugin, sh(`pulumi plugin ls`), false},
		{later, "ansible-galaxy role install", sh(`ansible-galaxy role install x.y`), plugin, sh(`pulumi plugin ls`), false},
		{later, "standalone krew install", sh(`krew install ctx`), plugin, sh(`gcloud components list`), false},
		{later, "pre-commit try-repo runs a repository's hooks at once", sh(`pre-commit try-repo https://x.example/y`), plugin, sh(`gcloud components list`), false},
	}
}
