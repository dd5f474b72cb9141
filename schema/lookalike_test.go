package schema

import "testing"

// TestLookAlike: names that read as others are named with the code points
// at fault; names in one script, or with letters that look like no ASCII
// one, are not.
func TestLookAlike(t *testing.T) {
	for name, want := range map[string]string{
		"hooks/gаte.sh": `mixes the Latin and Cyrillic scripts in one word: U+0430 CYRILLIC SMALL LETTER A (looks like "a")`,
		"асе":           `holds characters that look like others: U+0430 CYRILLIC SMALL LETTER A (looks like "a"), U+0441 CYRILLIC SMALL LETTER ES (looks like "c"), U+0435 CYRILLIC SMALL LETTER IE (looks like "e")`,
		"ｆormat":        `holds characters that look like others: U+FF46 FULLWIDTH LATIN SMALL LETTER F (looks like "f")`,
		"hooks∕gate.sh": `holds characters that look like others: U+2215 DIVISION SLASH (looks like "/")`,
		"ga\u200bte":    `holds characters that look like others: U+200B ZERO WIDTH SPACE (shows nothing)`,
		"𝐠ate":          `holds characters that look like others: U+1D420 MATHEMATICAL BOLD SMALL G (looks like "g")`,
		"gate.sh":       "",
		"привет.sh":     "",
		"日本語テスト":        "",
		"café-Müller":   "",
		"":              "",
	} {
		if got := LookAlike(name); got != want {
			t.Errorf("LookAlike(%q)\n = %s\nwant %s", name, got, want)
		}
	}
	if got := LookAlikeAs("./hooks/gаte\u200b.sh"); got != "./hooks/gate.sh" {
		t.Errorf("LookAlikeAs = %q", got)
	}
}

// TestLookAlikeHook names a hook whose name reads as another, with where
// it is defined and what it reads as, and says nothing of a plain name.
func TestLookAlikeHook(t *testing.T) {
	want := `the hook gаte (.agents/hooks.json:3) mixes the Latin and Cyrillic scripts in one word: U+0430 CYRILLIC SMALL LETTER A (looks like "a"); it reads as gate`
	if got := LookAlikeHook("gаte", ".agents/hooks.json", 3); got != want {
		t.Errorf("LookAlikeHook = %s\nwant %s", got, want)
	}
	if got := LookAlikeHook("gate", ".agents/hooks.json", 3); got != "" {
		t.Errorf("plain name: %q", got)
	}
}
