# Shared by run.sh and verify.sh (sourced).

# input_of DIR: the case folder's input file (input.js, .mjs, .html, .xhtml or .xml);
# empty when it has none.
input_of() {
  local ext
  for ext in js mjs html xhtml xml; do
    if [ -f "$1/input.$ext" ]; then echo "$1/input.$ext"; return; fi
  done
}

# parses FILE: exit 0 when FILE is valid for its kind, JavaScript by `node --check`, XML by
# Python's xml.dom.minidom, an HTML page by `node --check` of its inline scripts' code.
parses() {
  case $1 in
    *.xhtml|*.xml) python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" >/dev/null 2>&1 ;;
    *.html)
      local code
      code=$(mktemp --suffix=.js) || return 1
      python3 "$(dirname "${BASH_SOURCE[0]}")/scripts.py" "$1" "$code" && node --check "$code" >/dev/null 2>&1
      local rc=$?
      rm -f "$code"
      return $rc ;;
    *) node --check "$1" >/dev/null 2>&1 ;;
  esac
}
