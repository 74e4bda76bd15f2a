package safety

import "strings"

// npm 11's configuration keys as its option parser, nopt, reads them on npm's and npx's command
// line (@npmcli/config's definitions and shorthands, npm 11.19.1), for noptReading: how a key
// takes its value decides which word is npx's or npm exec's command.

// noptKeys are every key: nopt expands a unique prefix of one to it (--ot is --otp).
var noptKeys = wordSet("_auth access all allow-same-version allow-directory allow-file allow-git allow-remote allow-scripts " +
	"also audit audit-level auth-type before bin-links browser bypass-2fa ca cache cache-max cache-min " +
	"cafile call cert cidr color commit-hooks cpu dangerously-allow-all-scripts depth description dev " +
	"diff diff-ignore-all-space diff-name-only diff-no-prefix diff-dst-prefix diff-src-prefix diff-text " +
	"diff-unified dry-run editor engine-strict expect-result-count expect-results expires fetch-retries " +
	"fetch-retry-factor fetch-retry-maxtimeout fetch-retry-mintimeout fetch-timeout force " +
	"foreground-scripts format-package-lock fund git git-tag-version global globalconfig global-style " +
	"heading https-proxy if-present ignore-scripts include include-staged include-workspace-root " +
	"include-attestations init-author-email init-author-name init-author-url init-license init-module " +
	"init-type init-version init-private init.author.email init.author.name init.author.url init.license " +
	"init.module init.version install-links install-strategy json key legacy-bundling legacy-peer-deps " +
	"libc link local-address location lockfile-version loglevel logs-dir logs-max long name maxsockets " +
	"message min-release-age min-release-age-exclude node-gyp node-options noproxy offline omit " +
	"omit-lockfile-registry-resolved only orgs optional os otp package package-lock package-lock-only " +
	"pack-destination packages parseable allow-scripts-pending allow-scripts-pin prefer-dedupe " +
	"prefer-offline prefer-online prefix preid production progress provenance provenance-file proxy " +
	"read-only rebuild-bundle registry replace-registry-host save save-bundle save-dev save-exact " +
	"save-optional save-peer save-prefix save-prod sbom-format sbom-type scope scopes packages-all " +
	"packages-and-scopes-permission orgs-permission password token-description script-shell searchexclude " +
	"searchlimit searchopts searchstaleness shell shrinkwrap sign-git-commit sign-git-tag " +
	"strict-peer-deps strict-allow-scripts strict-ssl tag tag-version-prefix timing umask unicode " +
	"update-notifier usage user-agent userconfig version versions viewer which workspace workspaces " +
	"workspaces-update yes")

// noptBoolKeys are the keys of type Boolean alone: they take the next word only if it is true or
// false. A key nopt does not know is read so too (without "=").
var noptBoolKeys = wordSet("all allow-same-version audit bin-links bypass-2fa commit-hooks dangerously-allow-all-scripts " +
	"description dev diff-ignore-all-space diff-name-only diff-no-prefix diff-text dry-run engine-strict " +
	"force foreground-scripts format-package-lock fund git-tag-version global global-style if-present " +
	"ignore-scripts include-staged include-workspace-root include-attestations init-private install-links " +
	"json legacy-bundling legacy-peer-deps link long offline omit-lockfile-registry-resolved package-lock " +
	"package-lock-only parseable allow-scripts-pending allow-scripts-pin prefer-dedupe prefer-offline " +
	"prefer-online progress provenance read-only rebuild-bundle save save-bundle save-dev save-exact " +
	"save-optional save-peer save-prod packages-all shrinkwrap sign-git-commit sign-git-tag " +
	"strict-peer-deps strict-allow-scripts strict-ssl timing unicode update-notifier usage version " +
	"versions workspaces-update")

// noptStringKeys are the keys of type String alone: they take the next word unless it looks like
// an option (-x, --xy), and are then empty. Every other key not listed as a list takes the next
// word whatever it is (a path: --userconfig -c).
var noptStringKeys = wordSet("call diff-dst-prefix diff-src-prefix editor git heading init-author-email init-author-name " +
	"init-license init-type init.author.email init.author.name init.license message pack-destination " +
	"preid save-prefix scope searchexclude searchopts shell tag tag-version-prefix user-agent viewer")

// noptList is a key whose type is a list of types and values.
type noptList struct {
	boolean, null, number, str bool
	lits                       string // the values it takes by name
}

// noptLists are the keys whose type is a list: one holding Boolean is a flag that takes the next
// word only as one of its values (--color always, --yes null, --browser NAME).
var noptLists = noptListTable("_auth: null str; access: null =restricted|public|private; allow-directory: =all|none|root; " +
	"allow-file: =all|none|root; allow-git: =all|none|root; allow-remote: =all|none|root; " +
	"allow-scripts: str; also: null =dev|development; " +
	"audit-level: null =info|low|moderate|high|critical|none; auth-type: =legacy|web; before: null; " +
	"browser: boolean null str; ca: null str; cert: null str; cidr: null str; " +
	"color: boolean =always; cpu: null str; depth: null number; diff: str; " +
	"expect-result-count: null number; expect-results: boolean null; expires: null number; " +
	"https-proxy: null; include: =prod|dev|optional|peer; init-author-url: =; init.author.url: =; " +
	"install-strategy: =hoisted|nested|shallow|linked; key: null str; libc: null str; " +
	"local-address: null =127.0.0.1|::1|192.0.2.2|fd00::2|fe80::fc:ff:fe00:1; " +
	"location: =global|user|project; lockfile-version: null =1|2|3; " +
	"loglevel: =silent|error|warn|notice|http|info|verbose|silly; logs-dir: null; name: null str; " +
	"min-release-age: null number; min-release-age-exclude: str; node-options: null str; " +
	"noproxy: str; omit: =dev|optional|peer; only: null =prod|production; orgs: null str; " +
	"optional: boolean null; os: null str; otp: null str; package: str; packages: null str; " +
	"production: boolean null; proxy: null =false; replace-registry-host: str =npmjs|never|always; " +
	"sbom-format: =cyclonedx|spdx; sbom-type: =library|application|framework; scopes: null str; " +
	"packages-and-scopes-permission: null =read-only|read-write|no-access; " +
	"orgs-permission: null =read-only|read-write|no-access; password: null str; " +
	"token-description: null str; script-shell: null str; which: null number; workspace: str; " +
	"workspaces: boolean null; yes: boolean null")

// noptShorthandWords are npm's shorthands and what nopt reads each as; a word of one dash or two
// whose letters are all one-letter shorthands is read as each of them (-gp, --sC).
var noptShorthandWords = noptShorthandTable("enjoy-by=--before; d=--loglevel info; dd=--loglevel verbose; ddd=--loglevel silly; " +
	"quiet=--loglevel warn; q=--loglevel warn; s=--loglevel silent; silent=--loglevel silent; " +
	"verbose=--loglevel verbose; desc=--description; help=--usage; local=--no-global; n=--no-yes; " +
	"no=--no-yes; porcelain=--parseable; readonly=--read-only; reg=--registry; " +
	"iwr=--include-workspace-root; ws=--workspaces; a=--all; c=--call; f=--force; g=--global; " +
	"L=--location; l=--long; m=--message; p=--parseable; C=--prefix; S=--save; B=--save-bundle; " +
	"D=--save-dev; E=--save-exact; O=--save-optional; P=--save-prod; ?=--usage; H=--usage; " +
	"h=--usage; v=--version; w=--workspace; y=--yes")

// noptListTable reads noptLists from "key: flags =lit|lit; ...", one string so that npm's many
// repeated names are data, not constants: flags are boolean, null, number and str, and "=" starts
// the values the key takes by name.
func noptListTable(table string) map[string]noptList {
	m := map[string]noptList{}
	for entry := range strings.SplitSeq(table, "; ") {
		key, spec, _ := strings.Cut(entry, ":")
		var l noptList
		for f := range strings.FieldsSeq(spec) {
			switch {
			case strings.HasPrefix(f, "="):
				l.lits = strings.ReplaceAll(f[1:], "|", " ")
			case f == "boolean":
				l.boolean = true
			case f == "null":
				l.null = true
			case f == "number":
				l.number = true
			case f == "str":
				l.str = true
			default:
				panic("nopttables: unknown type " + f + " of " + key)
			}
		}
		m[key] = l
	}
	return m
}

// noptShorthandTable reads noptShorthandWords from "short=expansion; ...".
func noptShorthandTable(table string) map[string]string {
	m := map[string]string{}
	for entry := range strings.SplitSeq(table, "; ") {
		short, expansion, _ := strings.Cut(entry, "=")
		m[short] = expansion
	}
	return m
}
