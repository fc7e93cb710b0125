#!/usr/bin/env bash
# Fails when a Go or Markdown file outside CHANGELOG.md narrates past work:
# numbered work sessions or log entries, "the previous build". The project
# speaks in the present tense about itself; git history and CHANGELOG.md
# hold the past.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='sessions? [0-9]+|until session|previous build|earlier build'
if hits=$(git grep -niE "$pattern" -- '*.go' '*.md' ':!CHANGELOG.md'); then
	echo "These lines narrate past work; say what is true now (history belongs in git and CHANGELOG.md):" >&2
	echo "$hits" >&2
	exit 1
fi
