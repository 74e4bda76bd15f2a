package safety

import "testing"

// TestBfsIsReadAsFind: bfs, a find with find's expression, was an unrecognised program, admitted
// at Yolo whatever it deleted or ran unless a protected path was one of its words (bfs . -name
// settings.json -delete, bfs . -rm, bfs . -exec cat {} + were).
// It is now read as find, with its own primaries (-rm deletes as -delete does; -exclude EXPR
// leaves out what EXPR matches, so the tests in it narrow nothing; -printx prints for xargs) and
// its starting points anywhere among its words (bfs -name x -delete .claude deletes below .claude).
// fd and fdfind run a command per match with -x/-X: every such fd asks, hidden files or not, as
// before (the fd rows guard it).
func TestBfsIsReadAsFind(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`bfs . -exec cat {} +`,
		`bfs . -hidden -exec cat {} +`,
		`bfs . -name settings.json -delete`,
		`bfs . -name settings.json -rm`,
		`bfs . -rm`,
		`bfs / -rm`,
		`bfs -S dfs .claude -name x -delete`,
		`bfs -j4 .claude -delete`,
		`bfs . -exclude -name '*.go' -delete`,
		`bfs -name foo.md -delete .claude`,
		`bfs -name x -rm -L .cursor`,
		`bfs -name x -f .claude -delete`,
		`bfs . -name .env -printx | xargs cat`,
		`/usr/bin/bfs . -name HEAD -delete`,
		`find . -name x -exec rm {} \; .claude`, // GNU find refuses a path after its expression; read as bfs does
		// refused before; they stay refused
		`bfs . -name .env -exec cat {} \;`,
		`fd -H -x cat`,
		`fd -H . -X cat`,
		`fd -u env -x cat {}`,
		`fdfind -H -x cat`,
		`fd -Hxcat`,
		`fd --hidden --exec=rm`,
		`fd -I -X cat`,
	}, []string{
		`bfs . -type f`,
		`bfs -H . -name '*.go'`,
		`bfs -nohidden -name '*.go'`,
		`bfs . -name '*.log' -rm`,
		`bfs -depth 2 -name '*.log' -delete`,
		`bfs . -name node_modules -exec rm -rf {} +`,
		`find . -name '*.log' -delete`,
		`find . -type f -name '*.go' -newer go.mod -print`,
		`find . -perm -644 -size +1M`,
		`fd -e go`,
		`fd -H env`,
	})
}
