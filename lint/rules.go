package lint

// newRules builds a fresh instance of every rule. A new rule is one new
// rule_*.go file, one line here, and two cases named after it: the mistake
// in testdata/err and a near miss in testdata/ok (see corpus_test.go).
func newRules() []Rule {
	return []Rule{
		newJSONSyntax(),
		newDuplicateKey(),
		newRootShape(),
		newUnknownEvent(),
		newKeyCase(),
		newUnknownField(),
		newEventShape(),
		newIgnoredMatcher(),
		newMatcherSyntax(),
		newMatcherNoTool(),
		newHandlerType(),
		newMissingCommand(),
		newTimeoutValue(),
		newEnabledType(),
		newEmptyHook(),
		newScriptNotFound(),
		newScriptNotExecutable(),
		newScriptShebang(),
		newUnsafePermissions(),
		newDuplicateHandler(),
		newDangerousCommand(),
		newShadowedHook(),
		newForeignFormat(),
		newForeignTool(),
		newSchemaKey(),
		newPlatformSpecific(),
		newForeignVariable(),
		newForeignPayload(),
		newMisplacedConfig(),
		newOutsideLink(),
		newAgentVersion(),
		newControlCharacter(),
		newConfusableName(),
		newShellSyntax(),
		newLiteralAnswer(),
		newArgumentPath(),
		newShellCheck(),
		// Last: it names what the rules above left unnamed.
		newAgentDecode(),
	}
}
