package trust

import "github.com/hookctl/hookctl/internal/lazyre"

// PHP is not read: no php was at hand to check a reading against, so
// each line of a PHP script that may load code (include, include_once,
// require, require_once, eval) is named at its line instead of followed.
var phpLoad = lazyre.New(`(?i)\b(?:include|include_once|require|require_once|eval)\b`)

// php names the lines of a PHP script that load code.
func (c *coverage) php(cmd *Command, content []byte, name string) {
	lines := lineCounter{b: content}
	var gaps []string
	last := 0
	for _, m := range phpLoad().FindAllIndex(content, -1) {
		if n := lines.at(m[0]); n != last {
			last = n
			gaps = append(gaps, loadGap(name, n, "loads a PHP file, which hookctl does not follow"))
		}
	}
	addGaps(cmd, gaps)
	textStarting(cmd, content, phpStarts, name, phpStartWords)
}
