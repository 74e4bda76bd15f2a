package safety

import "testing"

// TestCopyTargetDirectory: the mv -t fix (e7ff3c5b) was mv's alone. cp -t DIR with DIR
// a separate word was read as cp SOURCE DEST: "." becomes the destination, so the project (its
// .env with it) is copied out unjudged, where cp -r . /tmp/x and the attached -t/tmp or
// --target-directory=/tmp ask (contains-protected). cp -r -t ../out . copied .env in the scratch
// directory.
func TestCopyTargetDirectory(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`cp -r -t /tmp .`,
		`cp -rt /tmp .`,
		`cp -rt /tmp ./`,
		`cp -a -t /tmp .`,
		`cp -t /tmp -r .`,
		`cp -R -t /tmp .`,
		`cp --recursive -t /tmp .`,
		`cp -r --target-directory /tmp .`,
		`cp -rt /tmp ..`,
		`cp --target /tmp -r .`,
		`mv -t /tmp .env`,
		`mv --target /tmp LICENSE`,
	}, []string{
		`cp -r -t dist assets`,
		`cp -t dist/ build/app.js`,
		`cp -r assets dist`,
		`mv -t . ../x.txt`, // "." is the destination, not a moved source
	})
}
