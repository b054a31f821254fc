//! The REPL driven through a real terminal: tmux runs `ragtag`, keys go in with
//! `send-keys` and the screen comes back with `capture-pane`. It checks the width taken
//! from the terminal itself (120 columns, then 80 after `resize-window`, with no `COLUMNS`
//! exported: tables, help and error reports stay within it), Tab completion, Python's
//! continuation rules (`... ` lines for an open bracket or a block, a SyntaxError at once
//! for `1 +`), Ctrl-C interrupting a long evaluation with names intact, Ctrl-C clearing the
//! line at the prompt, `sys.exit` reported with the session kept, and Ctrl-D leaving.
//!
//! It is `#[ignore]`d unless RAGTAG_TMUX_TESTS=1 is set when building the tests:
//!
//! ```text
//! RAGTAG_TMUX_TESTS=1 cargo test --test integration repl_tmux::
//! ```
//!
//! (`cargo test --test integration repl_tmux:: -- --ignored` runs it too.) Without tmux it prints why and
//! passes.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server of this test alone (its own socket), killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "rt"];
        args.extend_from_slice(keys);
        let out = self.cmd(&args);
        assert!(
            out.status.success(),
            "send-keys {keys:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Sends literal text (no key-name lookup: `C-c` in text stays text).
    fn type_text(&self, text: &str) {
        self.send(&["-l", text]);
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(
            &self
                .cmd(&["capture-pane", "-p", "-t", "rt", "-S", "-200"])
                .stdout,
        )
        .into_owned()
    }

    /// The screen with the lines the terminal wrapped joined again: a line wider than the
    /// window here was cut by the terminal, not broken by ragtag.
    fn joined_screen(&self) -> String {
        String::from_utf8_lossy(
            &self
                .cmd(&["capture-pane", "-p", "-J", "-t", "rt", "-S", "-200"])
                .stdout,
        )
        .into_owned()
    }

    /// Only what the window shows now, no scrollback.
    fn visible(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "rt"]).stdout).into_owned()
    }

    fn alive(&self) -> bool {
        self.cmd(&["has-session", "-t", "rt"]).status.success()
    }

    /// Waits until the screen satisfies `pred`; fails with the screen after `secs`.
    #[track_caller]
    fn wait_for(&self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        self.wait_on(what, secs, || self.screen(), pred)
    }

    /// Waits until the visible window (no scrollback) satisfies `pred`, and returns that same
    /// capture: a predicate that captured the window again could pass on a newer screen than
    /// the one returned.
    #[track_caller]
    fn wait_visible(&self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        self.wait_on(what, secs, || self.visible(), pred)
    }

    /// Captures with `capture` until a capture satisfies `pred`, and returns it.
    #[track_caller]
    fn wait_on(
        &self,
        what: &str,
        secs: u64,
        capture: impl Fn() -> String,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = capture();
            if pred(&s) {
                return s;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the last non-blank line is an empty prompt, `n` prompts in all.
    #[track_caller]
    fn wait_prompt(&self, n: usize) -> String {
        self.wait_for(&format!("prompt #{n}"), 30, |s| {
            s.matches(">>>").count() >= n && last_line(s) == ">>>"
        })
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

fn last_line(s: &str) -> &str {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim_end()
}

#[test]
#[cfg_attr(
    not(ragtag_tmux_tests),
    ignore = "drives the REPL in tmux: RAGTAG_TMUX_TESTS=1 cargo test --test integration repl_tmux::"
)]
fn repl_in_a_terminal() {
    if Command::new("tmux")
        .arg("-V")
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        println!("skipped: tmux is not installed (apt-get install -y tmux)");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_ragtag");
    let data: PathBuf = std::env::temp_dir().join(format!("ragtag-tmux-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    let tmux = Tmux {
        socket: format!("ragtag-test-{}", std::process::id()),
    };
    // History goes to a scratch directory; no COLUMNS, so the width is the window's.
    let command = format!("env -u COLUMNS XDG_DATA_HOME={} {bin}", data.display());
    let out = tmux.cmd(&[
        "new-session",
        "-d",
        "-s",
        "rt",
        "-x",
        "120",
        "-y",
        "50",
        &command,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut prompts = 1;
    let s = tmux.wait_prompt(prompts);
    assert!(
        s.contains(":help for help"),
        "the first prompt says how to get help: {s}"
    );

    // The width is the window's, 120 columns, and follows a resize to 80.
    tmux.type_text(":set");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("width=120", 10, |s| s.contains(" width=120 "));
    tmux.wait_prompt(prompts);
    let out = tmux.cmd(&["resize-window", "-t", "rt", "-x", "80", "-y", "50"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tmux.type_text(":set");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("width=80", 10, |s| s.contains(" width=80 "));
    tmux.wait_prompt(prompts);
    // A table with forty columns, the command help and an error report, all within 80
    // columns (broken by ragtag, not by the terminal).
    tmux.type_text("tf.constant([list(range(100, 140)), list(range(40))])");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_prompt(prompts);
    tmux.type_text(":help");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_prompt(prompts);
    tmux.type_text("a = tf.ragged.constant([[1, 2], [3]])");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_prompt(prompts);
    tmux.type_text("a + tf.ragged.constant([[1], [2, 3, 4]])");
    tmux.send(&["Enter"]);
    prompts += 1;
    let s = tmux.wait_prompt(prompts);
    assert!(s.contains("┌") && s.contains("memory=SIZE"), "{s}");
    assert!(s.contains("Error"), "{s}");
    for line in tmux.joined_screen().lines() {
        assert!(
            line.trim_end().chars().count() <= 80,
            "a line wider than the 80-column window: {line:?}"
        );
    }
    let out = tmux.cmd(&["resize-window", "-t", "rt", "-x", "120", "-y", "50"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    tmux.type_text("rt = tf.ragged.constant([[1, 2], [3]])");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_prompt(prompts);

    // `sys.exit` is reported and the session goes on, as in IPython (`rt` below is kept).
    tmux.type_text("import sys; sys.exit(3)");
    tmux.send(&["Enter"]);
    prompts += 1;
    let s = tmux.wait_prompt(prompts);
    assert!(s.contains("SystemExit: 3") && tmux.alive(), "{s}");

    // `rt?` is IPython's help query: the value's kind, members and header.
    tmux.type_text("rt?");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("rt's help", 10, |s| {
        s.contains("tf.RaggedTensor members") && s.contains("RaggedTensor  dtype=int32")
    });
    tmux.wait_prompt(prompts);

    // Tab completes a module path, adding the call's parenthesis.
    tmux.type_text("tf.ragged.con");
    tmux.send(&["Tab"]);
    tmux.wait_for("tf.ragged.constant(", 10, |s| {
        last_line(s) == ">>> tf.ragged.constant("
    });
    tmux.send(&["C-u"]);
    tmux.wait_for("a cleared line", 10, |s| last_line(s) == ">>>");

    // A value's methods after a dot, listed on a second Tab.
    tmux.type_text("rt.row_");
    tmux.send(&["Tab"]);
    tmux.send(&["Tab"]);
    tmux.wait_for("the row_ methods", 10, |s| {
        s.contains("row_lengths(") && s.contains("row_splits") && s.contains("row_starts(")
    });
    tmux.send(&["C-u"]);
    tmux.wait_for("a cleared line", 10, |s| last_line(s) == ">>>");

    // Multi-line input: an open bracket continues the input on a `... ` line.
    tmux.type_text("y = [1,");
    tmux.send(&["Enter"]);
    tmux.wait_for("the continuation line", 10, |s| last_line(s) == "...");
    tmux.type_text("2]");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_prompt(prompts);
    // A block header continues too, until a blank line closes the block.
    tmux.type_text("for i in range(2):");
    tmux.send(&["Enter"]);
    tmux.wait_for("the block's first line", 10, |s| last_line(s) == "...");
    tmux.type_text("    print('row', i)");
    tmux.send(&["Enter"]);
    tmux.wait_for("the block's second line", 10, |s| last_line(s) == "...");
    tmux.send(&["Enter"]);
    prompts += 1;
    let s = tmux.wait_prompt(prompts);
    assert!(s.contains("row 0\nrow 1\n"), "{s}");
    // A dangling operator is a SyntaxError at once, not a wait for more.
    tmux.type_text("1 +");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("the SyntaxError", 10, |s| s.contains("SyntaxError"));
    tmux.wait_prompt(prompts);
    // `y` is a Python list; a tensor made from it prints in TensorFlow's form.
    tmux.type_text("print(tf.constant(y))");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("y printed", 30, |s| {
        s.contains("tf.Tensor([1 2], shape=(2,), dtype=int32)")
    });
    tmux.wait_prompt(prompts);

    // Ctrl-C interrupts a long evaluation; the names defined before survive.
    tmux.type_text("z = [[j for j in range(1000)] for i in range(50000)]");
    tmux.send(&["Enter"]);
    std::thread::sleep(Duration::from_millis(1000));
    tmux.send(&["C-c"]);
    tmux.wait_for("KeyboardInterrupt", 20, |s| s.contains("KeyboardInterrupt"));
    prompts += 1;
    let s = tmux.wait_prompt(prompts);
    // The report starts a line of its own, not after the echoed `^C`.
    assert!(
        !s.lines()
            .any(|l| l.contains("^C") && l.contains("KeyboardInterrupt")),
        "{s}"
    );
    tmux.type_text("print(y, rt)");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("names intact", 30, |s| {
        s.contains("[1, 2] <tf.RaggedTensor [[1, 2], [3]]>")
    });
    tmux.wait_prompt(prompts);
    tmux.type_text("z");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("z undefined", 30, |s| s.contains("name 'z' is not defined"));
    tmux.wait_prompt(prompts);

    // Ctrl-C stops one long operation part-way: formatting 3·10^7 numbers (a second or more).
    tmux.type_text("big = tf.range(10**8)");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_prompt(prompts);
    tmux.type_text("w = tf.strings.as_string(big[:3 * 10**7])");
    tmux.send(&["Enter"]);
    std::thread::sleep(Duration::from_millis(100));
    tmux.send(&["C-c"]);
    tmux.wait_for("a second KeyboardInterrupt", 20, |s| {
        s.matches("KeyboardInterrupt").count() >= 2
    });
    prompts += 1;
    tmux.wait_prompt(prompts);
    tmux.type_text("w");
    tmux.send(&["Enter"]);
    prompts += 1;
    tmux.wait_for("w undefined", 30, |s| s.contains("name 'w' is not defined"));
    tmux.wait_prompt(prompts);

    // Ctrl-C at the prompt clears the line instead of running it.
    tmux.type_text("this is not run");
    tmux.send(&["C-c"]);
    prompts += 1;
    tmux.wait_prompt(prompts);
    tmux.type_text("40 + 2");
    tmux.send(&["Enter"]);
    prompts += 1;
    let s = tmux.wait_prompt(prompts);
    assert!(s.contains("\n42\n"), "{s}");
    // The one SyntaxError is `1 +`'s.
    assert_eq!(
        s.matches("SyntaxError").count(),
        1,
        "the cleared line ran: {s}"
    );

    // `:tutorial 1` opens lesson 1: its explanation prints and each input waits on the
    // prompt; Enter runs it and offers the next; Ctrl-C leaves the lesson.
    tmux.type_text(":tutorial 1");
    tmux.send(&["Enter"]);
    tmux.wait_for("lesson 1's first input offered", 10, |s| {
        s.contains("Lesson 1: constructing ragged tensors")
            && last_line(s)
                == ">>> digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])"
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the second input offered", 10, |s| {
        last_line(s) == ">>> digits"
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("digits shown, the third input offered", 30, |s| {
        s.contains("shape=[5, None(0..4)]") && last_line(s) == ">>> print(digits)"
    });
    tmux.send(&["C-c"]);
    tmux.wait_for("the lesson left", 10, |s| {
        s.contains("left the lesson") && last_line(s) == ">>>"
    });

    // Ctrl-D leaves.
    tmux.send(&["C-d"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while tmux.alive() {
        assert!(
            Instant::now() < deadline,
            "ragtag did not exit on Ctrl-D:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        data.join("ragtag").join("history.txt").exists(),
        "history was saved"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// tmux running `ragtag` in a `cols`×`rows` window (no `COLUMNS`, history in a scratch
/// directory), at its first prompt; None (after saying why) without tmux.
fn start(cols: u32, rows: u32, tag: &str) -> Option<(Tmux, PathBuf)> {
    let started = start_with(cols, rows, tag, "")?;
    started.0.wait_prompt(1);
    Some(started)
}

/// [`start`] with `redirect` after the command (`> FILE`), not waiting for the prompt.
fn start_with(cols: u32, rows: u32, tag: &str, redirect: &str) -> Option<(Tmux, PathBuf)> {
    if Command::new("tmux")
        .arg("-V")
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        println!("skipped: tmux is not installed (apt-get install -y tmux)");
        return None;
    }
    let bin = env!("CARGO_BIN_EXE_ragtag");
    let data = std::env::temp_dir().join(format!("ragtag-tmux-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    let tmux = Tmux {
        socket: format!("ragtag-test-{tag}-{}", std::process::id()),
    };
    let command = format!(
        "env -u COLUMNS -u PAGER XDG_DATA_HOME={} {bin} {redirect}",
        data.display()
    );
    let (x, y) = (cols.to_string(), rows.to_string());
    let out = tmux.cmd(&[
        "new-session",
        "-d",
        "-s",
        "rt",
        "-x",
        &x,
        "-y",
        &y,
        &command,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some((tmux, data))
}

/// The paragraph of `screen` that starts with the line starting with `first`.
fn paragraph<'a>(screen: &'a str, first: &str) -> Vec<&'a str> {
    screen
        .lines()
        .skip_while(|l| !l.starts_with(first))
        .take_while(|l| !l.trim().is_empty() && !l.starts_with(">>>"))
        .collect()
}

#[test]
#[cfg_attr(
    not(ragtag_tmux_tests),
    ignore = "drives the REPL in tmux: RAGTAG_TMUX_TESTS=1 cargo test --test integration repl_tmux::"
)]
fn prose_reflows_and_help_fits_the_screen() {
    for (cols, rows) in [(80u32, 24u32), (120, 40)] {
        let Some((tmux, data)) = start(cols, rows, &format!("{cols}x{rows}")) else {
            return;
        };
        let width = cols as usize;
        // Lesson 1's first paragraph is one paragraph, filled to the window's width.
        tmux.type_text(":tutorial 1");
        tmux.send(&["Enter"]);
        let s = tmux.wait_for("lesson 1's first input offered", 10, |s| {
            last_line(s).starts_with(">>> digits = tf.ragged.constant(")
        });
        let para = paragraph(&s, "A ragged tensor is");
        assert!(para.len() >= 2, "{s}");
        for line in &para {
            assert!(
                !line.starts_with(' '),
                "a hanging indent at {cols}: {line:?}\n{s}"
            );
            assert!(
                line.trim_end().chars().count() <= width,
                "{line:?} at {cols}"
            );
        }
        // Filled: each line but the last would not have room for the next line's first word.
        for pair in para.windows(2) {
            let next = pair[1].split_whitespace().next().unwrap_or("");
            assert!(
                pair[0].trim_end().chars().count() + 1 + next.chars().count() > width,
                "{:?} had room for {next:?} at {cols}:\n{s}",
                pair[0]
            );
        }
        let words: Vec<&str> = para.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(words.last(), Some(&"there."), "{s}");
        tmux.send(&["C-c"]);
        tmux.wait_for("the lesson left", 10, |s| {
            s.contains("left the lesson") && last_line(s) == ">>>"
        });
        // `:help` fits one screen: the input and the whole page are in the window at once.
        tmux.type_text(":help");
        tmux.send(&["Enter"]);
        tmux.wait_for(":help's page", 10, |s| {
            s.contains(":help ?WORD") && last_line(s) == ">>>"
        });
        let v = tmux.visible();
        assert!(v.contains(">>> :help\n"), "{v}");
        assert!(
            v.contains("Commands") && v.contains(":tutorial") && v.contains(":quit"),
            "{v}"
        );
        assert!(
            v.contains("help(x)") && v.contains(":help tf.strings"),
            "{v}"
        );
        for line in tmux.joined_screen().lines() {
            assert!(
                line.trim_end().chars().count() <= width,
                "{line:?} at {cols}"
            );
        }
        tmux.send(&["C-d"]);
        let _ = std::fs::remove_dir_all(&data);
    }
}

#[test]
#[cfg_attr(
    not(ragtag_tmux_tests),
    ignore = "drives the REPL in tmux: RAGTAG_TMUX_TESTS=1 cargo test --test integration repl_tmux::"
)]
fn long_help_opens_the_pager() {
    let Some((tmux, data)) = start(80, 24, "pager") else {
        return;
    };
    // `:help tf.ragged` is taller than the window: the pager shows its first screen and a
    // status line; space scrolls, `q` returns to the prompt with the screen as it was.
    tmux.type_text(":help tf.ragged");
    tmux.send(&["Enter"]);
    let v = tmux.wait_visible("the pager's first screen", 10, |v| v.contains("q leaves"));
    assert!(
        v.contains("tf.ragged: ") && v.contains(" lines 1-23 of "),
        "{v}"
    );
    tmux.send(&["Space"]);
    tmux.wait_visible("the next screen", 10, |v| v.contains("(END)"));
    tmux.send(&["Home"]);
    tmux.wait_visible("the start again", 10, |v| v.contains(" lines 1-23 "));
    tmux.send(&["Down"]);
    tmux.wait_visible("a line on", 10, |v| v.contains(" lines 2-24 "));
    tmux.send(&["q"]);
    tmux.wait_visible("the prompt again", 10, |v| {
        !v.contains("q leaves") && last_line(v) == ">>>"
    });
    // The pager has left: the screen with its scrollback shows the command as it was typed.
    let s = tmux.screen();
    assert!(s.contains(">>> :help tf.ragged"), "{s}");
    // `help(x)` pages too when taller than the window; here a 12-line one.
    let out = tmux.cmd(&["resize-window", "-t", "rt", "-x", "80", "-y", "12"]);
    assert!(out.status.success());
    tmux.type_text("help(tf.ragged.constant)");
    tmux.send(&["Enter"]);
    tmux.wait_visible("help in the pager", 10, |v| {
        v.contains("q leaves") && v.contains("tf.ragged.constant(pylist")
    });
    tmux.send(&["q"]);
    tmux.wait_visible("the prompt after help", 10, |v| {
        !v.contains("q leaves") && last_line(v) == ">>>"
    });
    tmux.send(&["C-d"]);
    drop(tmux);
    let _ = std::fs::remove_dir_all(&data);
    // Stdout not a terminal (the REPL's output to a file): the text prints whole, no pager.
    let file = std::env::temp_dir().join(format!("ragtag-tmux-out-{}.txt", std::process::id()));
    let Some((tmux, data)) = start_with(80, 24, "redirect", &format!("> {}", file.display()))
    else {
        return;
    };
    // The banner in the file says the REPL is reading (a loaded machine takes a while).
    let ready = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&file).is_ok_and(|t| t.contains(":help for help"))
        && Instant::now() < ready
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    tmux.type_text(":help tf.ragged");
    tmux.send(&["Enter"]);
    let done = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&file).is_ok_and(|t| t.contains("segment_ids_to_row_splits"))
        && Instant::now() < done
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    tmux.send(&["C-d"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while tmux.alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        text.contains("tf.ragged: ") && text.contains("segment_ids_to_row_splits"),
        "{text}"
    );
    assert!(!text.contains("q leaves"), "{text}");
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
#[cfg_attr(
    not(ragtag_tmux_tests),
    ignore = "drives the REPL in tmux: RAGTAG_TMUX_TESTS=1 cargo test --test integration repl_tmux::"
)]
fn a_pasted_block_shows_continuation_prompts() {
    let Some((tmux, data)) = start(80, 24, "paste") else {
        return;
    };
    // A bracketed paste (tmux's paste-buffer -p), as a terminal sends a pasted block.
    let file = data.join("block.txt");
    std::fs::write(&file, "for i in range(3):\n    x = i * 2\n    print(x)\n").unwrap();
    let out = tmux.cmd(&["load-buffer", "-b", "block", file.to_str().unwrap()]);
    assert!(out.status.success());
    let out = tmux.cmd(&["paste-buffer", "-p", "-b", "block", "-t", "rt"]);
    assert!(out.status.success());
    tmux.wait_for("the pasted block", 10, |s| s.contains("print(x)"));
    tmux.send(&["Enter"]);
    let s = tmux.wait_prompt(2);
    let lines: Vec<&str> = s.lines().map(str::trim_end).collect();
    let first = lines
        .iter()
        .position(|l| *l == ">>> for i in range(3):")
        .unwrap_or_else(|| panic!("{s}"));
    assert_eq!(
        &lines[first + 1..first + 6],
        ["...     x = i * 2", "...     print(x)", "...", "0", "2"],
        "{s}"
    );
    // A cell magic takes the lines after it, up to an empty one.
    tmux.type_text("%%time");
    tmux.send(&["Enter"]);
    tmux.wait_for("a continuation line", 10, |s| last_line(s) == "...");
    tmux.type_text("40 + 2");
    tmux.send(&["Enter"]);
    // The next `... ` line before the empty line that ends the cell.
    tmux.wait_for("a second continuation line", 10, |s| {
        s.contains("... 40 + 2\n...") && last_line(s) == "..."
    });
    tmux.send(&["Enter"]);
    let s = tmux.wait_prompt(3);
    assert!(s.contains("Wall time: ") && s.contains("\n42\n"), "{s}");
    let _ = std::fs::remove_dir_all(&data);
}
