package safety

// twelfthCatalogue holds the twelfth engine review's rows: the eleventh's leftovers. Hosting
// platforms' CLIs that print or download the environment they keep (netlify env:list|env:get,
// railway variables, vercel env pull), a Key Vault secret downloaded rather than shown, and a
// Lambda function's configuration, which holds its environment's values: each was unread, so
// Yolo admitted it while heroku config, doppler secrets and gcloud secrets versions access ask.
// twelfthCommands are the project's declared uses of the clients whose ordinary commands the
// twelfth review's near misses run.
var twelfthCommands = []ProjectCommand{
	{ID: "netlify", Command: "netlify ..."}, {ID: "railway", Command: "railway ..."}, {ID: "vercel", Command: "vercel ..."},
}

func twelfthCatalogue() []classCase {
	sh := shCall
	cloud, stores, aws := asked(dc+"print-credentials-cloud"), asked(dc+"print-credentials-stores"), asked(dc+"print-credentials-aws")
	const printed = "a client prints or downloads the secrets it manages"
	return []classCase{
		{printed, "netlify env:list", sh(`netlify env:list`), stores, sh(`netlify status`), false},
		{printed, "netlify env:list --plain", sh(`netlify env:list --plain --context production`), stores, sh(`netlify deploy --prod`), false},
		{printed, "netlify env:get", sh(`netlify env:get API_KEY`), stores, sh(`netlify env:set LOG_LEVEL debug`), false},
		{printed, "ntl env:get, the short name", sh(`ntl env:get API_KEY`), stores, sh(`netlify build`), false},
		{printed, "railway variables", sh(`railway variables`), stores, sh(`railway variables --set LOG_LEVEL=debug`), false},
		{printed, "railway variables --kv", sh(`railway variables --service api --kv`), stores, sh(`railway status`), false},
		{printed, "railway vars --json", sh(`railway vars --json`), stores, sh(`railway up`), false},
		{printed, "vercel env pull into a file of any name", sh(`vercel env pull out.txt`), stores, sh(`vercel env ls`), false},
		{printed, "vercel env pull", sh(`vercel env pull --environment=production`), stores, sh(`vercel deploy --prod`), false},
		{printed, "vc env pull, the short name", sh(`vc env pull`), stores, sh(`vercel list`), false},
		{printed, "vercel env with a computed subcommand", sh(`vercel env "$X"`), stores, sh(`vercel env ls production`), false},
		{printed, "az keyvault secret download", sh(`az keyvault secret download --vault-name v -n db -f out.txt`), cloud, sh(`az keyvault secret list --vault-name v`), false},
		{printed, "aws lambda get-function-configuration", sh(`aws lambda get-function-configuration --function-name api`), aws, sh(`aws lambda list-aliases --function-name api`), false},
		{printed, "aws lambda get-function", sh(`aws lambda get-function --function-name api --query Configuration.Environment`), aws, sh(`aws lambda get-policy --function-name api`), false},
		{printed, "aws lambda list-functions", sh(`aws --region eu-west-1 lambda list-functions`), aws, sh(`aws lambda list-layers`), false},
	}
}
