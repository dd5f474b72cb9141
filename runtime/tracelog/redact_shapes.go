package tracelog

import "strings"

// The shapes of tokens and of passwords written in commands come from the
// rules of gitleaks (github.com/gitleaks/gitleaks, config/gitleaks.toml,
// v8.30.1): github-pat, github-oauth, github-app-token,
// github-refresh-token, github-fine-grained-pat, gitlab-pat,
// openai-api-key and anthropic-api-key (sk-), stripe-access-token,
// slack-bot-token, slack-user-token, slack-legacy-token, slack-app-token,
// aws-access-token, gcp-api-key, jwt, npm-access-token,
// huggingface-access-token, private-key and curl-auth-user. They are
// matched by hand, a byte at a time, rather than by those expressions: a
// payload's every string is scanned on the hot path of a traced handler.

// scanToken returns the length of the token of a known shape that starts
// at s[i], 0 when none does. s[i] starts a word.
func scanToken(s string, i int) int {
	rest := s[i:]
	if len(rest) < 8 {
		return 0
	}
	switch rest[0] {
	case 'g':
		// ghp_, gho_, ghu_, ghs_, ghr_ and 36 letters or digits.
		if rest[1] == 'h' && strings.IndexByte("pousr", rest[2]) >= 0 && rest[3] == '_' {
			return exactly(rest, 4, 36, isAlnum)
		}
		if strings.HasPrefix(rest, "github_pat_") {
			return atLeast(rest, len("github_pat_"), 82, isWord)
		}
		if strings.HasPrefix(rest, "glpat-") {
			return atLeast(rest, len("glpat-"), 20, isWordDash)
		}
	case 's', 'r':
		// sk-... (OpenAI's and Anthropic's keys); sk_live_, rk_test_
		// (Stripe's).
		if strings.HasPrefix(rest, "sk-") {
			return atLeast(rest, 3, 20, isWordDash)
		}
		if rest[1] == 'k' && rest[2] == '_' {
			for _, env := range [...]string{"test_", "live_", "prod_"} {
				if strings.HasPrefix(rest[3:], env) {
					return atLeast(rest, 3+len(env), 10, isAlnum)
				}
			}
		}
	case 'x':
		// xoxb-, xoxp-, xoxe-, xoxa-, xoxr-, xoxo-, xoxs- (Slack's);
		// xapp-.
		if strings.HasPrefix(rest, "xox") && strings.IndexByte("abposer", rest[3]) >= 0 && rest[4] == '-' {
			return atLeast(rest, 5, 10, isWordDash)
		}
		if strings.HasPrefix(rest, "xapp-") {
			return atLeast(rest, 5, 10, isWordDash)
		}
	case 'A':
		// AKIA, ASIA, ABIA, ACCA, A3T? and 16 of A-Z2-7 (AWS's); AIza and
		// 35 (Google's).
		for _, p := range [...]string{"AKIA", "ASIA", "ABIA", "ACCA"} {
			if strings.HasPrefix(rest, p) {
				return exactly(rest, 4, 16, isBase32)
			}
		}
		if strings.HasPrefix(rest, "A3T") && isAlnum(rest[3]) {
			return exactly(rest, 4, 16, isBase32)
		}
		if strings.HasPrefix(rest, "AIza") {
			return atLeast(rest, 4, 35, isWordDash)
		}
	case 'e':
		return jwt(rest)
	case 'n':
		if strings.HasPrefix(rest, "npm_") {
			return exactly(rest, 4, 36, isAlnum)
		}
	case 'h':
		if strings.HasPrefix(rest, "hf_") {
			return exactly(rest, 3, 34, isLetter)
		}
	case '-':
		return privateKey(rest)
	}
	return 0
}

// exactly returns from+n when s[from:from+n] are all of class and the
// token ends there, else 0.
func exactly(s string, from, n int, class func(byte) bool) int {
	end := from
	for end < len(s) && class(s[end]) {
		end++
	}
	if end-from != n || end < len(s) && isNameByte(s[end]) {
		return 0
	}
	return end
}

// atLeast returns the end of the run of class from s[from] when it is n
// long or more, else 0.
func atLeast(s string, from, n int, class func(byte) bool) int {
	end := from
	for end < len(s) && class(s[end]) {
		end++
	}
	if end-from < n {
		return 0
	}
	return end
}

// jwt returns the length of a JSON Web Token at the start of s: three
// parts separated by dots, the first two of base64url JSON ("ey..."), the
// signature possibly empty.
func jwt(s string) int {
	i := 0
	for range 2 {
		if !strings.HasPrefix(s[i:], "ey") {
			return 0
		}
		end := atLeast(s, i+2, 17, isBase64URL)
		if end == 0 || end >= len(s) || s[end] != '.' {
			return 0
		}
		i = end + 1
	}
	end := i
	for end < len(s) && (isBase64URL(s[end]) || s[end] == '/' || s[end] == '\\') {
		end++
	}
	for end < len(s) && s[end] == '=' {
		end++
	}
	return end
}

// privateKey returns the length of a PEM private key block at the start of
// s, up to its END line, or to the end of s when it has none.
func privateKey(s string) int {
	if !strings.HasPrefix(s, "-----BEGIN ") {
		return 0
	}
	head, _, ok := strings.Cut(s[len("-----BEGIN "):], "-----")
	if !ok || !strings.HasSuffix(head, "PRIVATE KEY") && !strings.HasSuffix(head, "PRIVATE KEY BLOCK") || len(head) > 100 {
		return 0
	}
	if e := strings.Index(s, "-----END "); e >= 0 {
		if k := strings.Index(s[e+len("-----END "):], "-----"); k >= 0 {
			return e + len("-----END ") + k + len("-----")
		}
	}
	return len(s)
}

// passwordAt returns the span of a password written at s[i]: the
// password of a URL's user (at "://"), of curl's -u/--user user:PASSWORD,
// or mysql's -pPASSWORD (when curl and mysql say whether s names curl,
// and mysql or mariadb). from == to when there is none.
func passwordAt(s string, i int, curl, mysql bool) (from, to int) {
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "://"):
		// user:password@host, before the first / of the path.
		start := i + 3
		end := start
		for end < len(s) && !strings.ContainsRune("/@ \t\n\"'?#", rune(s[end])) {
			end++
		}
		if end < len(s) && s[end] == '@' {
			if c := strings.IndexByte(s[start:end], ':'); c >= 0 && start+c+1 < end {
				return start + c + 1, end
			}
		}
	case curl && (strings.HasPrefix(rest, "-u ") || strings.HasPrefix(rest, "--user ") || strings.HasPrefix(rest, "--user=") || strings.HasPrefix(rest, "-u=")):
		if i > 0 && !isBlankByte(s[i-1]) {
			return 0, 0
		}
		start := i + strings.IndexAny(rest, " =") + 1
		start = skipBlanks(s, start)
		quote := byte(0)
		if start < len(s) && (s[start] == '"' || s[start] == '\'') {
			quote = s[start]
			start++
		}
		end := start
		for end < len(s) && (quote != 0 && s[end] != quote || quote == 0 && !isBlankByte(s[end]) && s[end] != '"' && s[end] != '\'') {
			end++
		}
		if c := strings.IndexByte(s[start:end], ':'); c >= 0 && start+c+1 < end {
			return start + c + 1, end
		}
	case mysql && strings.HasPrefix(rest, "-p") && len(rest) > 2 && !isBlankByte(rest[2]) && (i == 0 || isBlankByte(s[i-1])):
		end := valueEnd(s, i+2, false)
		if q := s[i+2]; (q == '"' || q == '\'') && end-(i+2) >= 2 {
			return i + 3, end - 1
		}
		return i + 2, end
	}
	return 0, 0
}

func isBlankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isWord(c byte) bool { return isAlnum(c) || c == '_' }

func isWordDash(c byte) bool { return isWord(c) || c == '-' }

func isBase64URL(c byte) bool { return isWordDash(c) }

func isBase32(c byte) bool { return 'A' <= c && c <= 'Z' || '2' <= c && c <= '7' }
