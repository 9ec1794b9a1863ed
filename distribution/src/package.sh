#!/bin/sh
# Builds the release packages from the finished image; run by Maven (exec-maven-plugin) in the
# `package` phase of distribution/, right after build-image.sh.
#
#   package.sh IMAGE OUT VERSION
#
# Adds to IMAGE (so the built image, the tarball and the package hold the same):
#   share/bash-completion/completions/nvidb, share/zsh/site-functions/_nvidb,
#   share/fish/vendor_completions.d/nvidb.fish   written by the image itself (nvidb completion)
#   share/man/man1/nvidb*.1.gz                   one page per command (nvidb manpages)
#   share/doc/nvidb/licenses/                    every bundled library's licence (ImageLicenses.java)
# and writes into OUT:
#   nvidb-VERSION-linux-ARCH.tar.gz   the image as nvidb-VERSION/, to extract anywhere
#   nvidb_VERSION_DEBARCH.deb         the image in /opt/nvidb, /usr/bin/nvidb, the completions,
#                                     manual pages and licences where the system looks, and the
#                                     keeper's systemd user unit (src/nvidb-queue.service) as a
#                                     template in /usr/lib/systemd/user (only where dpkg-deb exists)
#   SHA256SUMS                        of both
# Nothing here needs the network. Environment (set by the POM): NVIDB_PACKAGES=false skips it.
set -eu

die() { printf 'package: %s\n' "$*" >&2; exit 1; }
say() { printf 'package: %s\n' "$*"; }

[ $# -eq 3 ] || die "usage: package.sh IMAGE OUT VERSION"
image=$1
out=$2
version=$3
src=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
if [ "${NVIDB_PACKAGES:-true}" != true ]; then
    say "skipped (-Dnvidb.packages=false)"
    exit 0
fi
[ -x "$image/bin/nvidb" ] || die "no image at $image (build-image.sh makes it)"
jdk=$(cat "${image%/*}/image-work/jdk") || die "build-image.sh left no JDK path in image-work/jdk"
work=$out/package-work
rm -rf -- "$work"
rm -f -- "$out"/nvidb-*-linux-*.tar.gz "$out"/nvidb_*.deb "$out/SHA256SUMS"
mkdir -p -- "$work/home"

# --- share/: written from the command model by the image itself ------------------------------------
nvidb() { env -u NVIDB_QUEUE_DB -u NVIDB_QUEUE_CONFIG -u NVIDB_JAVA_OPTS NVIDB_HOME="$work/home" "$image/bin/nvidb" "$@"; }
share=$image/share
rm -rf -- "$share"
mkdir -p "$share/bash-completion/completions" "$share/zsh/site-functions" "$share/fish/vendor_completions.d" \
    "$share/man/man1" "$share/doc/nvidb"
nvidb completion bash > "$share/bash-completion/completions/nvidb"
nvidb completion zsh > "$share/zsh/site-functions/_nvidb"
nvidb completion fish > "$share/fish/vendor_completions.d/nvidb.fish"
nvidb manpages "$work/man" > /dev/null
for page in "$work/man"/*.1; do
    gzip -9n < "$page" > "$share/man/man1/${page##*/}.gz"
done
"$jdk/bin/java" "$src/ImageLicenses.java" "$image" "$src/licenses/licenses.txt" "$share/doc/nvidb/licenses" \
    || die "gathering the licence texts failed (above)"
say "share/: completions (bash, zsh, fish), $(ls "$share/man/man1" | wc -l) manual pages, licences"

# --- names ---------------------------------------------------------------------------------------------
case $(uname -m) in
    x86_64 | amd64) arch=x64 deb_arch=amd64 ;;
    aarch64 | arm64) arch=aarch64 deb_arch=arm64 ;;
    *) arch=$(uname -m) deb_arch=$(uname -m) ;;
esac
# A Debian version has no "-" of its own before the revision: 0.2.0-SNAPSHOT is 0.2.0~SNAPSHOT,
# which also sorts before the 0.2.0 release.
deb_version=$(printf '%s' "$version" | tr '-' '~')
tarball=nvidb-$version-linux-$arch.tar.gz
deb=nvidb_${deb_version}_$deb_arch.deb

# --- the tarball ---------------------------------------------------------------------------------------
# Hard links, not copies: the files keep their modification times, which the AOT cache checks.
cp -al -- "$image" "$work/nvidb-$version"
tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$out/$tarball" "nvidb-$version"
say "$tarball: $(du -h "$out/$tarball" | cut -f1)"

# --- the Debian package --------------------------------------------------------------------------------
if command -v dpkg-deb > /dev/null 2>&1; then
    root=$work/deb
    mkdir -p "$root/opt" "$root/usr/bin" "$root/usr/share/bash-completion/completions" \
        "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" \
        "$root/usr/share/man/man1" "$root/usr/share/doc/nvidb" "$root/usr/lib/systemd/user" "$root/DEBIAN"
    cp -al -- "$image" "$root/opt/nvidb"
    ln -s ../../opt/nvidb/bin/nvidb "$root/usr/bin/nvidb"
    cp -- "$share/bash-completion/completions/nvidb" "$root/usr/share/bash-completion/completions/nvidb"
    cp -- "$share/zsh/site-functions/_nvidb" "$root/usr/share/zsh/vendor-completions/_nvidb"
    cp -- "$share/fish/vendor_completions.d/nvidb.fish" "$root/usr/share/fish/vendor_completions.d/nvidb.fish"
    cp -- "$share/man/man1/"*.gz "$root/usr/share/man/man1/"
    cp -R -- "$share/doc/nvidb/licenses" "$root/usr/share/doc/nvidb/licenses"
    cp -- "$src/nvidb-queue.service" "$root/usr/lib/systemd/user/nvidb-queue.service"
    {
        echo "nvidb $version: the program and the libraries it bundles."
        echo "Each library's licence text is in licenses/<library>/; the Java runtime's in licenses/java-runtime/."
        echo
        cat "$share/doc/nvidb/licenses/README"
    } > "$root/usr/share/doc/nvidb/copyright"
    size=$(du -sk "$root" | cut -f1)
    cat > "$root/DEBIAN/control" <<CONTROL
Package: nvidb
Version: $deb_version
Architecture: $deb_arch
Maintainer: nvidb developers <nvidb@localhost>
Installed-Size: $size
Section: utils
Priority: optional
Recommends: openssh-client, procps
Description: GPU job queue for your own machines
 Jobs are submitted from any machine, wait in one SQLite file until a GPU has
 room, run detached on a node, and report back: state, exit code, logs, a
 status line, a JSON result. Brings its own Java runtime (in /opt/nvidb).
CONTROL
    dpkg-deb --root-owner-group -Zgzip -z6 --build "$root" "$out/$deb" > /dev/null
    say "$deb: $(du -h "$out/$deb" | cut -f1)"
else
    say "warning: no dpkg-deb here, so no .deb (install dpkg to build it)"
fi

(cd "$out" && sha256sum -- nvidb-*-linux-*.tar.gz $(ls nvidb_*.deb 2> /dev/null) > SHA256SUMS)
rm -rf -- "$work"
say "SHA256SUMS written"
