package diag

// The rule catalogue: every rule evdoc reports, with its default severity,
// a one-line description and help text. It is the single answer to "which
// rules exist": SARIF's rules[], `evdoc rules` and docs/guide/rules.md's rule table are
// generated from it, and a test (rules_test.go) fails when a Diagnostic is
// built anywhere in the module with a rule id that is not listed here or
// with one assembled at run time. The models are go/analysis's
// Analyzer{Name, Doc, URL} and Vale's rule definitions.
//
// To add a rule:
//
//  1. add a RuleID constant below, in its group (ids are kebab-case and
//     start with the area that reports them: page-, claim-, translation-,
//     link-, figure-, evidence-, fix-, values-, site-, term-);
//  2. add its Rule entry to Catalogue, in the same order;
//  3. build its diagnostics with the constant (diag.Errorf(pos, diag.X, …)
//     or Diagnostic{Rule: diag.X, …}), never with a string literal, at
//     the default severity (TestEmittedSeverityIsDefault checks it; a rule
//     that reports a second severity says when in its Help and is listed
//     in that test);
//  4. run `go test ./generator/report -update` to regenerate docs/guide/rules.md's
//     rule table (TestRuleTableDoc fails until you do).
//
// A project can change a rule's severity, or turn it off, in evdoc.toml
// (package config reads it into a RuleConfig, which checker.Check
// applies); the catalogue holds only the defaults.

// RuleID identifies a rule: a short kebab-case name such as
// "claim-mismatch", printed in brackets after a diagnostic's message and
// used as the SARIF ruleId. Use the constants below.
type RuleID string

// Page rules: reading a content page and its front matter.
const (
	PagePath        RuleID = "page-path"
	PageFormat      RuleID = "page-format"
	PageFrontMatter RuleID = "page-front-matter"
	PageEmphasis    RuleID = "page-emphasis"
	// PageStrikethrough: a ~ between numbers (3~5초) that Hugo's
	// Markdown reads as strikethrough.
	PageStrikethrough RuleID = "page-strikethrough"
	PageEncoding      RuleID = "page-encoding"
	PageHTML          RuleID = "page-html"
	// PageShortcode: a shortcode call Hugo cannot run (not closed, no
	// template of that name, a closing tag nothing opened).
	PageShortcode RuleID = "page-shortcode"
	PageLimit     RuleID = "page-limit"
	// PageQuotePair and PageParticleSpace are typography as a reader
	// sees it (package style).
	PageQuotePair     RuleID = "page-quote-pair"
	PageParticleSpace RuleID = "page-particle-space"
	// PageHeadingSplit: the end of a heading written on the line below it.
	PageHeadingSplit RuleID = "page-heading-split"
)

// Term rules: the project glossary (glossary.toml, package style).
const (
	TermGlossary RuleID = "term-glossary"
)

// Claim rules: the claims a page makes and their judgement.
const (
	ClaimSyntax       RuleID = "claim-syntax"
	ClaimLiteral      RuleID = "claim-literal"
	ClaimUnitOutside  RuleID = "claim-unit-outside"
	ClaimExemptReason RuleID = "claim-exempt-reason"
	ClaimArity        RuleID = "claim-arity"
	ClaimUnknownRef   RuleID = "claim-unknown-ref"
	ClaimMismatch     RuleID = "claim-mismatch"
	ClaimLabel        RuleID = "claim-label"
	// ClaimSpread: a claim "A ± B" whose ± cannot be told a tool's
	// mean ± spread from a tolerance.
	ClaimSpread     RuleID = "claim-spread"
	ClaimUnbound    RuleID = "claim-unbound"
	ClaimNumberWord RuleID = "claim-number-word"
	ClaimUnchecked  RuleID = "claim-unchecked"
)

// Translation and link rules: how pages relate to each other.
const (
	TranslationClaims       RuleID = "translation-claims"
	TranslationApprox       RuleID = "translation-approx"
	TranslationNumbers      RuleID = "translation-numbers"
	TranslationStructure    RuleID = "translation-structure"
	TranslationStale        RuleID = "translation-stale"
	TranslationI18nString   RuleID = "translation-i18n-string"
	TranslationThemeStrings RuleID = "translation-theme-strings"
	TranslationOrphan       RuleID = "translation-orphan"
	TranslationDuplicateKey RuleID = "translation-duplicate-key"
	LinkMalformed           RuleID = "link-malformed"
	LinkScheme              RuleID = "link-scheme"
	LinkMissingPage         RuleID = "link-missing-page"
	LinkOutputMissing       RuleID = "link-output-missing"
	// LinkOutputPopover: a claim's popover in the built site has no body
	// in the popover file its page loads for the claim's evidence set.
	LinkOutputPopover RuleID = "link-output-popover"
)

// Figure rules: figure specs under figures/ and their use in pages.
const (
	FigureSpec    RuleID = "figure-spec"
	FigureData    RuleID = "figure-data"
	FigureGlyph   RuleID = "figure-glyph"
	FigureStale   RuleID = "figure-stale"
	FigureUnknown RuleID = "figure-unknown"
	// EvtableArgs: an evtable shortcode call the shortcode cannot fill.
	EvtableArgs RuleID = "evtable-args"
)

// Evidence rules: evidence sets, their manifests and derived values.
const (
	EvidenceIO         RuleID = "evidence-io"
	EvidencePath       RuleID = "evidence-path"
	EvidenceEncoding   RuleID = "evidence-encoding"
	EvidenceManifest   RuleID = "evidence-manifest"
	EvidenceOrigin     RuleID = "evidence-origin"
	EvidenceDuplicate  RuleID = "evidence-duplicate"
	EvidenceTable      RuleID = "evidence-table"
	EvidenceTranscript RuleID = "evidence-transcript"
	EvidenceSelect     RuleID = "evidence-select"
	EvidenceUnit       RuleID = "evidence-unit"
	EvidenceDerived    RuleID = "evidence-derived"
	EvidenceLimit      RuleID = "evidence-limit"
	EvidencePageName   RuleID = "evidence-page-name"
)

// Raw-format rules: one per raw-file reader, named "evidence-" + format.
const (
	EvidenceEnvoy         RuleID = "evidence-envoy"
	EvidenceFortioJSON    RuleID = "evidence-fortio-json"
	EvidenceFortioText    RuleID = "evidence-fortio-text"
	EvidenceCurlWriteout  RuleID = "evidence-curl-writeout"
	EvidenceCurlLocale    RuleID = "evidence-curl-locale"
	EvidenceCSV           RuleID = "evidence-csv"
	EvidenceJSON          RuleID = "evidence-json"
	EvidenceIstioctlTable RuleID = "evidence-istioctl-table"
	EvidenceDig           RuleID = "evidence-dig"
	EvidencePrometheus    RuleID = "evidence-prometheus"
	EvidenceVegeta        RuleID = "evidence-vegeta"
	EvidenceWrk           RuleID = "evidence-wrk"
	EvidenceHey           RuleID = "evidence-hey"
	EvidenceOha           RuleID = "evidence-oha"
	EvidenceK6            RuleID = "evidence-k6"
	EvidenceGhz           RuleID = "evidence-ghz"
	EvidenceGoBench       RuleID = "evidence-go-bench"
	EvidenceBenchstat     RuleID = "evidence-benchstat"
	EvidenceTime          RuleID = "evidence-time"
	EvidenceKubectl       RuleID = "evidence-kubectl"
	EvidenceDockerStats   RuleID = "evidence-docker-stats"
	EvidenceAccessLog     RuleID = "evidence-envoy-access-log"
	EvidencePing          RuleID = "evidence-ping"
	EvidenceMtr           RuleID = "evidence-mtr"
	EvidencePattern       RuleID = "evidence-pattern"
	EvidenceNumber        RuleID = "evidence-number"
	EvidenceDecimal       RuleID = "evidence-decimal"
	EvidencePlausible     RuleID = "evidence-plausible"
)

// Command rules: findings of evdoc fix and evdoc values, and of the site
// configuration.
const (
	FixManual  RuleID = "fix-manual"
	FixMarkup  RuleID = "fix-markup"
	FixScale   RuleID = "fix-scale"
	FixChanged RuleID = "fix-changed"
	// LSPCheck: evdoc lsp could not judge an open buffer.
	LSPCheck     RuleID = "lsp-check"
	ValuesIO     RuleID = "values-io"
	ValuesFormat RuleID = "values-format"
	SiteConfig   RuleID = "site-config"
	// SiteComponent: the project's themes/evdoc is not the running
	// evdoc's theme component (written by another evdoc, or changed).
	SiteComponent RuleID = "site-component"
	// SiteThemeHook: a hook file of the component replaces a later
	// theme's file of the same name that has content of its own.
	SiteThemeHook RuleID = "site-theme-hook"
)

// Rule describes one rule of the catalogue.
type Rule struct {
	// ID is the rule's identifier.
	ID RuleID
	// Severity is the default severity of the rule's diagnostics, or Off
	// for a rule that reports nothing unless a project's evdoc.toml gives
	// it a severity; evdoc.toml may change any rule's.
	Severity Severity
	// Doc is a one-line description: what the rule finds, as a sentence.
	Doc string
	// Help says how to resolve a finding, in one or a few sentences.
	Help string
}

// URL returns where the rule is documented: its row in the rule table
// of docs/guide/rules.md.
func (r Rule) URL() string { return DocsURL + "#rule-" + string(r.ID) }

// DocsURL is the page that documents evdoc's rules (docs/guide/rules.md).
const DocsURL = "https://github.com/evdoc-lab/evdoc/blob/main/docs/guide/rules.md"

// Catalogue returns every rule, grouped by area, in a fresh slice.
func Catalogue() []Rule {
	return []Rule{
		{PagePath, Error, "A content file is not a regular file inside content/.",
			"Replace the symbolic link with the page itself."},
		{PageFormat, Error, "A content file Hugo renders is in a format evdoc does not read (.markdown, .mdown, HTML, AsciiDoc, Org, Pandoc, reStructuredText): its numbers would be published unchecked.",
			"Rename a Markdown page to NAME.md (Hugo reads it the same); for another format, write the page in Markdown, or, if it quotes no measured number, lower the rule in evdoc.toml ([rules] page-format = \"warning\" or \"off\")."},
		{PageFrontMatter, Error, "A page's front matter cannot be read.",
			"Write front matter as Hugo reads it: YAML between --- lines, TOML between +++ lines, or one JSON object; close it and fix the syntax error at the position given."},
		{PageEmphasis, Error, "Emphasis delimiters (* or **) would reach the built page as literal text.",
			"Pair every opening run with a closing one; evdoc build makes emphasis next to CJK punctuation render (**「強調」**する), a lone * must be escaped as \\*."},
		{PageStrikethrough, Error, "A ~ written between numbers as a range (3~5초, 10~20%) opens a strikethrough that Hugo's Markdown closes at the next ~: the text between is struck out, both tildes vanish, and the numbers beside them run together (35초).",
			"Write the range with 〜 or ～ (3〜5秒), or escape the tilde (3\\~5); ~~ marks a strikethrough you mean."},
		{PageEncoding, Error, "A page is not valid UTF-8.",
			"Re-save the page as UTF-8; Hugo would publish the bytes unchanged into pages declared UTF-8."},
		{PageHTML, Error, "A page holds raw HTML, which Hugo omits and the build fails on.",
			"Write it in Markdown (a line break: a backslash or two spaces at the end of the line); HTML comments are allowed."},
		{PageShortcode, Error, "A shortcode call Hugo cannot run: it is not closed, no template has its name, or it closes a shortcode that is not open. Hugo fails the build on it.",
			"Close the call with >}} (or %}}), name a shortcode the project, its themes or Hugo provides (layouts/_shortcodes/NAME.html), or write it as text: {{</* NAME */>}}."},
		{PageLimit, Error, "A page nests lists or block quotes deeper than evdoc reads (100 levels).",
			"Flatten the page."},
		{PageQuotePair, Warning, "A straight double quote stays straight in the built page while Hugo's typographer curls the other quotes of its paragraph (a closing \" glued to a Hangul particle is one it cannot place).",
			"Write the curly quote (“ or ”) the position needs, as the suggested fix does, or use 「」."},
		{PageParticleSpace, Warning, "A Korean particle is written apart from the code span before it (`subset` 은).",
			"Attach the particle to the code span (`subset`은), as Korean orthography writes particles; evdoc fix removes the space."},
		{PageHeadingSplit, Warning, "A line right under an ATX heading starts with the punctuation that ends the heading (？, ?, 。, ）): Markdown ends a heading at its line, so the heading loses it and the paragraph below starts with it.",
			"Move the punctuation to the end of the heading line and leave a blank line under the heading, as the suggested fix does."},
		{TermGlossary, Warning, "A page, figure spec or i18n string uses a variant the project glossary (glossary.toml) lists to avoid for a concept in that language.",
			"Write the glossary's preferred term (the suggested fix); if the variant is right in this place, add the longer form to the term's allow list."},

		{ClaimSyntax, Error, "An ev: destination is used where a claim cannot be, or cannot be parsed, or text written as a claim is not read as a link ([5건](ev: SET/NAME): a space after ev:, between ] and (, or inside the destination).",
			"Write a claim as a link [number](ev:SET/NAME,...) with no space in the destination; autolinks and images cannot be claims."},
		{ClaimLiteral, Error, "A claim's link text is not a number evdoc can read.",
			"Write the number as plain text in the link text, in one run, with a known unit."},
		{ClaimUnitOutside, Error, "A unit is written right after a claim link, outside its text, where it is not checked.",
			"Move the unit into the link text: [40초](ev:SET/NAME), not [40](ev:SET/NAME)초; the whole quantity is then judged against the evidence."},
		{ClaimExemptReason, Error, "An ev:exempt marker gives no reason.",
			`Give the reason as the link title: [3 × 3 = 9](ev:exempt "arithmetic illustration").`},
		{ClaimArity, Error, "A claim quotes a different count of numbers than it names references.",
			"Name one evidence reference per number in the link text, left to right."},
		{ClaimUnknownRef, Error, "A claim names an evidence value that does not exist or did not load.",
			"Use a name `evdoc values` lists, or fix the evidence set's errors first."},
		{ClaimMismatch, Error, "A quoted number disagrees with its evidence value at the precision written.",
			"Correct the number (evdoc fix rewrites stale numbers) or the reference."},
		{ClaimLabel, Error, "The statistic written right before a claim (p50, p99, 평균/平均, 최댓값/最大値, 중앙값/中央値…) is not the one its evidence value's name names (…p90, latencies.99th, p(95), rtt.avg…): p50은 [78.1ms](ev:…p90).",
			"Name the value the reference binds, or bind the value the text names."},
		{ClaimSpread, Error, "A claim writes a number after ± (319.5 ± 11.2ms, 120ms ±11%) on a value with no known spread, or on an end of a range: tools print a mean and its spread this way (hyperfine, benchstat), and read as a tolerance the ± would let a wrong mean copied from them pass.",
			"Give each number its reference ([319.5 ± 11.2ms](ev:SET/MEAN,SET/SPREAD)), or bind it to a value that knows its spread, so both numbers are checked (a markdown-tables cell or benchstat row written A ± B, or spreads = { \"*.mean\" = \"*.mean_sd\" } in the manifest entry); for a tolerance of your own, write the range it allows ([318.3~340.7ms])."},
		{ClaimUnbound, Error, "A measured number in prose, or in a shortcode argument a reader sees (a figure caption, a details summary), is neither a claim nor exempt: digits of any script (𝟒𝟎, ٣) or a fraction (½), and a number glued to a unit, a multiplier or a rate (40ms, 1.2k, 3M, 60fps, 5req/s); a name (p99, L7, 2FA, 5G) is not one.",
			`Link it to its evidence as a claim, or mark it [n](ev:exempt "reason").`},
		{ClaimNumberWord, Off, "A number written as a word with a counter (세 번, 二回, ふたつ) in prose is bound to no evidence. Words with another unit (四十秒, 세 시간) and Sino-Korean numerals (오십 번) are not reported.",
			`Off by default; turn it on in evdoc.toml ([rules] claim-number-word = "warning"). Write it as a claim ([두 번](ev:SET/NAME)), or mark it [세 번](ev:exempt "reason") if it is not a measurement.`},
		{ClaimUnchecked, Warning, "A number is published where it cannot be a claim (a front matter title, description, summary or taxonomy term; an image's alt text or title; a link's title), so it is not checked.",
			"State the number in the page's prose as a claim, and leave it out of that place."},

		{TranslationClaims, Error, "A translation's claims differ from its source page's: other evidence values, other numbers, or a flipped comparator (최대 3 vs 3以上).",
			"Quote the same evidence values with literals that agree once normalized (최대 3 = 3まで = at most 3)."},
		{TranslationApprox, Warning, "A translation's claim is approximate where the source's is exact, or the reverse (약 40초 vs 40秒).",
			"Write the approximation mark in both languages or in neither."},
		{TranslationNumbers, Error, "Numbers that are not claims (code, exempt) differ between a translation and its source block, or moved to another block.",
			"Write the same numbers in the aligned section, paragraph, list item or table cell (12,000 = 1万2000)."},
		{TranslationStructure, Error, "A translation's structure differs from its source: headings, tables, code blocks, figures or internal links.",
			"Keep headings (count, levels), tables (rows, numeric cells), code blocks (byte for byte), figures and link targets the same."},
		{TranslationStale, Warning, "The source page changed since the translation was marked in sync (evdoc i18n mark).",
			"Update the translation's changed blocks, then run evdoc i18n mark PAGE."},
		{TranslationI18nString, Error, "An i18n string the layouts use is missing in one language's i18n file.",
			"Add the key to i18n/LANG.toml of every language; Hugo would print an empty string or another language's text."},
		{TranslationThemeStrings, Note, "A host theme's own i18n strings (used and defined only by the theme) are missing for one of the site's languages: one finding per theme and language, at the theme's i18n file.",
			"Add the keys to the project's i18n/LANG.toml (it overrides the theme's), or set this rule to warning or error in evdoc.toml to fail on the theme's gaps."},
		{TranslationOrphan, Warning, "A translation's translationKey matches no source-language page.",
			"Give it the translationKey of its source page; an empty placeholder with nothing to fall back to is an error."},
		{TranslationDuplicateKey, Error, "Two pages of one language share a translationKey.",
			"Give each page of a language its own translationKey."},
		{LinkMalformed, Warning, "A root-relative or relative link cannot be parsed as a URL.",
			"Write the link destination as a valid URL path."},
		{LinkScheme, Error, "A link's URL has a scheme other than http, https or mailto (javascript:, data:, tel:, …): Hugo's template escaper writes #ZgotmplZ in its place, and the build fails on it.",
			"Link with http, https or mailto, or a path inside the site."},
		{LinkMissingPage, Warning, "A root-relative or relative link points to a page the site does not have.",
			"Link to an existing page, or add the page."},
		{LinkOutputMissing, Error, "A link or embedded resource in the site Hugo built (<a href>, <link href>, <img src>, <script src>, …) names a file inside the site that it does not publish (a 404), or an <a> has an empty href; build checks its whole output.",
			"Fix the link or the theme template that writes it, or add the file under static/; write a link to what another server publishes on the same host as a full URL. As a warning (evdoc.toml [rules]) the build goes on and lists the links."},

		{LinkOutputPopover, Error, "A page of the site Hugo built shows a claim whose popover body the reader would not get: the page's <meta name=\"evdoc-popovers\"> (evdoc's head partial) names no popover file for the claim's evidence set (data-ev-s), the file it names is not in the built site or is not a popover file, or it holds no body for the claim's data key; the popover would say that it could not be loaded.",
			"Keep evdoc's head partial in the page's <head> (the theme's head hook, or {{ partial \"evdoc/head.html\" . }}) and the evidence set pages' evdocpop output (evdoc build gives it them; a project's cascade or front matter setting their outputs must keep it). As a warning (evdoc.toml [rules]) the build goes on and lists the files."},

		{FigureSpec, Error, "A figure spec under figures/ is malformed.",
			"Use a kind docs/guide/figures.md documents (timeline, bars, rate, percentiles) with the fields it needs, and a title, caption and alt text for every language."},
		{FigureData, Error, "A figure's evidence values cannot be drawn.",
			"Name evidence values that exist and hold finite numbers; stacked segments must add up to their total."},
		{FigureGlyph, Error, "A figure text holds a character no font of its language's font chain can draw.",
			"Rewrite the character, or add a font with that glyph to the chain (generator/figure/typeset FontChains, assets/fonts)."},
		{FigureStale, Error, "A committed figure under assets/figures does not match its spec and evidence.",
			"Run evdoc figures and commit the regenerated files."},
		{FigureUnknown, Error, "A page includes a figure that has no spec.",
			"Add figures/NAME.toml or correct the evfigure name."},
		{EvtableArgs, Error, "An evtable shortcode call names an argument, set, column or row the shortcode cannot fill (the build would fail or show empty cells).",
			"Use the arguments set, prefix, columns, labels, rows, delta and caption; name a loaded set and values it reads (evdoc values lists them)."},

		{EvidenceIO, Error, "An evidence directory, manifest or raw file cannot be read.",
			"Make the file readable."},
		{EvidencePath, Error, "An evidence file lies outside its set (absolute path, .., symbolic link).",
			"Keep every raw file inside its evidence set directory, as a regular file."},
		{EvidenceEncoding, Error, "An evidence file is not clean UTF-8 text with LF line endings.",
			"Save it as UTF-8 without BOM, with LF line endings."},
		{EvidenceManifest, Error, "An evidence.toml manifest is malformed or names what its files do not hold.",
			"Correct the manifest key the message names; a directory without evidence.toml is only a warning."},
		{EvidenceOrigin, Error, "An evidence set or file does not say how it was obtained (origin raw or transcribed, with a source).",
			"Add origin = \"raw\" (the lab's own output, unchanged) or origin = \"transcribed\" with source = \"document, section\" to the manifest, for the set or per [[file]]."},
		{EvidenceDuplicate, Error, "Two values or entries of an evidence set have the same name.",
			"Give each value a unique name (relabel one)."},
		{EvidenceTable, Error, "A [[table]] entry or its Markdown table cannot be read.",
			"Point heading at the table's heading and relabel rows and columns that do not slug."},
		{EvidenceTranscript, Error, "A [[transcript]] file cannot be read.",
			"Correct the transcript line the message names."},
		{EvidenceSelect, Error, "A [[read]] select names a reading the raw file does not hold.",
			"Run `evdoc values FILE` to list what it holds."},
		{EvidenceUnit, Error, "A value's written unit disagrees with the unit its manifest declares.",
			"Correct the units = {…} declaration."},
		{EvidenceDerived, Error, "A [derived] expression cannot be evaluated.",
			"Fix the expression: unknown names, cycles and division by zero are errors."},
		{EvidenceLimit, Error, "An evidence file is over a limit: its size (--max-file-size) or its nesting depth (manifest TOML, raw JSON).",
			"Trim the file to the part the pages quote, or raise --max-file-size; flatten a deeply nested file."},
		{EvidencePageName, Error, "Two raw evidence files of a set would be published as one page (r.txt and r-txt), or a file as the set's or the manifest's page.",
			"Rename one file so the names differ once dots become dashes (and letters lower case)."},

		{EvidenceEnvoy, Error, "An Envoy admin dump (/stats, /clusters, text or JSON) is malformed.",
			"Capture the admin endpoint output unchanged."},
		{EvidenceFortioJSON, Error, "A fortio result JSON is malformed.",
			"Use the JSON fortio wrote (-json), unchanged."},
		{EvidenceFortioText, Error, "fortio console output is malformed.",
			"Use fortio's console output unchanged."},
		{EvidenceCurlWriteout, Error, "curl -w write-out output is malformed.",
			"Use the write-out lines curl printed, unchanged."},
		{EvidenceCurlLocale, Warning, "A curl write-out number uses a locale decimal comma.",
			"Capture with LC_ALL=C so curl writes a decimal point."},
		{EvidenceCSV, Error, "A CSV file or its count_where predicate is malformed.",
			"Correct the row or predicate the message names."},
		{EvidenceJSON, Error, "A JSON file or one of its paths is malformed.",
			"Correct the JSON or the path the message names."},
		{EvidenceIstioctlTable, Error, "An istioctl table is malformed.",
			"Use the table istioctl printed, unchanged."},
		{EvidenceDig, Error, "dig output is malformed.",
			"Use the output dig printed, unchanged."},
		{EvidencePrometheus, Error, "A Prometheus text exposition file (/stats/prometheus, /metrics) is malformed.",
			"Use the text the endpoint served, unchanged."},
		{EvidenceVegeta, Error, "A vegeta report (text or -type=json) is malformed.",
			"Use the report vegeta printed, unchanged."},
		{EvidenceWrk, Error, "wrk or wrk2 output is malformed.",
			"Use the output wrk printed, unchanged."},
		{EvidenceHey, Error, "hey output is malformed.",
			"Use the summary hey printed, unchanged."},
		{EvidenceOha, Error, "oha's text summary is malformed.",
			"Use the summary oha printed, unchanged."},
		{EvidenceK6, Error, "A k6 end-of-test summary (text or --summary-export JSON) is malformed.",
			"Use the summary k6 printed or exported, unchanged."},
		{EvidenceGhz, Error, "ghz output (JSON, InfluxDB line or summary text) is malformed.",
			"Use the output ghz wrote, unchanged."},
		{EvidenceGoBench, Error, "go test -bench output is malformed.",
			"Use the output go test printed, unchanged."},
		{EvidenceBenchstat, Error, "A benchstat table is malformed.",
			"Use the table benchstat printed, unchanged."},
		{EvidenceTime, Error, "The output of the shell's time or GNU /usr/bin/time is malformed.",
			"Use the lines time printed, unchanged."},
		{EvidenceKubectl, Error, "A kubectl table (top, get) or metrics API JSON is malformed.",
			"Use the output kubectl printed, unchanged."},
		{EvidenceDockerStats, Error, "docker stats output (its table or --format JSON lines) is malformed, or a value has a unit docker does not print in its column.",
			"Use the output docker stats --no-stream printed, unchanged."},
		{EvidenceAccessLog, Error, "An Envoy or Istio access log (default text format or JSON) or its count_where predicate is malformed.",
			"Use the log lines the proxy wrote, unchanged; correct the predicate the message names."},
		{EvidencePing, Error, "ping output is malformed.",
			"Use the output ping printed, unchanged."},
		{EvidenceMtr, Error, "An mtr report is malformed.",
			"Use the report mtr printed (mtr -r), unchanged."},
		{EvidencePattern, Error, "A [[read]] entry of format \"pattern\" has a malformed pattern, or its file has no line the patterns read.",
			"Correct the pattern the message names (a Go regular expression with named groups or %{NUMBER:name}); `evdoc values FILE` lists what a file holds."},
		{EvidenceNumber, Warning, "A raw token looks numeric but is not read, or a comma was read as a decimal mark the manifest does not declare.",
			"Declare decimal = \".\" or \",\" for the file, or write the value as one number."},
		{EvidenceDecimal, Error, "A number's comma is ambiguous (1,232: thousands or decimal?) or contradicts the declared decimal mark.",
			"Declare decimal = \".\" or \",\" in the manifest entry (or at its top)."},
		{EvidencePlausible, Warning, "A raw value is implausible in the unit its format gives it: curl's time_* written as an integer (curl 7.74.0 printed microseconds), or a value 1000× or more its siblings of the same key and written without their fraction.",
			"Check the tool's version and the raw file; declare the unit the file really records, or recapture."},

		{FixManual, Error, "A stale number cannot be rewritten automatically.",
			"Resolve the unit, sign or precision problem by hand."},
		{FixMarkup, Error, "A stale number is split by inline markup, so evdoc fix cannot rewrite it.",
			"Write the number as one run of the link text, then rerun evdoc fix."},
		{FixScale, Error, "evdoc fix would change a number by a factor of 1000 or more, which is almost always a unit or digit-grouping mistake.",
			"Check the claim's unit and the raw value; pass --allow-scale to rewrite it anyway."},
		{FixChanged, Error, "A page changed between reading and writing, so evdoc fix left it alone.",
			"Rerun evdoc fix."},
		{LSPCheck, Error, "evdoc lsp could not judge an open page: the project cannot be loaded, the buffer cannot be read as a page, or an internal error stopped the check; the editor shows no verdict for it until an edit or save judges it again.",
			"Fix what the message names (the project's hugo.toml or evdoc.toml, the page's size or encoding) and save; run evdoc check on the saved project for the same verdicts on the command line. An internal error is a bug of evdoc: its message names the request."},
		{ValuesIO, Error, "evdoc values cannot read a file it was given.",
			"Give an existing, readable file."},
		{ValuesFormat, Error, "evdoc values --as names an unknown format, or the format guessed for a raw file reads no value.",
			"Use one of the formats the message lists."},
		{SiteConfig, Error, "A project configuration file (hugo.toml, evdoc.toml) is invalid.",
			"Correct the file at the position given; `evdoc rules` lists the rule ids evdoc.toml may set."},
		{SiteComponent, Error, "The project's themes/evdoc is not this evdoc's theme component: an older (or newer) evdoc wrote it, or it was changed, so Hugo would run templates that do not match the pages evdoc generates.",
			"Run `evdoc init` to update it; keep changes to the component's templates in the project's layouts/, which take precedence over themes."},
		{SiteThemeHook, Warning, "A hook file evdoc's component fills for the themes it knows (listed first, it wins) has the name of a file of your theme that is not empty, so the theme's own content there is lost from every page.",
			"Create the file the message names in the project's layouts/ with the theme's content and evdoc's call from the component's file: the project's file takes the place of both."},
	}
}

// ParseRuleID returns the catalogue rule id spelled s, as a configuration
// file or command line gives it.
func ParseRuleID(s string) (RuleID, bool) {
	r, ok := LookupRule(RuleID(s))
	return r.ID, ok
}

// LookupRule returns the catalogue entry of id.
func LookupRule(id RuleID) (Rule, bool) {
	for _, r := range Catalogue() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Off is the setting of a rule that is turned off, in RuleConfig or as a
// catalogue default: its diagnostics are dropped. No Diagnostic carries it.
const Off Severity = "off"

// RuleConfig is a project's per-rule settings (evdoc.toml's [rules]):
// each listed rule's diagnostics get the severity given, or are dropped
// when it is Off. Rules not listed keep the severity they were reported
// with (the catalogue's default), except that the diagnostics of a rule
// whose default is Off are dropped.
type RuleConfig map[RuleID]Severity

// Enabled reports whether rule's diagnostics survive Apply: its setting in
// c, or else its catalogue default, is not Off. A stage may skip work for
// a rule that is not enabled.
func (c RuleConfig) Enabled(rule RuleID) bool {
	return c.Severity(rule) != Off
}

// Severity returns rule's effective severity: its setting in c, else its
// catalogue default; a rule the catalogue does not know is Error.
func (c RuleConfig) Severity(rule RuleID) Severity {
	if sev, ok := c[rule]; ok {
		return sev
	}
	if r, ok := LookupRule(rule); ok {
		return r.Severity
	}
	return Error
}

// Apply returns ds with c's settings applied, in order. ds is not
// modified.
func (c RuleConfig) Apply(ds List) List {
	defaults := map[RuleID]Severity{}
	for _, r := range Catalogue() {
		defaults[r.ID] = r.Severity
	}
	out := make(List, 0, len(ds))
	for _, d := range ds {
		sev, ok := c[d.Rule]
		switch {
		case ok && sev == Off, !ok && defaults[d.Rule] == Off:
			continue
		case ok:
			d.Severity = sev
		}
		out = append(out, d)
	}
	return out
}
