package lint

// newRules builds a fresh instance of every rule. A new rule is one new
// rule_*.go file and one line here.
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
