//! A pager for long help in the terminal (`:help MODULE`, `help(x)`, `x?`, `x??`): text
//! taller than the window is shown a screen at a time. `$PAGER` is used when set; else a
//! small pager of ragtag's own: space / PgDn / `f` a screen on, `b` / PgUp a screen back,
//! ↓ / Enter / `j` and ↑ / `k` a line, `g` / `G` the start and the end, `q` (or Ctrl-C)
//! leaves and the prompt returns where it was (the pager draws on the alternate screen, as
//! `less` does). Text never pages when stdout or stdin is not a terminal.

use std::io::{IsTerminal, Read, Write};

/// Shows `text`: printed as it is when it fits the window (or is not going to a terminal),
/// else through `$PAGER` or the built-in pager.
pub fn show(text: &str) {
    let mut out = std::io::stdout();
    let rows = match crossterm::terminal::size() {
        Ok((_, rows)) if out.is_terminal() && std::io::stdin().is_terminal() => rows as usize,
        _ => {
            print!("{text}");
            let _ = out.flush();
            return;
        }
    };
    let lines: Vec<&str> = text.lines().collect();
    // The prompt takes the window's last line.
    if lines.len() < rows.max(2) {
        print!("{text}");
        let _ = out.flush();
        return;
    }
    if let Some(pager) = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty()) {
        if external(&pager, text) {
            return;
        }
    }
    if builtin(&lines).is_err() {
        // Raw mode refused (not a real terminal after all): print.
        print!("{text}");
    }
    let _ = out.flush();
}

/// Runs `$PAGER` (through the shell, as git and man do) with `text` on its stdin; false
/// when it cannot start.
fn external(pager: &str, text: &str) -> bool {
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg(pager)
        .stdin(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early closes its end; the rest is not wanted.
        let _ = stdin.write_all(text.as_bytes());
    }
    let _ = child.wait();
    true
}

/// A key the built-in pager acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Quit,
    PageDown,
    PageUp,
    LineDown,
    LineUp,
    Start,
    End,
    Other,
}

/// Reads one key from raw stdin: a byte, or an escape sequence for the arrows and pages.
fn read_key(input: &mut impl Read) -> std::io::Result<Key> {
    let mut b = [0u8; 1];
    if input.read(&mut b)? == 0 {
        return Ok(Key::Quit);
    }
    Ok(match b[0] {
        b'q' | b'Q' | 3 | 4 => Key::Quit,
        b' ' | b'f' | 6 => Key::PageDown,
        b'b' | 2 => Key::PageUp,
        b'\r' | b'\n' | b'j' | 14 => Key::LineDown,
        b'k' | 16 => Key::LineUp,
        b'g' | b'<' => Key::Start,
        b'G' | b'>' => Key::End,
        0x1b => {
            let mut seq = [0u8; 2];
            input.read_exact(&mut seq)?;
            match seq {
                [b'[' | b'O', b'A'] => Key::LineUp,
                [b'[' | b'O', b'B'] => Key::LineDown,
                [b'[' | b'O', b'H'] => Key::Start,
                [b'[' | b'O', b'F'] => Key::End,
                [b'[', d @ b'1'..=b'8'] => {
                    // `ESC [ n ~`: 5 PgUp, 6 PgDn, 1/7 Home, 4/8 End.
                    let mut rest = [0u8; 1];
                    input.read_exact(&mut rest)?;
                    match d {
                        b'5' => Key::PageUp,
                        b'6' => Key::PageDown,
                        b'1' | b'7' => Key::Start,
                        b'4' | b'8' => Key::End,
                        _ => Key::Other,
                    }
                }
                _ => Key::Other,
            }
        }
        _ => Key::Other,
    })
}

/// The first line shown after `key`, from `top`, with `page` lines a screen and `last` the
/// greatest first line (the one that shows the end).
fn scroll(key: Key, top: usize, page: usize, last: usize) -> usize {
    match key {
        Key::PageDown => (top + page).min(last),
        Key::PageUp => top.saturating_sub(page),
        Key::LineDown => (top + 1).min(last),
        Key::LineUp => top.saturating_sub(1),
        Key::Start => 0,
        Key::End => last,
        Key::Quit | Key::Other => top,
    }
}

/// The built-in pager on the alternate screen, in raw mode until `q`.
fn builtin(lines: &[&str]) -> std::io::Result<()> {
    crossterm::terminal::enable_raw_mode()?;
    let mut out = std::io::stdout();
    // The alternate screen, the cursor hidden.
    write!(out, "\x1b[?1049h\x1b[?25l")?;
    let result = (|| -> std::io::Result<()> {
        let mut stdin = std::io::stdin().lock();
        let mut top = 0;
        loop {
            let (cols, rows) = crossterm::terminal::size().unwrap_or((80, 24));
            let page = (rows as usize).saturating_sub(1).max(1);
            let last = lines.len().saturating_sub(page);
            top = top.min(last);
            write!(out, "\x1b[H\x1b[2J")?;
            for line in &lines[top..(top + page).min(lines.len())] {
                write!(out, "{line}\r\n")?;
            }
            let end = (top + page).min(lines.len());
            let status = format!(
                " lines {}-{} of {}{}  space/↓ on, b/↑ back, q leaves ",
                top + 1,
                end,
                lines.len(),
                if end == lines.len() { " (END)" } else { "" }
            );
            let status: String = status.chars().take(cols as usize).collect();
            write!(out, "\x1b[{rows};1H\x1b[7m{status}\x1b[0m")?;
            out.flush()?;
            match read_key(&mut stdin)? {
                Key::Quit => return Ok(()),
                key => top = scroll(key, top, page, last),
            }
        }
    })();
    let _ = write!(out, "\x1b[?25h\x1b[?1049l");
    let _ = out.flush();
    let _ = crossterm::terminal::disable_raw_mode();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_escape_sequences() {
        let keys = |bytes: &[u8]| {
            let mut r = bytes;
            let mut got = Vec::new();
            while !r.is_empty() {
                got.push(read_key(&mut r).unwrap());
            }
            got
        };
        assert_eq!(
            keys(b"q \x1b[B\x1b[A\x1b[6~\x1b[5~gGx"),
            vec![
                Key::Quit,
                Key::PageDown,
                Key::LineDown,
                Key::LineUp,
                Key::PageDown,
                Key::PageUp,
                Key::Start,
                Key::End,
                Key::Other
            ]
        );
        assert_eq!(read_key(&mut &b""[..]).unwrap(), Key::Quit);
    }

    #[test]
    fn scrolling_stays_within_the_text() {
        assert_eq!(scroll(Key::PageDown, 0, 23, 40), 23);
        assert_eq!(scroll(Key::PageDown, 23, 23, 40), 40);
        assert_eq!(scroll(Key::PageUp, 10, 23, 40), 0);
        assert_eq!(scroll(Key::LineUp, 0, 23, 40), 0);
        assert_eq!(scroll(Key::LineDown, 40, 23, 40), 40);
        assert_eq!(scroll(Key::End, 0, 23, 40), 40);
    }
}
