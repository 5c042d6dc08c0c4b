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
# Every section a help text, a source comment or a document cites as docs/NAME.md ("Section") exists there as a
# heading (export --help once cited an "Exporting" section that did not exist).
missing=0
while IFS= read -r ref; do
    f=$(sed -E 's/^(docs\/[a-z-]+\.md).*/\1/' <<<"$ref")
    sec=$(sed -E 's/^docs\/[a-z-]+\.md,? \(?\\?"([^"\\]+)\\?".*/\1/' <<<"$ref")
    # a heading holding the words ("## 4. Fuzzing — ..."), or a paragraph that opens with them (in bold, or "Words:")
    [ -f "$f" ] && { grep -E '^#+ ' "$f" | grep -qiF -- "$sec" || grep -qiF -- "**$sec" "$f" || grep -qi -- "^$sec:" "$f"; } && continue
    echo "FAIL: $ref: no section '$sec' in $f"
    missing=$((missing + 1))
done < <(grep -rhoE 'docs/[a-z-]+\.md,? \(?\\?"[A-Z][^"\\]+\\?"' --include=*.c --include=*.h --include=*.md --include=*.sh \
    --exclude-dir=build --exclude-dir=.git . | sort -u)
[ $missing = 0 ] || exit 1
echo "docs: no issue numbers or lending history in README.md and docs/*.md; every cited section exists"
