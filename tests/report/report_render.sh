#!/bin/sh
# `candor report`: the page of one app renders in headless Chromium without errors
# (check_page.py), and the check fails on a page broken on purpose (a section gone, a script
# error), so that a passing check means something. Exit 77 (skipped) without Chromium.
set -eu
unset CANDOR_MODEL
candor=$1 machine=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v chromium > /dev/null 2>&1; then
  echo "report_render: SKIPPED: chromium is not installed (Debian: apt-get install chromium)"
  exit 77
fi
rm -rf "$out"
mkdir -p "$out"
cd "$out"
"$candor" report box_blur --search beam --budget time=3s --top 2 --runs 1 --timing-lock none \
  --machine "$machine" --out pages/ > report.txt
cat report.txt
grep -q "wrote pages/box_blur.html" report.txt
python3 "$here/check_page.py" pages/box_blur.html box_blur.png

# The check can fail: a section gone, a script that throws.
sed 's/<section id="loop-nest">/<section id="gone">/' pages/box_blur.html > no_loop_nest.html
sed 's#</body>#<script>null.x;</script></body>#' pages/box_blur.html > script_error.html
for broken in no_loop_nest script_error; do
  if python3 "$here/check_page.py" "$broken.html" "$broken.png" > "$broken.txt"; then
    echo "check_page passed a broken page: $broken.html" >&2
    exit 1
  fi
  cat "$broken.txt"
done
grep -q "section #loop-nest is missing" no_loop_nest.txt
grep -q "console: .*Uncaught TypeError" script_error.txt
