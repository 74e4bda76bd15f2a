package safety

// seventeenthCatalogue holds the seventeenth engine review's rows: git push's --repo=REMOTE
// stepping around a project rule written for the remote as an operand.
func seventeenthCatalogue() []classCase {
	sh := shCall
	pushProd := asked(dc + "git-push-prod")
	const (
		pushRepo = "git push's --repo names the remote, as its operand does"
		jqEnv    = "jq's env and $ENV in its filter, not a file path under a directory named env"
	)
	jqAsk, yqAsk := asked(dc+"print-environment-jq"), asked(dc+"print-environment-yq")
	return []classCase{
		{pushRepo, "--repo=prod", sh(`git push --repo=prod`), pushProd, sh(`git push --repo=origin`), false},
		{pushRepo, "--repo prod apart", sh(`git push --repo prod`), pushProd, sh(`git push --repo origin`), false},
		{pushRepo, "-u --repo=prod main", sh(`git push -u --repo=prod main`), pushProd, sh(`git push -u --repo=origin main`), false},
		{pushRepo, "abbreviated --rep=", sh(`git push --rep=prod main`), pushProd, sh(`git push --rep=staging main`), false},
		{pushRepo, "past git -C", sh(`git -C ../deploy push --no-verify --repo=prod`), pushProd,
			sh(`git -C ../deploy push --no-verify --repo=origin`), false},
		{pushRepo, "a remote whose name starts with prod is another", sh(`git push --repo=prod main`), pushProd,
			sh(`git push --repo=production-mirror main`), false},
		{jqEnv, "jq -n env", sh(`jq -n env`), jqAsk, sh(`jq . env/prod.json`), false},
		{jqEnv, "jq -n '$ENV'", sh(`jq -n '$ENV'`), jqAsk, sh(`jq -r .x env/dev.json`), false},
		{jqEnv, "env as the filter over a file", sh(`jq env x.json`), jqAsk, sh(`jq -r '.a' env/dev.json env/prod.json`), false},
		{jqEnv, "one variable", sh(`jq -r env.GITHUB_TOKEN`), jqAsk, sh(`jq -c '.items[]' config/env/staging.json`), false},
		{jqEnv, "env after --arg's two values", sh(`jq -n --arg k v env`), jqAsk, sh(`jq --arg k v '.[$k]' env/prod.json`), false},
		{jqEnv, "env after --indent's value", sh(`jq --indent 2 env.HOME`), jqAsk, sh(`jq --indent 2 . env/prod.json`), false},
		{jqEnv, "env after --", sh(`jq -- '$ENV.AWS_SECRET_ACCESS_KEY'`), jqAsk, sh(`jq -- . env/prod.json`), false},
		{jqEnv, "an option the engine does not know", sh(`jq --nosuch 2 env.HOME`), jqAsk, sh(`jq -S . env/prod.json`), false},
		{jqEnv, "gojq", sh(`gojq -n env`), jqAsk, sh(`jq -e .ok env/health.json`), false},
		{jqEnv, "xq's width abbreviated", sh(`xq --wid 80 env`), jqAsk, sh(`jq -c . env/a.json | head`), false},
		{jqEnv, "yq -n env", sh(`yq -n env`), yqAsk, sh(`yq . env/a.yaml`), false},
		{jqEnv, "yq's env in a pipe", sh(`yq -n 'env | keys'`), yqAsk, sh(`yq -r '.image' env/dev/values.yaml`), false},
	}
}
