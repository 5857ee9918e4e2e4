# System packages: what building satchel needs (`packages build`), and what its tests need besides
# (`packages test`). Sourced by scripts/run, scripts/web and scripts/test. Whatever is missing is installed
# with apt-get (as root, or through sudo when it asks no password); otherwise the one command that installs
# it is printed and the script stops. Each check looks for the file the build or the tests use, so a
# machine that has it some other way is left alone. On macOS the Homebrew formulae are named instead.

# Appends to `missing` the Debian package of each thing KIND needs that this machine lacks.
_missing_packages() {
    local kind=$1 arch
    arch=$(uname -m)-linux-gnu
    # The server's system libraries: SQLite, the image codecs, libcurl (the HTTP message feed), libpq
    # (sync), libsodium (encrypted sync), and pkg-config, which finds libheif.
    [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
    [ -f /usr/include/turbojpeg.h ] || missing+=(libturbojpeg0-dev)
    [ -f /usr/include/png.h ] || missing+=(libpng-dev)
    [ -f /usr/include/webp/demux.h ] || missing+=(libwebp-dev)
    [ -f /usr/include/libheif/heif.h ] || [ -f "/usr/include/$arch/libheif/heif.h" ] || missing+=(libheif-dev)
    [ -f /usr/include/curl/curl.h ] || [ -f "/usr/include/$arch/curl/curl.h" ] || missing+=(libcurl4-openssl-dev)
    [ -f /usr/include/postgresql/libpq-fe.h ] || missing+=(libpq-dev)
    [ -f /usr/include/sodium.h ] || missing+=(libsodium-dev)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    # The zone database: satchel reads the system's zone files for deadlines and dates.
    [ -f /usr/share/zoneinfo/tzdata.zi ] || missing+=(tzdata)
    [ "$kind" = test ] || return 0
    # The tests: the sqlite3 shell (integrity checks), Python with venv (the clients' suites), a headless
    # Chromium with its driver (the web app), Neovim (the plugin), TypeScript's checker (the web app's
    # JavaScript), PostgreSQL 15 (sync: started by the tests in a temporary folder), and the fonts Chromium needs for Japanese and emoji (without them it draws empty boxes).
    command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
    python3 -c "import venv, ensurepip" >/dev/null 2>&1 || missing+=(python3 python3-venv python3-pip)
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
    command -v nvim >/dev/null 2>&1 || missing+=(neovim)
    command -v tsc >/dev/null 2>&1 || missing+=(node-typescript)
    [ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql)
    [ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
    [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
}

# packages KIND: makes sure what KIND (build or test) needs is installed, or says how and stops.
packages() {
    local kind=$1 sudo=""
    if [ "$(uname -s)" = Darwin ]; then
        # Homebrew's formulae; Xcode's SQLite and curl serve the build.
        local formulae=(jpeg-turbo libpng webp libheif libpq libsodium pkg-config)
        local absent=()
        for formula in "${formulae[@]}"; do brew list --versions "$formula" >/dev/null 2>&1 || absent+=("$formula"); done
        [ ${#absent[@]} -eq 0 ] || { echo "satchel: missing ${absent[*]}; install with: brew install ${absent[*]}" >&2; exit 1; }
        return 0
    fi
    local missing=()
    _missing_packages "$kind"
    [ ${#missing[@]} -gt 0 ] || return 0
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=sudo
        else
            echo "satchel: this machine lacks ${missing[*]}; install them with:" >&2
            echo "  sudo apt-get install -y ${missing[*]}" >&2
            exit 1
        fi
    fi
    echo "satchel: installing ${missing[*]}" >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}

# PostgreSQL refuses to run as root: as root, the sync tests run it as the `postgres` user (made by Debian's
# package, or here when missing), which must be able to look itself up.
postgres_user() {
    [ "$(id -u)" = 0 ] || return 0
    chmod a+r /etc/passwd /etc/group
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
}
