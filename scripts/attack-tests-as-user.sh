#!/usr/bin/env bash
# The attack tests again with the worker as a normal user (issue 36: "run them with the
# worker as root and as a normal user"). A root CI runs the suite as root, where agent
# commands drop to the sandbox user through idmapped binds; here the whole worker is
# uid 65534, so the sandbox takes the unprivileged user-namespace path instead. It runs
# on a copy of the checkout owned by that user (the clone may sit in a 0700 directory).
# Usage (as root, from the checkout): bash scripts/attack-tests-as-user.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# It copies the directory it is in: never anything but this checkout (a copy of the script
# run from elsewhere once copied the whole root filesystem into /tmp and filled the disk).
[ -f package.json ] && [ -f scripts/attack-tests-as-user.sh ] || { echo "attack tests as a normal user: run it as scripts/attack-tests-as-user.sh of a checkout ($PWD is not one)" >&2; exit 1; }
uid=65534
if [ "$(id -u)" != 0 ]; then echo "attack tests as a normal user: needs root to switch user; skipped"; exit 0; fi
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
chmod 755 "$base"
mkdir "$base/repo" "$base/home"
# Everything but .tools (the cluster provisioning may be writing there) and .test-build
# (the runs' compiled test trees, rebuilt by the copy's own run): the Temporal CLI
# is one static binary, copied alone.
tar -c --exclude=./.tools --exclude=./.test-build -f - . | tar -x -C "$base/repo"
temporal=$(node scripts/setup-temporal.mjs --quiet | tail -n 1)
mkdir -p "$base/repo/.tools/bin" && cp "$temporal" "$base/repo/.tools/bin/temporal"
printf "[user]\n\tname = CI\n\temail = ci@example.invalid\n" > "$base/home/.gitconfig"
chown -R "$uid:$uid" "$base"
cd "$base/repo"
setpriv --reuid "$uid" --regid "$uid" --clear-groups \
  env HOME="$base/home" TEMPORAL_CLI_PATH="$base/repo/.tools/bin/temporal" \
  node scripts/run-tests.mjs test/workflows/attack- test/activities/tools/sandbox test/activities/environment/attack- test/activities/environment/sandboxed-setup-runner
