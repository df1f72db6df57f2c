# Sourced by the CLI tests of hostile input. expect_error MESSAGE COMMAND... runs COMMAND
# (at most 60 s) and counts a failure in $failures unless it exits with status 1 and MESSAGE
# is in its stderr.
failures=0
expect_error() {
  local message=$1; shift
  timeout 60 "$@" 2> err.txt > /dev/null
  local status=$?
  if [ "$status" -ne 1 ] || ! grep -qF -- "$message" err.txt; then
    echo "FAIL (status $status): $*"; echo "  wanted: $message"; sed 's/^/  got: /' err.txt | tail -5
    failures=$((failures + 1))
  fi
}
