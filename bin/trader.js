#!/usr/bin/env sh
':' /*; # The `trader` command, a POSIX sh script and an ES module in one file: sh reads this block, node skips it.
# As a command (npm's bin link, npx, a global install) sh starts node from the start-up snapshot built for this
# installation, this node binary and this build (src/cli/snapshot/, bench/README.md "Start-up"); without one it
# runs this file with node, which asks for a snapshot to be built in the background for the next run.
# `node bin/trader.js` (the tests) skips sh and always takes the plain start. No snapshot with NODE_OPTIONS set
# (V8 flags there, --max-old-space-size…, make node refuse a snapshot built without them), on Windows (sh from
# Git or MSYS2 runs this block there; paths and inodes are not what node sees), or without a cache folder.
# TRADER_SNAPSHOT=off: never the snapshot; =require: fail instead of the plain start; =where: print where the
# snapshot of this installation would be, what identifies it, the node binary and its state, then exit.
# This block must not hold a star followed by a slash: that would end the comment for node.
self=$0
# npm links bin/trader.js as node_modules/.bin/trader or PREFIX/bin/trader: found there with no readlink to run.
if [ -L "$self" ]; then
  for guess in "${self%/*}/../longport-trader/bin/trader.js" "${self%/*}/../lib/node_modules/longport-trader/bin/trader.js"; do
    if [ "$guess" -ef "$self" ]; then
      self=$guess
      break
    fi
  done
fi
while [ -L "$self" ]; do
  link=$(readlink "$self") || break
  case $link in
    /*) self=$link ;;
    *) case $self in *[/]*) self=${self%/*}/$link ;; *) self=$link ;; esac ;;
  esac
done
node=$(command -v node) || node=node
mode=${TRADER_SNAPSHOT-auto}
snapshots=${TRADER_SNAPSHOT_DIR:-${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}}
[ -n "$snapshots" ] && [ -z "${TRADER_SNAPSHOT_DIR-}" ] && snapshots=$snapshots/longport-trader/snapshots
if [ "$mode" != off ] && [ -n "$snapshots" ] && [ "${OS-}" != Windows_NT ] && { [ -z "${NODE_OPTIONS-}" ] || [ "$mode" = where ]; } &&
  case $self in *[/]*) bin=${self%/*} ;; *) bin=. ;; esac && root=$(cd -P -- "$bin/.." 2>/dev/null && pwd -P); then
  # The snapshot is valid for one installation (its folder's inode), one node binary and one build of dist/,
  # each named by inode and size: `ls -iLn` prints inode, mode, links, uid, gid, size, date, name.
  fields() { ino=$1 size=$6; }
  listing=$(ls -iLnd -- "$node" "$root" "$root/dist/cli/main.js" 2>/dev/null)
  nl='
'
  set -f
  IFS=$nl
  for line in $listing; do
    unset IFS
    fields $line
    case $line in
      *" $root/dist/cli/main.js") build="$ino $size" ;;
      *" $root") root_ino=$ino ;;
      *" $node") node_id="$ino $size" ;;
    esac
    IFS=$nl
  done
  unset IFS
  set +f
  entry=$snapshots/$root_ino-${node_id%% *}
  want="$root|$node|$node_id|$build"
  stamp=
  [ -f "$entry/stamp" ] && read -r stamp < "$entry/stamp"
  # ready: built for this want; none: the builder found that this node cannot take a snapshot of this build
  # (error.log beside the stamp says why). A build of dist/ in place (npm run build in a checkout) keeps
  # main.js's inode: the build's own stamp file is then newer than the snapshot's.
  state=missing
  if [ -n "$root_ino" ] && ! [ "$root/dist/.build-js.json" -nt "$entry/stamp" ]; then
    case $stamp in
      "$want") state=ready ;;
      "none|$want") state=none ;;
    esac
  fi
  if [ "$mode" = where ]; then
    printf '%s\n%s\n%s\n%s\n' "$entry" "$want" "$node" "$state"
    exit 0
  fi
  if [ "$state" = ready ]; then
    # One snapshot per kind of command (src/cli/snapshot/bundle.ts): the first word that is not an option.
    profile=main
    for word in "$@"; do
      case $word in
        -*) ;;
        backtest | catalog) profile=$word; break ;;
        optimize | walkforward | check) profile=research; break ;;
        *) break ;;
      esac
    done
    exec "$node" --snapshot-blob "$entry/$profile.blob" -- "$want" "$self" "$@"
  fi
  if [ "$mode" != require ] && [ "$state" = missing ]; then
    TRADER_SNAPSHOT_BUILD="$entry
$want
$node"
    export TRADER_SNAPSHOT_BUILD
  fi
fi
case $mode in
  require) echo "trader: no usable start-up snapshot for this installation and node (TRADER_SNAPSHOT=require)" >&2; exit 1 ;;
  where) exit 1 ;;
esac
exec "$node" "$self" "$@"
*/

// The plain start: the ES modules of dist/ (built from src/ by `npm run build`, which `npm ci` runs).
import { existsSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(new URL('cli/main.js', dist))) {
  process.stderr.write('error: dist/ is not built; run `npm run build` (npm ci and npm install run it)\n');
  process.exit(1);
}
// Set by the sh part above when it found no snapshot for this installation: build one after this command.
const wanted = process.env['TRADER_SNAPSHOT_BUILD'];
if (wanted !== undefined) {
  delete process.env['TRADER_SNAPSHOT_BUILD'];
  const { buildAfterExit } = await import(new URL('cli/snapshot/background.js', dist).href);
  buildAfterExit(wanted);
}
const { main } = await import(new URL('cli/main.js', dist).href);
await main(process.argv.slice(2));
