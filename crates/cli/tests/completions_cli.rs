//! `runlens completions SHELL`: a script naming every subcommand and the choices of the
//! enum-valued flags, for each shell clap_complete knows; an unknown shell is refused.

use std::process::Command;

fn completions(shell: &str) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_runlens"))
        .args(["completions", shell])
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn bash_completions_name_the_subcommands_and_the_choices() {
    let (ok, script, _) = completions("bash");
    assert!(ok);
    assert!(script.starts_with("_runlens() {\n"), "{script}");
    for word in [
        "serve",
        "export",
        "convert",
        "validate",
        "metrics",
        "synth",
        "completions",
        // --preset, --backend and --gold-rule choices (clap::ValueEnum).
        "article large huge",
        "auto local typesafe",
        "harness parser",
    ] {
        assert!(script.contains(word), "no {word:?} in the bash script");
    }
}

#[test]
fn every_shell_gets_a_script_and_an_unknown_one_is_refused() {
    for (shell, start) in [
        ("zsh", "#compdef runlens\n"),
        ("fish", "# Print an optspec for argparse"),
        ("elvish", "\nuse builtin;\n"),
        (
            "powershell",
            "\nusing namespace System.Management.Automation\n",
        ),
    ] {
        let (ok, script, _) = completions(shell);
        assert!(ok && script.starts_with(start), "{shell}: {script:.80}");
    }
    let (ok, _, stderr) = completions("tcsh");
    assert!(!ok);
    assert!(
        stderr.starts_with("error: invalid value 'tcsh' for '<SHELL>'"),
        "{stderr}"
    );
}
