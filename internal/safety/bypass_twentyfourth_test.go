package safety

// twentyfourthOrdinaryCatalogue holds the twenty-fourth review's over-refusals: ordinary
// developer commands on the project that asked at Default while their neighbours were admitted.
// npm run test asked where npm test, the same package.json script, was admitted (and run-script,
// pnpm run test, yarn run test, npm t). Each near miss is admitted at Default with and without
// project commands; each attack is the nearest spelling that stays held.
func twentyfourthOrdinaryCatalogue() []classCase {
	sh := shCall
	unrec, unknownW := asked(RulePrefixAutonomy+"execute-unrecognized"), asked(RuleUnknownWriter)
	const (
		testScript = "the project's test script by its name is npm test"
	)
	return []classCase{
		{testScript, "npm run test; another script", sh(`npm run test:unit`), unrec, sh(`npm run test`), true},
		{testScript, "npm run-script test; a build script", sh(`npm run-script build`), unrec, sh(`npm run-script test`), true},
		{testScript, "pnpm and yarn run test; yarn's other script", sh(`yarn run lint`), unrec, sh(`pnpm run test && yarn run test`), true},
		{testScript, "npm t; its words still go to the script", sh(`npm t -- --outputFile=/root/.bashrc`), unknownW, sh(`npm t -- --coverage`), false},
		{testScript, "npm run test's words go to the script", sh(`npm run test -- --outputFile=/root/.bashrc`), unknownW,
			sh(`npm run test -- --watch=false`), false},
	}
}

// twentyfourthCatalogue holds the twenty-fourth engine review's rows.
func twentyfourthCatalogue() []classCase {
	return nil
}
