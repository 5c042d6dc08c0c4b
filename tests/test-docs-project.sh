#!/usr/bin/env bash
# test-docs-project.sh — README.md and docs/*.md speak of the project alone: no issue numbers as history
# ("the cost models of issue 23"), no account of how machines were obtained ("no H200 was lent", "the machine
# lent"), no other sessions ("other helpers"). What was measured is said with its GPU or host, date and command.
#
# Usage: test-docs-project.sh SOURCE_ROOT
# Exit: 0 pass, 1 a document has such a phrase (each printed with its file and line).
set -u
SRC=${1:?usage: test-docs-project.sh SOURCE_ROOT}
cd "$SRC" || exit 1
hits=$(grep -nEi '\bissues? #?[0-9]+\b|\b(was|were|machine|GPU) lent\b|\blent (for|us|a|an)\b|other helpers|helpers'"'"' (load|builds)' \
    README.md docs/*.md)
if [ -n "$hits" ]; then
    echo "FAIL: history or machine-lending in the documents:"
    echo "$hits"
    exit 1
fi
echo "docs: no issue numbers or lending history in README.md and docs/*.md"
