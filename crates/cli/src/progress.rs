//! Progress on stderr for the long commands (export, convert, validate, metrics, synth): a
//! bar when the total is known (bytes of the file being read), else a spinner with bytes and
//! rate; hidden when stderr is not a terminal or the command is quiet (`--json` output is
//! never mixed with it: it goes to stdout, the bar to stderr).

use std::io::{Read, Seek, SeekFrom};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` bytes (or a spinner when `None`) showing `message`.
pub fn bytes(quiet: bool, total: Option<u64>, message: &str) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(total, target);
    let template = if total.is_some() {
        "{msg} [{wide_bar}] {binary_bytes}/{binary_total_bytes} ({binary_bytes_per_sec}, {eta} left)"
    } else {
        "{spinner} {msg} {binary_bytes} ({binary_bytes_per_sec}) {elapsed}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_owned());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A reader whose bytes read advance a progress bar.
pub struct Counting<R>(pub R, pub ProgressBar);

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.inc(n as u64);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let at = self.0.seek(to)?;
        self.1.set_position(at);
        Ok(at)
    }
}
