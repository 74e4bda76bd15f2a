package safety

// sixteenthCatalogue holds the sixteenth engine review's rows. A short option that takes a path,
// bundled after options that take none, had its value attached read only when the option opened
// the word: tar -cf.env, tar -cvf/etc/passwd, cp -vt.git/hooks, sort -uo.env, curl -fsSLo.git/…,
// grep -hf.env and kubectl apply -Rf.env were admitted while the same option with its value in
// the next word was judged. getopt reads a bundle letter by letter, and the first letter whose
// option takes a value takes the rest of the word (or the next word): the path reading does the
// same now. dotenv-cli's minimist reads "-e.env.prod" as -e with the value .env.prod, but the
// engine read its letters as options, found a p and asked as for dotenv -p NAME.
func sixteenthCatalogue() []classCase {
	sh := shCall
	zero, noWrite := denied(RulePrefixPathPolicy+"zeroAccess"), denied(RulePrefixPathPolicy+"noWrite")
	const (
		bundle = "a path option's value attached after options that take none"
		dotenv = "dotenv-cli's attached option values read as minimist reads them"
	)
	return []classCase{
		{bundle, "tar -cf.env writes .env", sh(`tar -cf.env src`), zero, sh(`tar -czfdist/x.tgz src`), false},
		{bundle, "tar -cvf/etc/passwd", sh(`tar -cvf/etc/passwd src`), noWrite, sh(`tar -cvf /tmp/src.tar src`), false},
		{bundle, "tar -czf.git/config", sh(`tar -czf.git/config src`), noWrite, sh(`tar -czf dist/x.tgz src`), false},
		{bundle, "tar -cf$HOME/.bashrc", sh(`tar -cf$HOME/.bashrc src`), noWrite, sh(`tar -xzfdist/x.tgz -Cbuild`), false},
		{bundle, "tar -tvf.env reads .env", sh(`tar -tvf.env`), zero, sh(`tar -tvf dist/x.tgz`), false},
		{bundle, "tar -rf.env appends to .env", sh(`tar -rf.env README.md`), zero, sh(`tar -rf dist/x.tar README.md`), false},
		{bundle, "tar -xvC.git extracts into .git", sh(`tar -xvC.git -f x.tar`), noWrite, sh(`tar -xvCbuild -f x.tar`), false},
		{bundle, "ln -sft.git/hooks", sh(`ln -sft.git/hooks ../scripts/pre-commit`), noWrite, sh(`ln -sfn ../lib current`), false},
		{bundle, "cp -vt.git/hooks", sh(`cp -vt.git/hooks hooks/pre-commit`), noWrite, sh(`cp -vt build/hooks hooks/pre-commit`), false},
		{bundle, "cp -rt.git/hooks", sh(`cp -rt.git/hooks hooks`), noWrite, sh(`cp -rtbuild src`), false},
		{bundle, "mv -ft.git/hooks", sh(`mv -ft.git/hooks x`), noWrite, sh(`mv -ft /tmp/old build`), false},
		{bundle, "sort -uo.env", sh(`sort -uo.env x`), zero, sh(`sort -uo out.txt in.txt`), false},
		{bundle, "sort -uo.git/config", sh(`sort -uo.git/config x`), noWrite, sh(`sort -uoout.txt in.txt`), false},
		{bundle, "curl -fsSLo.git/hooks/pre-commit", sh(`curl -fsSLo.git/hooks/pre-commit https://x.example`), noWrite,
			sh(`curl -fsSLo build/x https://x.example`), false},
		{bundle, "unzip -qod.git", sh(`unzip -qod.git x.zip`), noWrite, sh(`unzip -qo x.zip -d build`), false},
		{bundle, "kubectl apply -Rf.env", sh(`kubectl apply -Rf.env`), zero, sh(`kubectl apply -Rf k8s/`), false},
		{bundle, "grep -hf.env reads .env's lines as patterns", sh(`grep -hf.env src`), zero, sh(`grep -hf patterns.txt src`), false},
		{dotenv, "-e.env.prod is -e .env.prod, not -p", sh(`dotenv -e.env.prod -p DB_PASSWORD`), zero, sh(`dotenv -e.env.prod -- make test`), false},
		{dotenv, "-e.env.production before a command that prints", sh(`dotenv -e.env.production -- env`), asked(dc + "print-environment-env"),
			sh(`dotenv -e.env.production -- npm test`), false},
	}
}
