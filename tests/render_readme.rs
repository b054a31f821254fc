//! The README's examples are real output. Its ```` ```ragtag ```` blocks are a transcript
//! (`# ragtag: width=80` in the first: rendered for 80-column readers) that `ragtag test
//! README.md` replays as a team's transcripts are; its `$ ` blocks are shell commands whose
//! output must be what the README shows.

/// The README's ragtag blocks pass `ragtag test README.md`, and there are enough of them.
#[test]
fn readme_transcripts_match_real_output() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let blocks = readme
        .lines()
        .filter(|l| l.trim_end() == "```ragtag")
        .count();
    assert!(blocks >= 3, "README has {blocks} ragtag blocks");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ragtag"))
        .args(["test", "README.md"])
        .current_dir(root)
        .env_remove("CI")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.ends_with("1 passed, 0 failed\n"),
        "ragtag test README.md:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The README's shell examples (code blocks whose first line starts with `$ `) print what
/// the README shows; `ragtag` is this build's binary.
#[test]
fn readme_shell_examples_match_real_output() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_ragtag"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut checked = 0;
    let mut block: Option<Vec<&str>> = None;
    for line in readme.lines() {
        match (&mut block, line.starts_with("```")) {
            (None, true) => block = Some(Vec::new()),
            (Some(b), true) => {
                if let Some(cmd) = b.first().and_then(|l| l.strip_prefix("$ ")) {
                    let expected: String = b[1..].iter().map(|l| format!("{l}\n")).collect();
                    let out = std::process::Command::new("sh")
                        .args(["-c", cmd])
                        .env("PATH", &path)
                        .output()
                        .unwrap();
                    assert_eq!(
                        String::from_utf8_lossy(&out.stdout),
                        expected,
                        "README: $ {cmd}"
                    );
                    checked += 1;
                }
                block = None;
            }
            (Some(b), false) => b.push(line),
            (None, false) => {}
        }
    }
    assert!(checked >= 1, "the README has no shell example");
}
