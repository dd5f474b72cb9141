#!/bin/sh
# Lock files change through the package manager only.
if grep -Eq '(package-lock\.json|pnpm-lock\.yaml|yarn\.lock)'; then
	echo "edit package.json and run the package manager instead" >&2
	exit 2
fi
