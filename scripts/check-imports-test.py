#!/usr/bin/env python3
"""Tests of scripts/check-imports.py on small crates written to a temporary folder: each
case states the exit status and the exact lines it must print."""
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

CHECK = Path(__file__).with_name("check-imports.py")


def run(files, layers=None):
    """Writes `files` ({path: text}) under a temporary `src/`, runs the check; returns
    (exit status, printed lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "src")
        for name, text in files.items():
            path = src / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        args = [sys.executable, str(CHECK), str(src)]
        if layers is not None:
            Path(tmp, "layers.txt").write_text(textwrap.dedent(layers), encoding="utf-8")
            args += ["--layers", str(Path(tmp, "layers.txt"))]
        out = subprocess.run(args, capture_output=True, text=True, check=False)
        lines = [line.replace(str(src), "SRC") for line in out.stdout.splitlines()]
        return out.returncode, lines


class Cycles(unittest.TestCase):
    def test_two_files_using_each_other_are_a_cycle(self):
        status, lines = run({
            "lib.rs": "pub mod a;\npub mod b;\n",
            "a.rs": "use crate::b::Bee;\npub struct Ay;\n",
            "b.rs": "pub struct Bee;\npub fn f() -> crate::a::Ay { crate::a::Ay }\n",
        })
        self.assertEqual(status, 1)
        self.assertEqual(lines, [
            "SRC: module graph problems:",
            "import cycle among 2 files:",
            "  a.rs -> b.rs: Bee",
            "  b.rs -> a.rs: Ay",
        ])

    def test_a_module_brought_in_by_use_is_followed_in_code(self):
        status, lines = run({
            "lib.rs": "pub mod data;\npub mod loader;\n",
            "data.rs": "use crate::loader;\npub struct Req;\npub fn go() { loader::client::start(); }\n",
            "loader/mod.rs": "pub mod client;\n",
            "loader/client.rs": "use crate::data::Req;\npub fn start() {}\n",
        })
        self.assertEqual(status, 1)
        self.assertEqual(lines[2:], [
            "  data.rs -> loader/client.rs: start",
            "  loader/client.rs -> data.rs: Req",
        ])

    def test_a_reexport_of_another_module_is_an_edge(self):
        status, lines = run({
            "lib.rs": "pub mod a;\npub mod b;\n",
            "a.rs": "pub use crate::b::Bee;\npub struct Ay;\n",
            "b.rs": "pub struct Bee;\nuse super::a::Ay;\n",
        })
        self.assertEqual(status, 1)
        self.assertEqual(lines[2:], ["  a.rs -> b.rs: Bee", "  b.rs -> a.rs: Ay"])

    def test_facades_comments_strings_and_tests_are_no_edges(self):
        status, lines = run({
            "lib.rs": "pub mod parts;\npub mod user;\n",
            # A facade re-exports its own submodules; the submodule's use of a name the
            # facade re-exports points at the file that defines it.
            "parts/mod.rs": "mod one;\nmod two;\npub use one::One;\npub use two::{Two, self};\n",
            "parts/one.rs": "use crate::parts::Two;\npub struct One(Two);\n",
            "parts/two.rs": "pub struct Two;\n",
            "user.rs": textwrap.dedent("""\
                // crate::parts::one is named in a comment only
                /* and crate::lib_only in a block comment */
                pub const S: &str = "crate::user::S";
                pub fn f() -> crate::parts::One { unimplemented!() }
                #[cfg(test)]
                mod tests {
                    use crate::parts::two::Two;
                }
                """),
            "parts/tests.rs": "use crate::user::f;\n",
        })
        self.assertEqual(status, 0, lines)
        self.assertEqual(lines, ["SRC: 5 files, 2 imports between them, no cycle"])


class Layers(unittest.TestCase):
    FILES = {
        "lib.rs": "pub mod api;\npub mod data;\npub mod pages;\n",
        "api.rs": "pub fn fetch() {}\n",
        "data.rs": "pub fn load() { crate::api::fetch(); }\n",
        "pages/mod.rs": "pub fn view() { crate::data::load(); }\n",
    }
    LAYERS = """\
        # bottom up
        platform: api.rs
        loading: data.rs
        pages: pages/ lib.rs
        """

    def test_imports_from_below_pass(self):
        status, lines = run(self.FILES, self.LAYERS)
        self.assertEqual(status, 0, lines)
        self.assertEqual(lines, [
            "SRC: 4 files, 2 imports between them, no cycle, every import from its own "
            "layer or below"
        ])

    def test_an_import_from_a_layer_above_is_named(self):
        files = dict(self.FILES, **{"api.rs": "pub fn fetch() { let _ = crate::pages::view; }\n"})
        status, lines = run(files, self.LAYERS)
        self.assertEqual(status, 1)
        self.assertIn(
            "api.rs (platform) imports from the layer above, pages/mod.rs (pages): view", lines)

    def test_a_star_matches_one_folder_and_the_longer_pattern_wins(self):
        # A view's own address keys live in its folder but in the state layer: the state
        # may import them, and they may not import the view.
        files = dict(self.FILES, **{
            "pages/mod.rs": "pub mod board;\npub fn view() { crate::data::load(); }\n",
            "pages/board/mod.rs": "pub mod url;\npub fn show() { crate::pages::board::url::keys(); }\n",
            "pages/board/url.rs": "pub fn keys() {}\n",
            "data.rs": "pub fn load() { crate::api::fetch(); crate::pages::board::url::keys(); }\n",
        })
        layers = self.LAYERS.replace("loading: data.rs", "loading: data.rs pages/*/url.rs")
        status, lines = run(files, layers)
        self.assertEqual(status, 0, lines)
        upward = dict(files, **{"pages/board/url.rs": "pub fn keys() { crate::pages::view(); }\n"})
        status, lines = run(upward, layers)
        self.assertEqual(status, 1)
        self.assertIn(
            "pages/board/url.rs (loading) imports from the layer above, pages/mod.rs (pages): view",
            lines)
        # `*` is one folder's name, not a path.
        deeper = dict(files, **{"pages/board/x/url.rs": "pub fn y() {}\n",
                                "pages/board/mod.rs": "pub mod url;\npub mod x;\n",
                                "pages/board/x/mod.rs": "pub mod url;\n"})
        status, lines = run(deeper, layers.replace("pages: pages/ lib.rs", "pages: pages/mod.rs pages/board/mod.rs pages/board/x/mod.rs lib.rs"))
        self.assertEqual(status, 1)
        self.assertTrue(any(line.startswith("pages/board/x/url.rs: in no layer of") for line in lines), lines)

    def test_a_file_in_no_layer_is_named(self):
        files = dict(self.FILES, **{"extra.rs": "pub fn x() {}\n"})
        status, lines = run(files, self.LAYERS)
        self.assertEqual(status, 1)
        self.assertTrue(any(line.startswith("extra.rs: in no layer of ") for line in lines), lines)


if __name__ == "__main__":
    unittest.main()
