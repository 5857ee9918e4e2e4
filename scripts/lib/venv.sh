# venv DIR REQUIREMENTS: (re)creates the virtual environment DIR when it is missing or REQUIREMENTS (a pinned
# requirements file) differs from what it was made with. Sourced by scripts/test and scripts/web.
venv() {
    local dir=$1 requirements=$2
    if [ ! -x "$dir/bin/python" ] || ! cmp -s "$requirements" "$dir/requirements.txt"; then
        echo "making $dir from $requirements" >&2
        rm -rf "$dir"
        python3 -m venv "$dir"
        "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$dir/requirements.txt"
    fi
}
