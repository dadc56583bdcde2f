//! runlens-synth: writes realistic, clearly synthetic harness-format files.
