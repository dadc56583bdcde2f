# Sourced by the other scripts: tools on PATH and offline-friendly settings.
RUNLENS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export RUNLENS_ROOT
# npm's binaryen 132 first on PATH: trunk's wasm_opt = "version_132" must match `wasm-opt --version`.
export PATH="$RUNLENS_ROOT/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# trunk's update check calls the crates registry's web API, which is unreachable here.
export TRUNK_SKIP_VERSION_CHECK=true
