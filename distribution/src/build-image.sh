#!/bin/sh
# Builds the runnable nvidb image; run by Maven (exec-maven-plugin) in the `package` phase of
# distribution/, after maven-dependency-plugin has copied every runtime jar of nvidb-cli
# (nvidb-cli itself included) into JARS.
#
#   build-image.sh JARS IMAGE
#
# IMAGE (target/nvidb) afterwards holds
#   runtime/          a JDK 25 runtime cut down with jlink to the JDK modules the jars need
#   lib/              the application's jars, run on the module path (-p lib -m nvidb.cli/...)
#   lib/classpath/    jars that cannot be modules (automatic modules that split a package,
#                     and what requires them); usually absent — see ImageModules.java
#   lib/nvidb.aot     the AOT cache (JEP 483/514) trained on the usual commands; it holds
#                     wherever the image is copied with its files' times (see nvidb.sh)
#   native/           the SQLite JDBC native library, unpacked once here instead of into /tmp
#                     on every start
#   plugins/          an empty folder for site plugins
#   bin/nvidb         the launcher
#   bin/nvidb-train-aot  (re)trains lib/nvidb.aot
#   .stamp            written last; the root ./nvidb script compares sources against it
#
# Environment (set by the POM): NVIDB_BUILD_JAVA_HOME (the JDK running Maven), NVIDB_AOT
# (true/false: train the AOT cache), NVIDB_UPGRADE_OLD_CLASSES (true/false, see ImageJars.java),
# NVIDB_VERSION, NVIDB_EXTRA_JDK_MODULES (JDK modules to link although no jar requires them:
# service providers found at run time).
set -eu

die() { printf 'build-image: %s\n' "$*" >&2; exit 1; }
say() { printf 'build-image: %s\n' "$*"; }

[ $# -eq 2 ] || die "usage: build-image.sh JARS IMAGE"
jars=$1
image=$2
src=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
main_module=nvidb.cli
main_class=nvidb.cli.Main
# The AOT cache's training run: the usual command lines, one after the other in one JVM.
training_class=nvidb.cli.startup.build.AotTraining

# --- find JDK 25 -------------------------------------------------------------------------------
# JAVA_HOME first, then the JDK running Maven, then the system's JVM directory.
jdk_major() { # prints the feature version of the JDK at $1, or nothing
    [ -x "$1/bin/java" ] && [ -x "$1/bin/jlink" ] && [ -f "$1/release" ] || return 0
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"
}
jdk=
tried=
for c in "${JAVA_HOME:-}" "${NVIDB_BUILD_JAVA_HOME:-}" /usr/lib/jvm/*25* /usr/lib/jvm/*-25*/Contents/Home; do
    [ -n "$c" ] && [ -d "$c" ] || continue
    tried="$tried $c"
    if [ "$(jdk_major "$c")" = 25 ]; then jdk=$c; break; fi
done
[ -n "$jdk" ] || die "no JDK 25 found (need bin/java, bin/jlink and release with JAVA_VERSION=\"25...\");" \
    "looked at JAVA_HOME and /usr/lib/jvm/*25*:${tried:- nothing there}. Install a JDK 25 and set JAVA_HOME."
say "JDK: $jdk"

[ -d "$jars" ] || die "no jars staged in $jars (maven-dependency-plugin should have copied them)"
work=${image%/*}/image-work
rm -rf -- "$image" "$work"
mkdir -p -- "$image/lib" "$image/bin" "$image/plugins" "$work"
printf '%s\n' "$jdk" > "$work/jdk" # for src/package.sh, which runs after

# --- lib/: the jars ---------------------------------------------------------------------------------
cp -p -- "$jars"/*.jar "$image/lib/"

# --- native/: the SQLite JDBC native library, unpacked once --------------------------------------
# sqlite-jdbc otherwise extracts it into /tmp on every start. Its own names for the platform:
# os Linux (Linux-Musl on musl), arch x86_64 / aarch64 / ...; the runtime built here is for this
# machine, so this machine decides.
case $(uname -m) in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    armv7* | armv8l) arch=armv7 ;;
    i?86) arch=x86 ;;
    *) arch=$(uname -m) ;;
esac
os=Linux
case $(uname -s) in
    Darwin) os=Mac ;;
    Linux) if ls /lib/ld-musl-* > /dev/null 2>&1; then os=Linux-Musl; fi ;;
esac
sqlite_lib=none
sqlite_jar=
for j in "$image/lib/"sqlite-jdbc-*.jar; do
    [ -f "$j" ] || continue
    for name in libsqlitejdbc.so libsqlitejdbc.dylib; do
        entry=org/sqlite/native/$os/$arch/$name
        (cd "$work" && "$jdk/bin/jar" xf "$j" "$entry")
        if [ -f "$work/$entry" ]; then
            mkdir -p "$image/native"
            cp -- "$work/$entry" "$image/native/$name"
            sqlite_lib=$name
            sqlite_jar=${j##*/}
            break 2
        fi
    done
done
if [ "$sqlite_lib" = none ]; then
    say "warning: no SQLite native library for $os/$arch in sqlite-jdbc; it will unpack one per start"
fi

# Old class files upgraded (ImageJars.java: an AOT cache cannot hold pre-Java-6 classes), and
# sqlite-jdbc's native libraries for other platforms dropped (about 13 MB).
drop=
[ -z "$sqlite_jar" ] || drop="--drop sqlite-jdbc- org/sqlite/native/ org/sqlite/native/$os/$arch/"
upgrade=
[ "${NVIDB_UPGRADE_OLD_CLASSES:-true}" = true ] || upgrade=--no-upgrade
# shellcheck disable=SC2086
"$jdk/bin/java" "$src/ImageJars.java" $upgrade $drop "$image/lib/"*.jar > "$work/jars.log" 2>&1 \
    || { cat "$work/jars.log" >&2; die "rewriting the jars failed"; }
sed 's/^/build-image: /' "$work/jars.log"

# Module path and class path.
"$jdk/bin/java" "$src/ImageModules.java" "$image/lib" "$main_module" > "$work/modules.txt"
if grep -q '^error ' "$work/modules.txt"; then
    sed -n 's/^error /build-image: /p' "$work/modules.txt" >&2
    exit 1
fi
cp_jars=$(sed -n 's/^classpath //p' "$work/modules.txt")
if [ -n "$cp_jars" ]; then
    mkdir -p "$image/lib/classpath"
    for j in $cp_jars; do mv -- "$image/lib/$j" "$image/lib/classpath/"; done
    say "on the class path (automatic modules with split packages and what requires them):" $cp_jars
fi
auto_jars=$(sed -n 's/^automatic [^ ]* //p' "$work/modules.txt")

# --- runtime/: jlink ------------------------------------------------------------------------------
# Explicit modules name their JDK modules in `requires`; for automatic modules and class-path
# jars jdeps reads the classes. Those last ones are also resolved at run time with --add-modules
# (with -m, nothing else would resolve what an automatic module or the class path uses).
jdk_mods=$(sed -n 's/^jdk //p' "$work/modules.txt")
root_mods=
scan=
for j in $auto_jars; do scan="$scan $image/lib/$j"; done
for j in $cp_jars; do scan="$scan $image/lib/classpath/$j"; done
if [ -n "$scan" ]; then
    # shellcheck disable=SC2086
    "$jdk/bin/jdeps" --multi-release 25 --ignore-missing-deps --print-module-deps \
        --class-path "$image/lib/*:$image/lib/classpath/*" $scan > "$work/jdeps.txt" 2>&1 \
        || { cat "$work/jdeps.txt" >&2; die "jdeps failed on$scan"; }
    root_mods=$(tail -n 1 "$work/jdeps.txt")
    # java.base is always resolved; the rest must be named (an automatic module requires nothing).
    root_mods=$(echo "$root_mods" | tr "," "\n" | grep -v "^java\.base$" | paste -sd, - || true)
fi
# Class-path code cannot say which modules it reads: every module of lib/ is resolved for it.
[ -z "$cp_jars" ] || root_mods=${root_mods:+$root_mods,}ALL-MODULE-PATH
# shellcheck disable=SC2086,SC2046 # word splitting wanted: lists of module names
all_mods=$(printf '%s\n' $jdk_mods ${NVIDB_EXTRA_JDK_MODULES:-} $(echo "$root_mods" | tr ',' ' ') \
    | grep -v '^ALL-MODULE-PATH$' | sort -u | paste -sd, -)
say "jlink --add-modules $all_mods"
"$jdk/bin/jlink" --add-modules "$all_mods" \
    --strip-debug --no-header-files --no-man-pages --compress zip-6 \
    --output "$image/runtime" > "$work/jlink.log" 2>&1 || { cat "$work/jlink.log" >&2; die "jlink failed"; }

# --- plugins/ ---------------------------------------------------------------------------------------
cat > "$image/plugins/README" <<'EOF'
Site plugins: drop a plugin (a jar or zip pf4j can load) here; nvidb loads it at start next to the
built-in plugins. Plugins for one user only go to $NVIDB_HOME/plugins instead.
EOF

# --- bin/nvidb ----------------------------------------------------------------------------------------
native_access=ALL-UNNAMED
if grep -q '^module org.xerial.sqlitejdbc ' "$work/modules.txt"; then
    native_access=org.xerial.sqlitejdbc,$native_access
fi
# JLine's FFM terminal provider (the TUI, nvidb queue) calls the C library through the FFM API.
if grep -q '^module org.jline.terminal.ffm ' "$work/modules.txt"; then
    native_access=org.jline.terminal.ffm,$native_access
fi
sed -e "s|@ADD_MODULES@|$root_mods|" -e "s|@NATIVE_ACCESS@|$native_access|" \
    -e "s|@SQLITE_LIB@|$sqlite_lib|" -e "s|@MAIN@|$main_module/$main_class|" \
    -e "s|@AOT_TRAINING_MAIN@|$main_module/$training_class|" \
    -e "s|@VERSION@|${NVIDB_VERSION:-dev}|" \
    "$src/nvidb.sh" > "$image/bin/nvidb"
cp -- "$src/nvidb-train-aot.sh" "$image/bin/nvidb-train-aot"
chmod 755 "$image/bin/nvidb" "$image/bin/nvidb-train-aot"

# --- check: the module graph resolves in the image's own runtime ----------------------------------
cp_arg=
[ -z "$cp_jars" ] || cp_arg="$image/lib/classpath/*"
"$image/runtime/bin/java" -p "$image/lib" ${cp_arg:+-cp "$cp_arg"} ${root_mods:+--add-modules "$root_mods"} \
    --add-modules ALL-MODULE-PATH --dry-run -m "$main_module/$main_class" 2> "$work/resolve.log" \
    || { cat "$work/resolve.log" >&2; die "the image's modules do not resolve (above). A jar missing from lib/?" \
        "Then see: mvn dependency:tree -pl distribution (Maven drops the dependencies of an invalid POM)"; }

# --- AOT cache: train on the usual commands ------------------------------------------------------
# bin/nvidb-train-aot runs them through bin/nvidb (NVIDB_AOT_TRAIN) so that the module path and
# flags are exactly those of every later run.
if [ "${NVIDB_AOT:-true}" = true ]; then
    start=$(date +%s)
    "$image/bin/nvidb-train-aot" > /dev/null || die "training the AOT cache failed (above)"
    say "AOT cache trained in $(($(date +%s) - start))s: $(du -h "$image/lib/nvidb.aot" | cut -f1)"
fi

# --- smoke test: the image's commands run and print nothing but their JSON ------------------------
smoke_home=$work/smoke-home
mkdir -p "$smoke_home"
run_image() { env -u NVIDB_QUEUE_DB -u NVIDB_QUEUE_CONFIG NVIDB_HOME="$smoke_home" "$@"; }
unset NVIDB_JAVA_OPTS
for cmd in "--version" "job ls --json --no-tick" "job submit --json --gpus 0 -- true"; do
    # shellcheck disable=SC2086
    run_image "$image/bin/nvidb" $cmd > "$work/smoke.out" 2> "$work/smoke.err" \
        || { cat "$work/smoke.out" "$work/smoke.err" >&2; die "smoke test failed: nvidb $cmd"; }
    if [ -s "$work/smoke.err" ]; then
        cat "$work/smoke.err" >&2
        die "smoke test: nvidb $cmd wrote to stderr (above)"
    fi
done
grep -q '"ok" *: *true' "$work/smoke.out" || die "smoke test: job submit printed no ok document"
if [ "${NVIDB_AOT:-true}" = true ]; then
    # AOTMode=on fails instead of running on without the cache: proves the launcher's flags fit it.
    NVIDB_JAVA_OPTS="-XX:AOTMode=on -Xlog:aot=error:stderr" run_image "$image/bin/nvidb" --version > /dev/null \
        || die "the AOT cache does not fit the launcher's JVM flags (above)"
fi

printf 'nvidb %s image built %s\n' "${NVIDB_VERSION:-dev}" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$image/.stamp"
say "image ready: $image ($(du -sh "$image" | cut -f1))"
