# Sourced by ./nvidb, ./run-tests and .ci/run: sets JAVA_HOME to a JDK 25, or says what is missing.
# A JDK 25 is JAVA_HOME when that is one, else the first under the system's JVM directory.
find_jdk25() {
    for c in "${JAVA_HOME:-}" /usr/lib/jvm/*25* /usr/lib/jvm/*-25*/Contents/Home \
        /Library/Java/JavaVirtualMachines/*25*/Contents/Home; do
        [ -n "$c" ] && [ -x "$c/bin/javac" ] && [ -x "$c/bin/jlink" ] && [ -f "$c/release" ] || continue
        if [ "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$c/release")" = 25 ]; then
            printf '%s\n' "$c"
            return 0
        fi
    done
    return 1
}

use_jdk25() {
    if ! jdk=$(find_jdk25); then
        printf '%s\n' "nvidb needs a JDK 25 (with javac and jlink) to build: set JAVA_HOME to one, or install" \
            "one under /usr/lib/jvm (for example Temurin 25). Looked at JAVA_HOME='${JAVA_HOME:-}' and /usr/lib/jvm/*25*." >&2
        return 1
    fi
    JAVA_HOME=$jdk
    export JAVA_HOME
    PATH=$JAVA_HOME/bin:$PATH
    export PATH
}
