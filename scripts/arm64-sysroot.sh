# Sourced by `scripts/test arm64`: the cross toolchain and an arm64 sysroot for the ARM64 build.
#
# The host gets only amd64 packages (the cross compiler and qemu-user). Debian's arm64 libraries go into a sysroot
# of their own, never into the system: the :arm64 Qt 6 packages cannot be co-installed with the amd64 ones on a
# machine that is not fully upgraded (Multi-Arch: same libraries must have one version in both architectures, so apt
# would upgrade libc6, glib, systemd and some 50 other amd64 packages under every other build). OpenBLAS and GoogleTest
# would co-install, but one sysroot for everything keeps the build from mixing two library trees.
#
# apt resolves and downloads the arm64 packages with a state of its own (its own lists, cache and an empty dpkg
# status, the system's sources) and `dpkg-deb -x` unpacks them; the system's dpkg database is never touched.
# The sysroot is kept in RIDGELINE_ARM64_CACHE and rebuilt when the package list below changes
# (RIDGELINE_ARM64_REFRESH=1 rebuilds it from fresh lists). RIDGELINE_APT_LOCK, if set, names a file that every
# apt call here holds with flock, so that jobs sharing a machine do not run apt at once.

RIDGELINE_ARM64_HOST_PACKAGES=(g++-aarch64-linux-gnu qemu-user)
# The arm64 twins of the libraries in scripts/deps.sh, plus the C and C++ runtime to link against.
RIDGELINE_ARM64_TARGET_PACKAGES=(
    libc6-dev libstdc++-12-dev
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
    libopenblas-dev libgtest-dev
)
RIDGELINE_ARM64_CACHE="${RIDGELINE_ARM64_CACHE:-/var/cache/ridgeline-arm64-sysroot}"
export RIDGELINE_ARM64_SYSROOT="${RIDGELINE_ARM64_CACHE}/sysroot"

ridgeline_arm64_apt() {
    if [ -n "${RIDGELINE_APT_LOCK:-}" ]; then
        flock "$RIDGELINE_APT_LOCK" "$@"
    else
        "$@"
    fi
}

ridgeline_install_arm64_host() {
    local missing=() pkg
    for pkg in "${RIDGELINE_ARM64_HOST_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing packages: ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    ridgeline_arm64_apt $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive ridgeline_arm64_apt $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" </dev/null
}

# What Debian's maintainer scripts would have done: links that are absolute inside the sysroot become relative
# (else they point into the host), and the alternatives that libopenblas-dev registers are laid as links.
ridgeline_arm64_fix_sysroot() {
    local root="$1" link target
    while IFS= read -r -d '' link; do
        target="$(readlink "$link")"
        ln -sfn "$(realpath -sm --relative-to="$(dirname "$link")" "$root$target")" "$link"
    done < <(find "$root" -type l -lname '/*' -print0)
    local lib="$root/usr/lib/aarch64-linux-gnu"
    ln -sfn openblas-pthread/libopenblas.so "$lib/libopenblas.so"
    ln -sfn openblas-pthread/libopenblas.so.0 "$lib/libopenblas.so.0"
    ln -sfn openblas-pthread/libblas.so.3 "$lib/libblas.so.3"
    mkdir -p "$lib/pkgconfig"
    ln -sfn ../openblas-pthread/pkgconfig/openblas.pc "$lib/pkgconfig/openblas.pc"
    ln -sfn openblas-pthread/cblas.h "$root/usr/include/aarch64-linux-gnu/cblas.h"
}

ridgeline_arm64_sysroot() {
    local cache="$RIDGELINE_ARM64_CACHE" sysroot="$RIDGELINE_ARM64_SYSROOT"
    local wanted="${RIDGELINE_ARM64_TARGET_PACKAGES[*]}"
    mkdir -p "$cache"
    (
        flock 9  # one builder at a time; builds only read the finished sysroot
        if [ -z "${RIDGELINE_ARM64_REFRESH:-}" ] && [ "$(cat "$sysroot/.ridgeline-packages" 2>/dev/null)" = "$wanted" ]; then
            exit 0
        fi
        echo "Building the arm64 sysroot in $sysroot"
        local apt="$cache/apt"
        rm -rf "$apt"
        mkdir -p "$apt/lists/partial" "$apt/archives/partial"
        : >"$apt/status"
        cat >"$apt/apt.conf" <<EOF
APT::Architecture "arm64";
APT::Architectures { "arm64"; };
APT::Install-Recommends "false";
Dir::State "$apt";
Dir::State::Lists "$apt/lists";
Dir::State::status "$apt/status";
Dir::Cache "$apt";
Dir::Cache::archives "$apt/archives";
EOF
        export APT_CONFIG="$apt/apt.conf"
        ridgeline_arm64_apt apt-get update -qq
        ridgeline_arm64_apt apt-get install --download-only -y -qq "${RIDGELINE_ARM64_TARGET_PACKAGES[@]}" </dev/null
        rm -rf "$sysroot.new"
        mkdir -p "$sysroot.new"
        local deb
        for deb in "$apt"/archives/*.deb; do
            dpkg-deb -x "$deb" "$sysroot.new"
        done
        ridgeline_arm64_fix_sysroot "$sysroot.new"
        (cd "$apt/archives" && ls -- *.deb) >"$sysroot.new/.ridgeline-debs"
        echo "$wanted" >"$sysroot.new/.ridgeline-packages"
        rm -rf "$sysroot" "$apt"
        mv "$sysroot.new" "$sysroot"
        echo "arm64 sysroot: $(wc -l <"$sysroot/.ridgeline-debs") packages"
    ) 9>"$cache/lock"
}
