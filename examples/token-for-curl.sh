#!/usr/bin/env bash
# A token for curl: drill-token prints an access token, curl sends it.
#
#   npx -p @drill-practice/sandbox drill-sandbox --credentials-dir ./.sandbox &
#   set -a; . ./.sandbox/client.env; set +a
#   PATH="$PWD/node_modules/.bin:$PATH" bash examples/token-for-curl.sh spanish
set -euo pipefail
: "${DRILL_BASE_URL:?set DRILL_BASE_URL (and the other DRILL_* variables, see client.env)}"

query="${1:-spanish}"
token="$(drill-token)"

# --get with --data-urlencode builds the query string; searchField is repeated.
# The header comes from standard input (-H @-), so the token never shows up in
# the process list the way a command-line argument would.
printf 'Authorization: Bearer %s\n' "${token}" | curl --fail-with-body --silent --show-error --get \
  --header @- \
  --data-urlencode "query=${query}" \
  --data-urlencode "searchField=NAME" \
  --data-urlencode "searchField=TAGS" \
  --data-urlencode "resultSize=3" \
  "${DRILL_BASE_URL}/api/2/store"
echo
