#!/usr/bin/env bash
# Real third-party crash oracles for the JavaScript benchmark, with the tools pinned in
# bench/js/package.json. Exit 0 iff the tool crashes with the known message AND the known
# stack frame shows (any other failure, e.g. a syntax error, is not interesting).
#
# Usage: js_crash.sh TOOL FILE
#   terser     terser 5.49.1 `-c` throws "Cannot read properties of null (reading 'length')"
#              in AST_DynamicImport._size on `if (await import(x)) ...`
#   prettier   prettier 2.7.1 throws 'Comment "..." was not printed. Please report this
#              error!' from ensureAllCommentsPrinted on a nested if/else whose inner
#              consequent ends in a line comment
set -euo pipefail
bin=$(cd "$(dirname "$0")/../js/node_modules/.bin" && pwd)
tool=$1
file=$2
case $tool in
  terser)
    out=$("$bin/terser" "$file" -c -o /dev/null 2>&1) || true
    message="Cannot read properties of null (reading 'length')"
    frame="at AST_DynamicImport._size "
    ;;
  prettier)
    out=$("$bin/prettier" --stdin-filepath case.js < "$file" 2>&1 >/dev/null) || true
    message="was not printed. Please report this error!"
    frame="at Object.ensureAllCommentsPrinted "
    ;;
  *)
    echo "unknown tool $tool" >&2
    exit 2
    ;;
esac
grep -qF -- "$message" <<< "$out" && grep -qF -- "$frame" <<< "$out"
