# Sourced by scripts/run and scripts/test: installs the Debian packages Ridgeline needs, only if missing.
# Real package names only: dpkg-query never reports a virtual one (libqt6charts6-dev) as installed.
RIDGELINE_PACKAGES=(
    cmake g++ ninja-build ccache pkg-config
    qt6-base-dev qt6-charts-dev qt6-svg-dev libgl-dev
    libqt6opengl6-dev  # Qt6Charts.cmake needs Qt6OpenGL; qt6-charts-dev does not depend on it
    libopenblas-dev libgtest-dev libbenchmark-dev
    libdnnl-dev  # oneDNN: the bf16 and int8 matrix products (AMX where the CPU has it)
    fonts-dejavu-core xvfb xauth
    clang-14 libclang-rt-14-dev clang-format
    dpkg-dev desktop-file-utils groff-base  # the Debian package: dpkg-shlibdeps, checks of its menu entry and man page
    python3-jsonschema python3-pandas  # the session schema's validator and the README's pandas example, run by tests
)

ridgeline_install_deps() {
    local missing=()
    local pkg
    for pkg in "${RIDGELINE_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    echo "Installing missing packages: ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
}
