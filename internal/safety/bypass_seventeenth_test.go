package safety

// seventeenthCatalogue holds the seventeenth engine review's rows: git push's --repo=REMOTE
// stepping around a project rule written for the remote as an operand.
func seventeenthCatalogue() []classCase {
	sh := shCall
	pushProd := asked(dc + "git-push-prod")
	const (
		pushRepo = "git push's --repo names the remote, as its operand does"
	)
	return []classCase{
		{pushRepo, "--repo=prod", sh(`git push --repo=prod`), pushProd, sh(`git push --repo=origin`), false},
		{pushRepo, "--repo prod apart", sh(`git push --repo prod`), pushProd, sh(`git push --repo origin`), false},
		{pushRepo, "-u --repo=prod main", sh(`git push -u --repo=prod main`), pushProd, sh(`git push -u --repo=origin main`), false},
		{pushRepo, "abbreviated --rep=", sh(`git push --rep=prod main`), pushProd, sh(`git push --rep=staging main`), false},
		{pushRepo, "past git -C", sh(`git -C ../deploy push --no-verify --repo=prod`), pushProd,
			sh(`git -C ../deploy push --no-verify --repo=origin`), false},
		{pushRepo, "a remote whose name starts with prod is another", sh(`git push --repo=prod main`), pushProd,
			sh(`git push --repo=production-mirror main`), false},
	}
}
