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
	)
	plugin := dcAsk("plugin-install")
	return []classCase{
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
